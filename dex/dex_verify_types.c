/* The join of two register types (see dex_verify_types.h): reg_type.cc's Merge, without
 * a class hierarchy. */
#include "dex_verify_types.h"

/* The class of the imprecise constant of value v (a value of const_value, or 0). */
static uint32_t const_imprecise(int32_t v)
{
	if (v == 1)
		return MK(T_CONST, C_ONE_MERGED);
	for (uint32_t c = C_POS_BYTE; c < C_COUNT; c++)
		if (const_value[c] == v)
			return MK(T_CONST, c);
	return T_ZERO;
}

/* Two constants (ConstantType Merge): of one sign the wider, as an imprecise constant;
 * of both signs the narrowest signed range holding both. */
static uint32_t join_const(uint32_t a, uint32_t b)
{
	int32_t x = cvalue(a), y = cvalue(b);
	if ((x >= 0) == (y >= 0))
		return const_imprecise(x >= 0 ? (x > y ? x : y) : (x < y ? x : y));
	if (in_range(a, -128, 127))
		return in_range(b, -128, 127) ? MK(T_CONST, C_BYTE) :
		       in_range(b, -32768, 32767) ? MK(T_CONST, C_SHORT) : MK(T_CONST, C_INT);
	if (in_range(a, -32768, 32767))
		return in_range(b, -32768, 32767) ? MK(T_CONST, C_SHORT) : MK(T_CONST, C_INT);
	return MK(T_CONST, C_INT);
}

/* The join (reg_type.cc Merge): undefined wins (undefined registers must not even be
 * copied), then conflict; constants join by value, integral types to the narrowest of
 * boolean, byte, short, char, int holding both; constants join the category they meet;
 * references of two different classes join to "some reference" (no hierarchy here);
 * uninitialized values join only with themselves. */
uint32_t dex_verify_join(uint32_t a, uint32_t b)
{
	if (a == b)
		return a;
	uint32_t ka = KIND(a), kb = KIND(b);
	if (ka == T_UNDEF || kb == T_UNDEF)
		return T_UNDEF;
	if (ka == T_CONFLICT || kb == T_CONFLICT)
		return T_CONFLICT;
	if (is_const(a) && is_const(b))
		return join_const(a, b);
	if (is_int(a) && is_int(b)) {
		if (is_bool_t(a) && is_bool_t(b))
			return T_BOOL;
		if (is_byte_t(a) && is_byte_t(b))
			return T_BYTE;
		if (is_short_t(a) && is_short_t(b))
			return T_SHORT;
		if (is_char_t(a) && is_char_t(b))
			return T_CHAR;
		return T_INT;
	}
	if (is_float(a) && is_float(b))
		return T_FLOAT;
	if ((ka == T_LONG_LO && kb == T_WCONST_LO) || (kb == T_LONG_LO && ka == T_WCONST_LO))
		return T_LONG_LO;
	if ((ka == T_LONG_HI && kb == T_WCONST_HI) || (kb == T_LONG_HI && ka == T_WCONST_HI))
		return T_LONG_HI;
	if ((ka == T_DOUBLE_LO && kb == T_WCONST_LO) || (kb == T_DOUBLE_LO && ka == T_WCONST_LO))
		return T_DOUBLE_LO;
	if ((ka == T_DOUBLE_HI && kb == T_WCONST_HI) || (kb == T_DOUBLE_HI && ka == T_WCONST_HI))
		return T_DOUBLE_HI;
	if (is_ref(a) && is_ref(b)) {
		if (is_uninit(a) || is_uninit(b))
			return T_CONFLICT;
		if (ka == T_ZERO)
			return b;
		if (kb == T_ZERO)
			return a;
		return T_REF_ANY;
	}
	return T_CONFLICT;
}

/* Internal to dex/: the register types of the method checker (dex_verify.h), as ART's
 * reg_type.h has them: the encoding of a type in one u32 and the tests the rules make of
 * it; their join, the lattice's one operation, is in dex_verify_types.c (reg_type.cc's
 * Merge). Nothing here knows of a method or a dex file.
 *
 * A type is one u32: kind in the low 5 bits, an operand above (a type index for T_REF,
 * the new-instance pc for T_UNINIT, the constant class for T_CONST). Halves of a pair are
 * typed separately and checked as a pair when read, as ART does (CheckWidePair): writing
 * one half leaves the other an orphan that no read accepts.
 *
 * 32-bit values are typed as ART types them (reg_type.h): boolean, byte, short, char and
 * int apart, and constants by the range of values they may hold (DetermineCat1Constant:
 * 0 and 1 exactly, then 0..127, 0..32767, 0..65535, -128..127, -32768..32767, any), so
 * that a method returning boolean, byte, short or char returns what ART lets it. */
#ifndef TC_DEX_VERIFY_TYPES_H
#define TC_DEX_VERIFY_TYPES_H

#include <stdbool.h>
#include <stdint.h>

enum {
	T_UNDEF, T_CONFLICT, T_ZERO, T_CONST, T_BOOL, T_BYTE, T_SHORT, T_CHAR, T_INT, T_FLOAT,
	T_LONG_LO, T_LONG_HI, T_DOUBLE_LO, T_DOUBLE_HI, T_WCONST_LO, T_WCONST_HI,
	T_REF, T_REF_ANY, T_UNINIT, T_UNINIT_THIS,
	T_VOID, /* the result register after a void call */
};

#define MK(k, x) ((uint32_t)(x) << 5 | (uint32_t)(k))
#define KIND(t) ((t) & 31u)
#define AUX(t) ((t) >> 5)
#define MAX_AUX (UINT32_MAX >> 5)

/* T_CONST's classes: the value ART keeps for each (RegTypeCache: One is precise, the
 * others stand for a range; T_ZERO is the precise 0, which is also null). */
enum { C_ONE, C_ONE_MERGED, C_POS_BYTE, C_POS_SHORT, C_CHAR, C_BYTE, C_SHORT, C_INT, C_COUNT };
static const int32_t const_value[C_COUNT] = {1, 1, 127, 32767, 65535, -128, -32768, INT32_MAX};

static inline int32_t cvalue(uint32_t t)
{
	return KIND(t) == T_ZERO ? 0 : const_value[AUX(t)];
}

/* DetermineCat1Constant */
static inline uint32_t const_of(int64_t v)
{
	int c = v < -32768 ? C_INT : v < -128 ? C_SHORT : v < 0 ? C_BYTE : v == 0 ? -1 : v == 1 ? C_ONE :
	        v < 128 ? C_POS_BYTE : v < 32768 ? C_POS_SHORT : v < 65536 ? C_CHAR : C_INT;
	return c < 0 ? T_ZERO : MK(T_CONST, c);
}

static inline bool is_const(uint32_t t)
{
	return KIND(t) == T_ZERO || KIND(t) == T_CONST;
}

static inline bool in_range(uint32_t t, int32_t lo, int32_t hi)
{
	return is_const(t) && cvalue(t) >= lo && cvalue(t) <= hi;
}

static inline bool is_int(uint32_t t) /* IsIntegralTypes */
{
	uint32_t k = KIND(t);
	return k >= T_ZERO && k <= T_INT;
}

static inline bool is_bool_t(uint32_t t) /* IsBooleanTypes */
{
	return KIND(t) == T_BOOL || in_range(t, 0, 1);
}

static inline bool is_byte_t(uint32_t t) /* IsByteTypes */
{
	return KIND(t) == T_BYTE || KIND(t) == T_BOOL || in_range(t, -128, 127);
}

static inline bool is_short_t(uint32_t t) /* IsShortTypes */
{
	return KIND(t) == T_SHORT || KIND(t) == T_BYTE || KIND(t) == T_BOOL || in_range(t, -32768, 32767);
}

static inline bool is_char_t(uint32_t t) /* IsCharTypes */
{
	return KIND(t) == T_CHAR || is_bool_t(t) || in_range(t, 0, 65535);
}

static inline bool is_float(uint32_t t) /* IsFloatTypes: any constant may be a float */
{
	return is_const(t) || KIND(t) == T_FLOAT;
}

static inline bool is_cat1(uint32_t t)
{
	return is_int(t) || KIND(t) == T_FLOAT;
}

static inline bool is_uninit(uint32_t t)
{
	return KIND(t) == T_UNINIT || KIND(t) == T_UNINIT_THIS;
}

static inline bool is_ref(uint32_t t)
{
	uint32_t k = KIND(t);
	return k == T_ZERO || k == T_REF || k == T_REF_ANY || is_uninit(t);
}

static inline bool is_init_ref(uint32_t t)
{
	return is_ref(t) && !is_uninit(t);
}

/* The join of two types (dex_verify_types.c). */
uint32_t dex_verify_join(uint32_t a, uint32_t b);

#endif

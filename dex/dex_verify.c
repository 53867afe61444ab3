/* The dataflow of the method checker (see dex_verify.h and dex_verify_internal.h): the
 * register lines, the effect of each instruction on them, the fixed point over the
 * control-flow graph; and the entry points, which run the static checks first. Rules
 * cite ART's method verifier by the message it gives, so that a failure here can be
 * matched to what a device would say. */
#include "dex_verify.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dex_verify_internal.h"

/* --- locking failures, type names, the file's tables ----------------------------- */

/* A locking failure (ART's soft VERIFY_ERROR_LOCKING): recorded, the check goes on. */
static void lock_fail(vm *v, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void lock_fail(vm *v, const char *fmt, ...)
{
	if (v->res->locking)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->res->lock_msg, sizeof v->res->lock_msg, fmt, ap);
	va_end(ap);
	v->res->locking = true;
	v->res->lock_pc = v->pc == NONE ? 0 : v->pc;
	v->res->lock_op = v->op;
}

/* The check went over its budget: not accepted, and said apart from a rule. */
static void too_costly(vm *v, const char *what, uint64_t have, uint64_t limit)
{
	v->pc = NONE;
	fail(v, "too costly to verify: %s %llu over the bound of %llu (%u code units, %u registers)", what,
	     (unsigned long long)have, (unsigned long long)limit, v->n, v->nregs);
	v->res->costly = true;
}

/* The type operand of the instruction at pc (a new-instance). */
static uint32_t insn_idx(const vm *v, uint32_t pc)
{
	return pc < v->n && (v->fl[pc] & F_START) ? v->ins[v->at[pc]].idx : NONE;
}

static const char *tname(const vm *v, uint32_t t, char *buf, size_t size)
{
	static const char *const names[] = {
		[T_UNDEF] = "undefined", [T_CONFLICT] = "conflict (merged from different types)",
		[T_ZERO] = "zero", [T_BOOL] = "boolean", [T_BYTE] = "byte", [T_SHORT] = "short",
		[T_CHAR] = "char", [T_INT] = "int",
		[T_FLOAT] = "float", [T_LONG_LO] = "the low half of a long",
		[T_LONG_HI] = "the high half of a long", [T_DOUBLE_LO] = "the low half of a double",
		[T_DOUBLE_HI] = "the high half of a double",
		[T_WCONST_LO] = "the low half of a wide constant",
		[T_WCONST_HI] = "the high half of a wide constant", [T_REF_ANY] = "a reference",
		[T_UNINIT_THIS] = "uninitialized this", [T_VOID] = "void",
	};
	uint32_t len;
	const uint8_t *s;
	switch (KIND(t)) {
	case T_REF:
		s = tdesc(v, AUX(t), &len);
		snprintf(buf, size, "%.*s", (int)len, (const char *)s);
		return buf;
	case T_UNINIT:
		s = tdesc(v, insn_idx(v, AUX(t)), &len);
		snprintf(buf, size, "uninitialized %.*s (new-instance at %u)", (int)len, (const char *)s,
		         AUX(t));
		return buf;
	case T_CONST: {
		static const char *const consts[C_COUNT] = {
			[C_ONE] = "the constant 1", [C_ONE_MERGED] = "a constant 0..1",
			[C_POS_BYTE] = "a constant 0..127", [C_POS_SHORT] = "a constant 0..32767",
			[C_CHAR] = "a constant 0..65535", [C_BYTE] = "a constant -128..127",
			[C_SHORT] = "a constant -32768..32767", [C_INT] = "a 32-bit constant",
		};
		return consts[AUX(t)];
	}
	default:
		return names[KIND(t)];
	}
}

/* Type index of a descriptor: type_ids of a parsed file are sorted by descriptor (by
 * string index, and string_ids are sorted). NONE when the file has no such type. */
static uint32_t find_type(const dex_file *d, const uint8_t *s, uint32_t len)
{
	uint32_t lo = 0, hi = d->types.in;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, mlen;
		const uint8_t *m = dex_type_desc(d, mid, &mlen);
		int c = m ? dex_mutf8_cmp(m, mlen, s, len) : -1;
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

static bool arith_agrees(void);

/* The index of string s among the input's string ids (sorted), or NONE. */
static uint32_t find_string(const dex_file *d, const char *s)
{
	uint32_t lo = 0, hi = d->strings.in, len = (uint32_t)strlen(s);
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = dex_mutf8_cmp(d->strings.v[mid].data, d->strings.v[mid].len, (const uint8_t *)s, len);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

static uint32_t find_type_c(const dex_file *d, const char *s)
{
	return find_type(d, (const uint8_t *)s, (uint32_t)strlen(s));
}

int dex_verify_file_init(dex_verify_file *f, const dex_file *d, arena *a)
{
	memset(f, 0, sizeof *f);
	f->d = d;
	f->t_object = find_type_c(d, "Ljava/lang/Object;");
	f->t_string = find_type_c(d, "Ljava/lang/String;");
	f->t_class = find_type_c(d, "Ljava/lang/Class;");
	f->t_throwable = find_type_c(d, "Ljava/lang/Throwable;");
	f->t_mhandle = find_type_c(d, "Ljava/lang/invoke/MethodHandle;");
	f->t_mtype = find_type_c(d, "Ljava/lang/invoke/MethodType;");
	f->s_init = find_string(d, "<init>");
	f->s_clinit = find_string(d, "<clinit>");
	f->kinds_ok = arith_agrees();
	f->strict_monitors = false;
	f->work_factor = DEX_VERIFY_WORK_FACTOR;
	/* per type its kind and component type, per proto its argument words: reading them
	 * through the ids and strings costs cache misses at every call and field access */
	f->tchar = arena_alloc(a, d->types.n ? d->types.n : 1);
	f->tcomp = arena_array(a, d->types.n ? d->types.n : 1, sizeof *f->tcomp);
	f->pwords = arena_array(a, d->protos.n ? d->protos.n : 1, sizeof *f->pwords);
	if (!f->tchar || !f->tcomp || !f->pwords)
		return TC_ENOMEM;
	for (uint32_t t = 0; t < d->types.n; t++) {
		uint32_t len;
		const uint8_t *s = dex_type_desc(d, t, &len);
		f->tchar[t] = s && len ? s[0] : '?';
		f->tcomp[t] = s && len > 1 && s[0] == '[' ? find_type(d, s + 1, len - 1) : NONE;
	}
	for (uint32_t p = 0; p < d->protos.n; p++)
		f->pwords[p] = dex_proto_words(d, p, true);
	f->ntypes = d->types.n;
	f->nprotos = d->protos.n;
	return TC_OK;
}

/* A reference of type idx, "some reference" when the file lacks it. */
static uint32_t ref_of(uint32_t idx)
{
	return idx == NONE ? T_REF_ANY : MK(T_REF, idx);
}

/* --- reading and writing registers ----------------------------------------------- */

static const char *const kind_names[] = {
	[K_INT] = "int", [K_FLOAT] = "float", [K_LONG] = "long", [K_DOUBLE] = "double",
	[K_REF] = "an initialized reference", [K_WIDE] = "a wide pair",
};

static uint32_t get(const vm *v, uint32_t r)
{
	return v->work.t[r];
}

static bool bad_reg(vm *v, uint32_t r, const char *expected)
{
	char b[200];
	return fail(v, "v%u is %s, expected %s", r, tname(v, get(v, r), b, sizeof b), expected);
}

/* A 32-bit operand of category k (int, float or initialized reference). */
static bool need(vm *v, uint32_t r, int k)
{
	uint32_t t = get(v, r);
	bool ok = k == K_INT ? is_int(t) : k == K_FLOAT ? is_float(t) : is_init_ref(t);
	return ok || bad_reg(v, r, kind_names[k]);
}

/* A pair r, r+1 of category k (K_LONG, K_DOUBLE or K_WIDE for either). */
static bool need_wide(vm *v, uint32_t r, int k)
{
	uint32_t lo = KIND(get(v, r)), hi = KIND(get(v, r + 1));
	bool pair = (lo == T_LONG_LO && hi == T_LONG_HI) || (lo == T_DOUBLE_LO && hi == T_DOUBLE_HI) ||
	            (lo == T_WCONST_LO && hi == T_WCONST_HI);
	bool cat = k == K_WIDE || lo == T_WCONST_LO || (k == K_LONG ? lo == T_LONG_LO : lo == T_DOUBLE_LO);
	if (pair && cat)
		return true;
	char b1[200], b2[200];
	return fail(v, "v%u/v%u is not a %s pair (%s / %s)", r, r + 1,
	            k == K_WIDE ? "wide" : kind_names[k], tname(v, get(v, r), b1, sizeof b1),
	            tname(v, get(v, r + 1), b2, sizeof b2));
}

/* Any reference, uninitialized ones included (ART's IsReferenceTypes). */
static bool need_any_ref(vm *v, uint32_t r)
{
	return is_ref(get(v, r)) || bad_reg(v, r, "a reference");
}

static void set1(vm *v, uint32_t r, uint32_t t)
{
	v->work.t[r] = t;
	if (v->has_mon)
		v->work.lk[r] = 0;
}

static void set2(vm *v, uint32_t r, uint32_t lo, uint32_t hi)
{
	set1(v, r, lo);
	set1(v, r + 1, hi);
}

static void set_wide(vm *v, uint32_t r, int k)
{
	if (k == K_LONG)
		set2(v, r, T_LONG_LO, T_LONG_HI);
	else if (k == K_DOUBLE)
		set2(v, r, T_DOUBLE_LO, T_DOUBLE_HI);
	else
		set2(v, r, T_WCONST_LO, T_WCONST_HI);
}

/* The register type of a 32-bit primitive descriptor character (Z B S C I F). */
static uint32_t prim_type(uint8_t c)
{
	switch (c) {
	case 'Z': return T_BOOL;
	case 'B': return T_BYTE;
	case 'S': return T_SHORT;
	case 'C': return T_CHAR;
	case 'F': return T_FLOAT;
	default: return T_INT;
	}
}

/* Sets r (and r+1) to a value of type idx. */
static void set_typed(vm *v, uint32_t r, uint32_t type)
{
	uint8_t c = tchar(v, type);
	switch (desc_kind(&c)) {
	case K_INT: set1(v, r, prim_type(c)); break;
	case K_FLOAT: set1(v, r, T_FLOAT); break;
	case K_LONG: case K_DOUBLE: set_wide(v, r, desc_kind(&c)); break;
	case K_REF: set1(v, r, MK(T_REF, type)); break;
	default: set1(v, r, T_CONFLICT); break;
	}
}

/* Checks r (and r+1) as a value to pass or store where type idx is wanted. */
static bool need_typed(vm *v, uint32_t r, uint32_t type)
{
	uint8_t c = tchar(v, type);
	int k = desc_kind(&c);
	if (k == K_LONG || k == K_DOUBLE)
		return need_wide(v, r, k);
	if (k < 0)
		return fail(v, "a value of type void");
	return need(v, r, k);
}

static void result(vm *v, uint32_t type)
{
	uint8_t c = tchar(v, type);
	uint32_t r = v->nregs;
	int k = desc_kind(&c);
	if (k < 0) {
		v->work.t[r] = T_VOID;
		v->work.t[r + 1] = T_UNDEF;
	} else if (k == K_LONG || k == K_DOUBLE) {
		v->work.t[r] = k == K_LONG ? T_LONG_LO : T_DOUBLE_LO;
		v->work.t[r + 1] = k == K_LONG ? T_LONG_HI : T_DOUBLE_HI;
	} else {
		v->work.t[r] = k == K_REF ? MK(T_REF, type) : prim_type(c);
		v->work.t[r + 1] = T_UNDEF;
	}
}

/* --- arithmetic: operand kinds, checked against dex_op's wide flags at start ------- */

typedef struct arith {
	uint8_t dst, src1, src2; /* K_* */
} arith;

static arith arith_of(uint8_t op)
{
	static const arith un[] = {
		/* 7b */ {K_INT, K_INT, 0}, {K_INT, K_INT, 0}, {K_LONG, K_LONG, 0}, {K_LONG, K_LONG, 0},
		/* 7f */ {K_FLOAT, K_FLOAT, 0}, {K_DOUBLE, K_DOUBLE, 0}, {K_LONG, K_INT, 0},
		/* 82 */ {K_FLOAT, K_INT, 0}, {K_DOUBLE, K_INT, 0}, {K_INT, K_LONG, 0},
		/* 85 */ {K_FLOAT, K_LONG, 0}, {K_DOUBLE, K_LONG, 0}, {K_INT, K_FLOAT, 0},
		/* 88 */ {K_LONG, K_FLOAT, 0}, {K_DOUBLE, K_FLOAT, 0}, {K_INT, K_DOUBLE, 0},
		/* 8b */ {K_LONG, K_DOUBLE, 0}, {K_FLOAT, K_DOUBLE, 0}, {K_INT, K_INT, 0},
		/* 8e */ {K_INT, K_INT, 0}, {K_INT, K_INT, 0},
	};
	if (op >= 0x7b && op <= 0x8f)
		return un[op - 0x7b];
	if (op >= 0x2d && op <= 0x31) {
		uint8_t k = op <= 0x2e ? K_FLOAT : op <= 0x30 ? K_DOUBLE : K_LONG;
		return (arith){K_INT, k, k};
	}
	if (op >= 0xd0 && op <= 0xe2)
		return (arith){K_INT, K_INT, K_INT};
	uint8_t b = op >= 0xb0 && op <= 0xcf ? (uint8_t)(op - 0x20) : op; /* 2addr as 23x */
	if (b >= 0x90 && b <= 0x9a)
		return (arith){K_INT, K_INT, K_INT};
	if (b >= 0x9b && b <= 0xa5)
		return (arith){K_LONG, K_LONG, b >= 0xa3 ? K_INT : K_LONG}; /* shifts by an int */
	if (b >= 0xa6 && b <= 0xaa)
		return (arith){K_FLOAT, K_FLOAT, K_FLOAT};
	return (arith){K_DOUBLE, K_DOUBLE, K_DOUBLE};
}

static bool is_arith(uint8_t op)
{
	return (op >= 0x2d && op <= 0x31) || (op >= 0x7b && op <= 0xe2);
}

static bool wide_k(uint8_t k)
{
	return k == K_LONG || k == K_DOUBLE;
}

/* dex_op's table is the one source of register widths; the kinds above must agree. */
static bool arith_agrees(void)
{
	for (unsigned op = 0; op < 256; op++) {
		if (!is_arith((uint8_t)op) || !dex_op_table[op].name)
			continue;
		arith k = arith_of((uint8_t)op);
		bool two = op >= 0xb0 && op <= 0xcf, lit = op >= 0xd0, un = op >= 0x7b && op <= 0x8f;
		bool wa = dex_op_has((uint8_t)op, DEX_OPF_WIDE_A), wb = dex_op_has((uint8_t)op, DEX_OPF_WIDE_B),
		     wc = dex_op_has((uint8_t)op, DEX_OPF_WIDE_C);
		bool ok;
		if (two)
			ok = wa == wide_k(k.dst) && wb == wide_k(k.src2) && !wc;
		else if (un || lit)
			ok = wa == wide_k(k.dst) && wb == wide_k(k.src1) && !wc;
		else
			ok = wa == wide_k(k.dst) && wb == wide_k(k.src1) && wc == wide_k(k.src2);
		if (!ok)
			return false;
	}
	return true;
}

static bool need_k(vm *v, uint32_t r, uint8_t k)
{
	return wide_k(k) ? need_wide(v, r, k) : need(v, r, k);
}

static void set_k(vm *v, uint32_t r, uint8_t k)
{
	if (wide_k(k))
		set_wide(v, r, k);
	else
		set1(v, r, k == K_INT ? T_INT : T_FLOAT);
}

/* --- lines ------------------------------------------------------------------------ */

static bool line_alloc(vm *v, line *l)
{
	l->t = arena_array(v->a, v->nt, sizeof *l->t);
	l->lk = v->has_mon ? arena_array(v->a, v->nregs + 1, sizeof *l->lk) : NULL;
	l->valid = false;
	return l->t && (!v->has_mon || l->lk);
}

static void line_copy(vm *v, line *to, const line *from)
{
	v->work_done += v->nt;
	memcpy(to->t, from->t, v->nt * sizeof *to->t);
	if (v->has_mon)
		memcpy(to->lk, from->lk, (v->nregs + 1) * sizeof *to->lk);
	to->depth = from->depth;
	to->this_init = from->this_init;
	to->valid = true;
}

/* ART's FindLockAliasedRegister: "not locked" (m == 0) is trivially aliased; otherwise
 * another register of `search` (the virtual null register included) holds the same
 * levels, so dropping r loses no lock. */
static bool lock_alias(vm *v, uint32_t r, uint32_t m, const line *search)
{
	if (!m)
		return true;
	v->work_done += v->nregs;
	for (uint32_t i = 0; i <= v->nregs; i++)
		if (i != r && search->lk[i] == m)
			return true;
	return false;
}

/* Merges `in` into the line stored for target (RegisterLine::MergeRegisters). */
static void merge_into(vm *v, uint32_t target, const line *in)
{
	uint32_t li = v->lead[target];
	line *t = &v->lines[li];
	v->work_done += v->nt;
	if (!t->valid) {
		line_copy(v, t, in);
		v->changed[li] = 1;
		return;
	}
	bool ch = false;
	for (uint32_t r = 0; r < v->nt; r++) {
		uint32_t m = dex_verify_join(t->t[r], in->t[r]);
		if (m != t->t[r]) {
			t->t[r] = m;
			ch = true;
		}
	}
	if (t->this_init && !in->this_init) {
		t->this_init = false;
		ch = true;
	}
	if (v->has_mon && (t->depth || in->depth)) {
		if (t->depth != in->depth) {
			lock_fail(v, "LOCKING: monitor stack depths %u and %u meet at %u", t->depth, in->depth, target);
		} else {
			/* MergeRegisters: a register whose lock levels differ is dropped when both
			 * levels have another holder in the stored line (both maps searched in the
			 * stored line, as ART does); the virtual null register is not merged. As in
			 * ART, a dropped level does not mark the line changed: only types and
			 * this_init do. (It once did, even when the stored level was already 0, and
			 * a loop copying a locked register made its blocks change each other for
			 * ever: medium.dex's CalendarController.sendEvent.) */
			for (uint32_t r = 0; r < v->nregs; r++) {
				uint32_t a = t->lk[r], b = in->lk[r];
				if (a == b)
					continue;
				if (lock_alias(v, r, a, t) && lock_alias(v, r, b, t)) {
					t->lk[r] = 0;
				} else {
					lock_fail(v, "LOCKING: v%u holds different monitors on paths meeting at %u", r, target);
					break;
				}
			}
		}
	}
	if (ch)
		v->changed[li] = 1;
}

/* --- instructions ------------------------------------------------------------------ */

/* Whether the method's class declares instance field idx (ART resolves the field and
 * compares its declaring class with this one; a field declared above is not one). */
static bool declares_ifield(const vm *v, uint32_t idx)
{
	const dex_cdata *cd = v->cls->data;
	if (v->d->fields.v[idx].cls != v->cls_type || !cd)
		return false;
	for (uint32_t i = 0; i < cd->nifields; i++)
		if (cd->ifields[i].idx == idx)
			return true;
	return false;
}

static bool field_op(vm *v, const dex_insn *o)
{
	uint8_t op = o->op;
	bool is_static = op >= DEX_OP_SGET;
	uint8_t base = is_static ? DEX_OP_SGET : DEX_OP_IGET;
	bool put = op - base >= 7;
	uint32_t ftype = v->d->fields.v[o->idx].type;
	if (!is_static) {
		uint32_t obj = get(v, o->b);
		if (!is_ref(obj))
			return bad_reg(v, o->b, "a reference (the object of a field access)");
		if (is_uninit(obj)) {
			/* GetInstanceField: only a constructor may touch its own class's fields on
			 * uninitialized this (javac's this$0 before super()). */
			if (KIND(obj) != T_UNINIT_THIS || !v->is_init || !declares_ifield(v, o->idx))
				return bad_reg(v, o->b, "an initialized reference (field access)");
		}
	}
	if (put) {
		if (!need_typed(v, o->a, ftype))
			return false;
	} else {
		set_typed(v, o->a, ftype);
	}
	return true;
}

/* Whether r's value may be assigned to a place of type c (Z B S C, or I), ART's
 * AssignableFrom for integral types: booleans are 0 or 1, a char is never negative, and
 * so on. */
static bool narrow_fits(vm *v, uint32_t r, uint8_t c)
{
	uint32_t t = get(v, r);
	bool ok = c == 'Z' ? is_bool_t(t) : c == 'B' ? is_byte_t(t) : c == 'S' ? is_short_t(t) :
	          c == 'C' ? is_char_t(t) : is_int(t);
	static const char *const names[] = {"boolean", "byte", "short", "char", "int"};
	return ok || bad_reg(v, r, names[c == 'Z' ? 0 : c == 'B' ? 1 : c == 'S' ? 2 : c == 'C' ? 3 : 4]);
}

/* The component type of array type arr (descriptor comp), or NONE when the file has no
 * such type. */
static uint32_t comp_type(const vm *v, uint32_t arr, const uint8_t *comp, uint32_t len)
{
	if (arr < v->f->ntypes)
		return v->f->tcomp[arr];
	return find_type(v->d, comp, len);
}

/* Component descriptor of an array register, or NULL (unknown or null). */
static const uint8_t *array_of(vm *v, uint32_t r, uint32_t *len, bool *ok)
{
	uint32_t t = get(v, r);
	*ok = true;
	if (KIND(t) == T_ZERO || KIND(t) == T_REF_ANY)
		return NULL;
	if (KIND(t) == T_REF) {
		const uint8_t *s = tdesc(v, AUX(t), len);
		if (s[0] == '[') {
			(*len)--;
			return s + 1;
		}
	}
	*ok = bad_reg(v, r, "an array");
	return NULL;
}

static bool array_op(vm *v, const dex_insn *o)
{
	bool put = o->op >= DEX_OP_APUT;
	int variant = o->op - (put ? DEX_OP_APUT : DEX_OP_AGET);
	if (!need(v, o->c, K_INT))
		return false;
	uint32_t clen;
	bool ok;
	const uint8_t *comp = array_of(v, o->b, &clen, &ok);
	if (!ok)
		return false;
	if (comp && !field_fits(variant, comp[0]))
		return fail(v, "array of %.*s accessed as %s", (int)clen, (const char *)comp, variant_types[variant]);
	if (put) {
		switch (variant) {
		case 0:
			if (comp)
				return need(v, o->a, comp[0] == 'F' ? K_FLOAT : K_INT);
			if (KIND(get(v, o->a)) == T_FLOAT)
				return true;
			return need(v, o->a, K_INT);
		case 1:
			return need_wide(v, o->a, comp ? (comp[0] == 'D' ? K_DOUBLE : K_LONG) : K_WIDE);
		case 2:
			return need(v, o->a, K_REF);
		default:
			if (!need(v, o->a, K_INT))
				return false;
			/* VerifyAPut on a null array: the value must fit the instruction's type
			 * (into a known array any integral value goes: VerifyPrimitivePut) */
			return comp || narrow_fits(v, o->a, (uint8_t)"ZBCS"[variant - 3]);
		}
	}
	switch (variant) {
	case 0: set1(v, o->a, !comp ? MK(T_CONST, C_ONE) : prim_type(comp[0])); break;
	case 1: set_wide(v, o->a, !comp ? K_WIDE : comp[0] == 'D' ? K_DOUBLE : K_LONG); break;
	case 2:
		if (!comp)
			set1(v, o->a, KIND(get(v, o->b)) == T_ZERO ? T_ZERO : T_REF_ANY);
		else
			set1(v, o->a, ref_of(comp_type(v, AUX(get(v, o->b)), comp, clen)));
		break;
	default: set1(v, o->a, prim_type(comp ? comp[0] : (uint8_t)"ZBCS"[variant - 3])); break;
	}
	return true;
}

/* MarkRefsAsInitialized: every register holding the same uninitialized value. */
static void mark_init(vm *v, uint32_t t)
{
	uint32_t now;
	if (KIND(t) == T_UNINIT_THIS) {
		now = MK(T_REF, v->cls_type);
		v->work.this_init = true;
	} else {
		now = ref_of(insn_idx(v, AUX(t)));
	}
	v->work_done += v->nregs;
	for (uint32_t r = 0; r < v->nregs; r++)
		if (v->work.t[r] == t)
			v->work.t[r] = now;
}

/* ART's CheckSignaturePolymorphicMethod on the method an invoke-polymorphic names:
 * MethodHandle's invoke or invokeExact, or a VarHandle access mode, taking one Object[]
 * and returning what its name says. Resolution alone would need the classes, but
 * nothing else can be named: only the boot class path defines these classes and their
 * constructors are not accessible, so no other class declares such methods. */
static bool polymorphic_ok(vm *v, uint32_t idx)
{
	static const struct { const char *name, *ret; } modes[] = {
		{"get", "Ljava/lang/Object;"}, {"getVolatile", "Ljava/lang/Object;"},
		{"getAcquire", "Ljava/lang/Object;"}, {"getOpaque", "Ljava/lang/Object;"},
		{"set", "V"}, {"setVolatile", "V"}, {"setRelease", "V"}, {"setOpaque", "V"},
		{"compareAndSet", "Z"}, {"weakCompareAndSetPlain", "Z"}, {"weakCompareAndSet", "Z"},
		{"weakCompareAndSetAcquire", "Z"}, {"weakCompareAndSetRelease", "Z"},
		{"compareAndExchange", "Ljava/lang/Object;"}, {"compareAndExchangeAcquire", "Ljava/lang/Object;"},
		{"compareAndExchangeRelease", "Ljava/lang/Object;"}, {"getAndSet", "Ljava/lang/Object;"},
		{"getAndSetAcquire", "Ljava/lang/Object;"}, {"getAndSetRelease", "Ljava/lang/Object;"},
		{"getAndAdd", "Ljava/lang/Object;"}, {"getAndAddAcquire", "Ljava/lang/Object;"},
		{"getAndAddRelease", "Ljava/lang/Object;"}, {"getAndBitwiseOr", "Ljava/lang/Object;"},
		{"getAndBitwiseOrRelease", "Ljava/lang/Object;"}, {"getAndBitwiseOrAcquire", "Ljava/lang/Object;"},
		{"getAndBitwiseAnd", "Ljava/lang/Object;"}, {"getAndBitwiseAndRelease", "Ljava/lang/Object;"},
		{"getAndBitwiseAndAcquire", "Ljava/lang/Object;"}, {"getAndBitwiseXor", "Ljava/lang/Object;"},
		{"getAndBitwiseXorRelease", "Ljava/lang/Object;"}, {"getAndBitwiseXorAcquire", "Ljava/lang/Object;"},
	};
	const dex_file *d = v->d;
	const dex_mid *m = &d->methods.v[idx];
	uint32_t clen, rlen;
	const uint8_t *cls = tdesc(v, m->cls, &clen);
	const dex_str *name = dex_string(d, m->name);
	const char *want = NULL;
	bool mh = clen == 31 && !memcmp(cls, "Ljava/lang/invoke/MethodHandle;", 31);
	bool vh = clen == 28 && !memcmp(cls, "Ljava/lang/invoke/VarHandle;", 28);
	if (!mh && !vh)
		return fail(v, "Signature polymorphic method in unsupported class: %.*s", (int)clen, (const char *)cls);
	for (size_t i = 0; name && i < (mh ? 2 : sizeof modes / sizeof modes[0]); i++) {
		const char *n = mh ? (i ? "invokeExact" : "invoke") : modes[i].name;
		if (strlen(n) == name->len && !memcmp(n, name->data, name->len))
			want = mh ? "Ljava/lang/Object;" : modes[i].ret;
	}
	if (!want)
		return fail(v, "Signature polymorphic method name invalid: %.*s", name ? (int)name->len : 0,
		            name ? (const char *)name->data : "");
	const dex_proto *pr = &d->protos.v[m->proto];
	uint32_t n = pr->params ? pr->params->n : 0;
	if (n != 1)
		return fail(v, "Signature polymorphic method has too many arguments %u != 1", n);
	uint32_t plen;
	const uint8_t *p = tdesc(v, pr->params->types[0], &plen);
	if (plen != 19 || memcmp(p, "[Ljava/lang/Object;", 19))
		return fail(v, "Signature polymorphic method has unexpected argument type: %.*s", (int)plen,
		            (const char *)p);
	const uint8_t *r = tdesc(v, pr->ret, &rlen);
	if (rlen != strlen(want) || memcmp(r, want, rlen))
		return fail(v, "Signature polymorphic method has unexpected return type: %.*s != %s", (int)rlen,
		            (const char *)r, want);
	return true;
}

static bool invoke(vm *v, const dex_insn *o)
{
	uint8_t op = o->op;
	uint32_t proto, words;
	if (!dex_verify_invoke_proto(v, o, &proto, &words))
		return false;
	bool is_static = op == DEX_OP_INVOKE_STATIC || op == DEX_OP_INVOKE_STATIC_RANGE ||
	                 op == DEX_OP_INVOKE_CUSTOM || op == DEX_OP_INVOKE_CUSTOM_RANGE;
	bool is_direct = op == DEX_OP_INVOKE_DIRECT || op == DEX_OP_INVOKE_DIRECT_RANGE;
	bool is_poly = op == DEX_OP_INVOKE_POLYMORPHIC || op == DEX_OP_INVOKE_POLYMORPHIC_RANGE;
	bool ctor = false;
	if (is_poly && !polymorphic_ok(v, o->idx))
		return false;
	if (!is_poly && op != DEX_OP_INVOKE_CUSTOM && op != DEX_OP_INVOKE_CUSTOM_RANGE) {
		/* ResolveMethodAndCheckAccess: <init> only through invoke-direct, <clinit> never
		 * (by string index: reading each callee's name costs a cache miss per call) */
		uint32_t name = v->d->methods.v[o->idx].name;
		if (str_is(v->d, name, v->f->s_clinit, "<clinit>"))
			return fail(v, "call to a class initializer");
		if (str_is(v->d, name, v->f->s_init, "<init>")) {
			if (!is_direct)
				return fail(v, "non-direct call to a constructor");
			ctor = true;
		}
	}
	uint32_t i = 0, recv = 0;
	if (!is_static) {
		uint32_t r = argreg(o, 0);
		recv = get(v, r);
		if (!is_ref(recv))
			return bad_reg(v, r, "a reference (the receiver)");
		if (is_uninit(recv) && !ctor)
			return bad_reg(v, r, "an initialized reference (only <init> takes an uninitialized receiver)");
		if (ctor && KIND(recv) == T_ZERO)
			return fail(v, "<init> called on null (v%u)", r);
		if (ctor && !is_uninit(recv)) {
			char b[200];
			return fail(v, "<init> called on v%u, which is already initialized (%s)", r,
			            tname(v, recv, b, sizeof b));
		}
		i = 1;
	}
	const dex_tlist *params = v->d->protos.v[proto].params;
	for (uint32_t p = 0; params && p < params->n; p++) {
		uint32_t r = argreg(o, i);
		uint8_t ch = tchar(v, params->types[p]);
		int k = desc_kind(&ch);
		if (k == K_LONG || k == K_DOUBLE) {
			if ((o->fmt == DF_35c || o->fmt == DF_45cc) && argreg(o, i + 1) != r + 1)
				return fail(v, "wide argument %u in v%u and v%u, not a register pair", p, r, argreg(o, i + 1));
			i += 2;
		} else {
			i += 1;
		}
		if (!need_typed(v, r, params->types[p]))
			return false;
	}
	if (ctor)
		mark_init(v, recv);
	result(v, v->d->protos.v[proto].ret);
	return true;
}

static bool filled_new_array(vm *v, const dex_insn *o)
{
	uint32_t len;
	int k = desc_kind(tdesc(v, o->idx, &len) + 1); /* I or a reference (type_operand_ok) */
	for (uint32_t i = 0; i < o->nargs; i++)
		if (!need(v, argreg(o, i), k))
			return false;
	v->work.t[v->nregs] = MK(T_REF, o->idx);
	v->work.t[v->nregs + 1] = T_UNDEF;
	return true;
}

static bool do_return(vm *v, const dex_insn *o)
{
	if (v->is_init && !v->work.this_init)
		return fail(v, "constructor returns before calling <init> on this");
	int k = desc_kind(v->ret);
	switch (o->op) {
	case DEX_OP_RETURN_VOID:
		if (k >= 0)
			return fail(v, "return-void in a method returning %c", v->ret[0]);
		break;
	case DEX_OP_RETURN:
		if (k != K_INT && k != K_FLOAT)
			return fail(v, "return in a method returning %c", v->ret[0]);
		if (!need(v, o->a, k))
			return false;
		/* a boolean, byte, short or char method returns a value of its type; an int
		 * (as compilers compute them) or, for boolean, a byte is taken as it is */
		if (k == K_INT && v->ret[0] != 'I') {
			uint32_t t = get(v, o->a);
			bool as_is = KIND(t) == T_INT || (v->ret[0] == 'Z' && KIND(t) == T_BYTE);
			if (!as_is && !narrow_fits(v, o->a, v->ret[0]))
				return false;
		}
		break;
	case DEX_OP_RETURN_WIDE:
		if (k != K_LONG && k != K_DOUBLE)
			return fail(v, "return-wide in a method returning %c", v->ret[0]);
		if (!need_wide(v, o->a, k))
			return false;
		break;
	default:
		if (k != K_REF)
			return fail(v, "return-object in a method returning %c", v->ret[0]);
		if (!need(v, o->a, K_REF))
			return false;
		break;
	}
	if (v->work.depth)
		lock_fail(v, "LOCKING: return with %u monitor(s) held", v->work.depth);
	return true;
}

/* The instruction before the one at index k (at pc), when control can only come from
 * it (pc is not a leader), or NULL. */
static const dex_insn *before(const vm *v, uint32_t k, uint32_t pc)
{
	if (k == 0 || (v->fl[pc] & F_LEADER))
		return NULL;
	const dex_insn *p = &v->ins[k - 1];
	return p->fmt == DF_PAYLOAD ? NULL : p;
}

/* Copies register src to dst with its lock levels (CopyRegister1 of a reference). */
static void copy_ref(vm *v, uint32_t dst, uint32_t src)
{
	uint32_t lk = v->work.lk[src];
	set1(v, dst, get(v, src));
	v->work.lk[dst] = lk;
}

/* ART's monitor-enter peepholes, which make locks of aliases it cannot track
 * otherwise: after `move-object vX, vA; monitor-enter vA` vX holds the lock too; after
 * `const-class vX, T; const-class vY, T; monitor-enter` (one of them) both do. */
static void alias_peephole(vm *v, uint32_t r)
{
	uint32_t k = v->at[v->pc];
	const dex_insn *p = before(v, k, v->pc);
	if (!p)
		return;
	if (p->op >= DEX_OP_MOVE_OBJECT && p->op <= DEX_OP_MOVE_OBJECT_16) {
		if (p->b == r && is_ref(get(v, p->b)))
			copy_ref(v, p->a, p->b);
		return;
	}
	if (p->op != DEX_OP_CONST_CLASS)
		return;
	const dex_insn *p2 = before(v, k - 1, v->pc - p->size);
	if (!p2 || p2->op != DEX_OP_CONST_CLASS || p2->idx != p->idx)
		return;
	if (p->a == r)
		copy_ref(v, p2->a, r);
	else if (p2->a == r)
		copy_ref(v, p->a, r);
}

static bool monitor(vm *v, const dex_insn *o)
{
	if (!need_any_ref(v, o->a))
		return false;
	line *w = &v->work;
	uint32_t r = o->a;
	bool null = KIND(get(v, r)) == T_ZERO;
	if (o->op == DEX_OP_MONITOR_ENTER) {
		if (w->depth >= 32) {
			lock_fail(v, "LOCKING: monitor stack deeper than 32");
			return true;
		}
		uint32_t bit = 1u << w->depth;
		if (w->lk[r] & bit) {
			lock_fail(v, "LOCKING: v%u locked twice at depth %u", r, w->depth);
			return true;
		}
		w->lk[r] |= bit;
		if (null)
			w->lk[v->nregs] |= bit;
		w->depth++;
		alias_peephole(v, r);
		return true;
	}
	if (!w->depth) {
		lock_fail(v, "LOCKING: monitor-exit v%u with no monitor held", r);
		return true;
	}
	uint32_t bit = 1u << --w->depth;
	if (!(w->lk[r] & bit) && !(null && (w->lk[v->nregs] & bit))) {
		lock_fail(v, "LOCKING: monitor-exit v%u does not release the innermost monitor", r);
		return true;
	}
	v->work_done += v->nregs;
	for (uint32_t i = 0; i <= v->nregs; i++)
		w->lk[i] &= ~bit; /* aliases release together (ClearRegToLockDepth) */
	return true;
}

/* The effect of one instruction on the work line; false on a hard failure. */
static bool step(vm *v, uint32_t pc, const dex_insn *o)
{
	uint8_t op = o->op;
	uint32_t t, len;
	const uint8_t *s;
	switch (op) {
	case DEX_OP_NOP:
		return true;
	case DEX_OP_MOVE: case DEX_OP_MOVE_FROM16: case DEX_OP_MOVE_16:
		t = get(v, o->b);
		/* CopyRegister1: conflicts may be copied, undefined and halves may not */
		if (!is_cat1(t) && KIND(t) != T_CONFLICT)
			return bad_reg(v, o->b, "a 32-bit non-reference value (move)");
		set1(v, o->a, t);
		return true;
	case DEX_OP_MOVE_WIDE: case DEX_OP_MOVE_WIDE_FROM16: case DEX_OP_MOVE_WIDE_16: {
		if (!need_wide(v, o->b, K_WIDE))
			return false;
		uint32_t lo = get(v, o->b), hi = get(v, o->b + 1);
		set2(v, o->a, lo, hi);
		return true;
	}
	case DEX_OP_MOVE_OBJECT: case DEX_OP_MOVE_OBJECT_FROM16: case DEX_OP_MOVE_OBJECT_16: {
		t = get(v, o->b);
		if (!is_ref(t) && KIND(t) != T_CONFLICT)
			return bad_reg(v, o->b, "a reference (move-object)");
		uint32_t lk = v->has_mon ? v->work.lk[o->b] : 0;
		set1(v, o->a, t);
		if (v->has_mon)
			v->work.lk[o->a] = lk;
		return true;
	}
	case DEX_OP_MOVE_RESULT: case DEX_OP_MOVE_RESULT_WIDE: case DEX_OP_MOVE_RESULT_OBJECT: {
		uint32_t r0 = get(v, v->nregs), r1 = get(v, v->nregs + 1);
		if (KIND(r0) == T_UNDEF)
			return fail(v, "move-result does not directly follow an invoke or filled-new-array");
		if (KIND(r0) == T_VOID)
			return fail(v, "move-result after a call that returns void");
		char b[200];
		if (op == DEX_OP_MOVE_RESULT_WIDE) {
			if (KIND(r0) != T_LONG_LO && KIND(r0) != T_DOUBLE_LO)
				return fail(v, "move-result-wide of %s", tname(v, r0, b, sizeof b));
			set2(v, o->a, r0, r1);
		} else if (op == DEX_OP_MOVE_RESULT_OBJECT ? !is_ref(r0) : !is_cat1(r0)) {
			return fail(v, "%s of %s", dex_op_table[op].name, tname(v, r0, b, sizeof b));
		} else {
			set1(v, o->a, r0);
		}
		return true;
	}
	case DEX_OP_MOVE_EXCEPTION:
		set1(v, o->a, ref_of(v->f->t_throwable));
		return true;
	case DEX_OP_RETURN_VOID: case DEX_OP_RETURN: case DEX_OP_RETURN_WIDE: case DEX_OP_RETURN_OBJECT:
		return do_return(v, o);
	case DEX_OP_CONST_4: case DEX_OP_CONST_16: case DEX_OP_CONST: case DEX_OP_CONST_HIGH16:
		set1(v, o->a, const_of(o->lit));
		return true;
	case DEX_OP_CONST_WIDE_16: case DEX_OP_CONST_WIDE_32: case DEX_OP_CONST_WIDE: case DEX_OP_CONST_WIDE_HIGH16:
		set2(v, o->a, T_WCONST_LO, T_WCONST_HI);
		return true;
	case DEX_OP_CONST_STRING: case DEX_OP_CONST_STRING_JUMBO:
		set1(v, o->a, ref_of(v->f->t_string));
		return true;
	case DEX_OP_CONST_CLASS:
		set1(v, o->a, ref_of(v->f->t_class));
		return true;
	case DEX_OP_CONST_METHOD_HANDLE:
		set1(v, o->a, ref_of(v->f->t_mhandle));
		return true;
	case DEX_OP_CONST_METHOD_TYPE:
		set1(v, o->a, ref_of(v->f->t_mtype));
		return true;
	case DEX_OP_MONITOR_ENTER: case DEX_OP_MONITOR_EXIT:
		return monitor(v, o);
	case DEX_OP_CHECK_CAST:
		s = tdesc(v, o->idx, &len);
		if (desc_kind(s) != K_REF)
			return fail(v, "check-cast to a primitive type %.*s", (int)len, (const char *)s);
		if (!need(v, o->a, K_REF))
			return false;
		set1(v, o->a, MK(T_REF, o->idx));
		return true;
	case DEX_OP_INSTANCE_OF:
		s = tdesc(v, o->idx, &len);
		if (desc_kind(s) != K_REF)
			return fail(v, "instance-of a primitive type %.*s", (int)len, (const char *)s);
		if (!need(v, o->b, K_REF))
			return false;
		set1(v, o->a, T_BOOL);
		return true;
	case DEX_OP_ARRAY_LENGTH: {
		bool ok;
		array_of(v, o->b, &len, &ok);
		if (!ok)
			return false;
		set1(v, o->a, T_INT);
		return true;
	}
	case DEX_OP_NEW_INSTANCE:
		/* MarkUninitRefsAsInvalid: an older object from this new-instance is lost */
		v->work_done += v->nregs;
		for (uint32_t r = 0; r < v->nregs; r++)
			if (v->work.t[r] == MK(T_UNINIT, pc))
				set1(v, r, T_CONFLICT);
		set1(v, o->a, MK(T_UNINIT, pc));
		return true;
	case DEX_OP_NEW_ARRAY:
		if (!need(v, o->b, K_INT))
			return false;
		set1(v, o->a, MK(T_REF, o->idx));
		return true;
	case DEX_OP_FILLED_NEW_ARRAY: case DEX_OP_FILLED_NEW_ARRAY_RANGE:
		return filled_new_array(v, o);
	case DEX_OP_FILL_ARRAY_DATA: {
		bool ok;
		const uint8_t *comp = array_of(v, o->a, &len, &ok);
		if (!ok)
			return false;
		if (comp) {
			uint32_t at = (uint32_t)((int64_t)pc + o->target), width = unit(v, at + 1), want;
			switch (comp[0]) {
			case 'Z': case 'B': want = 1; break;
			case 'C': case 'S': want = 2; break;
			case 'I': case 'F': want = 4; break;
			case 'J': case 'D': want = 8; break;
			default: return fail(v, "fill-array-data on an array of references");
			}
			if (width != want)
				return fail(v, "fill-array-data of %u-byte elements into an array of %c", width, comp[0]);
		}
		return true;
	}
	case DEX_OP_THROW:
		t = get(v, o->a);
		if (!need(v, o->a, K_REF))
			return false;
		if (KIND(t) == T_REF && tdesc(v, AUX(t), &len)[0] == '[')
			return bad_reg(v, o->a, "a Throwable");
		return true;
	case DEX_OP_GOTO: case DEX_OP_GOTO_16: case DEX_OP_GOTO_32:
		return true;
	case DEX_OP_PACKED_SWITCH: case DEX_OP_SPARSE_SWITCH:
		return need(v, o->a, K_INT);
	case DEX_OP_IF_EQ: case DEX_OP_IF_NE: {
		uint32_t a = get(v, o->a), b = get(v, o->b);
		bool ok = KIND(a) == T_ZERO ? is_ref(b) || is_int(b) : is_ref(a) ? is_ref(b) : is_int(a) && is_int(b);
		if (!ok) {
			char b1[200], b2[200];
			return fail(v, "v%u and v%u (%s, %s) must both be references or both int", o->a, o->b,
			            tname(v, a, b1, sizeof b1), tname(v, b, b2, sizeof b2));
		}
		return true;
	}
	case DEX_OP_IF_LT: case DEX_OP_IF_GE: case DEX_OP_IF_GT: case DEX_OP_IF_LE:
		return need(v, o->a, K_INT) && need(v, o->b, K_INT);
	case DEX_OP_IF_EQZ: case DEX_OP_IF_NEZ:
		t = get(v, o->a);
		return is_ref(t) || is_int(t) || bad_reg(v, o->a, "int or a reference");
	case DEX_OP_IF_LTZ: case DEX_OP_IF_GEZ: case DEX_OP_IF_GTZ: case DEX_OP_IF_LEZ:
		return need(v, o->a, K_INT);
	default:
		break;
	}
	if (op >= DEX_OP_AGET && op <= DEX_OP_APUT_SHORT)
		return array_op(v, o);
	if (op >= DEX_OP_IGET && op <= DEX_OP_SPUT_SHORT)
		return field_op(v, o);
	if (dex_op_has(op, DEX_OPF_INVOKE))
		return invoke(v, o);
	if (is_arith(op)) {
		arith k = arith_of(op);
		if (op >= 0xb0 && op <= 0xcf) {
			if (!need_k(v, o->a, k.src1) || !need_k(v, o->b, k.src2))
				return false;
		} else if (o->fmt == DF_12x || o->fmt == DF_22s || o->fmt == DF_22b) {
			if (!need_k(v, o->b, k.src1))
				return false;
		} else if (!need_k(v, o->b, k.src1) || !need_k(v, o->c, k.src2)) {
			return false;
		}
		/* CheckBinaryOp, CheckLiteralOp with check_boolean_op: and, or, xor of two
		 * booleans (or of a boolean and 0 or 1) is a boolean; int-to-byte, -char,
		 * -short give those types */
		bool logic = (op >= 0x95 && op <= 0x97) || (op >= 0xb5 && op <= 0xb7) || (op >= 0xd5 && op <= 0xd7) ||
		             (op >= 0xdd && op <= 0xdf);
		bool boolean = logic && (o->fmt == DF_22s || o->fmt == DF_22b ? is_bool_t(get(v, o->b)) && (o->lit == 0 || o->lit == 1)
		                         : o->fmt == DF_12x ? is_bool_t(get(v, o->a)) && is_bool_t(get(v, o->b))
		                                            : is_bool_t(get(v, o->b)) && is_bool_t(get(v, o->c)));
		if (boolean)
			set1(v, o->a, T_BOOL);
		else if (op >= 0x8d && op <= 0x8f)
			set1(v, o->a, op == 0x8d ? T_BYTE : op == 0x8e ? T_CHAR : T_SHORT);
		else
			set_k(v, o->a, k.dst);
		return true;
	}
	return fail(v, "unexpected opcode");
}

/* --- the fixed point --------------------------------------------------------------- */

static bool handler_catches_all(const vm *v, const dex_handler *h)
{
	if (h->catch_all != DEX_NO_INDEX)
		return true;
	for (uint32_t k = 0; k < h->n; k++)
		if (h->catches[k].type == v->f->t_throwable && v->f->t_throwable != NONE)
			return true;
	return false;
}


/* Walks from the stored line at lpc[li] until a goto, a return or the next stored line. */
static bool walk(vm *v, uint32_t li)
{
	line_copy(v, &v->work, &v->lines[li]);
	uint32_t pc = v->lpc[li];
	for (uint32_t k = v->at[pc];; k++) {
		const dex_insn *o = &v->ins[k];
		uint32_t size = o->size;
		v->pc = pc;
		v->op = o->op;
		v->work_done++;
		if (o->fmt == DF_PAYLOAD)
			return fail(v, "execution reaches a payload");
		uint32_t flags = dex_op_table[o->op].flags;
		/* monitor-exit counts as not throwing (ART: it cannot fail once locking is
		 * verified), so it has no exception edges and needs no catch-all */
		bool throws = (flags & DEX_OPF_CAN_THROW) && o->op != DEX_OP_MONITOR_EXIT;
		bool in_try = throws && (v->fl[pc] & F_TRY);
		const dex_handler *h = in_try ? &v->code->handlers[v->tryh[pc]] : NULL;
		/* a throw leaves before the instruction changes a register: its handlers get the
		 * line from before it (merged first, which saves a copy) */
		for (uint32_t j = 0; h && j <= h->n; j++) {
			uint32_t addr = j < h->n ? h->catches[j].addr : h->catch_all;
			if (addr != DEX_NO_INDEX)
				merge_into(v, addr, &v->work);
		}
		if (!step(v, pc, o))
			return false;
		if (!(flags & DEX_OPF_HAS_RESULT)) {
			v->work.t[v->nregs] = T_UNDEF;
			v->work.t[v->nregs + 1] = T_UNDEF;
		}
		/* Beyond ART (--strict-monitors): a throw here leaves the method with the lock
		 * held, as when an instrumenter splits a probe out of d8's synchronized try */
		if (throws && !in_try && v->f->strict_monitors && v->work.depth &&
		    !(o->op == DEX_OP_MONITOR_ENTER && v->work.depth == 1))
			return fail(v, "STRICT: throwing instruction outside any try while a monitor is held "
			            "(ART accepts it; a throw here leaks the lock)");
		if (h) {
			if (v->work.depth && !handler_catches_all(v, h) &&
			    !(o->op == DEX_OP_MONITOR_ENTER && v->work.depth == 1))
				return fail(v, "expected to be within a catch-all for an instruction where a monitor is held");
		}
		if (flags & DEX_OPF_BRANCH) {
			merge_into(v, pc + (uint32_t)o->target, &v->work);
		} else if (flags & DEX_OPF_SWITCH) {
			uint32_t at = (uint32_t)((int64_t)pc + o->target);
			for (uint32_t i = 0; i < switch_count(v, at); i++)
				merge_into(v, (uint32_t)switch_target(v, pc, at, i), &v->work);
		}
		if (flags & DEX_OPF_GOTO)
			return true;
		uint32_t next = pc + size;
		if (next >= v->n)
			return fail(v, "execution falls off the end of the code");
		if ((uint8_t)unit(v, next) == DEX_OP_MOVE_EXCEPTION)
			return fail(v, "invalid use of move-exception: reached by fall-through from %u", pc);
		if (v->fl[next] & F_LEADER) {
			merge_into(v, next, &v->work);
			return true;
		}
		pc = next;
	}
}

static bool entry_line(vm *v, const dex_emethod *m)
{
	line *l = &v->lines[0];
	for (uint32_t r = 0; r < v->nt; r++)
		l->t[r] = T_UNDEF;
	if (v->has_mon)
		memset(l->lk, 0, (v->nregs + 1) * sizeof *l->lk);
	l->depth = 0;
	l->this_init = !v->is_init;
	uint32_t r = v->nregs - v->code->ins;
	if (!v->is_static)
		l->t[r++] = v->is_init ? T_UNINIT_THIS : MK(T_REF, v->cls_type);
	const dex_tlist *params = v->d->protos.v[v->d->methods.v[m->idx].proto].params;
	for (uint32_t p = 0; params && p < params->n; p++) {
		uint32_t len;
		const uint8_t *s = tdesc(v, params->types[p], &len);
		switch (desc_kind(s)) {
		case K_INT: case K_FLOAT: l->t[r++] = prim_type(s[0]); break;
		case K_LONG: l->t[r++] = T_LONG_LO; l->t[r++] = T_LONG_HI; break;
		case K_DOUBLE: l->t[r++] = T_DOUBLE_LO; l->t[r++] = T_DOUBLE_HI; break;
		default: l->t[r++] = MK(T_REF, params->types[p]); break;
		}
	}
	l->valid = true;
	v->changed[0] = 1;
	return true;
}

int dex_verify_method(const dex_verify_file *f, const dex_class *cls, const dex_emethod *m, arena *a,
                      dex_verify_result *out)
{
	memset(out, 0, offsetof(dex_verify_result, msg)); /* the messages' buffers need no clearing */
	out->msg[0] = out->lock_msg[0] = '\0';
	const dex_file *d = f->d;
	static const dex_code none;
	const dex_code *c = m->code ? m->code : &none;
	vm v = {.f = f, .d = d, .code = c, .insns = c->insns, .n = c->ninsns, .nregs = c->regs,
	        .nt = (uint32_t)c->regs + 2, .midx = m->idx, .res = out, .a = a, .pc = NONE};
	const dex_mid *mid = &d->methods.v[m->idx];
	v.cls_type = cls->type;
	v.cls = cls;
	v.ret_type = d->protos.v[mid->proto].ret;
	uint32_t len;
	v.ret = tdesc(&v, v.ret_type, &len);
	v.is_static = (m->flags & DACC_STATIC) != 0;
	v.is_init = !v.is_static && str_is(d, mid->name, f->s_init, "<init>") && cls->type != f->t_object;
	if (!f->kinds_ok) {
		fail(&v, "internal: the checker's arithmetic kinds disagree with dex_op's wide flags");
		return 0;
	}
	if (!m->code) {
		dex_verify_no_code_checks(&v, m);
		return 0;
	}

	if (v.n > MAX_AUX) { /* AUX holds a pc */
		fail(&v, "code of %u units is too large", v.n);
		goto done;
	}
	v.fl = arena_zalloc(a, v.n ? v.n : 1);
	v.tryh = arena_array(a, v.n ? v.n : 1, sizeof *v.tryh);
	v.ins = arena_array(a, v.n ? v.n : 1, sizeof *v.ins);
	v.at = arena_array(a, v.n ? v.n : 1, sizeof *v.at);
	if (!v.fl || !v.tryh || !v.ins || !v.at)
		return TC_ENOMEM;
	if (!dex_verify_static_checks(&v, m, proto_words(&v, mid->proto, v.is_static)))
		goto done;
	v.lead = arena_array(a, v.n, sizeof *v.lead);
	if (!v.lead)
		return TC_ENOMEM;
	/* the budget (DEX_VERIFY_WORK_FACTOR), and the register lines' memory, before taking
	 * it */
	uint64_t size = (uint64_t)v.n + (uint64_t)v.nt * (v.edges + v.nlines + 1);
	uint64_t budget = size * f->work_factor;
	if (budget > DEX_VERIFY_MAX_WORK)
		budget = DEX_VERIFY_MAX_WORK;
	size_t line_bytes = (size_t)v.nt * sizeof(uint32_t) + (v.has_mon ? (size_t)(v.nregs + 1) * sizeof(uint32_t) : 0);
	out->size = size;
	if (size > DEX_VERIFY_MAX_WORK) {
		too_costly(&v, "a size of", size, DEX_VERIFY_MAX_WORK);
		goto done;
	}
	if ((size_t)(v.nlines + 2) * line_bytes > DEX_VERIFY_MAX_LINE_BYTES) {
		too_costly(&v, "register lines of (bytes)", (uint64_t)(v.nlines + 2) * line_bytes,
		           DEX_VERIFY_MAX_LINE_BYTES);
		goto done;
	}
	v.lpc = arena_array(a, v.nlines, sizeof *v.lpc);
	v.lines = arena_zalloc(a, v.nlines * sizeof *v.lines);
	v.changed = arena_zalloc(a, v.nlines);
	if (!v.lpc || !v.lines || !v.changed)
		return TC_ENOMEM;
	/* leaders are instruction starts; lead[] is read at leaders only */
	for (uint32_t k = 0, pc = 0, i = 0; k < v.nins; pc += v.ins[k++].size) {
		if (v.fl[pc] & F_LEADER) {
			v.lpc[i] = pc;
			v.lead[pc] = i++;
		}
	}
	for (uint32_t i = 0; i < v.nlines; i++)
		if (!line_alloc(&v, &v.lines[i]))
			return TC_ENOMEM;
	if (!line_alloc(&v, &v.work))
		return TC_ENOMEM;
	entry_line(&v, m);
	/* Like ART: take the next changed line at or after the last one, wrapping around. */
	uint32_t cur = 0;
	for (;;) {
		uint32_t i, k;
		for (k = 0, i = cur; k < v.nlines; k++, i = i + 1 == v.nlines ? 0 : i + 1)
			if (v.changed[i])
				break;
		v.work_done += k;
		if (k == v.nlines)
			break;
		if (v.work_done > budget) {
			too_costly(&v, "work of", v.work_done, budget);
			break;
		}
		v.changed[i] = 0;
		cur = i;
		if (!walk(&v, i))
			break;
	}
done:
	out->work = v.work_done;
	return 0;
}

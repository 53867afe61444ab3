/* Every allocation that can fail, failing: the arenas' and the output buffer's limits
 * set to every value from nothing up to what a small class needs. Each parse, edit and
 * write must then succeed or fail with TC_ENOMEM, its status and error record must
 * agree, a refused edit must leave the method as it was, and (under ASan) nothing may
 * crash or leak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* A small class with most of what the editor relocates: a constructor calling
 * this(c ? 1 : 2), a loop with a tableswitch, an exception handler, frames, line
 * numbers and local variables. */
static uint8_t *small_class(size_t *len)
{
	bld *b = bld_new(52, 0);
	bld_this(b, bld_class(b, "N"));
	uint16_t obj = bld_methodref(b, "java/lang/Object", "<init>", "()V");
	uint16_t ti = bld_methodref(b, "N", "<init>", "(I)V");
	uint16_t ae = bld_class(b, "java/lang/ArithmeticException");
	uint16_t nx = bld_utf8(b, "x"), di = bld_utf8(b, "I");
	bld_method_code(b, ACC_PUBLIC, "<init>", "(I)V", 1, 2, BYTES(OP_ALOAD_0, OP_INVOKESPECIAL, U2(obj), OP_RETURN));
	bld_method *m = bld_method_code(b, ACC_PUBLIC, "<init>", "(Z)V", 2, 2,
	                                BYTES(OP_ALOAD_0, OP_ILOAD_1, OP_IFEQ, U2(7), OP_ICONST_1, OP_GOTO, U2(4),
	                                      OP_ICONST_2, OP_INVOKESPECIAL, U2(ti), OP_RETURN));
	bld_code_attr(m, "StackMapTable",
	              BYTES(0, 2, 255, U2(9), U2(2), VT_UNINIT_THIS, VT_INT, U2(1), VT_UNINIT_THIS, 255, U2(0), U2(2),
	                    VT_UNINIT_THIS, VT_INT, U2(2), VT_UNINIT_THIS, VT_INT));
	/* static int f(int x): 0 iload_0 1 tableswitch(0..1) 24 iinc 27 goto ->0
	 * 30 iconst_1 31 ireturn | 32 iload_0 33 iconst_2 34 idiv 35 ireturn | handler
	 * 36 pop 37 iconst_0 38 ireturn */
	uint8_t code[] = {OP_ILOAD_0, OP_TABLESWITCH, 0, 0, U4(29), U4(0), U4(1), U4(23), U4(31),
	                  OP_IINC, 0, 0xff, OP_GOTO, U2(-27), OP_ICONST_1, OP_IRETURN, OP_ILOAD_0, OP_ICONST_2,
	                  OP_IDIV, OP_IRETURN, OP_POP, OP_ICONST_0, OP_IRETURN};
	m = bld_method_code(b, ACC_STATIC, "f", "(I)I", 2, 1, code, sizeof code);
	bld_exc(m, 32, 36, 36, ae);
	/* frames: 0 same, 24 same, 30 same, 32 same, 36 same_locals_1 [AE] */
	bld_code_attr(m, "StackMapTable", BYTES(0, 5, 0, 23, 5, 1, 64 + 3, 7, U2(ae)));
	bld_code_attr(m, "LineNumberTable", BYTES(0, 2, U2(0), U2(1), U2(32), U2(2)));
	bld_code_attr(m, "LocalVariableTable", BYTES(0, 1, U2(0), U2(39), U2(nx), U2(di), U2(0)));
	uint8_t *bytes = bld_finish(b, len);
	bld_free(b);
	return bytes;
}

/* The edits of tc-stress on one method: entry (after this-init in constructors),
 * before returns, an outermost handler, and optionally long branches. */
static int edit(cf_class *cls, cf_member *m, arena *scratch, bool longb, tc_error *err)
{
	code_editor *ed;
	int rc = code_open(&ed, cls, m, scratch, err);
	if (rc != TC_OK)
		return rc;
	uint32_t start = 0;
	if (cp_utf8_eq(&cls->cp, m->name, "<init>")) {
		uint32_t init;
		if ((rc = code_this_init(ed, &init, err)) != TC_OK)
			return rc;
		start = init + 1;
	}
	uint16_t p = cp_add_methodref(&cls->cp, "N", "p", "(I)V", false, err);
	if (!p)
		return err->code;
	uint8_t seq[] = {OP_SIPUSH, U2(7), OP_INVOKESTATIC, U2(p)};
	if ((rc = code_insert(ed, start, CODE_FALLTHROUGH, seq, sizeof seq, err)) != TC_OK)
		return rc;
	for (uint32_t i = 0; i < code_ninsns(ed); i++) {
		if (cf_op_has(code_insn(ed, i)->op, OPF_RETURN) &&
		    (rc = code_insert(ed, i, CODE_AT_TARGET, seq, sizeof seq, err)) != TC_OK)
			return rc;
		if (code_depth(ed, i) < -1)
			return -99;
	}
	uint8_t h[] = {OP_SIPUSH, U2(7), OP_INVOKESTATIC, U2(p), OP_ATHROW};
	if ((rc = code_add_handler(ed, start, code_ninsns(ed), 0, h, sizeof h, err)) != TC_OK)
		return rc;
	code_force_long_branches(ed, longb);
	return code_commit(ed, err);
}

/* Parses, edits every method, writes; with the class arena, the scratch arena and the
 * output buffer limited. Returns true when everything succeeded. */
static bool run(const uint8_t *bytes, size_t len, size_t class_limit, size_t scratch_limit, size_t buf_limit,
                bool longb, const char *what)
{
	arena a, s;
	arena_init(&a);
	arena_init(&s);
	a.limit = class_limit;
	s.limit = scratch_limit;
	tc_error err;
	tc_error_clear(&err);
	cf_class cls;
	bool ok = false;
	int rc = cf_parse(&cls, &a, bytes, len, &err);
	cr_assert(rc == TC_OK || rc == TC_ENOMEM, "%s: parse %d %s", what, rc, err.message);
	cr_assert_eq(rc, err.code, "%s: parse status %d, record %d", what, rc, err.code);
	if (rc != TC_OK)
		goto done;
	bool all = true;
	for (uint32_t i = 0; i < cls.nmethods; i++) {
		cf_member *m = &cls.methods[i];
		cf_attr *ca = cf_method_code(&cls, m);
		const uint8_t *data = ca->data;
		uint32_t alen = ca->len;
		arena_reset(&s);
		tc_error_clear(&err);
		rc = edit(&cls, m, &s, longb, &err);
		cr_assert(rc == TC_OK || rc == TC_ENOMEM, "%s: method %u: %d %s", what, i, rc, err.message);
		cr_assert_eq(rc, err.code, "%s: method %u: status %d, record %d (%s)", what, i, rc, err.code, err.message);
		if (rc != TC_OK) {
			all = false;
			cr_assert(ca->data == data && ca->len == alen, "%s: method %u changed by a failed edit", what, i);
		}
	}
	tc_buf out;
	buf_init(&out);
	out.limit = buf_limit;
	tc_error_clear(&err);
	rc = cf_write(&cls, &out, &err);
	cr_assert(rc == TC_OK || rc == TC_ENOMEM, "%s: write %d", what, rc);
	cr_assert_eq(rc, err.code);
	if (rc == TC_OK) {
		/* whatever was edited or not, the class is whole */
		arena c;
		arena_init(&c);
		cf_class again;
		tc_error e2;
		tc_error_clear(&e2);
		cr_assert_eq(cf_parse(&again, &c, out.data, out.len, &e2), TC_OK, "%s: %s", what, e2.message);
		arena_free(&c);
		ok = all;
	}
	buf_free(&out);
done:
	arena_free(&a);
	arena_free(&s);
	return ok;
}

/* How much each part needs when nothing fails. */
static void needs(const uint8_t *bytes, size_t len, size_t *class_total, size_t *scratch_peak, size_t *out_len)
{
	arena a, s;
	arena_init(&a);
	arena_init(&s);
	tc_error err;
	tc_error_clear(&err);
	cf_class cls;
	cr_assert_eq(cf_parse(&cls, &a, bytes, len, &err), TC_OK);
	for (uint32_t i = 0; i < cls.nmethods; i++) {
		arena_reset(&s);
		tc_error_clear(&err);
		int rc = edit(&cls, &cls.methods[i], &s, true, &err);
		cr_assert_eq(rc, TC_OK, "method %u: %s", i, err.message);
	}
	*class_total = a.total;
	*scratch_peak = s.peak;
	tc_buf out;
	buf_init(&out);
	cr_assert_eq(cf_write(&cls, &out, &err), TC_OK);
	*out_len = out.len;
	buf_free(&out);
	arena_free(&a);
	arena_free(&s);
}

Test(nomem, class_arena_every_limit)
{
	size_t len;
	uint8_t *bytes = small_class(&len);
	size_t ctotal, speak, olen;
	needs(bytes, len, &ctotal, &speak, &olen);
	cr_assert_gt(ctotal, 0);
	/* arena limit 0 means "none": start at 1; totals are multiples of 16 */
	size_t succeeded = 0;
	for (size_t lim = 1; lim <= ctotal + 32; lim += 8) {
		char what[64];
		snprintf(what, sizeof what, "class arena limit %zu", lim);
		if (run(bytes, len, lim, 0, 0, lim % 16 == 1, what))
			succeeded++;
	}
	cr_assert_gt(succeeded, 0, "the last limits are enough");
	cr_assert(run(bytes, len, ctotal, 0, 0, true, "exactly enough"));
	free(bytes);
}

Test(nomem, scratch_arena_every_limit)
{
	size_t len;
	uint8_t *bytes = small_class(&len);
	size_t ctotal, speak, olen;
	needs(bytes, len, &ctotal, &speak, &olen);
	for (size_t lim = 1; lim <= speak + 32; lim += 8) {
		char what[64];
		snprintf(what, sizeof what, "scratch limit %zu", lim);
		bool ok = run(bytes, len, 0, lim, 0, true, what);
		cr_assert(ok || lim < speak, "%s fails though it is enough", what);
	}
	cr_assert(run(bytes, len, 0, speak, 0, true, "exactly enough scratch"));
	free(bytes);
}

Test(nomem, output_buffer_every_limit)
{
	size_t len;
	uint8_t *bytes = small_class(&len);
	size_t ctotal, speak, olen;
	needs(bytes, len, &ctotal, &speak, &olen);
	for (size_t lim = 1; lim < olen; lim++) {
		char what[64];
		snprintf(what, sizeof what, "buffer limit %zu", lim);
		cr_assert_not(run(bytes, len, 0, 0, lim, true, what), "%s: a short buffer cannot hold the class", what);
	}
	cr_assert(run(bytes, len, 0, 0, olen, true, "exact buffer"));
	free(bytes);
}

/* Parsing alone, on a class that takes more arena than its bytes: every limit below
 * what parsing needs fails with TC_ENOMEM at some offset, never another error. */
Test(nomem, parse_every_limit)
{
	size_t len;
	uint8_t *bytes = small_class(&len);
	arena a;
	arena_init(&a);
	cf_class cls;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(cf_parse(&cls, &a, bytes, len, &err), TC_OK);
	size_t need = a.total;
	arena_free(&a);
	for (size_t lim = 1; lim < need; lim += 16) {
		arena_init(&a);
		a.limit = lim;
		tc_error_clear(&err);
		int rc = cf_parse(&cls, &a, bytes, len, &err);
		cr_assert_eq(rc, TC_ENOMEM, "limit %zu of %zu: %d %s", lim, need, rc, err.message);
		cr_assert_neq(err.part[0], 0);
		arena_free(&a);
	}
	free(bytes);
}

Test(nomem, arena_and_buffer_primitives)
{
	arena a;
	arena_init(&a);
	a.limit = 64;
	cr_assert_not_null(arena_alloc(&a, 48));
	cr_assert_null(arena_alloc(&a, 17), "48 + 32 > 64");
	cr_assert_not_null(arena_alloc(&a, 16));
	cr_assert_null(arena_alloc(&a, 1));
	cr_assert_null(arena_array(&a, SIZE_MAX / 2, 4), "overflow");
	a.limit = 0;
	cr_assert_null(arena_alloc(&a, SIZE_MAX - 8), "too large");
	cr_assert_null(arena_array(&a, SIZE_MAX / 2, 4));
	void *p = arena_alloc(&a, 100000);
	cr_assert_not_null(p, "larger than a chunk");
	cr_assert_eq((uintptr_t)p % 16, 0);
	uint8_t *g = arena_grow(&a, NULL, 0, 10);
	memcpy(g, "0123456789", 10);
	uint8_t *g2 = arena_grow(&a, g, 10, 20);
	cr_assert(!memcmp(g2, "0123456789", 10));
	cr_assert_eq(arena_grow(&a, g2, 20, 5), g2, "shrinking keeps the block");
	size_t peak = a.peak;
	arena_reset(&a);
	cr_assert_eq(a.total, 0);
	cr_assert_eq(a.peak, peak);
	cr_assert_not_null(arena_zalloc(&a, 32));
	arena_free(&a);

	tc_buf b;
	buf_init(&b);
	b.limit = 5;
	buf_u4(&b, 1);
	cr_assert_eq(b.err, TC_OK);
	buf_u2(&b, 1);
	cr_assert_eq(b.err, TC_ENOMEM);
	buf_u4(&b, 1);
	buf_u1(&b, 1);
	cr_assert_eq(b.err, TC_ENOMEM, "sticky");
	cr_assert_leq(b.len, 5, "never past the limit");
	buf_clear(&b);
	cr_assert_eq(b.err, TC_OK);
	buf_bytes(&b, "abcde", 5);
	cr_assert(b.len == 5 && !memcmp(b.data, "abcde", 5));
	size_t n;
	uint8_t *taken = buf_take(&b, &n);
	cr_assert_eq(n, 5);
	cr_assert_null(b.data);
	free(taken);
	buf_free(&b);
}

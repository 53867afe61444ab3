/* The code editor, one test per operation and per offset-bearing structure. Every
 * expected byte (code, exception table, StackMapTable, debug tables, type annotations)
 * is worked out by hand from the JVMS encodings and the layout rule of code.h:
 *
 *     [fall-through code of i] [at-target code of i] [instruction i]
 *
 * Each edited class is also written to $TC_VERIFY_OUT when set, where the suite
 * corpus test `editor-verify` has HotSpot verify all of them (-Xverify:all). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* --- harness -------------------------------------------------------------------------- */

static bld *new_class(const char *name, uint16_t major)
{
	bld *b = bld_new(major, 0);
	bld_this(b, bld_class(b, name));
	bld_default_init(b);
	return b;
}

typedef struct edt {
	tcls t;     /* the class being edited */
	tcls u;     /* the edited class, written and read back */
	arena s;
	code_editor *ed;
	tc_error err;
} edt;

static code_editor *begin(edt *e, bld *b, const char *method)
{
	memset(e, 0, sizeof *e);
	tc_build(&e->t, b);
	arena_init(&e->s);
	e->ed = tc_open(&e->t, &e->s, method);
	tc_error_clear(&e->err);
	return e->ed;
}

/* Commits, reads the result back into e->u and hands it to HotSpot (tc_emit). */
static void commit(edt *e)
{
	tc_error_clear(&e->err);
	int rc = code_commit(e->ed, &e->err);
	expect_ok(rc, e->err);
	tc_reparse(&e->t, &e->u);
	tc_emit(&e->u);
}

static void end(edt *e)
{
	arena_free(&e->s);
	tc_drop(&e->t);
	if (e->u.bytes)
		tc_drop(&e->u);
}

static void ins(edt *e, uint32_t i, enum code_place where, const uint8_t *bytes, size_t len)
{
	tc_error_clear(&e->err);
	int rc = code_insert(e->ed, i, where, bytes, (uint32_t)len, &e->err);
	expect_ok(rc, e->err);
}

static void handler(edt *e, uint32_t from, uint32_t to, uint16_t type, const uint8_t *bytes, size_t len)
{
	tc_error_clear(&e->err);
	int rc = code_add_handler(e->ed, from, to, type, bytes, (uint32_t)len, &e->err);
	expect_ok(rc, e->err);
}

static void hex(char *out, size_t size, const uint8_t *p, size_t n)
{
	size_t k = 0;
	out[0] = 0;
	for (size_t i = 0; i < n && k + 4 < size; i++)
		k += (size_t)snprintf(out + k, size - k, "%02x ", p[i]);
}

static void same_bytes(const char *what, const uint8_t *got, size_t ngot, const uint8_t *want, size_t nwant)
{
	if (ngot == nwant && memcmp(got, want, nwant) == 0)
		return;
	char g[1024], w[1024];
	hex(g, sizeof g, got, ngot > 200 ? 200 : ngot);
	hex(w, sizeof w, want, nwant > 200 ? 200 : nwant);
	size_t at = 0;
	while (at < ngot && at < nwant && got[at] == want[at])
		at++;
	cr_assert_fail("%s: %zu bytes, want %zu; first difference at %zu\n got: %s\nwant: %s", what, ngot,
	               nwant, at, g, w);
}

static void expect_code(tcls *t, const char *m, const uint8_t *want, size_t n)
{
	cf_code c = tc_code(t, m);
	same_bytes("code", c.code, c.len, want, n);
}

static void expect_attr(tcls *t, const char *m, const char *name, const uint8_t *want, size_t n)
{
	const cf_attr *at = tc_code_attr(t, m, name);
	cr_assert_not_null(at, "%s has no %s", m, name);
	same_bytes(name, at->data, at->len, want, n);
}

static void expect_exc(tcls *t, const char *m, uint32_t k, uint16_t start, uint16_t end_, uint16_t h, uint16_t type)
{
	cf_code c = tc_code(t, m);
	cr_assert_lt(k, c.nexc, "exception entry %u of %u", k, c.nexc);
	cr_assert(c.exc[k].start == start && c.exc[k].end == end_ && c.exc[k].handler == h &&
	          c.exc[k].type == type,
	          "exception entry %u: %u..%u -> %u type %u, want %u..%u -> %u type %u", k, c.exc[k].start,
	          c.exc[k].end, c.exc[k].handler, c.exc[k].type, start, end_, h, type);
}

static uint16_t class_index(tcls *t, const char *name)
{
	for (uint32_t i = 1; i < t->cls.cp.count; i++) {
		uint32_t len;
		const uint8_t *n = cp_class_name(&t->cls.cp, i, &len);
		if (n && len == strlen(name) && !memcmp(n, name, len))
			return (uint16_t)i;
	}
	cr_assert_fail("no Class %s in the pool", name);
	return 0;
}

/* The written class equals the input byte for byte (nothing changed). */
static void unchanged(tcls *t)
{
	size_t n;
	uint8_t *out = tc_write(t, &n);
	same_bytes("class", out, n, t->bytes, t->len);
	free(out);
}

#define SIPUSH_POP(v) OP_SIPUSH, U2(v), OP_POP

/* --- method entry ----------------------------------------------------------------------- */

/* static void loop(int x) { do x--; while (x > 0); } with the loop head at offset 0:
 * code put at entry runs once; the back branch lands after it. */
Test(editor, entry_insertion_not_rerun_by_loop)
{
	bld *b = new_class("E1", 52);
	bld_method *m = bld_method_code(b, ACC_STATIC, "loop", "(I)V", 1, 1,
	                                BYTES(OP_IINC, 0, 0xff, OP_ILOAD_0, OP_IFGT, U2(-4), OP_RETURN));
	bld_code_attr(m, "StackMapTable", BYTES(0, 1, 0)); /* same_frame at 0 */
	edt e;
	begin(&e, b, "loop");
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(SIPUSH_POP(0x1234)));
	commit(&e);
	/* 0: sipush; 3: pop; 4: iinc; 7: iload_0; 8: ifgt -> 4 (not 0); 11: return */
	expect_code(&e.u, "loop", BYTES(OP_SIPUSH, 0x12, 0x34, OP_POP, OP_IINC, 0, 0xff, OP_ILOAD_0, OP_IFGT,
	                                U2(-4), OP_RETURN));
	expect_attr(&e.u, "loop", "StackMapTable", BYTES(0, 1, 4)); /* the frame moved to 4 */
	cr_assert_eq(tc_code(&e.u, "loop").max_stack, 1);
	end(&e);
}

/* --- at-target insertion before returns ------------------------------------------------- */

/* static void f(int x): three returns: one reached by falling through, one the
 * handler of [4,7), one the target of ifeq. Code before each return is reached by
 * every path that reached the return. */
Test(editor, before_returns_that_are_branch_and_handler_targets)
{
	bld *b = new_class("E2", 52);
	uint16_t g = bld_methodref(b, "E2", "g", "()V");
	uint16_t p = bld_methodref(b, "E2", "p", "()V");
	uint16_t thr = bld_class(b, "java/lang/Throwable");
	bld_method_code(b, ACC_STATIC, "g", "()V", 0, 0, BYTES(OP_RETURN));
	bld_method_code(b, ACC_STATIC, "p", "()V", 0, 0, BYTES(OP_RETURN));
	bld_method *m = bld_method_code(b, ACC_STATIC, "f", "(I)V", 1, 1,
	                                BYTES(OP_ILOAD_0, OP_IFEQ, U2(8), OP_INVOKESTATIC, U2(g), OP_RETURN,
	                                      OP_RETURN, OP_RETURN));
	bld_exc(m, 4, 7, 8, 0);
	/* 8: same_locals_1_stack_item [Throwable]; 9: same */
	bld_code_attr(m, "StackMapTable", BYTES(0, 2, 64 + 8, 7, U2(thr), 0));
	edt e;
	begin(&e, b, "f");
	cr_assert_eq(code_ninsns(e.ed), 6);
	for (uint32_t i = 0; i < code_ninsns(e.ed); i++)
		if (cf_op_has(code_insn(e.ed, i)->op, OPF_RETURN))
			ins(&e, i, CODE_AT_TARGET, BYTES(OP_INVOKESTATIC, U2(p)));
	commit(&e);
	expect_code(&e.u, "f",
	            BYTES(OP_ILOAD_0, OP_IFEQ, U2(14), OP_INVOKESTATIC, U2(g), OP_INVOKESTATIC, U2(p), OP_RETURN,
	                  OP_INVOKESTATIC, U2(p), OP_RETURN, OP_INVOKESTATIC, U2(p), OP_RETURN));
	/* the protected range still ends before the first return's new code; the
	 * handler lands on the code before the second return */
	expect_exc(&e.u, "f", 0, 4, 7, 11, 0);
	expect_attr(&e.u, "f", "StackMapTable", BYTES(0, 2, 64 + 11, 7, U2(thr), 3));
	cr_assert_eq(tc_code(&e.u, "f").max_stack, 1);
	end(&e);
}

/* --- fall-through insertion -------------------------------------------------------------- */

Test(editor, fallthrough_insertion_skipped_by_jumps)
{
	bld *b = new_class("E3", 52);
	/* 0: iload_0 1: ifeq -> 5 4: nop 5: return */
	bld_method *m = bld_method_code(b, ACC_STATIC, "f", "(I)V", 1, 1,
	                                BYTES(OP_ILOAD_0, OP_IFEQ, U2(4), OP_NOP, OP_RETURN));
	bld_code_attr(m, "StackMapTable", BYTES(0, 1, 5));
	edt e;
	begin(&e, b, "f");
	ins(&e, 3, CODE_FALLTHROUGH, BYTES(OP_ICONST_0, OP_POP));
	commit(&e);
	/* the jump lands on the return, after the fall-through code */
	expect_code(&e.u, "f", BYTES(OP_ILOAD_0, OP_IFEQ, U2(6), OP_NOP, OP_ICONST_0, OP_POP, OP_RETURN));
	expect_attr(&e.u, "f", "StackMapTable", BYTES(0, 1, 7));
	end(&e);
}

Test(editor, fallthrough_refused_where_nothing_falls_through)
{
	bld *b = new_class("E3b", 52);
	/* 0: iload_0 1: ifeq -> 5 4: return 5: return */
	bld_method *m = bld_method_code(b, ACC_STATIC, "f", "(I)V", 1, 1, BYTES(OP_ILOAD_0, OP_IFEQ, U2(4), OP_RETURN, OP_RETURN));
	bld_code_attr(m, "StackMapTable", BYTES(0, 1, 5));
	edt e;
	begin(&e, b, "f");
	int rc = code_insert(e.ed, 3, CODE_FALLTHROUGH, BYTES(OP_NOP), &e.err);
	cf_code c = tc_code(&e.t, "f");
	expect_err(rc, e.err, TC_EARG, "Code", c.code_off + 5);
	/* at-target is fine there */
	ins(&e, 3, CODE_AT_TARGET, BYTES(OP_NOP));
	commit(&e);
	expect_code(&e.u, "f", BYTES(OP_ILOAD_0, OP_IFEQ, U2(4), OP_RETURN, OP_NOP, OP_RETURN));
	expect_attr(&e.u, "f", "StackMapTable", BYTES(0, 1, 5));
	end(&e);
}

Test(editor, insertions_keep_their_order)
{
	bld *b = new_class("E17", 52);
	bld_method_code(b, ACC_STATIC, "o", "()V", 0, 0, BYTES(OP_RETURN));
	edt e;
	begin(&e, b, "o");
	ins(&e, 0, CODE_AT_TARGET, BYTES(OP_NOP));
	ins(&e, 0, CODE_AT_TARGET, BYTES(OP_ICONST_0, OP_POP));
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(SIPUSH_POP(1)));
	ins(&e, 0, CODE_AT_TARGET, BYTES(OP_ACONST_NULL, OP_POP));
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(OP_ICONST_1, OP_POP));
	commit(&e);
	expect_code(&e.u, "o", BYTES(SIPUSH_POP(1), OP_ICONST_1, OP_POP, OP_NOP, OP_ICONST_0, OP_POP,
	                             OP_ACONST_NULL, OP_POP, OP_RETURN));
	cr_assert_eq(tc_code(&e.u, "o").max_stack, 1);
	end(&e);
}

/* --- handlers -------------------------------------------------------------------------- */

/* A handler appended after an existing one is outermost (later in the table), and its
 * frame has no locals and Throwable on the stack. */
Test(editor, handler_append_outermost)
{
	bld *b = new_class("E4", 52);
	uint16_t g = bld_methodref(b, "E4", "g", "(I)I");
	uint16_t p = bld_methodref(b, "E4", "p", "()V");
	uint16_t ae = bld_class(b, "java/lang/ArithmeticException");
	bld_method_code(b, ACC_STATIC, "g", "(I)I", 1, 1, BYTES(OP_ILOAD_0, OP_IRETURN));
	bld_method_code(b, ACC_STATIC, "p", "()V", 0, 0, BYTES(OP_RETURN));
	/* 0: iload_0 1: invokestatic g 4: ireturn | 5: astore_1 6: iconst_m1 7: ireturn */
	bld_method *m = bld_method_code(b, ACC_STATIC, "f", "(I)I", 1, 2,
	                                BYTES(OP_ILOAD_0, OP_INVOKESTATIC, U2(g), OP_IRETURN, OP_ASTORE_1,
	                                      OP_ICONST_M1, OP_IRETURN));
	bld_exc(m, 0, 4, 5, ae);
	bld_code_attr(m, "StackMapTable", BYTES(0, 1, 64 + 5, 7, U2(ae)));
	edt e;
	begin(&e, b, "f");
	handler(&e, 0, code_ninsns(e.ed), 0, BYTES(OP_INVOKESTATIC, U2(p), OP_ATHROW));
	commit(&e);
	expect_code(&e.u, "f", BYTES(OP_ILOAD_0, OP_INVOKESTATIC, U2(g), OP_IRETURN, OP_ASTORE_1, OP_ICONST_M1,
	                             OP_IRETURN, OP_INVOKESTATIC, U2(p), OP_ATHROW));
	expect_exc(&e.u, "f", 0, 0, 4, 5, ae);
	expect_exc(&e.u, "f", 1, 0, 8, 8, 0);
	cr_assert_eq(tc_code(&e.u, "f").nexc, 2);
	uint16_t thr = class_index(&e.u, "java/lang/Throwable");
	/* full_frame at 8 (delta 2): no locals, stack [Throwable] */
	expect_attr(&e.u, "f", "StackMapTable",
	            BYTES(0, 2, 64 + 5, 7, U2(ae), 255, U2(2), U2(0), U2(1), 7, U2(thr)));
	smt_frame *f;
	cr_assert_eq(tc_frames(&e.u, &e.s, "f", &f), 2);
	cr_assert(f[1].off == 8 && f[1].nlocals == 0 && f[1].nstack == 1);
	cr_assert(f[1].stack[0].tag == VT_OBJECT && f[1].stack[0].name_len == 19 &&
	          !memcmp(f[1].stack[0].name, "java/lang/Throwable", 19));
	cr_assert_eq(tc_code(&e.u, "f").max_stack, 1);
	end(&e);
}

/* A method with neither branches nor a StackMapTable gets one for its new handler. */
Test(editor, handler_creates_stack_map_table)
{
	bld *b = new_class("E4b", 52);
	uint16_t g = bld_methodref(b, "E4b", "g", "()V");
	uint16_t p = bld_methodref(b, "E4b", "p", "()V");
	uint16_t ex = bld_class(b, "java/lang/Exception");
	bld_method_code(b, ACC_STATIC, "g", "()V", 0, 0, BYTES(OP_RETURN));
	bld_method_code(b, ACC_STATIC, "p", "()V", 0, 0, BYTES(OP_RETURN));
	bld_method_code(b, ACC_STATIC, "h", "()V", 0, 0, BYTES(OP_INVOKESTATIC, U2(g), OP_RETURN));
	bld_method_code(b, ACC_STATIC, "k", "()V", 0, 0, BYTES(OP_INVOKESTATIC, U2(g), OP_RETURN));
	edt e;
	begin(&e, b, "h");
	handler(&e, 0, 2, 0, BYTES(OP_INVOKESTATIC, U2(p), OP_ATHROW));
	tc_error_clear(&e.err);
	expect_ok(code_commit(e.ed, &e.err), e.err);
	/* and k with a typed handler: its frame names that class */
	e.ed = tc_open(&e.t, &e.s, "k");
	handler(&e, 0, 2, ex, BYTES(OP_ATHROW));
	commit(&e);
	uint16_t thr = class_index(&e.u, "java/lang/Throwable");
	expect_code(&e.u, "h", BYTES(OP_INVOKESTATIC, U2(g), OP_RETURN, OP_INVOKESTATIC, U2(p), OP_ATHROW));
	expect_exc(&e.u, "h", 0, 0, 4, 4, 0);
	/* same_locals_1_stack_item at 4 */
	expect_attr(&e.u, "h", "StackMapTable", BYTES(0, 1, 64 + 4, 7, U2(thr)));
	expect_exc(&e.u, "k", 0, 0, 4, 4, ex);
	expect_attr(&e.u, "k", "StackMapTable", BYTES(0, 1, 64 + 4, 7, U2(ex)));
	cr_assert_eq(tc_code(&e.u, "h").max_stack, 1);
	end(&e);
}

/* Before version 50 there is no StackMapTable, and none is made. */
Test(editor, handler_in_old_class_has_no_frames)
{
	bld *b = new_class("E4c", 49);
	uint16_t g = bld_methodref(b, "E4c", "g", "()V");
	bld_method_code(b, ACC_STATIC, "g", "()V", 0, 0, BYTES(OP_RETURN));
	bld_method_code(b, ACC_STATIC, "h", "()V", 0, 0, BYTES(OP_INVOKESTATIC, U2(g), OP_RETURN));
	edt e;
	begin(&e, b, "h");
	handler(&e, 0, 2, 0, BYTES(OP_ATHROW));
	commit(&e);
	expect_code(&e.u, "h", BYTES(OP_INVOKESTATIC, U2(g), OP_RETURN, OP_ATHROW));
	expect_exc(&e.u, "h", 0, 0, 4, 4, 0);
	cr_assert_null(tc_code_attr(&e.u, "h", "StackMapTable"));
	cr_assert_eq(tc_code(&e.u, "h").nattrs, 0);
	end(&e);
}

/* Version 50 with branches and no table: the old verifier checks it (failover), so
 * the editor adds no partial table. */
Test(editor, version_50_without_table_stays_without)
{
	bld *b = new_class("E20", 50);
	bld_method_code(b, ACC_STATIC, "f", "(I)V", 1, 1, BYTES(OP_ILOAD_0, OP_IFEQ, U2(4), OP_NOP, OP_RETURN));
	edt e;
	begin(&e, b, "f");
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(OP_NOP));
	handler(&e, 0, 4, 0, BYTES(OP_ATHROW));
	commit(&e);
	expect_code(&e.u, "f", BYTES(OP_NOP, OP_ILOAD_0, OP_IFEQ, U2(4), OP_NOP, OP_RETURN, OP_ATHROW));
	expect_exc(&e.u, "f", 0, 1, 7, 7, 0);
	cr_assert_null(tc_code_attr(&e.u, "f", "StackMapTable"));
	end(&e);
}

Test(editor, handler_refusals)
{
	bld *b = new_class("E4e", 52);
	uint16_t s = bld_string(b, "x");
	bld_method_code(b, ACC_STATIC, "h", "()V", 0, 0, BYTES(OP_NOP, OP_RETURN));
	edt e;
	begin(&e, b, "h");
	struct {
		uint32_t from, to;
		uint16_t type;
		uint8_t code[4];
		uint32_t len;
	} bad[] = {
		{1, 1, 0, {OP_ATHROW}, 1},                 /* empty range */
		{0, 3, 0, {OP_ATHROW}, 1},                 /* past the end */
		{0, 2, s, {OP_ATHROW}, 1},                 /* catch type not a Class */
		{0, 2, 0, {OP_POP, OP_RETURN, OP_ATHROW}, 3}, /* return before the end */
		{0, 2, 0, {OP_POP}, 1},                    /* falls off its end */
		{0, 2, 0, {OP_POP, OP_POP, OP_RETURN}, 3}, /* pops more than there is */
		{0, 2, 0, {OP_ASTORE_0, OP_RETURN}, 2},    /* writes a local */
		{0, 2, 0, {OP_GOTO, U2(0)}, 3},            /* branches */
		{0, 2, 0, {0}, 0},                         /* empty */
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		tc_error_clear(&e.err);
		int rc = code_add_handler(e.ed, bad[k].from, bad[k].to, bad[k].type, bad[k].code, bad[k].len, &e.err);
		cr_assert_eq(rc, TC_EARG, "case %zu: %d %s", k, rc, e.err.message);
		cr_assert_eq(e.err.offset, TC_NO_OFFSET, "case %zu", k);
	}
	/* nothing was added */
	tc_error_clear(&e.err);
	expect_ok(code_commit(e.ed, &e.err), e.err);
	unchanged(&e.t);
	end(&e);
}

/* --- insertion refusals ------------------------------------------------------------------ */

Test(editor, insertion_refusals)
{
	bld *b = new_class("E18", 52);
	uint16_t u = bld_utf8(b, "u");
	uint16_t fr = bld_fieldref(b, "E18", "f", "J");
	bld_method_code(b, ACC_STATIC, "h", "(I)V", 2, 1, BYTES(OP_ILOAD_0, OP_POP, OP_RETURN));
	edt e;
	begin(&e, b, "h");
	struct {
		uint8_t code[6];
		uint32_t len;
	} bad[] = {
		{{OP_GOTO, U2(3)}, 3},
		{{OP_ICONST_0, OP_IFEQ, U2(3)}, 4},
		{{OP_ICONST_0, OP_ISTORE_0}, 2},
		{{OP_IINC, 0, 1}, 3},
		{{OP_RETURN}, 1},
		{{OP_ACONST_NULL, OP_ATHROW}, 2},
		{{OP_ICONST_0}, 1},               /* leaves a word */
		{{OP_POP}, 1},                    /* pops what is not its own */
		{{OP_GETSTATIC, U2(fr), OP_POP}, 4}, /* leaves a word of the long */
		{{0xcb}, 1},
		{{OP_SIPUSH, 0}, 2},
		{{OP_LDC, (uint8_t)u, OP_POP}, 3}, /* ldc of a Utf8 */
		{{OP_JSR, U2(0)}, 3},
		{{OP_ICONST_0, OP_TABLESWITCH}, 2},
		{{0}, 0},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		for (int where = 0; where < 2; where++) {
			tc_error_clear(&e.err);
			int rc = code_insert(e.ed, 1, where ? CODE_AT_TARGET : CODE_FALLTHROUGH, bad[k].code, bad[k].len,
			                     &e.err);
			cr_assert_eq(rc, TC_EARG, "case %zu: %d %s", k, rc, e.err.message);
			cr_assert_eq(e.err.code, TC_EARG);
			cr_assert_eq(e.err.offset, TC_NO_OFFSET, "case %zu: offset %u (%s)", k, e.err.offset, e.err.message);
		}
	}
	tc_error_clear(&e.err);
	int rc = code_insert(e.ed, 3, CODE_AT_TARGET, BYTES(OP_NOP), &e.err);
	cr_assert_eq(rc, TC_EARG, "no instruction 3");
	tc_error_clear(&e.err);
	expect_ok(code_commit(e.ed, &e.err), e.err);
	unchanged(&e.t);
	end(&e);
}

/* --- this-initialization ------------------------------------------------------------------ */

/* javac: T(int x) { super(); this.x = x; } */
Test(editor, this_init_javac_constructor)
{
	bld *b = new_class("E5a", 52);
	bld_field(b, 0, "x", "I");
	uint16_t obj = bld_methodref(b, "java/lang/Object", "<init>", "()V");
	uint16_t fx = bld_fieldref(b, "E5a", "x", "I");
	uint16_t p = bld_methodref(b, "E5a", "p", "()V");
	bld_method_code(b, ACC_STATIC, "p", "()V", 0, 0, BYTES(OP_RETURN));
	bld_method_code(b, ACC_PUBLIC, "<init>", "(I)V", 2, 2,
	                BYTES(OP_ALOAD_0, OP_INVOKESPECIAL, U2(obj), OP_ALOAD_0, OP_ILOAD_1, OP_PUTFIELD, U2(fx),
	                      OP_RETURN));
	edt e;
	begin(&e, b, "<init>(I)V");
	uint32_t init = 99;
	expect_ok(code_this_init(e.ed, &init, &e.err), e.err);
	cr_assert_eq(init, 1);
	ins(&e, init + 1, CODE_FALLTHROUGH, BYTES(SIPUSH_POP(7)));
	handler(&e, init + 1, code_ninsns(e.ed), 0, BYTES(OP_INVOKESTATIC, U2(p), OP_ATHROW));
	commit(&e);
	expect_code(&e.u, "<init>(I)V",
	            BYTES(OP_ALOAD_0, OP_INVOKESPECIAL, U2(obj), SIPUSH_POP(7), OP_ALOAD_0, OP_ILOAD_1, OP_PUTFIELD,
	                  U2(fx), OP_RETURN, OP_INVOKESTATIC, U2(p), OP_ATHROW));
	/* the handler covers only code after super(): from the label of insn 2 */
	expect_exc(&e.u, "<init>(I)V", 0, 8, 14, 14, 0);
	uint16_t thr = class_index(&e.u, "java/lang/Throwable");
	/* initial frame [UninitializedThis, int]; at 14 no locals, [Throwable] */
	expect_attr(&e.u, "<init>(I)V", "StackMapTable", BYTES(0, 1, 255, U2(14), U2(0), U2(1), 7, U2(thr)));
	cr_assert_eq(tc_code(&e.u, "<init>(I)V").max_stack, 2);
	end(&e);
}

/* T(boolean c) { this(c ? 1 : 2); }: uninitializedThis on both paths to the call. */
static bld *conditional_this(void)
{
	bld *b = new_class("E5b", 52);
	uint16_t obj = bld_methodref(b, "java/lang/Object", "<init>", "()V");
	uint16_t ti = bld_methodref(b, "E5b", "<init>", "(I)V");
	bld_method_code(b, ACC_PUBLIC, "<init>", "(I)V", 1, 2, BYTES(OP_ALOAD_0, OP_INVOKESPECIAL, U2(obj), OP_RETURN));
	/* 0: aload_0 1: iload_1 2: ifeq -> 9 5: iconst_1 6: goto -> 10 9: iconst_2
	 * 10: invokespecial E5b.<init>(I)V 13: return */
	bld_method *m = bld_method_code(b, ACC_PUBLIC, "<init>", "(Z)V", 2, 2,
	                                BYTES(OP_ALOAD_0, OP_ILOAD_1, OP_IFEQ, U2(7), OP_ICONST_1, OP_GOTO, U2(4),
	                                      OP_ICONST_2, OP_INVOKESPECIAL, U2(ti), OP_RETURN));
	/* 9: full [UninitializedThis, int] [UninitializedThis]
	 * 10: full [UninitializedThis, int] [UninitializedThis, int] */
	bld_code_attr(m, "StackMapTable",
	              BYTES(0, 2, 255, U2(9), U2(2), VT_UNINIT_THIS, VT_INT, U2(1), VT_UNINIT_THIS, 255, U2(0),
	                    U2(2), VT_UNINIT_THIS, VT_INT, U2(2), VT_UNINIT_THIS, VT_INT));
	return b;
}

Test(editor, this_init_through_a_conditional)
{
	edt e;
	begin(&e, conditional_this(), "<init>(Z)V");
	uint16_t p = cp_add_methodref(&e.t.cls.cp, "E5b", "p", "()V", false, &e.err);
	cr_assert_neq(p, 0);
	uint32_t init;
	expect_ok(code_this_init(e.ed, &init, &e.err), e.err);
	cr_assert_eq(init, 6);
	cr_assert_eq(code_insn(e.ed, init)->off, 10);
	ins(&e, init + 1, CODE_FALLTHROUGH, BYTES(SIPUSH_POP(7)));
	handler(&e, init + 1, code_ninsns(e.ed), 0, BYTES(OP_INVOKESTATIC, U2(p), OP_ATHROW));
	commit(&e);
	uint16_t ti = (uint16_t)get_u2(tc_code(&e.t, "<init>(Z)V").code + 11);
	expect_code(&e.u, "<init>(Z)V",
	            BYTES(OP_ALOAD_0, OP_ILOAD_1, OP_IFEQ, U2(7), OP_ICONST_1, OP_GOTO, U2(4), OP_ICONST_2,
	                  OP_INVOKESPECIAL, U2(ti), SIPUSH_POP(7), OP_RETURN, OP_INVOKESTATIC, U2(p), OP_ATHROW));
	expect_exc(&e.u, "<init>(Z)V", 0, 17, 18, 18, 0);
	uint16_t thr = class_index(&e.u, "java/lang/Throwable");
	expect_attr(&e.u, "<init>(Z)V", "StackMapTable",
	            BYTES(0, 3, 255, U2(9), U2(2), VT_UNINIT_THIS, VT_INT, U2(1), VT_UNINIT_THIS, 255, U2(0), U2(2),
	                  VT_UNINIT_THIS, VT_INT, U2(2), VT_UNINIT_THIS, VT_INT, 255, U2(7), U2(0), U2(1), 7, U2(thr)));
	end(&e);
}

/* The same with every branch in its long form: the frame after the inverted ifeq holds
 * uninitializedThis in a local and on the stack. */
Test(editor, long_branches_with_uninitialized_this)
{
	edt e;
	begin(&e, conditional_this(), "<init>(Z)V");
	uint16_t ti = (uint16_t)get_u2(tc_code(&e.t, "<init>(Z)V").code + 11);
	code_force_long_branches(e.ed, 1);
	commit(&e);
	/* 0 aload_0 1 iload_1 2 ifne +8 5 goto_w ->16 10 iconst_1 11 goto_w ->17
	 * 16 iconst_2 17 invokespecial 20 return. The new frame at 10 has the initial
	 * locals and one stack item: same_locals_1_stack_item. */
	expect_code(&e.u, "<init>(Z)V",
	            BYTES(OP_ALOAD_0, OP_ILOAD_1, OP_IFNE, U2(8), OP_GOTO_W, U4(11), OP_ICONST_1, OP_GOTO_W, U4(6),
	                  OP_ICONST_2, OP_INVOKESPECIAL, U2(ti), OP_RETURN));
	expect_attr(&e.u, "<init>(Z)V", "StackMapTable",
	            BYTES(0, 3, 64 + 10, VT_UNINIT_THIS, 255, U2(5), U2(2),
	                  VT_UNINIT_THIS, VT_INT, U2(1), VT_UNINIT_THIS, 255, U2(0), U2(2), VT_UNINIT_THIS, VT_INT,
	                  U2(2), VT_UNINIT_THIS, VT_INT));
	smt_frame *f;
	cr_assert_eq(tc_frames(&e.u, &e.s, "<init>(Z)V", &f), 3);
	cr_assert(f[0].off == 10 && f[0].nlocals == 2 && f[0].locals[0].tag == VT_UNINIT_THIS &&
	          f[0].locals[1].tag == VT_INT && f[0].nstack == 1 && f[0].stack[0].tag == VT_UNINIT_THIS);
	end(&e);
}

/* T() { this(new Object()); }: a new/dup/invokespecial pair precedes this(...). */
Test(editor, this_init_after_new_dup_init)
{
	/* no default constructor: this class's ()V is the one under test */
	bld *b = bld_new(52, 0);
	bld_this(b, bld_class(b, "E5c"));
	uint16_t obj = bld_methodref(b, "java/lang/Object", "<init>", "()V");
	uint16_t oc = bld_class(b, "java/lang/Object");
	uint16_t to = bld_methodref(b, "E5c", "<init>", "(Ljava/lang/Object;)V");
	uint16_t p = bld_methodref(b, "E5c", "p", "()V");
	bld_method_code(b, ACC_STATIC, "p", "()V", 0, 0, BYTES(OP_RETURN));
	bld_method_code(b, ACC_PUBLIC, "<init>", "(Ljava/lang/Object;)V", 1, 2,
	                BYTES(OP_ALOAD_0, OP_INVOKESPECIAL, U2(obj), OP_RETURN));
	/* 0 aload_0 1 new 4 dup 5 invokespecial Object.<init> 8 invokespecial this 11 return */
	bld_method_code(b, ACC_PUBLIC, "<init>", "()V", 3, 1,
	                BYTES(OP_ALOAD_0, OP_NEW, U2(oc), OP_DUP, OP_INVOKESPECIAL, U2(obj), OP_INVOKESPECIAL, U2(to),
	                      OP_RETURN));
	edt e;
	begin(&e, b, "<init>()V");
	uint32_t init;
	expect_ok(code_this_init(e.ed, &init, &e.err), e.err);
	cr_assert_eq(init, 4, "the second invokespecial, not the one on the new object: %u", init);
	ins(&e, init + 1, CODE_FALLTHROUGH, BYTES(SIPUSH_POP(7)));
	handler(&e, init + 1, code_ninsns(e.ed), 0, BYTES(OP_INVOKESTATIC, U2(p), OP_ATHROW));
	commit(&e);
	expect_code(&e.u, "<init>()V",
	            BYTES(OP_ALOAD_0, OP_NEW, U2(oc), OP_DUP, OP_INVOKESPECIAL, U2(obj), OP_INVOKESPECIAL, U2(to),
	                  SIPUSH_POP(7), OP_RETURN, OP_INVOKESTATIC, U2(p), OP_ATHROW));
	expect_exc(&e.u, "<init>()V", 0, 15, 16, 16, 0);
	uint16_t thr = class_index(&e.u, "java/lang/Throwable");
	expect_attr(&e.u, "<init>()V", "StackMapTable", BYTES(0, 1, 255, U2(16), U2(0), U2(1), 7, U2(thr)));
	end(&e);
}

Test(editor, this_init_refusals)
{
	bld *b = new_class("E5d", 52);
	uint16_t obj = bld_methodref(b, "java/lang/Object", "<init>", "()V");
	/* never calls super: throw null */
	bld_method_code(b, ACC_PUBLIC, "<init>", "(I)V", 1, 2, BYTES(OP_ACONST_NULL, OP_ATHROW));
	/* calls it on two paths: if (c) super(); else super(); */
	bld_method *m = bld_method_code(b, ACC_PUBLIC, "<init>", "(Z)V", 1, 2,
	                                BYTES(OP_ILOAD_1, OP_IFEQ, U2(10), OP_ALOAD_0, OP_INVOKESPECIAL, U2(obj),
	                                      OP_GOTO, U2(7), OP_ALOAD_0, OP_INVOKESPECIAL, U2(obj), OP_RETURN));
	uint16_t self = bld_this_index(b);
	bld_code_attr(m, "StackMapTable", BYTES(0, 2, 11, 255, U2(3), U2(2), 7, U2(self), VT_INT, U2(0)));
	bld_method_code(b, ACC_STATIC, "s", "()V", 0, 0, BYTES(OP_RETURN));
	const char *names[] = {"<init>(I)V", "<init>(Z)V", "s"};
	const char *why[] = {"never initializes", "at 2 places", "not a constructor"};
	tcls t;
	tc_build(&t, b);
	for (int k = 0; k < 3; k++) {
		arena s;
		arena_init(&s);
		code_editor *ed = tc_open(&t, &s, names[k]);
		uint32_t init;
		tc_error err;
		tc_error_clear(&err);
		int rc = code_this_init(ed, &init, &err);
		cr_assert_eq(rc, TC_EUNSUPPORTED, "%s: %d %s", names[k], rc, err.message);
		cr_assert(strstr(err.message, why[k]), "%s: %s", names[k], err.message);
		arena_free(&s);
	}
	tc_drop(&t);
}

/* --- switches ---------------------------------------------------------------------------- */

/* JVMS 6.5: 0-3 padding bytes so that the operands of a switch at offset `at` start at
 * a multiple of 4. */
static uint32_t jvms_pad(uint32_t at)
{
	return (4 - (at + 1) % 4) % 4;
}

static void put4(uint8_t *p, uint32_t v)
{
	uint8_t b[] = {U4(v)};
	memcpy(p, b, 4);
}

/* static int sw(int x) { switch (x) { case 0 / -1: return 1; case 1 / 5: return 2;
 * default: return 0; } }, shifted by k nops at entry: every alignment. */
Test(editor, switch_padding_at_each_alignment)
{
	for (int lookup = 0; lookup < 2; lookup++) {
		for (uint32_t k = 0; k < 4; k++) {
			uint8_t code[64];
			uint32_t n = 0;
			code[n++] = OP_ILOAD_0;
			code[n++] = lookup ? OP_LOOKUPSWITCH : OP_TABLESWITCH;
			n += 2; /* padding at 1 */
			memset(code + 2, 0, 2);
			uint32_t body = lookup ? 8 + 16 : 12 + 8;
			uint32_t a = 1 + 1 + 2 + body; /* first case target */
			if (lookup) {
				put4(code + n, a + 4 - 1);
				put4(code + n + 4, 2);
				put4(code + n + 8, (uint32_t)-1);
				put4(code + n + 12, a - 1);
				put4(code + n + 16, 5);
				put4(code + n + 20, a + 2 - 1);
			} else {
				put4(code + n, a + 4 - 1);
				put4(code + n + 4, 0);
				put4(code + n + 8, 1);
				put4(code + n + 12, a - 1);
				put4(code + n + 16, a + 2 - 1);
			}
			n += body;
			cr_assert_eq(n, a);
			uint8_t tail[] = {OP_ICONST_1, OP_IRETURN, OP_ICONST_2, OP_IRETURN, OP_ICONST_0, OP_IRETURN};
			memcpy(code + n, tail, sizeof tail);
			n += sizeof tail;
			char name[16];
			snprintf(name, sizeof name, "E6%c%u", lookup ? 'L' : 'T', k);
			bld *b = new_class(name, 52);
			bld_method *m = bld_method_code(b, ACC_STATIC, "sw", "(I)I", 1, 1, code, n);
			bld_code_attr(m, "StackMapTable", BYTES(0, 3, (uint8_t)a, 1, 1));
			edt e;
			begin(&e, b, "sw");
			uint8_t nops[3] = {OP_NOP, OP_NOP, OP_NOP};
			if (k)
				ins(&e, 0, CODE_FALLTHROUGH, nops, k);
			commit(&e);

			/* expected, from the JVMS rule */
			uint8_t want[64];
			uint32_t w = 0;
			memset(want, OP_NOP, k);
			w = k;
			want[w++] = OP_ILOAD_0;
			uint32_t at = w;
			want[w++] = lookup ? OP_LOOKUPSWITCH : OP_TABLESWITCH;
			uint32_t pad = jvms_pad(at);
			memset(want + w, 0, pad);
			w += pad;
			uint32_t na = at + 1 + pad + body; /* new first case target */
			if (lookup) {
				put4(want + w, na + 4 - at);
				put4(want + w + 4, 2);
				put4(want + w + 8, (uint32_t)-1);
				put4(want + w + 12, na - at);
				put4(want + w + 16, 5);
				put4(want + w + 20, na + 2 - at);
			} else {
				put4(want + w, na + 4 - at);
				put4(want + w + 4, 0);
				put4(want + w + 8, 1);
				put4(want + w + 12, na - at);
				put4(want + w + 16, na + 2 - at);
			}
			w += body;
			memcpy(want + w, tail, sizeof tail);
			w += sizeof tail;
			expect_code(&e.u, "sw", want, w);
			expect_attr(&e.u, "sw", "StackMapTable", BYTES(0, 3, (uint8_t)na, 1, 1));
			end(&e);
		}
	}
}

/* --- widening --------------------------------------------------------------------------- */

/* static void g(int x) { while (x != 0) x--; } with 33,000 bytes inserted inside the
 * loop: the back goto becomes goto_w, the exit ifeq an ifne around a goto_w, and the
 * instruction after the ifne gets a frame. */
Test(editor, goto_to_goto_w_and_conditional_inverted)
{
	bld *b = new_class("E7", 52);
	/* 0 iload_0 1 ifeq ->10 4 iinc 7 goto ->0 10 return */
	bld_method *m = bld_method_code(b, ACC_STATIC, "g", "(I)V", 1, 1,
	                                BYTES(OP_ILOAD_0, OP_IFEQ, U2(9), OP_IINC, 0, 0xff, OP_GOTO, U2(-7),
	                                      OP_RETURN));
	bld_code_attr(m, "StackMapTable", BYTES(0, 2, 0, 9));
	edt e;
	begin(&e, b, "g");
	enum { N = 33000 };
	static uint8_t nops[N];
	memset(nops, OP_NOP, N);
	ins(&e, 2, CODE_AT_TARGET, nops, N);
	commit(&e);
	static uint8_t want[N + 64];
	uint32_t w = 0;
	uint8_t head[] = {OP_ILOAD_0, OP_IFNE, U2(8), OP_GOTO_W, U4(33013)};
	memcpy(want, head, sizeof head);
	w = sizeof head;
	memset(want + w, OP_NOP, N);
	w += N;
	uint8_t tail[] = {OP_IINC, 0, 0xff, OP_GOTO_W, U4(-33012), OP_RETURN};
	memcpy(want + w, tail, sizeof tail);
	w += sizeof tail;
	cr_assert_eq(w, 33018);
	expect_code(&e.u, "g", want, w);
	/* 0: same; 9: same (new, after the ifne); 33017: same_frame_extended */
	expect_attr(&e.u, "g", "StackMapTable", BYTES(0, 3, 0, 8, 251, U2(33007)));
	end(&e);
}

/* jsr -> jsr_w in a version-49 class (no stack map). */
Test(editor, jsr_to_jsr_w)
{
	bld *b = new_class("E8", 49);
	/* 0 jsr ->4 3 return 4 astore_0 5 ret 0 */
	bld_method_code(b, ACC_STATIC, "j", "()V", 1, 1, BYTES(OP_JSR, U2(4), OP_RETURN, OP_ASTORE_0, OP_RET, 0));
	edt e;
	begin(&e, b, "j");
	enum { N = 33000 };
	static uint8_t nops[N];
	memset(nops, OP_NOP, N);
	ins(&e, 1, CODE_AT_TARGET, nops, N);
	commit(&e);
	static uint8_t want[N + 16];
	uint8_t head[] = {OP_JSR_W, U4(33006)};
	memcpy(want, head, 5);
	memset(want + 5, OP_NOP, N);
	uint8_t tail[] = {OP_RETURN, OP_ASTORE_0, OP_RET, 0};
	memcpy(want + 5 + N, tail, 4);
	expect_code(&e.u, "j", want, 5 + N + 4);
	end(&e);
}

/* static int c(int x) { String s = "s"; return 5 + (x == 0 ? ... ) }: the frame after
 * an inverted conditional holds a local stored since the last frame and a value on
 * the stack. */
Test(editor, inverted_conditional_frame_contents)
{
	bld *b = new_class("E9", 52);
	uint16_t s = bld_string(b, "s");
	uint16_t cs = bld_class(b, "java/lang/String");
	cr_assert_lt(s, 256);
	/* 0 ldc "s" 2 astore_1 3 iconst_5 4 iload_0 5 ifeq ->11 8 iconst_1 9 iadd 10 ireturn
	 * 11 ireturn */
	bld_method *m = bld_method_code(b, ACC_STATIC, "c", "(I)I", 2, 2,
	                                BYTES(OP_LDC, (uint8_t)s, OP_ASTORE_1, OP_ICONST_5, OP_ILOAD_0, OP_IFEQ, U2(6),
	                                      OP_ICONST_1, OP_IADD, OP_IRETURN, OP_IRETURN));
	bld_code_attr(m, "StackMapTable", BYTES(0, 1, 255, U2(11), U2(2), VT_INT, 7, U2(cs), U2(1), VT_INT));
	edt e;
	begin(&e, b, "c");
	code_force_long_branches(e.ed, 1);
	commit(&e);
	expect_code(&e.u, "c",
	            BYTES(OP_LDC, (uint8_t)s, OP_ASTORE_1, OP_ICONST_5, OP_ILOAD_0, OP_IFNE, U2(8), OP_GOTO_W, U4(8),
	                  OP_ICONST_1, OP_IADD, OP_IRETURN, OP_IRETURN));
	/* new full frame at 13: [int, String] [int]; the original full frame, now at 16 */
	expect_attr(&e.u, "c", "StackMapTable",
	            BYTES(0, 2, 255, U2(13), U2(2), VT_INT, 7, U2(cs), U2(1), VT_INT, 255, U2(2), U2(2), VT_INT, 7,
	                  U2(cs), U2(1), VT_INT));
	smt_frame *f;
	cr_assert_eq(tc_frames(&e.u, &e.s, "c", &f), 2);
	cr_assert_eq(f[0].off, 13);
	cr_assert(f[0].nlocals == 2 && f[0].locals[0].tag == VT_INT && f[0].locals[1].tag == VT_OBJECT &&
	          f[0].locals[1].name_len == 16 && !memcmp(f[0].locals[1].name, "java/lang/String", 16));
	cr_assert(f[0].nstack == 1 && f[0].stack[0].tag == VT_INT);
	end(&e);
}

/* Every conditional becomes its JVMS negation around a goto_w. */
Test(editor, every_conditional_inverts)
{
	static const uint8_t conds[][2] = {
		{OP_IFEQ, OP_IFNE}, {OP_IFNE, OP_IFEQ}, {OP_IFLT, OP_IFGE}, {OP_IFGE, OP_IFLT},
		{OP_IFGT, OP_IFLE}, {OP_IFLE, OP_IFGT}, {OP_IF_ICMPEQ, OP_IF_ICMPNE}, {OP_IF_ICMPNE, OP_IF_ICMPEQ},
		{OP_IF_ICMPLT, OP_IF_ICMPGE}, {OP_IF_ICMPGE, OP_IF_ICMPLT}, {OP_IF_ICMPGT, OP_IF_ICMPLE},
		{OP_IF_ICMPLE, OP_IF_ICMPGT}, {OP_IF_ACMPEQ, OP_IF_ACMPNE}, {OP_IF_ACMPNE, OP_IF_ACMPEQ},
		{OP_IFNULL, OP_IFNONNULL}, {OP_IFNONNULL, OP_IFNULL},
	};
	bld *b = new_class("E9N", 52);
	for (int k = 0; k < 16; k++) {
		uint8_t op = conds[k][0];
		uint8_t code[16];
		uint32_t n = 0;
		if (op >= OP_IF_ICMPEQ && op <= OP_IF_ICMPLE) {
			code[n++] = OP_ILOAD_0;
			code[n++] = OP_ILOAD_1;
		} else if (op == OP_IF_ACMPEQ || op == OP_IF_ACMPNE) {
			code[n++] = OP_ALOAD_2;
			code[n++] = OP_ALOAD_3;
		} else if (op == OP_IFNULL || op == OP_IFNONNULL) {
			code[n++] = OP_ALOAD_2;
		} else {
			code[n++] = OP_ILOAD_0;
		}
		code[n++] = op;
		code[n++] = 0;
		code[n++] = 4;
		code[n++] = OP_NOP;
		code[n++] = OP_RETURN;
		char name[8];
		snprintf(name, sizeof name, "c%d", k);
		bld_method *m = bld_method_code(b, ACC_STATIC, name, "(IILjava/lang/Object;Ljava/lang/Object;)V", 2, 4,
		                                code, n);
		uint8_t smt[] = {0, 1, (uint8_t)(n - 1)};
		bld_code_attr(m, "StackMapTable", smt, sizeof smt);
	}
	tcls t;
	tc_build(&t, b);
	arena s;
	arena_init(&s);
	for (int k = 0; k < 16; k++) {
		char name[8];
		snprintf(name, sizeof name, "c%d", k);
		code_editor *ed = tc_open(&t, &s, name);
		tc_error err;
		tc_error_clear(&err);
		code_force_long_branches(ed, 1);
		expect_ok(code_commit(ed, &err), err);
		arena_reset(&s);
	}
	tcls u;
	tc_reparse(&t, &u);
	tc_emit(&u);
	for (int k = 0; k < 16; k++) {
		char name[8];
		snprintf(name, sizeof name, "c%d", k);
		cf_code c = tc_code(&u, name);
		uint32_t at = c.len - 10; /* ifX(3) goto_w(5) nop return */
		cr_assert(at == 1 || at == 2);
		uint8_t want[] = {conds[k][1], 0, 8, OP_GOTO_W, U4(6), OP_NOP, OP_RETURN};
		same_bytes(name, c.code + at, 10, want, sizeof want);
		/* a same frame after the goto_w, and the original same frame at the return */
		uint8_t smt[] = {0, 2, (uint8_t)(at + 8), 0};
		expect_attr(&u, name, "StackMapTable", smt, sizeof smt);
	}
	arena_free(&s);
	tc_drop(&u);
	tc_drop(&t);
}

/* --- Uninitialized(offset) ------------------------------------------------------------------ */

/* static Object u(boolean c) { return new Integer(c ? 1 : 2); }: frames between the
 * new and its <init> hold Uninitialized(offset of the new). */
static bld *uninit_class(void)
{
	bld *b = new_class("E11", 52);
	uint16_t ic = bld_class(b, "java/lang/Integer");
	uint16_t ii = bld_methodref(b, "java/lang/Integer", "<init>", "(I)V");
	/* 0 new 3 dup 4 iload_0 5 ifeq ->12 8 iconst_1 9 goto ->13 12 iconst_2
	 * 13 invokespecial 16 areturn */
	bld_method *m = bld_method_code(b, ACC_STATIC, "u", "(Z)Ljava/lang/Object;", 3, 1,
	                                BYTES(OP_NEW, U2(ic), OP_DUP, OP_ILOAD_0, OP_IFEQ, U2(7), OP_ICONST_1, OP_GOTO,
	                                      U2(4), OP_ICONST_2, OP_INVOKESPECIAL, U2(ii), OP_ARETURN));
	bld_code_attr(m, "StackMapTable",
	              BYTES(0, 2, 255, U2(12), U2(1), VT_INT, U2(2), VT_UNINIT, U2(0), VT_UNINIT, U2(0), 255, U2(0), U2(1),
	                    VT_INT, U2(3), VT_UNINIT, U2(0), VT_UNINIT, U2(0), VT_INT));
	return b;
}

Test(editor, uninitialized_offsets_relocated)
{
	edt e;
	begin(&e, uninit_class(), "u");
	const uint8_t *orig = tc_code(&e.t, "u").code;
	uint16_t ic = (uint16_t)get_u2(orig + 1), ii = (uint16_t)get_u2(orig + 14);
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(SIPUSH_POP(7)));
	commit(&e);
	expect_code(&e.u, "u",
	            BYTES(SIPUSH_POP(7), OP_NEW, U2(ic), OP_DUP, OP_ILOAD_0, OP_IFEQ, U2(7), OP_ICONST_1, OP_GOTO, U2(4),
	                  OP_ICONST_2, OP_INVOKESPECIAL, U2(ii), OP_ARETURN));
	expect_attr(&e.u, "u", "StackMapTable",
	            BYTES(0, 2, 255, U2(16), U2(1), VT_INT, U2(2), VT_UNINIT, U2(4), VT_UNINIT, U2(4), 255, U2(0), U2(1),
	                  VT_INT, U2(3), VT_UNINIT, U2(4), VT_UNINIT, U2(4), VT_INT));
	end(&e);
}

Test(editor, uninitialized_in_new_frame_after_inverted_branch)
{
	edt e;
	begin(&e, uninit_class(), "u");
	const uint8_t *orig = tc_code(&e.t, "u").code;
	uint16_t ic = (uint16_t)get_u2(orig + 1), ii = (uint16_t)get_u2(orig + 14);
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(SIPUSH_POP(7)));
	code_force_long_branches(e.ed, 1);
	commit(&e);
	/* 4 new 7 dup 8 iload_0 9 ifne +8 12 goto_w ->23 17 iconst_1 18 goto_w ->24
	 * 23 iconst_2 24 invokespecial 27 areturn */
	expect_code(&e.u, "u",
	            BYTES(SIPUSH_POP(7), OP_NEW, U2(ic), OP_DUP, OP_ILOAD_0, OP_IFNE, U2(8), OP_GOTO_W, U4(11),
	                  OP_ICONST_1, OP_GOTO_W, U4(6), OP_ICONST_2, OP_INVOKESPECIAL, U2(ii), OP_ARETURN));
	expect_attr(&e.u, "u", "StackMapTable",
	            BYTES(0, 3, 255, U2(17), U2(1), VT_INT, U2(2), VT_UNINIT, U2(4), VT_UNINIT, U2(4), 255, U2(5), U2(1),
	                  VT_INT, U2(2), VT_UNINIT, U2(4), VT_UNINIT, U2(4), 255, U2(0), U2(1), VT_INT, U2(3), VT_UNINIT,
	                  U2(4), VT_UNINIT, U2(4), VT_INT));
	end(&e);
}

/* --- debug tables ----------------------------------------------------------------------- */

/* static int v(int x) { int y = x; return y; } with LineNumberTable, LocalVariableTable
 * and LocalVariableTypeTable. Starts move to the new start of their instruction's
 * inserted code (new_first), so a line or a variable's range covers it. */
Test(editor, line_numbers_and_local_variable_ranges)
{
	bld *b = new_class("E12", 52);
	uint16_t nx = bld_utf8(b, "x"), ny = bld_utf8(b, "y"), di = bld_utf8(b, "I"), sy = bld_utf8(b, "TT;");
	/* 0 iload_0 1 istore_1 2 iload_1 3 ireturn */
	bld_method *m = bld_method_code(b, ACC_STATIC, "v", "(I)I", 1, 2,
	                                BYTES(OP_ILOAD_0, OP_ISTORE_1, OP_ILOAD_1, OP_IRETURN));
	bld_code_attr(m, "LineNumberTable", BYTES(0, 3, U2(0), U2(10), U2(2), U2(11), U2(3), U2(12)));
	bld_code_attr(m, "LocalVariableTable",
	              BYTES(0, 2, U2(0), U2(4), U2(nx), U2(di), U2(0), U2(2), U2(2), U2(ny), U2(di), U2(1)));
	bld_code_attr(m, "LocalVariableTypeTable", BYTES(0, 1, U2(2), U2(2), U2(ny), U2(sy), U2(1)));
	edt e;
	begin(&e, b, "v");
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(OP_NOP));
	ins(&e, 2, CODE_AT_TARGET, BYTES(OP_NOP));
	ins(&e, 3, CODE_FALLTHROUGH, BYTES(OP_ICONST_0, OP_POP));
	commit(&e);
	/* 0 nop 1 iload_0 2 istore_1 3 nop 4 iload_1 5 iconst_0 6 pop 7 ireturn */
	expect_code(&e.u, "v", BYTES(OP_NOP, OP_ILOAD_0, OP_ISTORE_1, OP_NOP, OP_ILOAD_1, OP_ICONST_0, OP_POP,
	                             OP_IRETURN));
	expect_attr(&e.u, "v", "LineNumberTable", BYTES(0, 3, U2(0), U2(10), U2(3), U2(11), U2(5), U2(12)));
	expect_attr(&e.u, "v", "LocalVariableTable",
	            BYTES(0, 2, U2(0), U2(8), U2(nx), U2(di), U2(0), U2(3), U2(5), U2(ny), U2(di), U2(1)));
	expect_attr(&e.u, "v", "LocalVariableTypeTable", BYTES(0, 1, U2(3), U2(5), U2(ny), U2(sy), U2(1)));
	end(&e);
}

/* --- type annotations ------------------------------------------------------------------- */

/* offset_target and type_argument_target follow their instruction (not the code put
 * before it); localvar_target ranges are ranges (new_first). */
Test(editor, type_annotation_offsets)
{
	bld *b = new_class("E13", 52);
	uint16_t sc = bld_class(b, "java/lang/String");
	uint16_t ty = bld_utf8(b, "LA;");
	/* 0 aload_0 1 instanceof 4 ifeq ->12 7 aload_0 8 checkcast 11 areturn 12 aconst_null
	 * 13 areturn */
	bld_method *m = bld_method_code(b, ACC_STATIC, "a", "(Ljava/lang/Object;)Ljava/lang/Object;", 1, 1,
	                                BYTES(OP_ALOAD_0, OP_INSTANCEOF, U2(sc), OP_IFEQ, U2(8), OP_ALOAD_0,
	                                      OP_CHECKCAST, U2(sc), OP_ARETURN, OP_ACONST_NULL, OP_ARETURN));
	bld_code_attr(m, "StackMapTable", BYTES(0, 1, 12));
	bld_code_attr(m, "RuntimeVisibleTypeAnnotations",
	              BYTES(0, 3, 0x43, U2(1), 0, U2(ty), U2(0), 0x47, U2(8), 0, 0, U2(ty), U2(0), 0x40, U2(1), U2(0),
	                    U2(14), U2(0), 0, U2(ty), U2(0)));
	bld_code_attr(m, "RuntimeInvisibleTypeAnnotations", BYTES(0, 1, 0x4B, U2(8), 1, 0, U2(ty), U2(0)));
	edt e;
	begin(&e, b, "a");
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(OP_NOP));
	ins(&e, 1, CODE_AT_TARGET, BYTES(OP_NOP));
	ins(&e, 4, CODE_AT_TARGET, BYTES(OP_NOP));
	commit(&e);
	/* 0 nop 1 aload_0 2 nop 3 instanceof 6 ifeq ->15 9 aload_0 10 nop 11 checkcast
	 * 14 areturn 15 aconst_null 16 areturn */
	expect_code(&e.u, "a",
	            BYTES(OP_NOP, OP_ALOAD_0, OP_NOP, OP_INSTANCEOF, U2(sc), OP_IFEQ, U2(9), OP_ALOAD_0, OP_NOP,
	                  OP_CHECKCAST, U2(sc), OP_ARETURN, OP_ACONST_NULL, OP_ARETURN));
	expect_attr(&e.u, "a", "StackMapTable", BYTES(0, 1, 15));
	expect_attr(&e.u, "a", "RuntimeVisibleTypeAnnotations",
	            BYTES(0, 3, 0x43, U2(3), 0, U2(ty), U2(0), 0x47, U2(11), 0, 0, U2(ty), U2(0), 0x40, U2(1), U2(0),
	                  U2(17), U2(0), 0, U2(ty), U2(0)));
	expect_attr(&e.u, "a", "RuntimeInvisibleTypeAnnotations", BYTES(0, 1, 0x4B, U2(11), 1, 0, U2(ty), U2(0)));
	end(&e);
}

/* --- max_stack ------------------------------------------------------------------------- */

Test(editor, max_stack_recomputed)
{
	bld *b = new_class("E14", 52);
	uint16_t g = bld_methodref(b, "E14", "g", "()V");
	bld_method_code(b, ACC_STATIC, "g", "()V", 0, 0, BYTES(OP_RETURN));
	/* 0 iload_0 1 iload_1 2 iadd 3 ireturn: depths 0 1 2 1 */
	bld_method_code(b, ACC_STATIC, "s", "(II)I", 2, 2, BYTES(OP_ILOAD_0, OP_ILOAD_1, OP_IADD, OP_IRETURN));
	bld_method_code(b, ACC_STATIC, "h", "()V", 0, 0, BYTES(OP_INVOKESTATIC, U2(g), OP_RETURN));
	edt e;
	begin(&e, b, "s");
	cr_assert_eq(code_depth(e.ed, 0), 0);
	cr_assert_eq(code_depth(e.ed, 1), 1);
	cr_assert_eq(code_depth(e.ed, 2), 2);
	cr_assert_eq(code_depth(e.ed, 3), 1);
	cr_assert_eq(code_depth(e.ed, 4), -1);
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(SIPUSH_POP(1)));
	ins(&e, 2, CODE_AT_TARGET, BYTES(OP_ICONST_0, OP_ICONST_0, OP_POP2)); /* peak 2 at depth 2 */
	tc_error_clear(&e.err);
	expect_ok(code_commit(e.ed, &e.err), e.err);
	/* a handler block reaching 3 words over an empty method stack */
	e.ed = tc_open(&e.t, &e.s, "h");
	handler(&e, 0, 2, 0, BYTES(OP_DUP, OP_DUP, OP_POP, OP_POP, OP_ATHROW));
	commit(&e);
	expect_code(&e.u, "s", BYTES(SIPUSH_POP(1), OP_ILOAD_0, OP_ILOAD_1, OP_ICONST_0, OP_ICONST_0, OP_POP2,
	                             OP_IADD, OP_IRETURN));
	cr_assert_eq(tc_code(&e.u, "s").max_stack, 4);
	cr_assert_eq(tc_code(&e.u, "h").max_stack, 3);
	end(&e);
}

/* In unreachable code the depth is unknown: the old maximum is assumed. */
Test(editor, max_stack_in_dead_code)
{
	bld *b = new_class("E14d", 49);
	/* 0 return 1 iconst_0 2 iconst_0 3 pop2 4 return (dead) */
	bld_method_code(b, ACC_STATIC, "d", "()V", 2, 0, BYTES(OP_RETURN, OP_ICONST_0, OP_ICONST_0, OP_POP2, OP_RETURN));
	edt e;
	begin(&e, b, "d");
	cr_assert_eq(code_depth(e.ed, 3), -1);
	ins(&e, 3, CODE_AT_TARGET, BYTES(OP_ICONST_0, OP_POP));
	commit(&e);
	cr_assert_eq(tc_code(&e.u, "d").max_stack, 3);
	end(&e);
}

/* --- limits ------------------------------------------------------------------------------ */

Test(editor, method_past_65535_bytes_refused_and_untouched)
{
	bld *b = new_class("E15", 49);
	static uint8_t code[65535];
	/* 0 iload_0 1 ifeq ->5 4 nop 5 return, then nops to 65535 bytes (dead) */
	memset(code, OP_NOP, sizeof code);
	uint8_t head[] = {OP_ILOAD_0, OP_IFEQ, U2(4), OP_NOP, OP_RETURN};
	memcpy(code, head, sizeof head);
	code[sizeof code - 1] = OP_RETURN;
	bld_method_code(b, ACC_STATIC, "w", "(I)V", 1, 1, code, sizeof code);
	bld_method_code(b, ACC_STATIC, "small", "()V", 0, 0, BYTES(OP_RETURN));
	tcls t;
	tc_build(&t, b);
	arena s;
	arena_init(&s);
	tc_error err;
	/* one more byte */
	code_editor *ed = tc_open(&t, &s, "w");
	cf_attr *ca = cf_method_code(&t.cls, tc_method(&t, "w"));
	const uint8_t *data = ca->data;
	uint32_t len = ca->len;
	tc_error_clear(&err);
	expect_ok(code_insert(ed, 2, CODE_AT_TARGET, BYTES(OP_NOP), &err), err);
	tc_error_clear(&err);
	int rc = code_commit(ed, &err);
	cr_assert_eq(rc, TC_ELIMIT, "%d %s", rc, err.message);
	cr_assert(ca->data == data && ca->len == len);
	/* widening alone: the ifeq in its long form is 5 bytes longer */
	arena_reset(&s);
	ed = tc_open(&t, &s, "w");
	code_force_long_branches(ed, 1);
	tc_error_clear(&err);
	rc = code_commit(ed, &err);
	cr_assert_eq(rc, TC_ELIMIT, "%d %s", rc, err.message);
	cr_assert(ca->data == data && ca->len == len);
	/* a small method that receives 65535 bytes */
	arena_reset(&s);
	ed = tc_open(&t, &s, "small");
	tc_error_clear(&err);
	static uint8_t nops[65535];
	memset(nops, OP_NOP, sizeof nops);
	expect_ok(code_insert(ed, 0, CODE_FALLTHROUGH, nops, sizeof nops, &err), err);
	tc_error_clear(&err);
	rc = code_commit(ed, &err);
	cr_assert_eq(rc, TC_ELIMIT);
	unchanged(&t);
	arena_free(&s);
	tc_drop(&t);
}

/* Before 45.3 max_stack is one byte. */
Test(editor, old_format_max_stack_limit)
{
	bld *b = bld_new(45, 0);
	bld_this(b, bld_class(b, "E15o"));
	bld_default_init(b);
	static uint8_t code[511];
	memset(code, OP_ICONST_0, 255);
	memset(code + 255, OP_POP, 255);
	code[510] = OP_RETURN;
	bld_method_code(b, ACC_STATIC, "s", "()V", 255, 0, code, sizeof code);
	tcls t;
	tc_build(&t, b);
	arena s;
	arena_init(&s);
	tc_error err;
	code_editor *ed = tc_open(&t, &s, "s");
	cr_assert_eq(code_depth(ed, 255), 255);
	tc_error_clear(&err);
	expect_ok(code_insert(ed, 255, CODE_AT_TARGET, BYTES(OP_ICONST_0, OP_POP), &err), err);
	tc_error_clear(&err);
	int rc = code_commit(ed, &err);
	cr_assert_eq(rc, TC_ELIMIT, "%d %s", rc, err.message);
	cr_assert(strstr(err.message, "256"), "%s", err.message);
	unchanged(&t);
	/* at depth 254 it fits */
	arena_reset(&s);
	ed = tc_open(&t, &s, "s");
	tc_error_clear(&err);
	expect_ok(code_insert(ed, 256, CODE_AT_TARGET, BYTES(OP_ICONST_0, OP_POP), &err), err);
	expect_ok(code_commit(ed, &err), err);
	tcls u;
	tc_reparse(&t, &u);
	cf_code c = tc_code(&u, "s");
	cr_assert(c.old_format && c.max_stack == 255 && c.len == 513);
	tc_drop(&u);
	arena_free(&s);
	tc_drop(&t);
}

/* --- jsr/ret ----------------------------------------------------------------------------- */

/* A javac 1.4 try/finally in a version-49 class: every kind of edit. */
Test(editor, jsr_ret_subroutines_in_version_49)
{
	bld *b = new_class("E16", 49);
	uint16_t g = bld_methodref(b, "E16", "g", "()V");
	uint16_t p = bld_methodref(b, "E16", "p", "()V");
	bld_method_code(b, ACC_STATIC, "g", "()V", 0, 0, BYTES(OP_RETURN));
	bld_method_code(b, ACC_STATIC, "p", "()V", 0, 0, BYTES(OP_RETURN));
	/* 0 invokestatic g 3 jsr ->13 6 return | 7 astore_0 8 jsr ->13 11 aload_0 12 athrow
	 * | 13 astore_1 14 invokestatic g 17 ret 1 */
	bld_method *m = bld_method_code(b, ACC_STATIC, "f", "()V", 1, 2,
	                                BYTES(OP_INVOKESTATIC, U2(g), OP_JSR, U2(10), OP_RETURN, OP_ASTORE_0, OP_JSR,
	                                      U2(5), OP_ALOAD_0, OP_ATHROW, OP_ASTORE_1, OP_INVOKESTATIC, U2(g), OP_RET,
	                                      1));
	bld_exc(m, 0, 3, 7, 0);
	edt e;
	begin(&e, b, "f");
	cr_assert_eq(code_ninsns(e.ed), 10);
	cr_assert_eq(code_depth(e.ed, 7), 1, "the subroutine starts with its return address");
	cr_assert_eq(code_depth(e.ed, 2), 0, "after the jsr returns");
	ins(&e, 0, CODE_FALLTHROUGH, BYTES(SIPUSH_POP(7)));
	ins(&e, 2, CODE_AT_TARGET, BYTES(OP_INVOKESTATIC, U2(p)));
	ins(&e, 9, CODE_AT_TARGET, BYTES(OP_NOP));
	handler(&e, 0, code_ninsns(e.ed), 0, BYTES(OP_INVOKESTATIC, U2(p), OP_ATHROW));
	tc_error_clear(&e.err);
	cr_assert_eq(code_insert(e.ed, 2, CODE_FALLTHROUGH, BYTES(OP_NOP), &e.err), TC_EARG,
	             "nothing falls through a jsr");
	commit(&e);
	expect_code(&e.u, "f",
	            BYTES(SIPUSH_POP(7), OP_INVOKESTATIC, U2(g), OP_JSR, U2(13), OP_INVOKESTATIC, U2(p), OP_RETURN,
	                  OP_ASTORE_0, OP_JSR, U2(5), OP_ALOAD_0, OP_ATHROW, OP_ASTORE_1, OP_INVOKESTATIC, U2(g), OP_NOP,
	                  OP_RET, 1, OP_INVOKESTATIC, U2(p), OP_ATHROW));
	expect_exc(&e.u, "f", 0, 4, 7, 14, 0);
	expect_exc(&e.u, "f", 1, 4, 27, 27, 0);
	cr_assert_null(tc_code_attr(&e.u, "f", "StackMapTable"));
	cr_assert_eq(tc_code(&e.u, "f").max_stack, 1);
	end(&e);
}

/* --- unedited ------------------------------------------------------------------------------ */

/* Open and commit without edits: every frame keeps its form, even forms that are not
 * the smallest (same_frame_extended with a small delta, full frames that could be
 * shorter), and the class comes back byte for byte. */
Test(editor, unedited_commit_is_identity)
{
	bld *b = new_class("E19", 52);
	uint16_t s = bld_string(b, "s");
	uint16_t nx = bld_utf8(b, "x"), di = bld_utf8(b, "I");
	/* 0 iload_0 1 ifeq ->7 4 ldc 6 astore_1 7 iload_0 8 ifeq ->14 11 ldc 13 pop
	 * 14 iload_0 15 ireturn */
	bld_method *m = bld_method_code(b, ACC_STATIC, "f", "(I)I", 1, 2,
	                                BYTES(OP_ILOAD_0, OP_IFEQ, U2(6), OP_LDC, (uint8_t)s, OP_ASTORE_1, OP_ILOAD_0,
	                                      OP_IFEQ, U2(6), OP_LDC, (uint8_t)s, OP_POP, OP_ILOAD_0, OP_IRETURN));
	/* 7: same_frame_extended (delta 7); 14: full frame equal to the previous */
	bld_code_attr(m, "StackMapTable", BYTES(0, 2, 251, U2(7), 255, U2(6), U2(1), VT_INT, U2(0)));
	bld_code_attr(m, "LineNumberTable", BYTES(0, 1, U2(0), U2(1)));
	bld_code_attr(m, "LocalVariableTable", BYTES(0, 1, U2(0), U2(16), U2(nx), U2(di), U2(0)));
	bld_code_attr(m, "Unknown", BYTES(1, 2, 3));
	edt e;
	begin(&e, b, "f");
	tc_error_clear(&e.err);
	expect_ok(code_commit(e.ed, &e.err), e.err);
	cr_assert_eq(cf_method_code(&e.t.cls, tc_method(&e.t, "f"))->off, TC_NO_OFFSET, "rewritten");
	unchanged(&e.t);
	end(&e);
}

/* `this` copied through a local and duplicated on the stack before super(): the copy
 * that reaches the invokespecial is still uninitializedThis. */
Test(editor, this_init_through_copies)
{
	bld *b = bld_new(52, 0);
	bld_this(b, bld_class(b, "E5e"));
	uint16_t obj = bld_methodref(b, "java/lang/Object", "<init>", "()V");
	uint16_t p = bld_methodref(b, "E5e", "p", "()V");
	bld_method_code(b, ACC_STATIC, "p", "()V", 0, 0, BYTES(OP_RETURN));
	/* 0 aload_0 1 astore_1 2 aload_1 3 dup 4 invokespecial 7 pop 8 return */
	bld_method_code(b, ACC_PUBLIC, "<init>", "()V", 2, 2,
	                BYTES(OP_ALOAD_0, OP_ASTORE_1, OP_ALOAD_1, OP_DUP, OP_INVOKESPECIAL, U2(obj), OP_POP, OP_RETURN));
	edt e;
	begin(&e, b, "<init>");
	uint32_t init;
	expect_ok(code_this_init(e.ed, &init, &e.err), e.err);
	cr_assert_eq(init, 4);
	ins(&e, init + 1, CODE_FALLTHROUGH, BYTES(OP_INVOKESTATIC, U2(p)));
	handler(&e, init + 1, code_ninsns(e.ed), 0, BYTES(OP_ATHROW));
	commit(&e);
	expect_code(&e.u, "<init>",
	            BYTES(OP_ALOAD_0, OP_ASTORE_1, OP_ALOAD_1, OP_DUP, OP_INVOKESPECIAL, U2(obj), OP_INVOKESTATIC, U2(p),
	                  OP_POP, OP_RETURN, OP_ATHROW));
	expect_exc(&e.u, "<init>", 0, 10, 12, 12, 0);
	/* after the call the stack holds the initialized copy: max_stack counts it */
	cr_assert_eq(tc_code(&e.u, "<init>").max_stack, 2);
	end(&e);
}

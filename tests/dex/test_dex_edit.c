/* The Dalvik code editor: insertions and branch targets, branch growth, payload
 * alignment and switch targets, try ranges and the catch-all, monitors, scratch
 * registers, the init call of constructors, debug info relocation, and the hooks. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "dex.h"
#include "dex_edit.h"
#include "dex_hook.h"
#include "dexbuild.h"

static arena A, S, K;
static dex_file D;
static uint32_t CLS, CALLEE, EXC;

static void setup(void)
{
	arena_init(&A);
	arena_init(&S);
	arena_init(&K);
	db_init(&D, &A);
	CLS = db_class(&D, "Lp/T;", DACC_PUBLIC);
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(dex_intern_method(&D, "Lp/Q;", "m", "()V", &CALLEE, &e), TC_OK);
	cr_assert_eq(dex_intern_type(&D, "Ljava/lang/Exception;", &EXC, &e), TC_OK);
}

static void teardown(void)
{
	arena_free(&A);
	arena_free(&S);
	arena_free(&K);
}

TestSuite(dex_edit, .init = setup, .fini = teardown);
TestSuite(dex_hook, .init = setup, .fini = teardown);

static dex_editor *open_code(uint32_t method, dex_code *c, bool is_static)
{
	tc_error e;
	tc_error_clear(&e);
	dex_editor *ed;
	cr_assert_eq(dex_edit_open(&ed, &D, c, method, is_static, &S, &e), TC_OK, "%s", e.message);
	return ed;
}

static dex_code *commit(dex_editor *ed)
{
	tc_error e;
	tc_error_clear(&e);
	dex_code *c;
	cr_assert_eq(dex_edit_commit(ed, &K, &c, &e), TC_OK, "%s", e.message);
	return c;
}

/* The instruction at addr of c. */
static dex_insn at(const dex_code *c, uint32_t addr)
{
	dex_insn d;
	cr_assert(dex_op_decode(c->insns, c->ninsns, addr, D.version, &d), "no instruction at %u", addr);
	return d;
}

static void insert(dex_editor *ed, uint32_t i, enum dex_edit_where w, const dex_insn *seq, uint32_t n)
{
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(dex_edit_insert(ed, i, w, seq, n, &e), TC_OK, "%s", e.message);
}

/* n copies of const/16 v0, #k (2 units each) */
static dex_insn *filler(uint32_t n)
{
	dex_insn *v = malloc(n * sizeof *v);
	for (uint32_t i = 0; i < n; i++)
		v[i] = db_lit(DEX_OP_CONST_16, 0, (int64_t)(i & 0x7fff));
	return v;
}

Test(dex_edit, an_entry_insertion_is_skipped_by_a_back_edge_to_pc_0)
{
	dex_insn code[] = {db_lit(DEX_OP_CONST_4, 0, 1), db_lit(0xd8 /* add-int/lit8 */, 0, 1), db_branch(DEX_OP_GOTO, 0, 0, -3)};
	((dex_insn *)code)[1].b = 0;
	dex_code *c = db_code(&D, 2, 0, 0, code, 3);
	uint32_t m = db_method(&D, CLS, "loop", "()V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	dex_insn probe = db_lit(DEX_OP_CONST_16, 1, 5);
	insert(ed, 0, DEX_EDIT_FALLTHROUGH, &probe, 1);
	dex_code *out = commit(ed);
	cr_expect_eq(at(out, 0).op, DEX_OP_CONST_16);
	dex_insn g = at(out, 5);
	cr_expect_eq(g.op, DEX_OP_GOTO);
	cr_expect_eq(5 + g.target, 2, "the loop returns to the original first instruction, not the probe");
}

Test(dex_edit, an_insertion_at_target_takes_the_branches)
{
	dex_insn code[] = {db_branch(DEX_OP_IF_EQZ, 0, 0, 3), db_lit(DEX_OP_CONST_4, 1, 0), db_op(DEX_OP_RETURN_VOID)};
	dex_code *c = db_code(&D, 2, 1, 0, code, 3);
	uint32_t m = db_method(&D, CLS, "f", "(I)V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	dex_insn probe = db_lit(DEX_OP_CONST_16, 1, 7);
	insert(ed, 2, DEX_EDIT_AT_TARGET, &probe, 1);
	dex_code *out = commit(ed);
	dex_insn br = at(out, 0);
	cr_expect_eq(br.target, 3, "the if-eqz now reaches the probe");
	cr_expect_eq(at(out, 3).op, DEX_OP_CONST_16);
	cr_expect_eq(at(out, 5).op, DEX_OP_RETURN_VOID);
}

Test(dex_edit, nothing_goes_between_an_invoke_and_its_move_result)
{
	uint16_t r0[] = {0};
	dex_insn code[] = {db_invoke(DEX_OP_INVOKE_STATIC, CALLEE, r0, 0), db_a(DEX_OP_MOVE_RESULT, 0), db_op(DEX_OP_RETURN_VOID)};
	dex_code *c = db_code(&D, 1, 0, 0, code, 3);
	uint32_t m = db_method(&D, CLS, "g", "()V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	dex_insn probe = db_lit(DEX_OP_CONST_16, 0, 1);
	tc_error e;
	tc_error_clear(&e);
	cr_expect_eq(dex_edit_insert(ed, 1, DEX_EDIT_FALLTHROUGH, &probe, 1, &e), TC_EUNSUPPORTED);
	cr_expect(strstr(e.message, "move-result") != NULL, "%s", e.message);
}

Test(dex_edit, gotos_grow_to_16_then_32_bits)
{
	for (int big = 0; big < 2; big++) {
		uint32_t n = big ? 16400 : 64; /* 128 units, then 32,800 */
		dex_insn code[] = {db_branch(DEX_OP_GOTO, 0, 0, 1), db_op(DEX_OP_RETURN_VOID)};
		dex_code *c = db_code(&D, 1, 0, 0, code, 2);
		uint32_t m = db_method(&D, CLS, big ? "far" : "near", "()V", DACC_STATIC, c);
		dex_editor *ed = open_code(m, c, true);
		dex_insn *fill = filler(n);
		insert(ed, 1, DEX_EDIT_FALLTHROUGH, fill, n);
		free(fill);
		dex_code *out = commit(ed);
		dex_insn g = at(out, 0);
		cr_expect_eq(g.op, big ? DEX_OP_GOTO_32 : DEX_OP_GOTO_16);
		uint32_t size = big ? 3 : 2;
		cr_expect_eq((uint32_t)g.target, size + 2 * n, "the goto still reaches the return");
		cr_expect_eq(at(out, (uint32_t)g.target).op, DEX_OP_RETURN_VOID);
		arena_reset(&S);
	}
}

Test(dex_edit, an_if_out_of_range_becomes_the_inverted_test_over_a_goto_32)
{
	dex_insn code[] = {db_branch(DEX_OP_IF_EQZ, 0, 0, 2), db_op(DEX_OP_RETURN_VOID)};
	dex_code *c = db_code(&D, 1, 1, 0, code, 2);
	uint32_t m = db_method(&D, CLS, "h", "(I)V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	dex_insn *fill = filler(16400);
	insert(ed, 1, DEX_EDIT_FALLTHROUGH, fill, 16400);
	free(fill);
	dex_code *out = commit(ed);
	dex_insn t = at(out, 0), g = at(out, 2);
	cr_expect_eq(t.op, DEX_OP_IF_NEZ, "the test inverted");
	cr_expect_eq(t.target, 5, "over the goto/32");
	cr_expect_eq(g.op, DEX_OP_GOTO_32);
	uint32_t ret = 5 + 2 * 16400;
	cr_expect_eq(2 + (uint32_t)g.target, ret);
	cr_expect_eq(at(out, ret).op, DEX_OP_RETURN_VOID);
}

Test(dex_edit, payloads_stay_even_and_switch_targets_follow_their_instructions)
{
	/* 0000 packed-switch v0, +6; 0003 return-void; 0004 const/4 v0; 0005 return-void;
	 * 0006 payload: first key 0, targets +3, +5 (relative to the switch) */
	uint16_t u[32];
	dex_insn head[] = {db_branch(DEX_OP_PACKED_SWITCH, 0, 0, 6), db_op(DEX_OP_RETURN_VOID), db_lit(DEX_OP_CONST_4, 0, 0),
	              db_op(DEX_OP_RETURN_VOID)};
	uint32_t n = db_encode(head, 4, u);
	cr_assert_eq(n, 6u);
	uint16_t pl[] = {DPL_PACKED, 2, 0, 0, 3, 0, 5, 0};
	memcpy(u + n, pl, sizeof pl);
	n += 8;
	dex_code *c = db_code_units(&D, 1, 1, 0, u, n);
	uint32_t m = db_method(&D, CLS, "sw", "(I)V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	dex_insn one = db_lit(DEX_OP_CONST_4, 0, 1); /* one code unit: everything after moves to odd */
	insert(ed, 0, DEX_EDIT_FALLTHROUGH, &one, 1);
	dex_code *out = commit(ed);
	dex_insn sw = at(out, 1);
	cr_expect_eq(sw.op, DEX_OP_PACKED_SWITCH);
	uint32_t pa = 1 + (uint32_t)sw.target;
	cr_expect_eq(pa % 2, 0u, "the payload is at an even address");
	dex_insn p = at(out, pa);
	cr_assert_eq(p.fmt, DF_PAYLOAD);
	const uint8_t *raw = out->insns + 2 * (size_t)pa;
	int32_t t0 = (int32_t)(raw[8] | raw[9] << 8 | raw[10] << 16 | (uint32_t)raw[11] << 24);
	int32_t t1 = (int32_t)(raw[12] | raw[13] << 8 | raw[14] << 16 | (uint32_t)raw[15] << 24);
	cr_expect_eq(at(out, 1 + (uint32_t)t0).op, DEX_OP_RETURN_VOID, "case 0 reaches its return");
	cr_expect_eq(1 + t0, 4);
	cr_expect_eq(1 + t1, 6);
	/* the padding before the payload is a nop that no path reaches */
	cr_expect_eq(at(out, pa - 1).op, DEX_OP_NOP);
}

/* 0000 invoke-static m; 0003 return-void; 0004 move-exception v0; 0005 return-void;
 * try [0000, 0004) catching Exception at 0004 */
static dex_code *guarded(bool catch_all)
{
	uint16_t r0[] = {0};
	dex_insn code[] = {db_invoke(DEX_OP_INVOKE_STATIC, CALLEE, r0, 0), db_op(DEX_OP_RETURN_VOID), db_a(DEX_OP_MOVE_EXCEPTION, 0),
	              db_op(DEX_OP_RETURN_VOID)};
	dex_code *c = db_code(&D, 3, 0, 0, code, 4);
	c->ntries = 1;
	c->tries = arena_alloc(&A, sizeof *c->tries);
	c->tries[0] = (dex_try){0, 4, 0};
	c->nhandlers = 1;
	c->handlers = arena_zalloc(&A, sizeof *c->handlers);
	c->handlers[0].catch_all = DEX_NO_INDEX;
	if (catch_all) {
		c->handlers[0].catch_all = 4;
	} else {
		c->handlers[0].n = 1;
		c->handlers[0].catches = arena_alloc(&A, sizeof(dex_catch));
		c->handlers[0].catches[0] = (dex_catch){EXC, 4};
	}
	return c;
}

/* The handler list covering addr, or NULL. */
static const dex_handler *cover(const dex_code *c, uint32_t addr)
{
	for (uint32_t t = 0; t < c->ntries; t++)
		if (addr >= c->tries[t].start && addr < c->tries[t].start + c->tries[t].count)
			return &c->handlers[c->tries[t].handler];
	return NULL;
}

Test(dex_edit, inserted_code_is_covered_by_no_original_try)
{
	dex_code *c = guarded(false);
	uint32_t m = db_method(&D, CLS, "t", "()V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	dex_insn probe = db_lit(DEX_OP_CONST_16, 1, 9);
	insert(ed, 1, DEX_EDIT_AT_TARGET, &probe, 1);
	dex_code *out = commit(ed);
	/* 0000 invoke; 0003 probe; 0005 return-void; 0006 move-exception; 0007 return-void */
	cr_expect_not_null(cover(out, 0));
	cr_expect_null(cover(out, 3), "the probe");
	cr_expect_null(cover(out, 4), "the probe");
	const dex_handler *h = cover(out, 5);
	cr_assert_not_null(h, "the return keeps its try");
	cr_expect_eq(h->n, 1u);
	cr_expect_eq(h->catches[0].addr, 6u, "the handler moved with its move-exception");
	cr_expect_eq(at(out, 6).op, DEX_OP_MOVE_EXCEPTION);
}

static const dex_insn HANDLER[] = {
	{.op = DEX_OP_MOVE_EXCEPTION, .fmt = DF_11x, .a = 1}, {.op = DEX_OP_CONST_16, .fmt = DF_21s, .a = 2, .lit = 3},
	{.op = DEX_OP_CONST_16, .fmt = DF_21s, .a = 2, .lit = 4}, {.op = DEX_OP_THROW, .fmt = DF_11x, .a = 1}};

Test(dex_edit, the_catch_all_joins_typed_lists_and_leaves_catch_alls_alone)
{
	for (int with_all = 0; with_all < 2; with_all++) {
		dex_code *c = guarded(with_all);
		uint32_t m = db_method(&D, CLS, with_all ? "ca1" : "ca0", "()V", DACC_STATIC, c);
		dex_editor *ed = open_code(m, c, true);
		tc_error e;
		tc_error_clear(&e);
		cr_assert_eq(dex_edit_catch_all(ed, 0, dex_edit_count(ed), HANDLER, 4, &e), TC_OK, "%s", e.message);
		dex_code *out = commit(ed);
		/* the handler block is appended after the original code (6 units) */
		cr_expect_eq(at(out, 6).op, DEX_OP_MOVE_EXCEPTION);
		cr_expect_null(cover(out, 6), "the new handler is not covered");
		const dex_handler *h = cover(out, 0);
		cr_assert_not_null(h);
		if (with_all) {
			cr_expect_eq(h->catch_all, 4u, "an original catch-all stays the catch-all");
		} else {
			cr_expect_eq(h->n, 1u, "the typed catch stays");
			cr_expect_eq(h->catches[0].type, EXC);
			cr_expect_eq(h->catch_all, 6u, "and the new catch-all follows it");
		}
		/* the original handler's own code is covered by the new catch-all */
		const dex_handler *hh = cover(out, 4);
		cr_assert_not_null(hh);
		cr_expect_eq(hh->catch_all, 6u);
		cr_expect_eq(hh->n, 0u);
		arena_reset(&S);
	}
}

Test(dex_edit, a_monitor_held_without_a_catch_all_is_refused)
{
	uint16_t r0[] = {0};
	dex_insn code[] = {db_a(DEX_OP_MONITOR_ENTER, 0), db_invoke(DEX_OP_INVOKE_STATIC, CALLEE, r0, 0), db_a(DEX_OP_MONITOR_EXIT, 0),
	              db_op(DEX_OP_RETURN_VOID)};
	dex_code *c = db_code(&D, 3, 1, 0, code, 4);
	uint32_t m = db_method(&D, CLS, "lock", "(Ljava/lang/Object;)V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	tc_error e;
	tc_error_clear(&e);
	cr_expect_eq(dex_edit_catch_all(ed, 0, dex_edit_count(ed), HANDLER, 4, &e), TC_EUNSUPPORTED);
	cr_expect(strstr(e.message, "invoke-static") && strstr(e.message, "monitor"), "%s", e.message);
}

Test(dex_edit, the_d8_shape_of_synchronized_is_accepted)
{
	/* 0000 monitor-enter v1; 0001 invoke-static; 0004 monitor-exit v1; 0005 return-void;
	 * 0006 move-exception v0; 0007 monitor-exit v1; 0008 throw v0
	 * try [0001, 0005) and [0007, 0008) -> catch-all 0006 */
	uint16_t r0[] = {0};
	dex_insn code[] = {db_a(DEX_OP_MONITOR_ENTER, 1), db_invoke(DEX_OP_INVOKE_STATIC, CALLEE, r0, 0), db_a(DEX_OP_MONITOR_EXIT, 1),
	              db_op(DEX_OP_RETURN_VOID), db_a(DEX_OP_MOVE_EXCEPTION, 0), db_a(DEX_OP_MONITOR_EXIT, 1),
	              db_a(DEX_OP_THROW, 0)};
	dex_code *c = db_code(&D, 3, 1, 0, code, 7);
	c->ntries = 2;
	c->tries = arena_alloc(&A, 2 * sizeof *c->tries);
	c->tries[0] = (dex_try){1, 4, 0};
	c->tries[1] = (dex_try){7, 1, 0};
	c->nhandlers = 1;
	c->handlers = arena_zalloc(&A, sizeof *c->handlers);
	c->handlers[0].catch_all = 6;
	uint32_t m = db_method(&D, CLS, "sync", "(Ljava/lang/Object;)V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	tc_error e;
	tc_error_clear(&e);
	cr_expect_eq(dex_edit_catch_all(ed, 0, dex_edit_count(ed), HANDLER, 4, &e), TC_OK, "%s", e.message);
}

Test(dex_edit, scratch_registers_move_every_parameter_back)
{
	dex_insn code[] = {db_op(DEX_OP_RETURN_VOID)};
	dex_code *c = db_code(&D, 4, 4, 0, code, 1);
	uint32_t m = db_method(&D, CLS, "p", "(IJLjava/lang/Object;)V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	tc_error e;
	tc_error_clear(&e);
	uint32_t first;
	cr_assert_eq(dex_edit_scratch(ed, 2, &first, &e), TC_OK, "%s", e.message);
	cr_expect_eq(first, 4u);
	dex_code *out = commit(ed);
	cr_expect_eq(out->regs, 6);
	cr_expect_eq(out->ins, 4);
	dex_insn a = at(out, 0), b = at(out, 3), d = at(out, 6);
	cr_expect(a.op == DEX_OP_MOVE_16 && a.a == 0 && a.b == 2, "the int: v0 <- v2");
	cr_expect(b.op == DEX_OP_MOVE_WIDE_16 && b.a == 1 && b.b == 3, "the long: v1 <- v3");
	cr_expect(d.op == DEX_OP_MOVE_OBJECT_16 && d.a == 3 && d.b == 5, "the object: v3 <- v5");
	cr_expect_eq(at(out, 9).op, DEX_OP_RETURN_VOID);
	/* an instance method moves `this` first */
	arena_reset(&S);
	dex_code *c2 = db_code(&D, 2, 2, 0, code, 1);
	uint32_t m2 = db_method(&D, CLS, "q", "(Z)V", DACC_PUBLIC, c2);
	ed = open_code(m2, c2, false);
	cr_assert_eq(dex_edit_scratch(ed, 1, &first, &e), TC_OK);
	out = commit(ed);
	a = at(out, 0);
	b = at(out, 3);
	cr_expect(a.op == DEX_OP_MOVE_OBJECT_16 && a.a == 0 && a.b == 1, "this: v0 <- v1");
	cr_expect(b.op == DEX_OP_MOVE_16 && b.a == 1 && b.b == 2, "the boolean: v1 <- v2");
}

Test(dex_edit, the_init_call_of_a_constructor_is_found_on_this_only)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t xinit, oinit, binit;
	cr_assert_eq(dex_intern_method(&D, "Lp/X;", "<init>", "()V", &xinit, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Ljava/lang/Object;", "<init>", "()V", &oinit, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Lp/T;", "<init>", "(I)V", &binit, &e), TC_OK);
	uint32_t xtype;
	cr_assert_eq(dex_intern_type(&D, "Lp/X;", &xtype, &e), TC_OK);
	/* another object is made and initialized first; then a copy of this is */
	uint16_t r0[] = {0};
	dex_insn code[] = {db_idx(DEX_OP_NEW_INSTANCE, 0, xtype), db_invoke(DEX_OP_INVOKE_DIRECT, xinit, r0, 1),
	              db_ab(DEX_OP_MOVE_OBJECT, 0, 1), db_invoke(DEX_OP_INVOKE_DIRECT, oinit, r0, 1), db_op(DEX_OP_RETURN_VOID)};
	dex_code *c = db_code(&D, 2, 1, 1, code, 5);
	uint32_t m = db_method(&D, CLS, "<init>", "()V", DACC_PUBLIC | DACC_CONSTRUCTOR, c);
	dex_editor *ed = open_code(m, c, false);
	uint32_t after;
	cr_assert_eq(dex_edit_after_this_init(ed, &after, &e), TC_OK, "%s", e.message);
	cr_expect_eq(after, 4u, "right after the call on the copy of this");
	/* this(...) on one path, super() on another: no single call */
	arena_reset(&S);
	/* (I)V with two registers: v0 is this, v1 the int */
	uint16_t r01[] = {0, 1};
	dex_insn two[] = {db_branch(DEX_OP_IF_EQZ, 1, 0, 6), db_invoke(DEX_OP_INVOKE_DIRECT, oinit, r0, 1), db_op(DEX_OP_RETURN_VOID),
	             db_op(DEX_OP_NOP), db_op(DEX_OP_NOP), db_invoke(DEX_OP_INVOKE_DIRECT, binit, r01, 2), db_op(DEX_OP_RETURN_VOID)};
	dex_code *c2 = db_code(&D, 2, 2, 2, two, 7);
	uint32_t m2 = db_method(&D, CLS, "<init>", "(I)V", DACC_PUBLIC | DACC_CONSTRUCTOR, c2);
	ed = open_code(m2, c2, false);
	tc_error_clear(&e);
	cr_expect_eq(dex_edit_after_this_init(ed, &after, &e), TC_EUNSUPPORTED);
	cr_expect(strstr(e.message, "more than one") != NULL, "%s", e.message);
}

Test(dex_edit, debug_positions_move_with_their_instructions)
{
	dex_insn code[] = {db_lit(DEX_OP_CONST_4, 0, 0), db_op(DEX_OP_RETURN_VOID)};
	dex_code *c = db_code(&D, 1, 0, 0, code, 2);
	/* line 10 at 0, line 11 at 1 (two special opcodes), end */
	static const uint8_t dbg[] = {10, 0, 0x0a + 4, 0x0a + 5 + 15, 0};
	dex_blob *b = arena_zalloc(&A, sizeof *b);
	b->data = dbg;
	b->len = sizeof dbg;
	c->debug = b;
	uint32_t m = db_method(&D, CLS, "dbg", "()V", DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	dex_insn probe = db_lit(DEX_OP_CONST_16, 0, 1);
	insert(ed, 0, DEX_EDIT_FALLTHROUGH, &probe, 1);
	dex_code *out = commit(ed);
	cr_assert_not_null(out->debug);
	cr_assert_neq(out->debug, b, "a new item: the old one may be shared");
	/* decode the positions */
	const uint8_t *p = out->debug->data;
	cr_expect_eq(p[0], 10);
	cr_expect_eq(p[1], 0);
	uint32_t addr = 0, line = 10, pos[4][2], npos = 0;
	for (uint32_t i = 2; i < out->debug->len && p[i]; i++) {
		if (p[i] == 1) {
			addr += p[++i]; /* one-byte uleb in this test */
			continue;
		}
		cr_assert_geq(p[i], 0x0a, "only positions in this test");
		uint32_t adj = p[i] - 0x0a;
		line += (uint32_t)(-4 + (int)(adj % 15));
		addr += adj / 15;
		pos[npos][0] = addr;
		pos[npos++][1] = line;
	}
	cr_assert_eq(npos, 2u);
	cr_expect(pos[0][0] == 2 && pos[0][1] == 10, "line 10 at the moved first instruction");
	cr_expect(pos[1][0] == 3 && pos[1][1] == 11, "line 11 at the moved return");
}

Test(dex_hook, entry_returns_and_the_catch_all_use_dead_registers)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t in, out_m;
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "i", "(I)V", &in, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "o", "(I)V", &out_m, &e), TC_OK);
	/* (I)I: v0..v2 locals, v3 this, v4 the int; returns v0 */
	dex_insn code[] = {db_ab(DEX_OP_MOVE, 0, 4), db_a(DEX_OP_RETURN, 0)};
	dex_code *c = db_code(&D, 5, 2, 0, code, 2);
	uint32_t m = db_method(&D, CLS, "id", "(I)I", DACC_PUBLIC, c);
	dex_editor *ed = open_code(m, c, false);
	dex_hook h = {.entry = in, .exit = out_m, .value = 40000, .extra = DEX_NO_INDEX};
	cr_assert_eq(dex_hook_apply(ed, &h, &e), TC_OK, "%s", e.message);
	dex_code *o = commit(ed);
	cr_expect_eq(o->regs, 5, "no register added: v0 is free at entry");
	cr_expect_eq(o->outs, 1);
	dex_insn a = at(o, 0), b = at(o, 3);
	cr_expect(a.op == DEX_OP_CONST && a.a == 0 && a.lit == 40000, "const v0, #40000 (past 16 bits)");
	cr_expect(b.op == DEX_OP_INVOKE_STATIC && b.idx == in && b.nargs == 1 && b.args[0] == 0);
	cr_expect_eq(at(o, 6).op, DEX_OP_MOVE);
	dex_insn p = at(o, 7), q = at(o, 10), r = at(o, 13);
	cr_expect(p.op == DEX_OP_CONST && p.a == 1, "before `return v0` the probe uses v1");
	cr_expect(q.op == DEX_OP_INVOKE_STATIC && q.idx == out_m && q.args[0] == 1);
	cr_expect(r.op == DEX_OP_RETURN && r.a == 0);
	dex_insn x = at(o, 14);
	cr_expect_eq(x.op, DEX_OP_MOVE_EXCEPTION, "the handler follows");
	/* the original instructions are covered, the probes are not */
	cr_assert_eq(o->ntries, 2u);
	cr_expect(o->tries[0].start == 6 && o->tries[0].count == 1, "the move");
	cr_expect(o->tries[1].start == 13 && o->tries[1].count == 1, "the return, not its probe");
	cr_expect_eq(o->handlers[o->tries[0].handler].catch_all, 14u);
}

Test(dex_hook, constructors_get_the_entry_after_super_with_two_new_registers)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t in, out_m, oinit;
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "i", "(I)V", &in, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "o", "(I)V", &out_m, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Ljava/lang/Object;", "<init>", "()V", &oinit, &e), TC_OK);
	uint16_t r0[] = {0};
	dex_insn code[] = {db_invoke(DEX_OP_INVOKE_DIRECT, oinit, r0, 1), db_op(DEX_OP_RETURN_VOID)};
	dex_code *c = db_code(&D, 1, 1, 1, code, 2);
	uint32_t m = db_method(&D, CLS, "<init>", "()V", DACC_PUBLIC | DACC_CONSTRUCTOR, c);
	dex_editor *ed = open_code(m, c, false);
	dex_hook h = {.entry = in, .exit = out_m, .value = 3, .after_init = true, .extra = DEX_NO_INDEX};
	cr_assert_eq(dex_hook_apply(ed, &h, &e), TC_OK, "%s", e.message);
	dex_code *o = commit(ed);
	cr_expect_eq(o->regs, 3);
	dex_insn mv = at(o, 0), call = at(o, 3), k = at(o, 6), i = at(o, 8);
	cr_expect(mv.op == DEX_OP_MOVE_OBJECT_16 && mv.a == 0 && mv.b == 2, "this moved back to v0");
	cr_expect(call.op == DEX_OP_INVOKE_DIRECT && call.idx == oinit, "super() first");
	cr_expect(k.op == DEX_OP_CONST_16 && k.a == 1 && k.lit == 3, "then the entry probe in a new register");
	cr_expect(i.op == DEX_OP_INVOKE_STATIC && i.idx == in);
	/* the catch-all covers only what follows the init call */
	for (uint32_t t = 0; t < o->ntries; t++)
		cr_expect_geq(o->tries[t].start, 11u, "nothing before i() is covered");
}

/* R8 and d8 reuse parameter registers for results, so a frame can be as tight as its
 * code: play-services' SafeParcelReader.readLong(Parcel, int) is v0 free, p0 = v1,
 * p1 = v2, and returns the wide result in v1:v2. The probe before the return must use
 * v0; it took v3, past registers_size, which ART's verifier rejects outright. */
Test(dex_hook, the_probe_before_a_wide_return_in_a_tight_frame_stays_in_the_frame)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t in, out_m, read;
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "i", "(I)V", &in, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "o", "(I)V", &out_m, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Landroid/os/Parcel;", "readLong", "()J", &read, &e), TC_OK);
	uint16_t p0[] = {1};
	dex_insn code[] = {db_invoke(DEX_OP_INVOKE_VIRTUAL, read, p0, 1), db_a(DEX_OP_MOVE_RESULT_WIDE, 1),
	              db_a(DEX_OP_RETURN_WIDE, 1)};
	dex_code *c = db_code(&D, 3, 2, 1, code, 3);
	uint32_t m = db_method(&D, CLS, "readLong", "(Landroid/os/Parcel;I)J", DACC_PUBLIC | DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	dex_hook h = {.entry = in, .exit = out_m, .value = 0x18a0, .extra = DEX_NO_INDEX};
	cr_assert_eq(dex_hook_apply(ed, &h, &e), TC_OK, "%s", e.message);
	dex_code *o = commit(ed);
	cr_expect_eq(o->regs, 3, "v0 is free at entry and before the return: no register added");
	/* i() at 0..5, the invoke at 5, move-result-wide at 8, the probe at 9 and 11 */
	dex_insn k = at(o, 9), call = at(o, 11), r = at(o, 14);
	cr_expect(k.op == DEX_OP_CONST_16 && k.a == 0 && k.lit == 0x18a0, "const/16 v0 (was v3: out of range)");
	cr_expect(call.op == DEX_OP_INVOKE_STATIC && call.idx == out_m && call.args[0] == 0);
	cr_expect(r.op == DEX_OP_RETURN_WIDE && r.a == 1, "the pair v1:v2 is returned untouched");
}

/* The same shape with the pair at v0: the lowest register beside it is v2. */
Test(dex_hook, the_probe_before_a_wide_return_from_v0_takes_the_register_after_the_pair)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t in, out_m;
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "i", "(I)V", &in, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "o", "(I)V", &out_m, &e), TC_OK);
	/* static (JI)J: p0:p1 = v0:v1 (the long), p2 = v2; returns v0:v1 */
	dex_insn code[] = {db_a(DEX_OP_RETURN_WIDE, 0)};
	dex_code *c = db_code(&D, 3, 3, 0, code, 1);
	uint32_t m = db_method(&D, CLS, "first", "(JI)J", DACC_PUBLIC | DACC_STATIC, c);
	dex_editor *ed = open_code(m, c, true);
	dex_hook h = {.entry = DEX_NO_INDEX, .exit = out_m, .value = 7, .extra = DEX_NO_INDEX};
	cr_assert_eq(dex_hook_apply(ed, &h, &e), TC_OK, "%s", e.message);
	dex_code *o = commit(ed);
	cr_expect_eq(o->regs, 3);
	dex_insn k = at(o, 0);
	cr_expect(k.op == DEX_OP_CONST_4 || k.op == DEX_OP_CONST_16, "a constant first");
	cr_expect_eq(k.a, 2u, "v2: neither half of the pair");
}

/* Constructors: i() runs right after the init call, so o() may run only on paths that
 * went through it, wherever the compiler laid that code out (found by the generated
 * methods, tests/dex/gen, and their probe-balance check). */

/* The address of the first instruction with opcode op at or after addr in c. */
static uint32_t find(const dex_code *c, uint8_t op, uint32_t addr)
{
	dex_insn d;
	for (uint32_t size; addr < c->ninsns; addr += size) {
		size = dex_op_decode(c->insns, c->ninsns, addr, D.version, &d);
		cr_assert(size, "undecodable at %u", addr);
		if (d.op == op)
			return addr;
	}
	cr_assert_fail("no %s", dex_op_table[op].name);
	return 0;
}

/* The address of the first call of method idx in c. */
static uint32_t find_call(const dex_code *c, uint32_t idx)
{
	dex_insn d;
	for (uint32_t addr = 0, size; addr < c->ninsns; addr += size) {
		size = dex_op_decode(c->insns, c->ninsns, addr, D.version, &d);
		cr_assert(size, "undecodable at %u", addr);
		if (dex_op_has(d.op, DEX_OPF_INVOKE) && d.idx == idx)
			return addr;
	}
	cr_assert_fail("no call of method %u", idx);
	return 0;
}

static bool has_catch_all(const dex_code *c, uint32_t addr)
{
	const dex_handler *h = cover(c, addr);
	return h && h->catch_all != DEX_NO_INDEX;
}

typedef struct ctor_ids {
	uint32_t in, out, oinit, xinit;
} ctor_ids;

static ctor_ids ctor_setup(void)
{
	tc_error e;
	tc_error_clear(&e);
	ctor_ids k;
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "i", "(I)V", &k.in, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Lp/B;", "o", "(I)V", &k.out, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Ljava/lang/Object;", "<init>", "()V", &k.oinit, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Ljava/lang/Exception;", "<init>", "()V", &k.xinit, &e), TC_OK);
	return k;
}

static dex_code *hook_ctor(const ctor_ids *k, dex_code *c, const char *desc, int expect)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t m = db_method(&D, CLS, "<init>", desc, DACC_PUBLIC | DACC_CONSTRUCTOR, c);
	dex_editor *ed = open_code(m, c, false);
	dex_hook h = {.entry = k->in, .exit = k->out, .value = 5, .after_init = true, .extra = DEX_NO_INDEX};
	int rc = dex_hook_apply(ed, &h, &e);
	cr_assert_eq(rc, expect, "%s", e.message);
	return rc == TC_OK ? commit(ed) : NULL;
}

/* (I)V: an argument check before super(), its throw laid out after the body (cold
 * paths go last). A throw there has not run i(): the catch-all must not cover it. */
Test(dex_hook, a_constructors_check_before_the_init_call_is_not_covered_by_the_catch_all)
{
	ctor_ids k = ctor_setup();
	uint16_t r0[] = {0}, r1[] = {1};
	dex_insn code[] = {db_branch(DEX_OP_IF_EQZ, 1, 0, 9),                                  /* 0 */
	              db_invoke(DEX_OP_INVOKE_DIRECT, k.oinit, r0, 1),                   /* 2 */
	              db_invoke(DEX_OP_INVOKE_STATIC, CALLEE, r0, 0),                    /* 5 */
	              db_op(DEX_OP_RETURN_VOID),                                         /* 8 */
	              db_idx(DEX_OP_NEW_INSTANCE, 1, EXC),                               /* 9 */
	              db_invoke(DEX_OP_INVOKE_DIRECT, k.xinit, r1, 1),                   /* 11 */
	              db_a(DEX_OP_THROW, 1)};                                            /* 14 */
	dex_code *o = hook_ctor(&k, db_code(&D, 2, 2, 1, code, 7), "(I)V", TC_OK);
	cr_expect(has_catch_all(o, find_call(o, CALLEE)), "the body after super() is covered");
	uint32_t bad = find(o, DEX_OP_NEW_INSTANCE, 0), thr = find(o, DEX_OP_THROW, bad);
	for (uint32_t a = bad; a <= thr; a++)
		cr_expect(!has_catch_all(o, a), "the pre-init throw at %u reaches no o() (it had no i())", a);
}

/* ()V: the body laid out before the init call, reached by a goto after it. Its return
 * is an exit like any other. */
Test(dex_hook, a_constructors_body_laid_out_before_the_init_call_gets_its_exits)
{
	ctor_ids k = ctor_setup();
	uint16_t r0[] = {0};
	dex_insn code[] = {db_branch(DEX_OP_GOTO, 0, 0, 5),                                    /* 0 */
	              db_invoke(DEX_OP_INVOKE_STATIC, CALLEE, r0, 0),                    /* 1 */
	              db_op(DEX_OP_RETURN_VOID),                                         /* 4 */
	              db_invoke(DEX_OP_INVOKE_DIRECT, k.oinit, r0, 1),                   /* 5 */
	              db_branch(DEX_OP_GOTO, 0, 0, -7)};                                 /* 8 */
	dex_code *o = hook_ctor(&k, db_code(&D, 1, 1, 1, code, 5), "()V", TC_OK);
	uint32_t call = find_call(o, CALLEE), ret = find(o, DEX_OP_RETURN_VOID, call);
	dex_insn probe = at(o, ret - 3);
	cr_expect(probe.op == DEX_OP_INVOKE_STATIC && probe.idx == k.out, "o() right before the return (got %s)",
	          dex_op_table[probe.op].name);
	cr_expect(has_catch_all(o, call), "the body is covered by the catch-all");
}

/* ()V in two registers (this = v1): a handler around the init call runs before i():
 * not covered. */
Test(dex_hook, a_handler_around_the_init_call_is_not_covered_by_the_catch_all)
{
	ctor_ids k = ctor_setup();
	uint16_t r0[] = {0}, r1[] = {1};
	dex_insn code[] = {db_invoke(DEX_OP_INVOKE_DIRECT, k.oinit, r1, 1),                   /* 0 */
	              db_invoke(DEX_OP_INVOKE_STATIC, CALLEE, r0, 0),                    /* 3 */
	              db_op(DEX_OP_RETURN_VOID),                                         /* 6 */
	              db_a(DEX_OP_MOVE_EXCEPTION, 0),                                    /* 7 */
	              db_a(DEX_OP_THROW, 0)};                                            /* 8 */
	dex_code *c = db_code(&D, 2, 1, 1, code, 5);
	c->ntries = 1;
	c->tries = arena_alloc(&A, sizeof *c->tries);
	c->tries[0] = (dex_try){0, 3, 0};
	c->nhandlers = 1;
	c->handlers = arena_zalloc(&A, sizeof *c->handlers);
	c->handlers[0] = (dex_handler){1, arena_alloc(&A, sizeof(dex_catch)), DEX_NO_INDEX};
	c->handlers[0].catches[0] = (dex_catch){EXC, 7};
	dex_code *o = hook_ctor(&k, c, "()V", TC_OK);
	uint32_t h = find(o, DEX_OP_MOVE_EXCEPTION, 0);
	cr_expect(!has_catch_all(o, find(o, DEX_OP_THROW, h)), "the handler's throw reaches no o()");
	cr_expect(has_catch_all(o, find_call(o, CALLEE)), "the body is covered");
}

/* (I)V: one throw shared by a check before the init call and one after: covered, an
 * exit without entry; not covered, an entry without exit. Refused, left as it was. */
Test(dex_hook, a_throw_shared_by_code_before_and_after_the_init_call_is_refused)
{
	ctor_ids k = ctor_setup();
	uint16_t r0[] = {0}, r1[] = {1};
	dex_insn code[] = {db_branch(DEX_OP_IF_EQZ, 1, 0, 11),                                 /* 0 */
	              db_invoke(DEX_OP_INVOKE_DIRECT, k.oinit, r0, 1),                   /* 2 */
	              db_invoke(DEX_OP_INVOKE_STATIC, CALLEE, r0, 0),                    /* 5 */
	              db_branch(DEX_OP_IF_EQZ, 1, 0, 3),                                 /* 8 */
	              db_op(DEX_OP_RETURN_VOID),                                         /* 10 */
	              db_idx(DEX_OP_NEW_INSTANCE, 1, EXC),                               /* 11 */
	              db_invoke(DEX_OP_INVOKE_DIRECT, k.xinit, r1, 1),                   /* 13 */
	              db_a(DEX_OP_THROW, 1)};                                            /* 16 */
	tc_error e;
	tc_error_clear(&e);
	dex_code *c = db_code(&D, 2, 2, 1, code, 8);
	uint32_t m = db_method(&D, CLS, "<init>", "(I)V", DACC_PUBLIC | DACC_CONSTRUCTOR, c);
	dex_editor *ed = open_code(m, c, false);
	dex_hook h = {.entry = k.in, .exit = k.out, .value = 5, .after_init = true, .extra = DEX_NO_INDEX};
	cr_expect_eq(dex_hook_apply(ed, &h, &e), TC_EUNSUPPORTED);
	cr_expect(strstr(e.message, "before and after the init call") != NULL, "%s", e.message);
}

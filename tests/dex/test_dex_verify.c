/* The method checker (dex/dex_verify.h) on methods made here: its cost (the work
 * budget, and methods whose shape once made it loop) and the rules whose broken case
 * no dex file can carry to it (the reader refuses the file first), which tc-instrument
 * could still hand it from the editor. The rules with a smali case are tested by
 * tests/dex/verify/cases.sh. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dex.h"
#include "dex_op.h"
#include "dex_verify.h"
#include "dexbuild.h"

static arena A, S;
static dex_file D;
static uint32_t CLS;

static void setup(void)
{
	arena_init(&A);
	arena_init(&S);
	db_init(&D, &A);
	CLS = db_class(&D, "Lp/T;", DACC_PUBLIC);
}

static void teardown(void)
{
	arena_free(&A);
	arena_free(&S);
}

TestSuite(dex_verify, .init = setup, .fini = teardown);

/* Checks method idx (added to CLS with flags and code) with factor as the budget. */
static dex_verify_result check_with(uint32_t idx, uint32_t flags, dex_code *code, uint32_t factor)
{
	dex_verify_file f;
	cr_assert_eq(dex_verify_file_init(&f, &D, &A), TC_OK);
	f.work_factor = factor;
	dex_emethod m = {idx, flags, code};
	dex_verify_result r;
	arena_reset(&S);
	cr_assert_eq(dex_verify_method(&f, &D.classes[CLS], &m, &S, &r), 0);
	return r;
}

/* The shape that made the checker loop for ever on AOSP dexter's medium.dex
 * (CalendarController.sendEvent: dx copies the locked `this` into a scratch register
 * again and again inside a synchronized block full of branches): k blocks in a ring,
 * each entered from the top with v0 holding null and from its neighbour with v0 a copy
 * of the locked p0. Where the two meet, v0's lock level is dropped (another register
 * holds it: ART's MergeRegisters), which must not count as a change of the stored line,
 * or each block makes the next one change for ever.
 *   monitor-enter p0; const/4 v0, 0; if-eqz p1, block_i (each i); goto block_0
 *   block_i: move-object v0, p0; if-nez p1, out; goto block_(i+1 mod k)
 *   out: monitor-exit p0; return-void */
static dex_code *ring(uint32_t k)
{
	enum { P0 = 2, P1 = 3 };
	dex_insn *c = calloc(4 * k + 8, sizeof *c);
	uint32_t n = 0, head = 2 + 2 * k + 2; /* code units before block_0 */
	uint32_t out = head + 5 * k;
	c[n++] = db_a(DEX_OP_MONITOR_ENTER, P0);
	c[n++] = db_lit(DEX_OP_CONST_4, 0, 0);
	for (uint32_t i = 0; i < k; i++)
		c[n++] = db_branch(DEX_OP_IF_EQZ, P1, 0, (int32_t)(head + 5 * i - (2 + 2 * i)));
	c[n++] = db_branch(DEX_OP_GOTO_16, 0, 0, (int32_t)(head - (2 + 2 * k)));
	for (uint32_t i = 0; i < k; i++) {
		uint32_t at = head + 5 * i;
		c[n++] = db_ab(DEX_OP_MOVE_OBJECT, 0, P0);
		c[n++] = db_branch(DEX_OP_IF_NEZ, P1, 0, (int32_t)(out - (at + 1)));
		c[n++] = db_branch(DEX_OP_GOTO_16, 0, 0, (int32_t)(head + 5 * ((i + 1) % k) - (at + 3)));
	}
	c[n++] = db_a(DEX_OP_MONITOR_EXIT, P0);
	c[n++] = db_op(DEX_OP_RETURN_VOID);
	dex_code *code = db_code(&D, 4, 2, 0, c, n);
	free(c);
	return code;
}

Test(dex_verify, lock_alias_ring_converges_within_a_few_passes)
{
	for (uint32_t k = 1; k <= 64; k *= 4) {
		uint32_t idx = db_method(&D, CLS, k == 1 ? "ring1" : k == 4 ? "ring4" : k == 16 ? "ring16" : "ring64",
		                         "(I)V", DACC_PUBLIC, NULL);
		dex_verify_result r = check_with(idx, DACC_PUBLIC, ring(k), DEX_VERIFY_WORK_FACTOR);
		cr_expect(!r.failed && !r.locking, "k=%u: %s%s", k, r.msg, r.lock_msg);
		/* a first pass costs about one size; the ring's types settle in a second */
		cr_expect(r.work <= 4 * r.size, "k=%u: %llu steps for a size of %llu", k, (unsigned long long)r.work,
		          (unsigned long long)r.size);
	}
}

/* A loop needs a second pass: with a budget of one size it is too costly, and said so. */
Test(dex_verify, over_the_budget_is_too_costly)
{
	dex_insn c[] = {db_lit(DEX_OP_CONST_4, 0, 0), db_branch(DEX_OP_IF_EQZ, 1, 0, 4), db_lit(0xd8 /* add-int/lit8 */, 0, 1),
	           db_branch(DEX_OP_GOTO, 0, 0, -4), db_op(DEX_OP_RETURN_VOID)};
	uint32_t idx = db_method(&D, CLS, "loop", "(I)V", DACC_PUBLIC | DACC_STATIC, NULL);
	dex_code *code = db_code(&D, 2, 1, 0, c, 5);
	dex_verify_result r = check_with(idx, DACC_PUBLIC | DACC_STATIC, code, DEX_VERIFY_WORK_FACTOR);
	cr_assert(!r.failed, "%s", r.msg);
	r = check_with(idx, DACC_PUBLIC | DACC_STATIC, code, 1);
	cr_assert(r.failed && r.costly);
	cr_assert(strstr(r.msg, "too costly to verify"), "%s", r.msg);
}

/* 65,535 registers and a few hundred branch targets: the register lines alone would
 * take more than DEX_VERIFY_MAX_LINE_BYTES; refused before they are allocated. */
Test(dex_verify, register_lines_past_the_memory_bound_are_too_costly)
{
	enum { K = 400 };
	dex_insn c[K + 1];
	for (uint32_t i = 0; i < K; i++)
		c[i] = db_branch(DEX_OP_IF_EQZ, 0, 0, 2); /* each targets the next */
	c[K] = db_op(DEX_OP_RETURN_VOID);
	uint32_t idx = db_method(&D, CLS, "wide", "(I)V", DACC_PUBLIC | DACC_STATIC, NULL);
	dex_verify_result r = check_with(idx, DACC_PUBLIC | DACC_STATIC, db_code(&D, 65535, 1, 0, c, K + 1), DEX_VERIFY_WORK_FACTOR);
	cr_assert(r.failed && r.costly, "%s", r.msg);
	cr_assert(strstr(r.msg, "register lines"), "%s", r.msg);
}

/* --- rules no dex file can bring to the checker (the reader refuses the file first),
 *     but the editor's output could: the rules table of tests/dex/verify/README.md
 *     names these tests ------------------------------------------------------------- */

static dex_verify_result check_static(const char *name, const char *desc, dex_code *code)
{
	uint32_t idx = db_method(&D, CLS, name, desc, DACC_PUBLIC | DACC_STATIC, NULL);
	return check_with(idx, DACC_PUBLIC | DACC_STATIC, code, DEX_VERIFY_WORK_FACTOR);
}

#define expect_fail(r, text)                                                                       \
	do {                                                                                       \
		dex_verify_result r_ = (r);                                                              \
		cr_expect(r_.failed && strstr(r_.msg, text), "expected '%s', got '%s'", text,      \
		          r_.failed ? r_.msg : "(accepted)");                                      \
	} while (0)

static dex_code *ret_void(uint16_t regs, uint16_t ins, uint16_t outs)
{
	dex_insn c[] = {db_op(DEX_OP_RETURN_VOID)};
	return db_code(&D, regs, ins, outs, c, 1);
}

Test(dex_verify, code_item_limits)
{
	/* ins_size past registers_size (Verify: "bad register counts") */
	expect_fail(check_static("ins", "(II)V", ret_void(1, 2, 0)), "bad register counts (ins=2 regs=1)");
	/* outs_size past registers_size, more than 5 (CheckIntraCodeItem) */
	expect_fail(check_static("outs", "()V", ret_void(2, 0, 6)), "outs_size 6 > registers_size 2");
	cr_expect(!check_static("outs5", "()V", ret_void(0, 0, 5)).failed, "up to 5 outs whatever the frame");
	/* no instruction (ComputeWidthsAndCountOps: "code item has no opcode") */
	expect_fail(check_static("empty", "()V", db_code_units(&D, 0, 0, 0, NULL, 0)), "empty code");
}

Test(dex_verify, undecodable_code)
{
	/* an unused opcode (kVerifyError: "unexpected opcode") */
	uint16_t unused[] = {0x003e, 0x000e};
	expect_fail(check_static("unused", "()V", db_code_units(&D, 1, 0, 0, unused, 2)), "undecodable instruction");
	/* the last instruction cut off ("code did not end where expected") */
	uint16_t cut[] = {0x000e, 0x0013};
	expect_fail(check_static("cut", "()V", db_code_units(&D, 1, 0, 0, cut, 2)), "undecodable instruction");
}

Test(dex_verify, constructor_flag_needs_the_name)
{
	uint32_t idx = db_method(&D, CLS, "notInit", "()V", DACC_PUBLIC | DACC_CONSTRUCTOR, NULL);
	expect_fail(check_with(idx, DACC_PUBLIC | DACC_CONSTRUCTOR, ret_void(1, 1, 0), DEX_VERIFY_WORK_FACTOR),
	            "method is marked as constructor, but not named accordingly");
}

/* Points type idx's descriptor at s (the model is only read by the checker). */
static void retype(uint32_t type, const char *s)
{
	dex_str *str = &D.strings.v[D.types.v[type]];
	str->data = (const uint8_t *)s;
	str->len = (uint32_t)strlen(s);
}

Test(dex_verify, own_descriptors)
{
	tc_error e;
	tc_error_clear(&e);
	/* SetTypesFromSignature: a parameter of no known kind, a return type of none */
	uint32_t idx = db_method(&D, CLS, "param", "(Lp/Q;)V", DACC_PUBLIC | DACC_STATIC, NULL);
	uint32_t q;
	cr_assert_eq(dex_intern_type(&D, "Lp/Q;", &q, &e), TC_OK);
	retype(q, "Q");
	expect_fail(check_with(idx, DACC_PUBLIC | DACC_STATIC, ret_void(1, 1, 0), DEX_VERIFY_WORK_FACTOR),
	            "unexpected signature type char in parameter 0 'Q'");
	idx = db_method(&D, CLS, "ret", "()Lp/R;", DACC_PUBLIC | DACC_STATIC, NULL);
	uint32_t r;
	cr_assert_eq(dex_intern_type(&D, "Lp/R;", &r, &e), TC_OK);
	retype(r, "[V");
	expect_fail(check_with(idx, DACC_PUBLIC | DACC_STATIC, ret_void(0, 0, 0), DEX_VERIFY_WORK_FACTOR),
	            "unexpected char in return type descriptor '[V'");
}

Test(dex_verify, new_array_of_256_dimensions)
{
	static char deep[258];
	memset(deep, '[', 256);
	deep[256] = 'I';
	tc_error e;
	tc_error_clear(&e);
	uint32_t t;
	cr_assert_eq(dex_intern_type(&D, "[[I", &t, &e), TC_OK);
	retype(t, deep);
	dex_insn c[] = {db_lit(DEX_OP_CONST_4, 0, 1), db_idx(DEX_OP_NEW_ARRAY, 0, t), db_op(DEX_OP_RETURN_VOID)};
	c[1].b = 0;
	expect_fail(check_static("deep", "()V", db_code(&D, 1, 0, 0, c, 3)), "new-array of 256 dimensions (at most 255)");
}

Test(dex_verify, index_operands_in_range)
{
	/* Check{String,Type,Field,Method}Index: "bad ... index" */
	dex_insn s[] = {db_idx(DEX_OP_CONST_STRING, 0, 60000), db_op(DEX_OP_RETURN_VOID)};
	expect_fail(check_static("str", "()V", db_code(&D, 1, 0, 0, s, 2)), "bad string index 60000");
	dex_insn t[] = {db_idx(DEX_OP_CONST_CLASS, 0, 60000), db_op(DEX_OP_RETURN_VOID)};
	expect_fail(check_static("type", "()V", db_code(&D, 1, 0, 0, t, 2)), "bad type index 60000");
	dex_insn f[] = {db_idx(DEX_OP_SGET, 0, 7), db_op(DEX_OP_RETURN_VOID)};
	expect_fail(check_static("field", "()V", db_code(&D, 1, 0, 0, f, 2)), "bad field index 7");
	dex_insn m[] = {db_invoke(DEX_OP_INVOKE_STATIC, 60000, NULL, 0), db_op(DEX_OP_RETURN_VOID)};
	expect_fail(check_static("meth", "()V", db_code(&D, 1, 0, 0, m, 2)), "bad method index 60000");
}

/* A method with one try item and one handler over `code` (a throwing call at 0). */
static dex_code *with_try(uint32_t start, uint32_t count, uint32_t handler_addr, uint32_t handler_index)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t callee;
	cr_assert_eq(dex_intern_method(&D, "Lp/Q;", "m", "()V", &callee, &e), TC_OK);
	/* 0: invoke-static (3 units); 3: return-void; 4: move-exception v0; 5: throw v0 */
	dex_insn c[] = {db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0), db_op(DEX_OP_RETURN_VOID),
	           db_a(DEX_OP_MOVE_EXCEPTION, 0), db_a(DEX_OP_THROW, 0)};
	dex_code *code = db_code(&D, 1, 0, 0, c, 4);
	dex_try *tries = arena_zalloc(&A, sizeof *tries);
	dex_handler *h = arena_zalloc(&A, sizeof *h);
	*tries = (dex_try){start, count, handler_index};
	*h = (dex_handler){.n = 0, .catches = NULL, .catch_all = handler_addr};
	code->tries = tries;
	code->ntries = 1;
	code->handlers = h;
	code->nhandlers = 1;
	return code;
}

Test(dex_verify, try_items_and_handlers)
{
	cr_expect(!check_static("ok", "()V", with_try(0, 3, 4, 0)).failed, "the well-formed method");
	/* ScanTryCatchBlocks: "bad exception entry" */
	expect_fail(check_static("empty", "()V", with_try(0, 0, 4, 0)), "bad exception entry: startAddr=0 endAddr=0");
	expect_fail(check_static("past", "()V", with_try(3, 4, 4, 0)), "bad exception entry: startAddr=3 endAddr=7");
	/* "'try' block starts inside an instruction" */
	expect_fail(check_static("mid", "()V", with_try(1, 2, 4, 0)), "'try' block starts inside an instruction (1)");
	/* the handler: "exception handler starts at bad address" */
	expect_fail(check_static("hmid", "()V", with_try(0, 3, 2, 0)), "exception handler starts at bad address (2)");
	expect_fail(check_static("hpast", "()V", with_try(0, 3, 9, 0)), "exception handler starts at bad address (9)");
	expect_fail(check_static("hidx", "()V", with_try(0, 3, 4, 1)), "names no catch handler");
	/* the file verifier's order: sorted, disjoint */
	dex_code *two = with_try(0, 3, 4, 0);
	dex_try *t2 = arena_array(&A, 2, sizeof *t2);
	t2[0] = (dex_try){0, 3, 0};
	t2[1] = (dex_try){0, 1, 0};
	two->tries = t2;
	two->ntries = 2;
	expect_fail(check_static("order", "()V", two), "out of order or overlapping");
}

/* A call site's encoded array: (method handle #mh, string #0, method type #proto). */
static dex_blob *call_site(uint32_t nvalues, uint8_t arg1_type, uint32_t mh, uint32_t proto)
{
	uint8_t *b = arena_alloc(&A, 8);
	b[0] = (uint8_t)nvalues;
	b[1] = 0x16, b[2] = (uint8_t)mh;
	b[3] = arg1_type, b[4] = 0;
	b[5] = 0x15, b[6] = (uint8_t)proto;
	dex_blob *blob = arena_zalloc(&A, sizeof *blob);
	blob->data = b;
	blob->len = nvalues < 3 ? 1 + 2 * nvalues : 7;
	return blob;
}

Test(dex_verify, call_sites)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t proto, bsm, name;
	cr_assert_eq(dex_intern_proto(&D, "()V", &proto, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&D, "Lp/Q;", "bsm", "()V", &bsm, &e), TC_OK);
	cr_assert_eq(dex_intern_string(&D, "run", 3, &name, &e), TC_OK);
	dex_mhandle *mh = arena_array(&A, 2, sizeof *mh);
	mh[0] = (dex_mhandle){0x04, bsm}; /* invoke-static */
	mh[1] = (dex_mhandle){0x05, bsm}; /* invoke-instance */
	dex_blob **cs = arena_array(&A, 4, sizeof *cs);
	cs[0] = call_site(3, 0x17, 0, proto);
	cs[1] = call_site(3, 0x17, 1, proto);
	cs[2] = call_site(2, 0x17, 0, proto);
	cs[3] = call_site(3, 0x15, 0, proto);
	D.mhandles = mh;
	D.nmhandles = 2;
	D.call_sites = cs;
	D.ncall_sites = 4;
	D.version = 38;
	const char *expect[] = {NULL, "call site 1 argument 0 method handle type is not invoke-static",
	                        "call site 2 has fewer than 3 arguments", "call site 3 argument 1 is not a string"};
	for (uint32_t i = 0; i < 4; i++) {
		dex_insn c[] = {db_invoke(DEX_OP_INVOKE_CUSTOM, i, NULL, 0), db_op(DEX_OP_RETURN_VOID)};
		char nm[8];
		snprintf(nm, sizeof nm, "cs%u", i);
		dex_verify_result r = check_static(nm, "()V", db_code(&D, 0, 0, 0, c, 2));
		if (expect[i])
			expect_fail(r, expect[i]);
		else
			cr_expect(!r.failed, "%s", r.msg);
	}
}

/* Verify: only abstract and native methods lack code (smali cannot write one that does
 * not, and d8 never does) */
Test(dex_verify, concrete_methods_have_code)
{
	uint32_t idx = db_method(&D, CLS, "bare", "()V", DACC_PUBLIC | DACC_STATIC, NULL);
	expect_fail(check_with(idx, DACC_PUBLIC | DACC_STATIC, NULL, DEX_VERIFY_WORK_FACTOR),
	            "zero-length code in concrete non-native method");
	uint32_t nat = db_method(&D, CLS, "nat", "()V", DACC_PUBLIC | DACC_STATIC | DACC_NATIVE, NULL);
	cr_expect(!check_with(nat, DACC_PUBLIC | DACC_STATIC | DACC_NATIVE, NULL, DEX_VERIFY_WORK_FACTOR).failed);
}

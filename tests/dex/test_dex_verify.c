/* The method checker (dex/dex_verify.h) on methods made here: its cost (the work
 * budget, and methods whose shape once made it loop) and the rules whose broken case
 * no dex file can carry to it (the reader refuses the file first), which tc-instrument
 * could still hand it from the editor. The rules with a smali case are tested by
 * tests/dex/verify/cases.sh. */
#include <criterion/criterion.h>
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
static dvfy_result check_with(uint32_t idx, uint32_t flags, dex_code *code, uint32_t factor)
{
	dvfy_file f;
	cr_assert_eq(dvfy_file_init(&f, &D, &A), CF_OK);
	f.work_factor = factor;
	dex_emethod m = {idx, flags, code};
	dvfy_result r;
	arena_reset(&S);
	cr_assert_eq(dvfy_method(&f, &D.classes[CLS], &m, &S, &r), 0);
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
	dop *c = calloc(4 * k + 8, sizeof *c);
	uint32_t n = 0, head = 2 + 2 * k + 2; /* code units before block_0 */
	uint32_t out = head + 5 * k;
	c[n++] = db_a(DOP_MONITOR_ENTER, P0);
	c[n++] = db_lit(DOP_CONST_4, 0, 0);
	for (uint32_t i = 0; i < k; i++)
		c[n++] = db_branch(DOP_IF_EQZ, P1, 0, (int32_t)(head + 5 * i - (2 + 2 * i)));
	c[n++] = db_branch(DOP_GOTO_16, 0, 0, (int32_t)(head - (2 + 2 * k)));
	for (uint32_t i = 0; i < k; i++) {
		uint32_t at = head + 5 * i;
		c[n++] = db_ab(DOP_MOVE_OBJECT, 0, P0);
		c[n++] = db_branch(DOP_IF_NEZ, P1, 0, (int32_t)(out - (at + 1)));
		c[n++] = db_branch(DOP_GOTO_16, 0, 0, (int32_t)(head + 5 * ((i + 1) % k) - (at + 3)));
	}
	c[n++] = db_a(DOP_MONITOR_EXIT, P0);
	c[n++] = db_op(DOP_RETURN_VOID);
	dex_code *code = db_code(&D, 4, 2, 0, c, n);
	free(c);
	return code;
}

Test(dex_verify, lock_alias_ring_converges_within_a_few_passes)
{
	for (uint32_t k = 1; k <= 64; k *= 4) {
		uint32_t idx = db_method(&D, CLS, k == 1 ? "ring1" : k == 4 ? "ring4" : k == 16 ? "ring16" : "ring64",
		                         "(I)V", DACC_PUBLIC, NULL);
		dvfy_result r = check_with(idx, DACC_PUBLIC, ring(k), DVFY_WORK_FACTOR);
		cr_expect(!r.failed && !r.locking, "k=%u: %s%s", k, r.msg, r.lock_msg);
		/* a first pass costs about one size; the ring's types settle in a second */
		cr_expect(r.work <= 4 * r.size, "k=%u: %llu steps for a size of %llu", k, (unsigned long long)r.work,
		          (unsigned long long)r.size);
	}
}

/* A loop needs a second pass: with a budget of one size it is too costly, and said so. */
Test(dex_verify, over_the_budget_is_too_costly)
{
	dop c[] = {db_lit(DOP_CONST_4, 0, 0), db_branch(DOP_IF_EQZ, 1, 0, 4), db_lit(0xd8 /* add-int/lit8 */, 0, 1),
	           db_branch(DOP_GOTO, 0, 0, -4), db_op(DOP_RETURN_VOID)};
	uint32_t idx = db_method(&D, CLS, "loop", "(I)V", DACC_PUBLIC | DACC_STATIC, NULL);
	dex_code *code = db_code(&D, 2, 1, 0, c, 5);
	dvfy_result r = check_with(idx, DACC_PUBLIC | DACC_STATIC, code, DVFY_WORK_FACTOR);
	cr_assert(!r.failed, "%s", r.msg);
	r = check_with(idx, DACC_PUBLIC | DACC_STATIC, code, 1);
	cr_assert(r.failed && r.costly);
	cr_assert(strstr(r.msg, "too costly to verify"), "%s", r.msg);
}

/* 65,535 registers and a few hundred branch targets: the register lines alone would
 * take more than DVFY_MAX_LINE_BYTES; refused before they are allocated. */
Test(dex_verify, register_lines_past_the_memory_bound_are_too_costly)
{
	enum { K = 400 };
	dop c[K + 1];
	for (uint32_t i = 0; i < K; i++)
		c[i] = db_branch(DOP_IF_EQZ, 0, 0, 2); /* each targets the next */
	c[K] = db_op(DOP_RETURN_VOID);
	uint32_t idx = db_method(&D, CLS, "wide", "(I)V", DACC_PUBLIC | DACC_STATIC, NULL);
	dvfy_result r = check_with(idx, DACC_PUBLIC | DACC_STATIC, db_code(&D, 65535, 1, 0, c, K + 1), DVFY_WORK_FACTOR);
	cr_assert(r.failed && r.costly, "%s", r.msg);
	cr_assert(strstr(r.msg, "register lines"), "%s", r.msg);
}

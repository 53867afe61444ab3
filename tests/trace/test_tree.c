/* The call tree: merging calls by path, self and total time, unbalanced
 * input, report stacks, orders. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "trace_tree.h"

static tr_spans s;
static tr_tree t;
static tc_error err;

static void teardown(void)
{
	tr_spans_dispose(&s);
	tr_tree_dispose(&t);
}

TestSuite(tree, .fini = teardown);

static void build(const uint64_t *ev, size_t n)
{
	cr_assert_eq(tr_spans_build(&s, ev, n, TR_NO_TIME, &err), TC_OK);
	cr_assert_eq(tr_tree_from_spans(&t, &s, &err), TC_OK);
}

/* the child of node p with this id, or TR_NONE */
static size_t kid(size_t p, uint32_t id)
{
	for (size_t c = t.v[p].first_child; c != TR_NONE; c = t.v[c].next_sibling)
		if (t.v[c].id == id)
			return c;
	return TR_NONE;
}

static void expect_node(size_t i, uint64_t total, uint64_t self, uint64_t calls)
{
	cr_assert_neq(i, TR_NONE);
	cr_expect_eq(t.v[i].total_ms, total, "node %zu (id %u) total %llu", i, t.v[i].id,
	             (unsigned long long)t.v[i].total_ms);
	cr_expect_eq(t.v[i].self_ms, self, "node %zu (id %u) self %llu", i, t.v[i].id, (unsigned long long)t.v[i].self_ms);
	cr_expect_eq(t.v[i].calls, calls, "node %zu (id %u) calls %llu", i, t.v[i].id, (unsigned long long)t.v[i].calls);
}

Test(tree, calls_on_one_path_merge)
{
	/* two messages; in each, 1 calls 2 twice and 3 once; 2 is also called from 3 */
	uint64_t ev[] = { I(D, 0), I(1, 0), I(2, 1), O(2, 3), I(2, 3), O(2, 6), I(3, 6), I(2, 7), O(2, 8), O(3, 10),
	                  O(1, 12), O(D, 12),
	                  I(D, 20), I(1, 20), I(2, 20), O(2, 30), O(1, 30), O(D, 31) };
	build(ev, N(ev));
	expect_node(0, 23, 0, 1);
	size_t d = kid(0, D), one = kid(d, 1), two = kid(one, 2), three = kid(one, 3), two3 = kid(three, 2);
	expect_node(d, 23, 1, 2);
	expect_node(one, 22, 3, 2);
	expect_node(two, 15, 15, 3);
	expect_node(three, 4, 3, 1);
	expect_node(two3, 1, 1, 1);
	cr_assert_eq(t.n, 6);
	cr_assert_eq(t.max_depth, 4);
	cr_assert_eq(t.v[two3].depth, 4);
	/* children in call order */
	cr_assert_eq(t.v[one].first_child, two);
	cr_assert_eq(t.v[two].next_sibling, three);
}

Test(tree, recursion_is_a_path_not_a_merge)
{
	uint64_t ev[] = { I(5, 0), I(5, 1), I(5, 2), O(5, 3), O(5, 4), O(5, 10) };
	build(ev, N(ev));
	size_t a = kid(0, 5), b = kid(a, 5), c = kid(b, 5);
	expect_node(a, 10, 7, 1);
	expect_node(b, 3, 2, 1);
	expect_node(c, 1, 1, 1);
}

Test(tree, unbalanced_input_still_gives_a_tree)
{
	/* outs of a wrapped-over past, a lost out, and a method open at the end */
	uint64_t ev[] = { O(4, 1), O(D, 2), I(D, 3), I(1, 4), I(2, 5), O(1, 9), O(D, 10), I(D, 11), I(6, 12), O(7, 13),
	                  I(8, 20) };
	build(ev, N(ev));
	size_t d = kid(0, D), one = kid(d, 1), two = kid(one, 2), six = kid(d, 6), eight = kid(six, 8);
	expect_node(d, 7 + 9, 2 + 1, 2);
	expect_node(one, 5, 1, 1);
	expect_node(two, 4, 4, 1);
	cr_assert(t.v[two].flags & TR_SPAN_CUT);
	expect_node(six, 8, 8, 1);
	cr_assert(t.v[six].flags & TR_SPAN_OPEN);
	expect_node(eight, 0, 0, 1);
	cr_assert_eq(s.stats.dropped_outs, 3);
}

Test(tree, sort_orders)
{
	uint64_t ev[] = { I(1, 0), O(1, 2), I(2, 2), O(2, 12), I(3, 12), O(3, 13), I(3, 13), O(3, 14), I(3, 14), O(3, 15) };
	build(ev, N(ev));
	cr_assert_eq(tr_tree_sort(&t, TR_ORDER_TOTAL, &err), TC_OK);
	size_t c = t.v[0].first_child;
	cr_assert_eq(t.v[c].id, 2);
	cr_assert_eq(t.v[t.v[c].next_sibling].id, 3); /* 3 ms, then 1 with 2 ms */
	cr_assert_eq(t.v[t.v[t.v[c].next_sibling].next_sibling].id, 1);
	cr_assert_eq(tr_tree_sort(&t, TR_ORDER_CALLS, &err), TC_OK);
	cr_assert_eq(t.v[t.v[0].first_child].id, 3);
	cr_assert_eq(tr_tree_sort(&t, TR_ORDER_CALL, &err), TC_OK);
	c = t.v[0].first_child;
	cr_assert_eq(t.v[c].id, 1);
	cr_assert_eq(t.v[t.v[c].next_sibling].id, 2);
	cr_assert_eq(t.v[t.v[0].last_child].id, 3);
	cr_assert_eq(t.v[t.v[0].last_child].next_sibling, TR_NONE);
}

Test(tree, from_a_report_stack)
{
	/* Matrix's pre-order items, with a depth jump (a trimmed stack) */
	tc_method_item items[] = {
		{ D, 800, 0, 1 }, { 20, 800, 1, 1 }, { 21, 790, 2, 1 }, { 22, 30, 3, 5 }, { 23, 9, 5, 1 },
		{ 24, 5, 2, 2 }, { 22, 7, 3, 1 }, { 24, -4, 2, 1 },
	};
	cr_assert_eq(tr_tree_from_stack(&t, items, N(items), &err), TC_OK);
	size_t d = kid(0, D), c20 = kid(d, 20), c21 = kid(c20, 21), c22 = kid(c21, 22), c23 = kid(c22, 23);
	size_t c24 = kid(c20, 24), c24_22 = kid(c24, 22);
	expect_node(0, 800, 0, 1);
	expect_node(d, 800, 0, 1);
	expect_node(c20, 800, 5, 1);
	expect_node(c21, 790, 760, 1);
	expect_node(c22, 30, 21, 5);
	expect_node(c23, 9, 9, 1); /* depth 5 under depth 3: its nearest shallower item */
	expect_node(c24, 5, 0, 3); /* merged; the negative duration counts 0; children 7 > 5: self 0 */
	expect_node(c24_22, 7, 7, 1);
}

Test(tree, empty_inputs)
{
	cr_assert_eq(tr_tree_from_stack(&t, NULL, 0, &err), TC_OK);
	cr_assert_eq(t.n, 1);
	expect_node(0, 0, 0, 1);
	tr_tree_dispose(&t);
	build(NULL, 0);
	cr_assert_eq(t.n, 1);
}

/* A node with many distinct children and a deep recursion stay linear. */
Test(tree, wide_and_deep)
{
	size_t n = 2 * 50000 + 2 * 20000;
	uint64_t *ev = malloc(n * sizeof *ev);
	size_t k = 0;
	for (uint32_t i = 0; i < 50000; i++) {
		ev[k++] = I(1 + i % 40000, i);
		ev[k++] = O(1 + i % 40000, i + 1);
	}
	for (uint32_t i = 0; i < 20000; i++)
		ev[k++] = I(7, 60000);
	for (uint32_t i = 0; i < 20000; i++)
		ev[k++] = O(7, 60001);
	build(ev, k);
	free(ev);
	cr_assert_eq(t.n, 1 + 40000 + 19999); /* id 7 is one of the 40000 at the top */
	cr_assert_eq(t.max_depth, 20000);
	cr_assert_eq(tr_tree_sort(&t, TR_ORDER_TOTAL, &err), TC_OK);
	expect_node(kid(0, 2), 2, 2, 2);
}

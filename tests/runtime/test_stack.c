/* The analysis (Matrix TraceDataUtils) on hand-built event arrays. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tc_analysis.h"
#include "tc_event.h"

#define IN(id, t) tc_event_encode(true, (id), (t))
#define OUT(id, t) tc_event_encode(false, (id), (t))
#define D TC_ID_DISPATCH
#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static tc_stack st;

static void fini(void)
{
	tc_stack_dispose(&st);
}

TestSuite(stack, .fini = fini);

/* expect "depth,id,count,dur" lines */
static void expect(const char *want)
{
	char *text = NULL;
	cr_assert_geq(tc_stack_format(&st, &text, NULL), 0);
	cr_assert_str_eq(text, want);
	free(text);
}

static void build(const uint64_t *ev, size_t n, bool strict, uint64_t end)
{
	cr_assert_eq(tc_stack_build(&st, ev, n, strict, end), 0);
}

Test(stack, strict_message_in_pre_order)
{
	uint64_t ev[] = { OUT(9, 0) /* before the message */, IN(D, 0), IN(1, 0), IN(2, 10), OUT(2, 30),
	                  IN(3, 30), OUT(3, 40), OUT(1, 100), OUT(D, 100) };
	build(ev, LEN(ev), true, 100);
	expect("0,1048574,1,100\n1,1,1,100\n2,2,1,20\n2,3,1,10\n");
}

Test(stack, empty_slots_are_skipped)
{
	uint64_t ev[] = { 0, IN(D, 0), 0, IN(1, 0), OUT(1, 7), 0, OUT(D, 9) };
	build(ev, LEN(ev), true, 9);
	expect("0,1048574,1,9\n1,1,1,7\n");
}

Test(stack, back_to_back_calls_merge)
{
	uint64_t ev[] = { IN(D, 0), IN(1, 0), IN(2, 0), OUT(2, 5), IN(2, 5), OUT(2, 12), IN(2, 12), OUT(2, 20),
	                  OUT(1, 30), OUT(D, 30) };
	build(ev, LEN(ev), true, 30);
	expect("0,1048574,1,30\n1,1,1,30\n2,2,3,20\n");
}

Test(stack, top_level_calls_do_not_merge)
{
	uint64_t ev[] = { IN(1, 0), OUT(1, 5), IN(1, 5), OUT(1, 9) };
	build(ev, LEN(ev), false, TC_NO_END_TIME);
	expect("0,1,1,5\n0,1,1,4\n");
}

Test(stack, a_call_with_children_does_not_merge_into_its_sibling)
{
	uint64_t ev[] = { IN(1, 0), IN(2, 0), OUT(2, 5), IN(2, 5), IN(3, 6), OUT(3, 8), OUT(2, 9), OUT(1, 10) };
	build(ev, LEN(ev), false, TC_NO_END_TIME);
	expect("0,1,1,10\n1,2,1,5\n1,2,1,4\n2,3,1,2\n");
}

Test(stack, strict_ignores_what_precedes_the_first_message)
{
	uint64_t ev[] = { IN(5, 0), OUT(5, 3), IN(D, 3), IN(1, 3), OUT(1, 8), OUT(D, 9) };
	build(ev, LEN(ev), true, 9);
	expect("0,1048574,1,6\n1,1,1,5\n");
}

Test(stack, strict_closes_open_methods_at_the_end_time)
{
	uint64_t ev[] = { IN(D, 0), IN(1, 10), IN(2, 20), OUT(2, 30), IN(3, 40) };
	build(ev, LEN(ev), true, 5010);
	expect("0,1048574,1,5010\n1,1,1,5000\n2,2,1,10\n2,3,1,4970\n");
}

Test(stack, not_strict_drops_open_methods)
{
	uint64_t ev[] = { IN(5, 0), OUT(5, 3), IN(1, 3), IN(2, 4), OUT(2, 8) };
	build(ev, LEN(ev), false, TC_NO_END_TIME);
	expect("0,5,1,3\n1,2,1,4\n");
}

Test(stack, ins_without_outs_are_dropped_when_an_outer_method_ends)
{
	uint64_t ev[] = { IN(1, 0), IN(2, 1), IN(3, 2), OUT(1, 10) };
	build(ev, LEN(ev), false, TC_NO_END_TIME);
	expect("0,1,1,10\n");
}

Test(stack, out_on_empty_stack_is_skipped)
{
	uint64_t ev[] = { OUT(4, 1), IN(1, 2), OUT(1, 3) };
	build(ev, LEN(ev), false, TC_NO_END_TIME);
	expect("0,1,1,1\n");
}

Test(stack, dispatch_resets_depth)
{
	/* method 1 never ends; the next message still starts at depth 0 */
	uint64_t ev[] = { IN(D, 0), IN(1, 0), OUT(D, 5), IN(D, 6), IN(2, 6), OUT(2, 9), OUT(D, 10) };
	build(ev, LEN(ev), true, 10);
	/* the first DISPATCH out pops 1 (dropped) and closes the first message */
	expect("0,1048574,1,5\n0,1048574,1,4\n1,2,1,3\n");
}

/* Matrix: an out whose method is not on the stack popped everything; unless
 * the bottom was DISPATCH it then made an item with the out's id and the
 * bottom event's time, and every method that was open was lost. */
Test(stack, quirk_fixed_unmatched_out_keeps_open_methods)
{
	uint64_t ev[] = { IN(1, 0), IN(2, 5), OUT(9, 7), OUT(2, 10), OUT(1, 20) };
	build(ev, LEN(ev), false, TC_NO_END_TIME);
	expect("0,1,1,20\n1,2,1,5\n"); /* Matrix: "0,9,1,7\n" */
}

/* Matrix: a negative duration cleared the whole result. */
Test(stack, quirk_fixed_negative_duration_drops_only_that_item)
{
	uint64_t ev[] = { IN(1, 10), IN(2, 20), OUT(2, 15), OUT(1, 30) };
	build(ev, LEN(ev), false, TC_NO_END_TIME);
	expect("0,1,1,20\n"); /* Matrix: "" */
}

/* Matrix: addMethodItem replaced a duration of exactly 5000 (DEFAULT_ANR)
 * with the previous sibling's before merging. */
Test(stack, quirk_fixed_5000_ms_merges_its_real_duration)
{
	uint64_t ev[] = { IN(1, 0), IN(2, 0), OUT(2, 10), IN(2, 10), OUT(2, 5010), OUT(1, 5010) };
	build(ev, LEN(ev), false, TC_NO_END_TIME);
	expect("0,1,1,5010\n1,2,2,5010\n"); /* Matrix: "1,2,2,20" */
}

/* Matrix's stackToTree returned an empty tree when the last item to
 * complete was not at depth 0: any non-strict copy taken inside a message
 * (whose DISPATCH in is open) came out empty. */
Test(stack, quirk_fixed_tree_keeps_items_below_an_open_message)
{
	uint64_t ev[] = { IN(D, 0), IN(1, 0), IN(2, 10), OUT(2, 30), OUT(1, 40) };
	build(ev, LEN(ev), false, TC_NO_END_TIME);
	expect("1,1,1,40\n2,2,1,20\n"); /* Matrix: "" */
}

Test(stack, tree_order_from_completion_order)
{
	/* completion order for A{B{C}, D}, E: C B D A E */
	tc_stack_add(&st, 'C', 1, 2);
	tc_stack_add(&st, 'B', 2, 1);
	tc_stack_add(&st, 'D', 3, 1);
	tc_stack_add(&st, 'A', 9, 0);
	tc_stack_add(&st, 'E', 4, 0);
	cr_assert_eq(tc_stack_tree_order(&st), 0);
	const char want[] = "ABCDE";
	cr_assert_eq(st.len, 5);
	for (size_t i = 0; i < 5; i++)
		cr_assert_eq(st.items[i].id, (uint32_t)want[i], "item %zu", i);
}

/* Matrix lost an item whose climb ended on a top-level node (its father
 * pointer was null); it becomes a child of the nearest shallower item. */
Test(stack, quirk_fixed_tree_keeps_an_item_after_a_depth_jump)
{
	/* completion order C(1), B(2), A(0); Matrix met A, B, then C, climbed
	 * from B to A, found A's father null and dropped C */
	tc_stack_add(&st, 'C', 3, 1);
	tc_stack_add(&st, 'B', 2, 2);
	tc_stack_add(&st, 'A', 9, 0);
	cr_assert_eq(tc_stack_tree_order(&st), 0);
	cr_assert_eq(st.len, 3);
	cr_assert_eq(st.items[0].id, 'A');
	cr_assert_eq(st.items[1].id, 'C');
	cr_assert_eq(st.items[2].id, 'B');
}

static void fill(int n, int dur0, int step)
{
	st.len = 0;
	for (int i = 0; i < n; i++)
		tc_stack_add(&st, (uint32_t)(i + 1), dur0 + i * step, 0); /* depth 0: no merging */
}

Test(stack, trim_drops_short_items_tail_first_and_stops_at_target)
{
	/* 40 items of 4 ms: pass 1 (< 5 ms) removes from the tail until 30 remain */
	fill(40, 4, 0);
	tc_stack_trim(&st, 30);
	cr_assert_eq(st.len, 30);
	cr_assert_eq(st.items[29].id, 30, "items 31..40 went, tail first");
}

Test(stack, trim_raises_the_filter_by_5_ms_per_pass)
{
	/* durations 0,2,4,..: pass k removes < 5k; 35 items need 5 removed */
	fill(35, 0, 2);
	tc_stack_trim(&st, 30);
	cr_assert_eq(st.len, 30);
	/* pass 1 removes 0,2,4 (3 items, from the tail: ids 3,2,1); pass 2 removes
	 * < 10: 6 and 8 (ids 5 and 4), tail first: then stops */
	cr_assert_eq(st.items[0].id, 6);
	cr_assert_eq(st.items[0].dur_ms, 10);
}

Test(stack, trim_falls_back_to_the_first_30)
{
	fill(35, 400, 1); /* all longer than 60 * 5 ms */
	tc_stack_trim(&st, 30);
	cr_assert_eq(st.len, 30);
	cr_assert_eq(st.items[29].id, 30);
}

Test(stack, trim_negative_target_clears)
{
	fill(3, 1, 1);
	tc_stack_trim(&st, -1);
	cr_assert_eq(st.len, 0);
}

Test(stack, key_is_the_heaviest_item_by_depth_times_duration)
{
	tc_stack_add(&st, D, 1000, 0);
	tc_stack_add(&st, 7, 900, 1);
	tc_stack_add(&st, 8, 400, 2); /* weight 1200 < 1800 */
	tc_stack_add(&st, 9, 200, 3); /* below 30% of 1000: not considered */
	char key[32];
	tc_stack_key(&st, 1000, key, sizeof key);
	cr_assert_str_eq(key, "7|");
}

Test(stack, key_skips_dispatch_when_another_item_qualifies)
{
	tc_stack_add(&st, D, 1000, 0);
	tc_stack_add(&st, 7, 300, 1); /* weight 600 < 1000, but DISPATCH is skipped */
	char key[32];
	tc_stack_key(&st, 1000, key, sizeof key);
	cr_assert_str_eq(key, "7|");
	st.len = 1;
	tc_stack_key(&st, 1000, key, sizeof key);
	cr_assert_str_eq(key, "1048574|", "DISPATCH alone stays");
}

Test(stack, key_of_nothing_above_the_limit_is_the_first_item)
{
	tc_stack_add(&st, 3, 10, 0);
	tc_stack_add(&st, 4, 20, 1);
	char key[32];
	tc_stack_key(&st, 5000, key, sizeof key);
	cr_assert_str_eq(key, "3|");
	st.len = 0;
	tc_stack_key(&st, 5000, key, sizeof key);
	cr_assert_str_eq(key, "");
}

Test(stack, key_ties_keep_list_order)
{
	tc_stack_add(&st, 3, 100, 1);
	tc_stack_add(&st, 4, 200, 0);
	char key[32];
	tc_stack_key(&st, 200, key, sizeof key);
	cr_assert_str_eq(key, "3|");
}

/* Matrix multiplied (depth + 1) * durTime as ints: 4 * 2^30 overflows to 0
 * and the heaviest item sorted last. */
Test(stack, quirk_fixed_key_weight_is_64_bit)
{
	tc_stack_add(&st, 3, 1 << 30, 3);
	tc_stack_add(&st, 4, 1 << 29, 0);
	char key[32];
	tc_stack_key(&st, 1 << 30, key, sizeof key);
	cr_assert_str_eq(key, "3|"); /* Matrix: "4|" */
}

Test(stack, format_report_and_logcat_lines)
{
	tc_stack_add(&st, 123, 40, 2);
	tc_stack_add(&st, D, 720, 0);
	char *report, *logcat;
	cr_assert_eq(tc_stack_format(&st, &report, &logcat), 720);
	cr_assert_str_eq(report, "2,123,1,40\n0,1048574,1,720\n");
	cr_assert_str_eq(logcat, "|*\t\tTraceStack:\n|*\t\t[id count cost]\n|*\t\t..123 1 40\n|*\t\t1048574 1 720\n");
	free(report);
	free(logcat);
	st.len = 0;
	cr_assert_eq(tc_stack_format(&st, &report, NULL), 0);
	cr_assert_str_eq(report, "");
	free(report);
}

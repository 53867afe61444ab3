/* The hot-method filter: per-method calls and times over spans (recursion not
 * counted twice), the choice by calls, average and total, and the block list
 * it writes (which rules/rules.c reads: tests/trace/e2e.sh hot). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "trace_hot.h"

static tr_spans s;
static tr_method_stats st;
static tr_mapping *m;
static tc_error err;
static char *text;
static size_t text_len;

static void teardown(void)
{
	tr_spans_dispose(&s);
	tr_method_stats_dispose(&st);
	tr_mapping_free(m);
	m = NULL;
	free(text);
	text = NULL;
}

TestSuite(hot, .fini = teardown);

static void build(const uint64_t *ev, size_t n)
{
	cr_assert_eq(tr_spans_build(&s, ev, n, TR_NO_TIME, &err), TC_OK);
	cr_assert_eq(tr_method_stats_build(&st, &s, &err), TC_OK, "%s", err.message);
}

static const tr_method_stat *stat_of(uint32_t id)
{
	for (size_t i = 0; i < st.n; i++)
		if (st.v[i].id == id)
			return &st.v[i];
	return NULL;
}

static void mapping(const char *lines)
{
	FILE *f = fmemopen((void *)lines, strlen(lines), "r");
	cr_assert_not_null(f);
	cr_assert_eq(tr_mapping_read(&m, f, "map.txt", &err), TC_OK, "%s", err.message);
	fclose(f);
}

static void write_list(tr_hot_opts o, size_t *listed, size_t *unnamed)
{
	FILE *f = open_memstream(&text, &text_len);
	cr_assert_not_null(f);
	o.source = "test.ring";
	cr_assert_eq(tr_hot_write(f, &st, m, &o, listed, unnamed, &err), TC_OK, "%s", err.message);
	fclose(f);
}

Test(hot, counts_calls_and_time_per_method)
{
	/* 1 calls 2 three times (0, 2 and 5 ms) inside a message; 3 recurses into itself */
	uint64_t ev[] = { I(D, 0), I(1, 0), I(2, 1), O(2, 1), I(2, 1), O(2, 3), I(2, 3), O(2, 8), O(1, 10), O(D, 10),
	                  I(3, 20), I(3, 21), I(3, 22), O(3, 23), O(3, 24), O(3, 30) };
	build(ev, N(ev));
	cr_assert_eq(st.n, 3, "the dispatch pseudo-method is no method");
	const tr_method_stat *two = stat_of(2), *three = stat_of(3);
	cr_assert(two && three);
	cr_expect_eq(two->calls, 3);
	cr_expect_eq(two->sum_ms, 7);
	cr_expect_eq(two->total_ms, 7);
	cr_expect_eq(two->max_ms, 5);
	cr_expect_eq(three->calls, 3);
	cr_expect_eq(three->sum_ms, 10 + 3 + 1, "every call's duration");
	cr_expect_eq(three->total_ms, 10, "a call inside a call of the same method adds no time");
	cr_expect_eq(three->max_ms, 10);
	cr_expect_eq(stat_of(1)->total_ms, 10);
}

Test(hot, lists_often_called_short_methods_most_called_first)
{
	/* 5: 4 calls of 0 ms; 6: 3 calls, 1 ms in all (333 us each); 7: 4 calls, 8 ms; 8: 2 calls */
	uint64_t ev[] = { I(1, 0),  I(5, 0),  O(5, 0),  I(5, 0),  O(5, 0), I(5, 1),   O(5, 1),  I(5, 1),
	                  O(5, 1),  I(6, 1),  O(6, 2),  I(6, 2),  O(6, 2), I(6, 2),   O(6, 2),  I(7, 2),
	                  O(7, 4),  I(7, 4),  O(7, 6),  I(7, 6),  O(7, 8), I(7, 8),   O(7, 10), I(8, 10),
	                  O(8, 10), I(8, 10), O(8, 10), I(9, 10), O(9, 10), I(9, 10), O(9, 10), I(9, 10),
	                  O(9, 10), O(1, 11) };
	build(ev, N(ev));
	mapping("1,1,a.B run ()V\n5,1,a.B tiny (I)I\n6,9,a/b.C small ()V\n7,1,a.B slow ()V\n8,1,a.B few ()V\n");
	size_t listed, unnamed;
	write_list((tr_hot_opts){ .min_calls = 3, .max_avg_us = 500 }, &listed, &unnamed);
	cr_expect_eq(listed, 2, "%s", text);
	cr_expect_eq(unnamed, 1, "id 9 is hot but has no name: %s", text);
	const char *tiny = strstr(text, "\n-keepmethod a.B tiny (I)I\n");
	const char *small = strstr(text, "\n-keepmethod a/b.C small ()V\n");
	cr_expect(tiny && small && tiny < small, "most called first: %s", text);
	cr_expect_null(strstr(text, "slow"), "2 ms a call is not short: %s", text);
	cr_expect_null(strstr(text, "few"), "2 calls are not many: %s", text);
	cr_expect(strstr(text, "# 4 calls, 0 ms in all, 0.00 us a call, longest 0 ms\n-keepmethod a.B tiny"), "%s", text);
	cr_expect(strstr(text, "# tc-trace hot --min-calls 3 --max-avg-us 500\n"), "%s", text);
	cr_expect(strstr(text, "# from test.ring: 6 methods, 17 calls; listed: 2 methods, 7 calls (41.2%)\n"), "%s", text);

	/* --keep-ms 1: a method with 1 ms in all stays traced */
	free(text);
	text = NULL;
	write_list((tr_hot_opts){ .min_calls = 3, .max_avg_us = 500, .keep_ms = 1 }, &listed, &unnamed);
	cr_expect_eq(listed, 1, "%s", text);
	cr_expect_null(strstr(text, "small"), "%s", text);
	cr_expect(strstr(text, " --keep-ms 1\n"), "%s", text);
}

Test(hot, nothing_hot_is_an_empty_list)
{
	uint64_t ev[] = { I(1, 0), O(1, 5) };
	build(ev, N(ev));
	mapping("1,1,a.B run ()V\n");
	size_t listed, unnamed;
	write_list((tr_hot_opts){ .min_calls = 1000, .max_avg_us = 20 }, &listed, &unnamed);
	cr_expect_eq(listed, 0);
	cr_expect_null(strstr(text, "-keepmethod"), "%s", text);
}

/* Events -> nested spans: nesting, unbalanced input (a wrap, a kill, a lost
 * out), corrupt times, and slices. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "trace_spans.h"
#include "trace_text.h"

static tr_spans s, sl;
static tc_error err;

static void teardown(void)
{
	tr_spans_dispose(&s);
	tr_spans_dispose(&sl);
}

TestSuite(spans, .fini = teardown);

static void expect_span(const tr_spans *sp, size_t i, uint32_t id, uint64_t start, uint64_t end, size_t parent,
                        size_t depth, uint32_t flags)
{
	cr_assert_lt(i, sp->n);
	const tr_span *x = &sp->v[i];
	cr_expect_eq(x->id, id, "span %zu id %u", i, x->id);
	cr_expect_eq(x->start_ms, start, "span %zu start %llu", i, (unsigned long long)x->start_ms);
	cr_expect_eq(x->end_ms, end, "span %zu end %llu", i, (unsigned long long)x->end_ms);
	cr_expect_eq(x->parent, parent, "span %zu parent %zu", i, x->parent);
	cr_expect_eq(x->depth, depth, "span %zu depth %zu", i, x->depth);
	cr_expect_eq(x->flags, flags, "span %zu flags %u", i, x->flags);
}

Test(spans, nesting_in_pre_order)
{
	uint64_t ev[] = { I(D, 10), I(1, 11), I(2, 12), O(2, 15), I(3, 15), O(3, 20), O(1, 21), O(D, 22),
	                  0, /* an empty slot is skipped */
	                  I(D, 30), O(D, 31) };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	cr_assert_eq(s.n, 5);
	expect_span(&s, 0, D, 10, 22, TR_NONE, 0, 0);
	expect_span(&s, 1, 1, 11, 21, 0, 1, 0);
	expect_span(&s, 2, 2, 12, 15, 1, 2, 0);
	expect_span(&s, 3, 3, 15, 20, 1, 2, 0);
	expect_span(&s, 4, D, 30, 31, TR_NONE, 0, 0);
	cr_assert_eq(s.messages, 2);
	cr_assert_eq(s.v[0].message, 0);
	cr_assert_eq(s.v[4].message, 1);
	cr_assert_eq(s.v[1].message, TR_NONE);
	cr_assert_eq(s.first_ms, 10);
	cr_assert_eq(s.last_ms, 31);
	cr_assert_eq(s.stats.events, 10);
	cr_assert_eq(s.stats.dropped_outs + s.stats.open_at_end + s.stats.cut + s.stats.clamped, 0);
}

Test(spans, empty_input)
{
	cr_assert_eq(tr_spans_build(&s, NULL, 0, TR_NO_TIME, &err), TC_OK);
	cr_assert_eq(s.n, 0);
	uint64_t zeros[4] = { 0 };
	cr_assert_eq(tr_spans_build(&s, zeros, 4, 100, &err), TC_OK);
	cr_assert_eq(s.n, 0);
	cr_assert_eq(s.last_ms, 0);
}

/* After a wrap the oldest surviving events are outs of methods whose ins
 * were overwritten: dropped, and what follows nests as usual. */
Test(spans, outs_without_ins_after_a_wrap_are_dropped)
{
	uint64_t ev[] = { O(2, 5), O(1, 6), O(D, 7), I(D, 8), I(1, 9), O(1, 10), O(D, 11), O(7, 12) };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	cr_assert_eq(s.n, 2);
	expect_span(&s, 0, D, 8, 11, TR_NONE, 0, 0);
	expect_span(&s, 1, 1, 9, 10, 0, 1, 0);
	cr_assert_eq(s.stats.dropped_outs, 4);
	cr_assert_eq(s.first_ms, 5);
}

/* The notes say why an out had no in: a wrap only when the ring wrapped
 * (written > kept); else the recording began inside the call. Counts of one
 * read "1 method had", not "1 methods had". */
static char *notes(const uint64_t *ev, size_t n, uint64_t written, size_t kept)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert(f);
	tr_spans_dispose(&s);
	cr_assert_eq(tr_spans_build(&s, ev, n, TR_NO_TIME, &err), TC_OK);
	tr_spans_write_notes(f, "# ", &s, written, kept);
	fclose(f);
	return text;
}

Test(spans, notes_tell_a_wrap_from_a_recording_begun_inside_a_call)
{
	uint64_t ev[] = { O(2, 5), I(D, 8), I(1, 9), I(3, 9), O(1, 10), O(D, 11), I(D, 12) };
	char *t = notes(ev, N(ev), 7, 4096);
	cr_expect_str_eq(t, "# 1 out event without an in was dropped: the recording began inside that call (the ring never wrapped)\n"
	                    "# 1 method had no out event and was closed at the end (12 ms)\n"
	                    "# 1 method had no out event and was closed with its caller\n");
	free(t);
	t = notes(ev, N(ev), 800, 7);
	cr_expect(strstr(t, "# 1 out event without an in was dropped: the ring wrapped (800 events written, the last 7 kept) "
	                    "and overwrote its in\n"), "%s", t);
	cr_expect_null(strstr(t, "began inside"), "%s", t);
	free(t);
	uint64_t ev2[] = { O(2, 5), O(4, 6), I(D, 8), O(D, 9) };
	t = notes(ev2, N(ev2), 4, 4096);
	cr_expect_str_eq(t, "# 2 out events without an in were dropped: the recording began inside those calls (the ring never wrapped)\n");
	free(t);
}

/* A process killed mid-message: what is open closes at the end. */
Test(spans, open_at_the_end_closes_at_the_last_time_or_end_ms)
{
	uint64_t ev[] = { I(D, 100), I(1, 101), I(2, 102), O(2, 140) };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	expect_span(&s, 0, D, 100, 140, TR_NONE, 0, TR_SPAN_OPEN);
	expect_span(&s, 1, 1, 101, 140, 0, 1, TR_SPAN_OPEN);
	expect_span(&s, 2, 2, 102, 140, 1, 2, 0);
	cr_assert_eq(s.stats.open_at_end, 2);
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), 500, &err), TC_OK);
	expect_span(&s, 0, D, 100, 500, TR_NONE, 0, TR_SPAN_OPEN);
	cr_assert_eq(s.last_ms, 500);
	/* an end before the last event would break the nesting: not taken */
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), 120, &err), TC_OK);
	expect_span(&s, 0, D, 100, 140, TR_NONE, 0, TR_SPAN_OPEN);
}

/* A method left by a path that lost its out: closed with its caller. */
Test(spans, a_lost_out_closes_with_the_enclosing_span)
{
	uint64_t ev[] = { I(D, 0), I(1, 1), I(2, 2), I(3, 3), O(1, 9), O(D, 10) };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	cr_assert_eq(s.n, 4);
	expect_span(&s, 1, 1, 1, 9, 0, 1, 0);
	expect_span(&s, 2, 2, 2, 9, 1, 2, TR_SPAN_CUT);
	expect_span(&s, 3, 3, 3, 9, 2, 3, TR_SPAN_CUT);
	cr_assert_eq(s.stats.cut, 2);
}

/* An out matches the nearest open span of its id (recursion). */
Test(spans, recursion_matches_the_innermost)
{
	uint64_t ev[] = { I(5, 0), I(5, 1), I(5, 2), O(5, 3), O(5, 4), O(5, 5) };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	expect_span(&s, 0, 5, 0, 5, TR_NONE, 0, 0);
	expect_span(&s, 1, 5, 1, 4, 0, 1, 0);
	expect_span(&s, 2, 5, 2, 3, 1, 2, 0);
}

Test(spans, times_going_back_are_raised)
{
	uint64_t ev[] = { I(1, 50), I(2, 40), O(2, 45), O(1, 30) };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	expect_span(&s, 0, 1, 50, 50, TR_NONE, 0, 0);
	expect_span(&s, 1, 2, 50, 50, 0, 1, 0);
	cr_assert_eq(s.stats.clamped, 3);
}

Test(spans, slice_by_time_clips)
{
	uint64_t ev[] = { I(D, 0), I(1, 10), I(2, 20), O(2, 30), O(1, 40), O(D, 50), I(D, 60), I(3, 61), O(3, 62),
	                  O(D, 70) };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	tr_slice q = { TR_SLICE_TIME, 25, 35, 0, 0 };
	cr_assert_eq(tr_spans_slice(&sl, &s, &q, &err), TC_OK);
	cr_assert_eq(sl.n, 3);
	expect_span(&sl, 0, D, 25, 35, TR_NONE, 0, TR_SPAN_CLIPPED);
	expect_span(&sl, 1, 1, 25, 35, 0, 1, TR_SPAN_CLIPPED);
	expect_span(&sl, 2, 2, 25, 30, 1, 2, TR_SPAN_CLIPPED);
	cr_assert_eq(sl.messages, 1);
	cr_assert_eq(sl.first_ms, 25);
	cr_assert_eq(sl.last_ms, 35);
	/* a span ending where the slice starts is not in it */
	tr_slice q2 = { TR_SLICE_TIME, 50, 65, 0, 0 };
	cr_assert_eq(tr_spans_slice(&sl, &s, &q2, &err), TC_OK);
	cr_assert_eq(sl.n, 2);
	expect_span(&sl, 0, D, 60, 65, TR_NONE, 0, TR_SPAN_CLIPPED);
	expect_span(&sl, 1, 3, 61, 62, 0, 1, 0);
	tr_slice q3 = { TR_SLICE_TIME, 80, 90, 0, 0 };
	cr_assert_eq(tr_spans_slice(&sl, &s, &q3, &err), TC_OK);
	cr_assert_eq(sl.n, 0);
	tr_slice q4 = { TR_SLICE_TIME, 9, 3, 0, 0 };
	cr_assert_eq(tr_spans_slice(&sl, &s, &q4, &err), TC_EINVAL);
}

Test(spans, slice_by_message)
{
	/* a method before the first message, messages 0..2, message 1 nests another */
	uint64_t ev[] = { I(9, 0), O(9, 1), I(D, 2), I(1, 3), O(1, 4), O(D, 5), I(D, 6), I(2, 7), I(D, 8), I(3, 9),
	                  O(3, 10), O(D, 11), O(2, 12), O(D, 13), I(D, 14), O(D, 15) };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	cr_assert_eq(s.messages, 4);
	tr_slice q = { TR_SLICE_MESSAGES, 0, 0, 1, 1 };
	cr_assert_eq(tr_spans_slice(&sl, &s, &q, &err), TC_OK);
	cr_assert_eq(sl.n, 4);
	expect_span(&sl, 0, D, 6, 13, TR_NONE, 0, 0);
	expect_span(&sl, 1, 2, 7, 12, 0, 1, 0);
	expect_span(&sl, 2, D, 8, 11, 1, 2, 0);
	expect_span(&sl, 3, 3, 9, 10, 2, 3, 0);
	cr_assert_eq(sl.v[0].message, 1);
	cr_assert_eq(sl.v[2].message, 2);
	/* the nested message alone: re-based to depth 0 */
	tr_slice q2 = { TR_SLICE_MESSAGES, 0, 0, 2, 3 };
	cr_assert_eq(tr_spans_slice(&sl, &s, &q2, &err), TC_OK);
	cr_assert_eq(sl.n, 3);
	expect_span(&sl, 0, D, 8, 11, TR_NONE, 0, 0);
	expect_span(&sl, 1, 3, 9, 10, 0, 1, 0);
	expect_span(&sl, 2, D, 14, 15, TR_NONE, 0, 0);
	tr_slice q3 = { TR_SLICE_MESSAGES, 0, 0, 4, 4 };
	cr_assert_eq(tr_spans_slice(&sl, &s, &q3, &err), TC_EINVAL);
	cr_assert(strstr(err.message, "no message 4: the trace has 4"), "%s", err.message);
	tr_slice q4 = { TR_SLICE_MESSAGES, 0, 0, 3, 100 }; /* past the end: to the last */
	cr_assert_eq(tr_spans_slice(&sl, &s, &q4, &err), TC_OK);
	cr_assert_eq(sl.n, 1);
}

/* Random streams (ins, outs of open and of unknown ids, empty slots, times
 * that may go back): every span lies within its parent and after its
 * previous sibling, whatever the input. */
Test(spans, random_input_always_nests)
{
	unsigned seed = 7;
	for (int iter = 0; iter < 300; iter++) {
		size_t n = 1 + (size_t)(iter * 7 % 400);
		uint64_t *ev = malloc(n * sizeof *ev);
		uint64_t t = 0;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 8;
			t += r % 4;
			if (r % 29 == 0 && t > 3)
				t -= 3;
			uint32_t id = (r >> 4) % 5 == 0 ? D : (r >> 4) % 6;
			ev[i] = r % 17 == 0 ? 0 : tc_event_encode((r >> 12) % 2, id, t);
		}
		cr_assert_eq(tr_spans_build(&s, ev, n, TR_NO_TIME, &err), TC_OK);
		size_t *last_child = calloc(s.n + 1, sizeof *last_child); /* +1: index of the last child, 0 none */
		size_t last_top = 0;
		for (size_t i = 0; i < s.n; i++) {
			const tr_span *x = &s.v[i];
			cr_assert_leq(x->start_ms, x->end_ms);
			size_t *prev = x->parent == TR_NONE ? &last_top : &last_child[x->parent];
			if (x->parent != TR_NONE) {
				const tr_span *p = &s.v[x->parent];
				cr_assert_lt(x->parent, i);
				cr_assert_eq(x->depth, p->depth + 1);
				cr_assert_geq(x->start_ms, p->start_ms);
				cr_assert_leq(x->end_ms, p->end_ms);
			} else {
				cr_assert_eq(x->depth, 0);
			}
			if (*prev)
				cr_assert_geq(x->start_ms, s.v[*prev - 1].end_ms, "iter %d span %zu", iter, i);
			*prev = i + 1;
		}
		free(last_child);
		free(ev);
	}
}

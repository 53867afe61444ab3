/* The aggregates the HTML report ships (trace_agg.h): segments and their
 * per-path sums. Checked against what the rest of tc-trace computes: the sums
 * of all segments are the call tree; the sums of a run of segments are the
 * tree of that time slice (time per path); a message's segments hold exactly
 * that message's tree (time and calls); on hand-built and random streams. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "trace_agg.h"

static tr_spans s;
static tr_agg a;
static tc_error err;

static void teardown(void)
{
	tr_spans_dispose(&s);
	tr_agg_dispose(&a);
}

TestSuite(agg, .fini = teardown);

static void build(const uint64_t *ev, size_t n)
{
	tr_spans_dispose(&s);
	tr_agg_dispose(&a);
	cr_assert_eq(tr_spans_build(&s, ev, n, TR_NO_TIME, &err), TC_OK);
	cr_assert_eq(tr_agg_build(&a, &s, &err), TC_OK, "%s", err.message);
}

/* A node's path as "id/id/...", from the top. */
static void path_key(const tr_tree *t, size_t node, char *buf, size_t cap)
{
	size_t chain[256], n = 0;
	for (size_t p = node; p != 0 && p != TR_NONE && n < 256; p = t->v[p].parent)
		chain[n++] = p;
	size_t len = 0;
	buf[0] = '\0';
	while (n-- > 0 && len + 12 < cap)
		len += (size_t)snprintf(buf + len, cap - len, "/%u", t->v[chain[n]].id);
}

typedef struct sums {
	char (*key)[128];
	uint64_t *ms, *calls;
	size_t n;
} sums;

static void sums_add(sums *x, const char *key, uint64_t ms, uint64_t calls)
{
	for (size_t i = 0; i < x->n; i++)
		if (strcmp(x->key[i], key) == 0) {
			x->ms[i] += ms;
			x->calls[i] += calls;
			return;
		}
	x->key = realloc(x->key, (x->n + 1) * sizeof *x->key);
	x->ms = realloc(x->ms, (x->n + 1) * sizeof *x->ms);
	x->calls = realloc(x->calls, (x->n + 1) * sizeof *x->calls);
	snprintf(x->key[x->n], sizeof x->key[x->n], "%s", key);
	x->ms[x->n] = ms;
	x->calls[x->n++] = calls;
}

static void sums_free(sums *x)
{
	free(x->key);
	free(x->ms);
	free(x->calls);
	memset(x, 0, sizeof *x);
}

static const sums *find(const sums *x, const char *key, size_t *at)
{
	for (size_t i = 0; i < x->n; i++)
		if (strcmp(x->key[i], key) == 0) {
			*at = i;
			return x;
		}
	return NULL;
}

/* The sums of segments seg0..seg1 by path. */
static void agg_sums(sums *out, size_t seg0, size_t seg1)
{
	char key[128];
	for (size_t k = seg0; k <= seg1; k++)
		for (size_t e = a.segs[k].first; e < a.segs[k].first + a.segs[k].n; e++) {
			path_key(&a.tree, a.ent[e].path, key, sizeof key);
			sums_add(out, key, a.ent[e].ms, a.ent[e].calls);
		}
}

/* The tree of a slice by path. */
static void slice_sums(sums *out, const tr_slice *q)
{
	tr_spans part = { 0 };
	tr_tree t = { 0 };
	cr_assert_eq(tr_spans_slice(&part, &s, q, &err), TC_OK, "%s", err.message);
	cr_assert_eq(tr_tree_from_spans(&t, &part, &err), TC_OK);
	char key[128];
	for (size_t i = 1; i < t.n; i++) {
		path_key(&t, i, key, sizeof key);
		sums_add(out, key, t.v[i].total_ms, t.v[i].calls);
	}
	tr_tree_dispose(&t);
	tr_spans_dispose(&part);
}

/* Every path with time in `want` has that time in `got`, and the other way
 * round; with calls too when `calls`. */
static void expect_same(const sums *got, const sums *want, bool calls, const char *what)
{
	for (int dir = 0; dir < 2; dir++) {
		const sums *x = dir ? got : want, *y = dir ? want : got;
		for (size_t i = 0; i < x->n; i++) {
			size_t j;
			if (!x->ms[i] && !calls)
				continue;
			cr_assert(find(y, x->key[i], &j), "%s: path %s (%llu ms) only in the %s", what, x->key[i],
			          (unsigned long long)x->ms[i], dir ? "aggregates" : "slice");
			cr_assert_eq(x->ms[i], y->ms[j], "%s: path %s: %llu ms vs %llu", what, x->key[i],
			             (unsigned long long)x->ms[i], (unsigned long long)y->ms[j]);
			if (calls)
				cr_assert_eq(x->calls[i], y->calls[j], "%s: path %s: %llu calls vs %llu", what, x->key[i],
				             (unsigned long long)x->calls[i], (unsigned long long)y->calls[j]);
		}
	}
}

static void check_invariants(const char *what)
{
	/* segments in time order, entries sorted by path within each, no empty one */
	for (size_t k = 0; k < a.nsegs; k++) {
		cr_assert_leq(a.segs[k].from_ms, a.segs[k].to_ms, "%s: segment %zu", what, k);
		if (k)
			cr_assert_geq(a.segs[k].from_ms, a.segs[k - 1].to_ms, "%s: segment %zu", what, k);
		for (size_t e = a.segs[k].first; e < a.segs[k].first + a.segs[k].n; e++) {
			cr_assert(a.ent[e].ms || a.ent[e].calls);
			cr_assert(a.ent[e].path >= 1 && a.ent[e].path < a.tree.n);
			if (e > a.segs[k].first)
				cr_assert_gt(a.ent[e].path, a.ent[e - 1].path);
		}
	}
	/* all segments: the whole tree, time and calls */
	sums all = { 0 }, tree = { 0 };
	if (a.nsegs)
		agg_sums(&all, 0, a.nsegs - 1);
	char key[128];
	for (size_t i = 1; i < a.tree.n; i++) {
		path_key(&a.tree, i, key, sizeof key);
		sums_add(&tree, key, a.tree.v[i].total_ms, a.tree.v[i].calls);
	}
	expect_same(&all, &tree, true, what);
	sums_free(&all);
	sums_free(&tree);
	/* runs of segments (40, spread over all): the time slice each spans */
	for (size_t r = 0; r < 40 && a.nsegs; r++) {
		size_t k0 = r * 7919 % a.nsegs, k1 = k0 + r * 104729 % (a.nsegs - k0);
		{
			sums got = { 0 }, want = { 0 };
			agg_sums(&got, k0, k1);
			tr_slice q = { TR_SLICE_TIME, a.segs[k0].from_ms, a.segs[k1].to_ms, 0, 0 };
			slice_sums(&want, &q);
			expect_same(&got, &want, false, what);
			sums_free(&got);
			sums_free(&want);
		}
	}
	/* each message at the top (not inside a call: a nested loop): its tree exactly */
	cr_assert_eq(a.nmsgs, s.messages);
	for (size_t m = 0, i = 0; m < a.nmsgs && !a.grouped; m++, i++) {
		while (s.v[i].message != m)
			i++;
		if (s.v[i].parent != TR_NONE)
			continue;
		sums got = { 0 }, want = { 0 };
		agg_sums(&got, a.msgs[m].seg0, a.msgs[m].seg1);
		tr_slice q = { TR_SLICE_MESSAGES, 0, 0, m, m };
		slice_sums(&want, &q);
		expect_same(&got, &want, true, what);
		sums_free(&got);
		sums_free(&want);
	}
}

Test(agg, messages_alone_short_calls_grouped_long_ones_cut)
{
	/* 0..2000 ms: the grain is 2 ms. Two short calls outside messages share a
	 * segment; message 0 (3 ms, over a cell boundary) is cut in two; message 1
	 * (0 ms) stands alone; a long call (1000 ms) is cut in 500 */
	uint64_t ev[] = { I(1, 0), O(1, 0), I(2, 1), O(2, 1), I(D, 2), I(3, 3), O(3, 4), O(D, 5), I(D, 5), O(D, 5),
	                  I(4, 1000), I(5, 1500), O(5, 1501), O(4, 2000) };
	build(ev, N(ev));
	cr_assert_eq(a.grain_ms, 2);
	cr_assert_eq(a.busy_ms, 3 + 1000);
	cr_assert_eq(a.segs[0].from_ms, 0);
	cr_assert_eq(a.segs[0].to_ms, 1);
	cr_assert_eq(a.segs[0].n, 2, "calls 1 and 2 in one segment");
	cr_assert_eq(a.nmsgs, 2);
	cr_assert_eq(a.msgs[0].seg0, 1);
	cr_assert_eq(a.msgs[0].seg1, 2, "message 0 is cut at 4 ms");
	cr_assert_eq(a.segs[1].to_ms, 4);
	cr_assert_eq(a.segs[2].from_ms, 4);
	cr_assert_eq(a.msgs[1].seg0, 3);
	cr_assert_eq(a.msgs[1].seg1, 3);
	cr_assert_eq(a.nsegs, 4 + 500);
	cr_assert_eq(a.segs[4].from_ms, 1000);
	cr_assert_eq(a.segs[a.nsegs - 1].to_ms, 2000);
	check_invariants("hand-built");
}

Test(agg, empty_ring)
{
	build(NULL, 0);
	cr_assert_eq(a.nsegs, 0);
	cr_assert_eq(a.nent, 0);
	cr_assert_eq(a.nmsgs, 0);
}

/* Random streams as test_spans makes them, with long gaps now and then. */
Test(agg, random_streams_sum_up_like_slices)
{
	unsigned seed = 11;
	for (int iter = 0; iter < 150; iter++) {
		size_t n = 1 + (size_t)(iter * 13 % 300);
		uint64_t *ev = malloc(n * sizeof *ev);
		uint64_t t = 0;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 8;
			t += r % 4 + (r % 23 == 0 ? 40 + r % 300 : 0);
			if (r % 29 == 0 && t > 3)
				t -= 3;
			uint32_t id = (r >> 4) % 4 == 0 ? D : (r >> 4) % 6;
			ev[i] = r % 17 == 0 ? 0 : tc_event_encode((r >> 12) % 2, id, t);
		}
		build(ev, n);
		char what[32];
		snprintf(what, sizeof what, "iter %d", iter);
		check_invariants(what);
		free(ev);
	}
}

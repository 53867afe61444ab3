/* tc-trace compare's rows (trace_compare.h): per-recording figures per
 * method matched by name across builds whose ids differ, recursion and self
 * time, messages by handler, the noise floor, the verdicts with one and with
 * several recordings per side, and the --fail-on gate. End to end with
 * generated recordings: tests/trace/e2e.sh compare. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "trace_compare.h"
#include "trace_dflame.h"

static tr_mapping *ma, *mb;
static tr_cmp c;
static tc_error err;

/* build A: load is 5; build B: load is 7 and a new method 9 */
static const char map_a[] = "5,1,app.Catalog load ()V\n6,1,app.Main onCreate ()V\n3,1,app.Util fib (I)I\n"
			    "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";
static const char map_b[] = "7,1,app.Catalog load ()V\n6,1,app.Main onCreate ()V\n3,1,app.Util fib (I)I\n"
			    "9,1,app.Main extra ()V\n"
			    "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";

static tr_mapping *load(const char *text, size_t n)
{
	tr_mapping *m;
	FILE *f = fmemopen((void *)text, n, "rb");
	cr_assert(f);
	cr_assert_eq(tr_mapping_read(&m, f, "map", &err), TC_OK, "%s", err.message);
	fclose(f);
	return m;
}

static void setup(void)
{
	ma = load(map_a, sizeof map_a - 1);
	mb = load(map_b, sizeof map_b - 1);
}

static void teardown(void)
{
	tr_cmp_dispose(&c);
	tr_mapping_free(ma);
	tr_mapping_free(mb);
}

TestSuite(compare, .init = setup, .fini = teardown);

/* one recording: a message onCreate -> load (load_ms), fib recursing */
static void record(int side, size_t rec, uint64_t load_ms)
{
	uint32_t load_id = side ? 7 : 5;
	uint64_t t = load_ms;
	uint64_t ev[] = {
		I(D, 0), I(6, 0), I(load_id, 0), O(load_id, t), I(3, t), I(3, t + 1), O(3, t + 3), O(3, t + 4),
		O(6, t + 10), O(D, t + 10),
	};
	tr_spans s = { 0 };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	tr_cmp_begin(&c, side, rec);
	cr_assert_eq(tr_cmp_add_spans(&c, &s, side ? mb : ma, &err), TC_OK, "%s", err.message);
	tr_spans_dispose(&s);
	if (side) { /* B calls a method A does not have */
		uint64_t ev2[] = { I(9, 100), O(9, 130) };
		cr_assert_eq(tr_spans_build(&s, ev2, N(ev2), TR_NO_TIME, &err), TC_OK);
		cr_assert_eq(tr_cmp_add_spans(&c, &s, mb, &err), TC_OK, "%s", err.message);
		tr_spans_dispose(&s);
	}
	cr_assert_eq(tr_cmp_end(&c, side ? mb : ma, &err), TC_OK, "%s", err.message);
}

static const tr_cmp_row *row(tr_cmp_kind kind, const char *key)
{
	for (size_t i = 0; i < c.nrows; i++)
		if (c.rows[i].kind == kind && strcmp(c.rows[i].key, key) == 0)
			return &c.rows[i];
	cr_assert_fail("no row %s", key);
	return NULL;
}

Test(compare, matched_by_key_not_id)
{
	cr_assert_eq(tr_cmp_init(&c, 1, 1, &err), TC_OK);
	record(0, 0, 20);
	record(1, 0, 60);
	tr_cmp_opts o = { .tick_ms = 5, .by = TR_CMP_BY_SELF };
	cr_assert_eq(tr_cmp_finish(&c, &o, &err), TC_OK);
	const tr_cmp_row *r = row(TR_CMP_METHOD, "app.Catalog.load ()V");
	cr_expect_eq(r->only, 0, "load is on both sides though its id changed");
	cr_expect_float_eq(r->r[1].mean[0], 20, 1e-9);
	cr_expect_float_eq(r->r[1].mean[1], 60, 1e-9);
	cr_expect_float_eq(r->r[1].delta_ms, 40, 1e-9);
	cr_expect_eq(r->r[1].verdict, TR_CMP_UNJUDGED, "one recording per side: not judged");
	/* the first row of the methods: the biggest growth */
	cr_expect_str_eq(c.rows[0].key, "app.Catalog.load ()V");
	/* fib: 2 calls, the inner one not counted again in its total */
	const tr_cmp_row *f = row(TR_CMP_METHOD, "app.Util.fib (I)I");
	cr_expect_float_eq(f->calls[0], 2, 1e-9);
	cr_expect_float_eq(f->r[0].mean[0], 4, 1e-9, "total %g", f->r[0].mean[0]);
	cr_expect_float_eq(f->r[1].mean[0], 4, 1e-9, "self %g", f->r[1].mean[0]);
	cr_expect_eq(f->r[1].verdict, TR_CMP_NOISE);
	cr_expect_eq(row(TR_CMP_METHOD, "app.Main.extra ()V")->only, 2);
	/* onCreate's total grew with load, its self did not */
	const tr_cmp_row *oc = row(TR_CMP_METHOD, "app.Main.onCreate ()V");
	cr_expect_float_eq(oc->r[0].delta_ms, 40, 1e-9);
	cr_expect_float_eq(oc->r[1].delta_ms, 0, 1e-9);
	/* the message, by its handler */
	const tr_cmp_row *m = row(TR_CMP_MESSAGE, "app.Main.onCreate ()V");
	cr_expect_float_eq(m->calls[0], 1, 1e-9);
	cr_expect_float_eq(m->r[0].delta_ms, 40, 1e-9);
}

Test(compare, significance_with_recordings)
{
	cr_assert_eq(tr_cmp_init(&c, 6, 6, &err), TC_OK);
	static const uint64_t a[] = { 20, 22, 19, 25, 21, 23 }, b[] = { 61, 58, 66, 60, 63, 59 };
	for (size_t k = 0; k < 6; k++) {
		record(0, k, a[k]);
		record(1, k, b[k]);
	}
	tr_cmp_opts o = { .tick_ms = 5, .by = TR_CMP_BY_SELF };
	cr_assert_eq(tr_cmp_finish(&c, &o, &err), TC_OK);
	const tr_cmp_row *r = row(TR_CMP_METHOD, "app.Catalog.load ()V");
	cr_expect_eq(r->r[1].verdict, TR_CMP_SLOWER);
	cr_expect_float_eq(r->r[1].test.p, 2.0 / 924, 1e-12, "exact p %g", r->r[1].test.p);
	cr_expect_float_eq(r->r[1].test.effect, 1, 1e-12);
	cr_expect(r->r[1].lo > 30 && r->r[1].hi < 50, "interval %g..%g", r->r[1].lo, r->r[1].hi);
	cr_expect_eq(row(TR_CMP_METHOD, "app.Util.fib (I)I")->r[1].verdict, TR_CMP_NOISE);
	/* extra: 30 ms in B only, every recording: significant as well */
	cr_expect_eq(row(TR_CMP_METHOD, "app.Main.extra ()V")->r[1].verdict, TR_CMP_SLOWER);

	tr_cmp_gate g;
	cr_assert_eq(tr_cmp_gate_parse(&g, "self:+10%,35ms"), 0);
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	cr_expect_eq(tr_cmp_gate_check(&c, &g, f, "x: "), 1, "only load grew by 35 ms");
	fclose(f);
	cr_expect(strstr(text, "x: method app.Catalog.load ()V: self +39.5 ms per recording (+182%, 21.7 -> 61.2), significant") != NULL, "%s", text);
	free(text);
	cr_assert_eq(tr_cmp_gate_parse(&g, "total:+500%"), 0);
	f = open_memstream(&text, &len);
	size_t n = tr_cmp_gate_check(&c, &g, f, "");
	fclose(f);
	cr_expect_eq(n, 1, "only extra, new in B, grew 500%%: %s", text); /* load grew 190% */
	free(text);
}

Test(compare, gate_syntax)
{
	tr_cmp_gate g;
	cr_expect_eq(tr_cmp_gate_parse(&g, "self:+10%,5ms"), 0);
	cr_expect_float_eq(g.min_rel, 0.10, 1e-12);
	cr_expect_float_eq(g.min_ms, 5, 1e-12);
	cr_expect_eq(g.metric, TR_CMP_BY_SELF);
	cr_expect_eq(tr_cmp_gate_parse(&g, "total:50ms"), 0);
	cr_expect_eq(g.metric, TR_CMP_BY_TOTAL);
	cr_expect_float_eq(g.min_ms, 50, 1e-12);
	cr_expect_eq(tr_cmp_gate_parse(&g, "self:"), -1);
	cr_expect_eq(tr_cmp_gate_parse(&g, "wall:+10%"), -1);
	cr_expect_eq(tr_cmp_gate_parse(&g, "self:10"), -1);
	cr_expect_eq(tr_cmp_gate_parse(&g, "self:+10%,"), 0);
	cr_expect_eq(tr_cmp_gate_parse(&g, "self:-10%"), -1);
	cr_expect_eq(tr_cmp_gate_parse(&g, "self:10%x"), -1);
}

/* The differential flame graph: paths merged by name across ids, widths
 * from B, red where the total grew past the floor, grey under it. */
Test(compare, differential_flame)
{
	tr_dflame *f;
	cr_assert_eq(tr_dflame_new(&f, 1, 1, &err), TC_OK);
	for (int side = 0; side < 2; side++) {
		uint32_t load_id = side ? 7 : 5;
		uint64_t t = side ? 60 : 20;
		uint64_t ev[] = { I(6, 0), I(load_id, 0), O(load_id, t), I(3, t), O(3, t + 1), O(6, t + 10) };
		tr_spans s = { 0 };
		cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
		cr_assert_eq(tr_dflame_add(f, side, &s, side ? mb : ma, &err), TC_OK, "%s", err.message);
		tr_spans_dispose(&s);
	}
	char *text;
	size_t len;
	FILE *out = open_memstream(&text, &len);
	tr_dflame_opts o = { "t", NULL, 1000, 5 };
	cr_assert_eq(tr_dflame_write(out, f, &o, &err), TC_OK, "%s", err.message);
	fclose(out);
	cr_expect(strstr(text, "<title>app.Catalog.load ()V (B 60.0 ms, A 20.0 ms, +40.0 ms, +200%") != NULL, "%s", text);
	/* one frame for load though its id changed, red (the largest change) */
	const char *load = strstr(text, "app.Catalog.load ()V (B");
	cr_expect(load && !strstr(load + 1, "app.Catalog.load ()V (B"), "load is one frame");
	cr_expect(load && strstr(load, "fill=\"rgb(255,30,30)\""), "load is red");
	/* fib: 1 ms both sides: grey; widths from B: 980 px for B's 70 ms */
	cr_expect(strstr(text, "<title>app.Util.fib (I)I (B 1.0 ms, A 1.0 ms, +0.0 ms, +0%; self B 1.0, A 1.0 ms; calls "
	                       "B 1.0, A 1.0; per recording)</title><rect x=\"850.00\"") != NULL, "%s", text);
	free(text);
	tr_dflame_free(f);
}

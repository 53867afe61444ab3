/* The SVG flame graph: escaping, layout, narrow frames, empty input. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "trace_flame.h"

static tr_spans s;
static tr_tree t;
static tr_mapping *m;
static tc_error err;
static char *out;
static size_t out_len;

static void setup(void)
{
	static const char map[] = "1,1,a.Main <init> ()V\n2,1,a.Main run&go ()V\n3,1,a.Main tiny ()V\n";
	FILE *f = fmemopen((void *)map, sizeof map - 1, "rb");
	cr_assert_eq(tr_mapping_read(&m, f, "map", &err), TC_OK, "%s", err.message);
	fclose(f);
}

static void teardown(void)
{
	tr_spans_dispose(&s);
	tr_tree_dispose(&t);
	tr_mapping_free(m);
	free(out);
}

TestSuite(flame, .init = setup, .fini = teardown);

static void draw(const uint64_t *ev, size_t n, const tr_flame_opts *o)
{
	cr_assert_eq(tr_spans_build(&s, ev, n, TR_NO_TIME, &err), TC_OK);
	cr_assert_eq(tr_tree_from_spans(&t, &s, &err), TC_OK);
	cr_assert_eq(tr_tree_sort(&t, TR_ORDER_CALL, &err), TC_OK);
	FILE *f = open_memstream(&out, &out_len);
	cr_assert_eq(tr_flame_write(f, &t, m, o, &err), TC_OK, "%s", err.message);
	fclose(f);
}

static size_t count(const char *hay, const char *needle)
{
	size_t k = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		k++;
	return k;
}

Test(flame, escapes_and_layout)
{
	/* 1 runs 0..1000 and calls 2 (0..600); 3 is far too narrow to draw */
	uint64_t ev[] = { I(1, 0), I(2, 0), I(3, 1), O(3, 1), O(2, 600), O(1, 1000) };
	tr_flame_opts o = { "a <b> & \"c\" 'd'", "ring x", 1000 };
	draw(ev, N(ev), &o);
	cr_assert_eq(strncmp(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<svg ", 60), 0, "%s", out);
	cr_assert(strstr(out, "a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;"), "%s", out);
	cr_assert(strstr(out, "<title>a.Main.&lt;init&gt; ()V (1000 ms, 100.00%, self 400 ms, 1 call)</title>"), "%s", out);
	cr_assert(strstr(out, "<title>a.Main.run&amp;go ()V (600 ms, 60.00%, self 600 ms, 1 call)</title>"), "%s", out);
	cr_assert_null(strstr(out, "tiny"));
	/* width 1000, padding 10: the root spans 980 px, run&go 60% of it */
	cr_assert(strstr(out, "<rect x=\"10.00\" y=\"80.0\" width=\"980.00\""), "%s", out);
	cr_assert(strstr(out, "<rect x=\"10.00\" y=\"48.0\" width=\"588.00\""), "%s", out);
	cr_assert(strstr(out, ">a.Main.run&amp;go</text>"), "%s", out);
	cr_assert_eq(count(out, "<g>"), 3);
	cr_assert_null(strstr(out, "<script"));
	cr_assert(strstr(out, "</svg>\n"));
}

Test(flame, labels_are_cut_to_fit)
{
	uint64_t ev[] = { I(1, 0), O(1, 990), I(2, 990), O(2, 1000) };
	tr_flame_opts o = { NULL, NULL, 0 };
	draw(ev, N(ev), &o);
	/* 2 is 11.8 px wide: no room for a label; 1 has room for all of it */
	cr_assert(strstr(out, ">a.Main.&lt;init&gt;</text>"), "%s", out);
	cr_assert_null(strstr(out, "\">a.Main.run"));
	cr_assert(strstr(out, ">Flame graph</text>"));
}

Test(flame, nothing_to_draw)
{
	uint64_t ev[] = { I(1, 5), O(1, 5) };
	tr_flame_opts o = { NULL, NULL, 0 };
	draw(ev, N(ev), &o);
	cr_assert(strstr(out, "nothing to draw"), "%s", out);
	cr_assert(strstr(out, "</svg>\n"));
}

Test(flame, xml_escape_replaces_what_xml_forbids)
{
	tc_buf sb;
	buf_init(&sb);
	tr_xml_escape(&sb, "a\x01" "b\x7f" "\xff" "c\xc3\xa9" "\xe2\x82" "d\xef\xbf\xbe" "\xf0\x9f\x98\x80");
	cr_assert_str_eq(sb.str, "a?b?\xEF\xBF\xBD" "c\xc3\xa9" "\xEF\xBF\xBD\xEF\xBF\xBD" "d\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
	                         "\xf0\x9f\x98\x80");
	buf_free(&sb);
}

/* The HTML report's writer (trace_html.h): the page is the template with the
 * data at its mark; no string in the data can end the <script> element (a
 * method named "</script>" included); threads, reports with their decoded
 * stack and flame graph, and the names of every id seen are in it. The page
 * itself is exercised in a browser by tests/browser. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "trace_html.h"

static const char map[] = "10,1,a.B run ()V\n"
                          "11,1,a.B </script><!--x (I)V\n"
                          "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";

/* The page of the events ev (n of them), with one report line or none, buffered
 * or streamed (tr_html_begin). */
static char *page_of(const uint64_t *evs, size_t nev, const char *report_line, size_t *len, int stream)
{
	tc_error err = { 0 };
	tr_mapping *m = NULL;
	FILE *f = fmemopen((void *)map, sizeof map - 1, "rb");
	cr_assert_eq(tr_mapping_read(&m, f, "map", &err), TC_OK, "%s", err.message);
	fclose(f);
	tr_spans s = { 0 };
	cr_assert_eq(tr_spans_build(&s, evs, nev, TR_NO_TIME, &err), TC_OK);
	tr_html *h = NULL;
	cr_assert_eq(tr_html_new(&h, m, "t<i>tle", "src", &err), TC_OK);
	char *out = NULL;
	FILE *o = open_memstream(&out, len);
	if (stream)
		cr_assert_eq(tr_html_begin(h, o, &err), TC_OK, "%s", err.message);
	cr_assert_eq(tr_html_add_thread(h, "main", &s, 1000, &err), TC_OK, "%s", err.message);
	if (report_line) {
		json_doc doc;
		size_t off;
		char why[64];
		cr_assert_eq(json_parse(&doc, report_line, strlen(report_line), &off, why, sizeof why), TC_OK, "%s", why);
		cr_assert_eq(tr_html_add_report(h, &doc.root, "r.jsonl", 1, &err), TC_OK, "%s", err.message);
		json_doc_dispose(&doc);
	}
	cr_assert_eq(tr_html_write(h, o, &err), TC_OK, "%s", err.message);
	fclose(o);
	tr_html_free(h);
	tr_spans_dispose(&s);
	tr_mapping_free(m);
	return out;
}

/* two messages: dispatch > run > (11); dispatch > (11) */
#define EVENTS { I(D, 0), I(10, 1), I(11, 2), O(11, 5), O(10, 9), O(D, 10), I(D, 20), I(11, 20), O(11, 30), O(D, 30) }

static char *page(const char *report_line, size_t *len)
{
	uint64_t ev[] = EVENTS;
	return page_of(ev, N(ev), report_line, len, 0);
}

static const char slow[] = "{\"tag\":\"Trace_EvilMethod\",\"detail\":\"NORMAL\",\"cost\":9,\"scene\":\"</script>\","
                           "\"stack\":\"0,1048574,1,9\\n1,11,1,3\\n\",\"stackKey\":\"11|\",\"time\":1009}";

/* tc-trace html streams (issue 31: a 20 M event page was held whole, 1.6 GB):
 * the streamed page is the buffered one byte for byte, with a report, without,
 * and over many chunks (400,000 spans: the timeline's text alone is 2 MB) */
Test(html, streamed_is_buffered)
{
	size_t n = 0, nb, ns;
	uint64_t *big = malloc(800000 * sizeof *big);
	cr_assert(big);
	for (uint64_t k = 0; k < 200000; k++) {
		big[n++] = I(D, 3 * k);
		big[n++] = I(10, 3 * k + 1);
		big[n++] = O(10, 3 * k + 2);
		big[n++] = O(D, 3 * k + 2);
	}
	uint64_t ev[] = EVENTS;
	const char *reports[] = { slow, NULL };
	for (int r = 0; r < 2; r++) {
		char *b = page_of(ev, N(ev), reports[r], &nb, 0), *s = page_of(ev, N(ev), reports[r], &ns, 1);
		cr_assert(nb == ns && memcmp(b, s, nb) == 0, "report %d: %zu bytes buffered, %zu streamed", r, nb, ns);
		free(b);
		free(s);
	}
	char *b = page_of(big, n, slow, &nb, 0), *s = page_of(big, n, slow, &ns, 1);
	cr_assert(nb > 2000000 && nb == ns && memcmp(b, s, nb) == 0, "400,000 spans: %zu bytes buffered, %zu streamed", nb, ns);
	free(b);
	free(s);
	free(big);
}

/* Streaming, the data's order is the page's: a thread after a report is refused. */
Test(html, streamed_thread_after_report)
{
	tc_error err = { 0 };
	uint64_t ev[] = EVENTS;
	tr_spans s = { 0 };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	tr_html *h = NULL;
	cr_assert_eq(tr_html_new(&h, NULL, "t", "s", &err), TC_OK);
	char *out = NULL;
	size_t len;
	FILE *o = open_memstream(&out, &len);
	cr_assert_eq(tr_html_begin(h, o, &err), TC_OK, "%s", err.message);
	cr_assert_eq(tr_html_add_thread(h, "main", &s, 0, &err), TC_OK, "%s", err.message);
	json_doc doc;
	size_t off;
	char why[64];
	cr_assert_eq(json_parse(&doc, slow, strlen(slow), &off, why, sizeof why), TC_OK, "%s", why);
	cr_assert_eq(tr_html_add_report(h, &doc.root, "r.jsonl", 1, &err), TC_OK, "%s", err.message);
	json_doc_dispose(&doc);
	cr_assert_eq(tr_html_add_thread(h, "late", &s, 0, &err), TC_EINVAL);
	cr_assert(strstr(err.message, "after a report"), "%s", err.message);
	fclose(o);
	free(out);
	tr_html_free(h);
	tr_spans_dispose(&s);
}

/* The data element's text, or NULL. */
static char *data_of(const char *p)
{
	const char *open = "<script id=\"tc-data\" type=\"application/json\">";
	const char *a = strstr(p, open);
	if (!a)
		return NULL;
	a += strlen(open);
	const char *b = strstr(a, "</script>");
	return b ? strndup(a, (size_t)(b - a)) : NULL;
}

Test(html, data_cannot_end_its_element)
{
	size_t len;
	char *p = page(slow, &len);
	cr_assert(strncmp(p, "<!DOCTYPE html>", 15) == 0);
	char *d = data_of(p);
	cr_assert(d, "the data element ends");
	cr_assert_null(strchr(d, '<'), "no '<' in the data: %.200s", d);
	/* the whole data (names and the report) precedes the element's end */
	cr_assert(strstr(d, "\"title\":\"t\\u003ci>tle\""), "%.300s", d);
	cr_assert(strstr(d, "\"11\":\"a.B.\\u003c/script>\\u003c!--x (I)V\""), "%.300s", d);
	cr_assert(strstr(d, "\"scene\":\"\\u003c/script>\""));
	cr_assert(strstr(d, "\"stack\":[[0,1048574,1,9],[1,11,1,3]]"));
	cr_assert(strstr(d, "\"key\":[11]"));
	cr_assert(strstr(d, "\"flame\":\"\\u003csvg"), "the flame graph without its XML declaration");
	/* the page's scripts follow, and the page ends */
	cr_assert(strstr(p, "JSON.parse(document.getElementById(\"tc-data\").textContent)"));
	cr_assert(len > 20 && strcmp(p + len - 8, "</html>\n") == 0);
	free(d);
	free(p);
}

Test(html, thread_aggregates)
{
	size_t len;
	char *p = page(NULL, &len);
	char *d = data_of(p);
	cr_assert(d);
	/* two messages: busy 10 + 10 ms; paths: dispatch (1), run under it (2),
	 * the odd one under run (3) and under dispatch (4) */
	cr_assert(strstr(d, "\"name\":\"main\",\"first\":0,\"last\":30,\"wallBase\":1000,\"busy\":20"), "%.300s", d);
	cr_assert(strstr(d, "\"paths\":[0,1048574,1,10,2,11,1,11]"), "%.400s", d);
	cr_assert(strstr(d, "\"msgs\":[0,10,"), "%.600s", d);
	cr_assert(strstr(d, "\"reports\":[]"));
	free(d);
	free(p);
}

/* The timeline's spans (put_timeline): per span, in pre-order, the start after
 * the previous one's, the duration, levels up * 4 + flags, the method's index in
 * tlIds; varints of 5 bits a character, 'A'.. for a last digit. */
Test(html, timeline_spans_packed)
{
	size_t len;
	char *p = page(NULL, &len);
	char *d = data_of(p);
	cr_assert(d);
	cr_assert(strstr(d, "\"dispatch\":1048574,"), "%.300s", d);
	cr_assert(strstr(d, "\"tlIds\":[10,11,1048574]"), "%.2000s", d);
	/* message 0 (0, 10 ms, index 2); run (+1, 8 ms, its child, index 0); </script>
	 * (+1, 3 ms, child, 1); message 1 (+18, 10 ms, 3 levels up: 12, 2); </script>
	 * (+0, 10 ms, child, 1) */
	cr_assert(strstr(d, "\"tl\":\"AKAC" "BIAA" "BDAB" "SKMC" "AKAB\""), "%.2000s", d);
	/* no sections: an empty list of its own */
	cr_assert(strstr(d, "\"tl\":\"AKACBIAABDABSKMCAKAB\",\"nSect\":0,\"sectIds\":[],\"sect\":\"\""), "%.2000s", d);
	free(d);
	free(p);
}

/* Two-digit varints (100 = 3 * 32 + 4: 'j' 'E') and the flags (TR_SPAN_CUT = 2). */
Test(html, timeline_long_spans_and_flags)
{
	tc_error err = { 0 };
	uint64_t ev[] = { I(10, 0), I(11, 0), O(10, 100) };
	tr_spans s = { 0 };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	tr_html *h = NULL;
	cr_assert_eq(tr_html_new(&h, NULL, "t", "s", &err), TC_OK);
	cr_assert_eq(tr_html_add_thread(h, "main", &s, 0, &err), TC_OK, "%s", err.message);
	char *out = NULL;
	size_t len;
	FILE *o = open_memstream(&out, &len);
	cr_assert_eq(tr_html_write(h, o, &err), TC_OK, "%s", err.message);
	fclose(o);
	cr_assert(strstr(out, "\"tlIds\":[10,11],\"tl\":\"AjEAA" "AjECB\""), "%.2000s", strstr(out, "\"tlIds\""));
	free(out);
	tr_html_free(h);
	tr_spans_dispose(&s);
}

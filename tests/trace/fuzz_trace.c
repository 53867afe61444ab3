/* libFuzzer target for tc-trace's parsers: the first byte picks one, the
 * rest is its input. Each must return an error or a value, never crash or
 * read past its input; what the JSON reader accepts, the report writer
 * and the JSON writer must handle; any event array gives spans that the
 * tree, Chrome and flame writers take.
 *
 *   meson setup -Dfuzz=true (CC=clang); build/tests/trace/fuzz-trace DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_chrome.h"
#include "trace_flame.h"
#include "json_read.h"
#include "trace_mapping.h"
#include "trace_report.h"
#include "trace_spans.h"
#include "trace_tree.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void json_and_report(const char *s, size_t n)
{
	json_doc doc;
	size_t off;
	char why[128];
	if (json_parse(&doc, s, n, &off, why, sizeof why) == TC_OK) {
		FILE *null = fopen("/dev/null", "w");
		tr_report_opts o = { NULL, 0 };
		tc_error err;
		tr_report_write(null, &doc.root, "f", 1, &o, &err);
		o.text = 1;
		tr_report_write(null, &doc.root, "f", 1, &o, &err);
		fclose(null);
	}
	json_doc_dispose(&doc);
}

static void mapping(const char *s, size_t n)
{
	FILE *f = fmemopen((void *)s, n ? n : 1, "rb");
	if (!f)
		return;
	tr_mapping *m = NULL;
	tc_error err;
	if (n && tr_mapping_read(&m, f, "m", &err) == TC_OK) {
		tc_buf sb;
		buf_init(&sb);
		for (uint32_t id = 0; id < 64; id++)
			tr_name_put(&sb, m, id, id % 2 ? TR_NAME_FULL : TR_NAME_SHORT);
		buf_free(&sb);
	}
	tr_mapping_free(m);
	fclose(f);
}

static void events(const unsigned char *d, size_t n)
{
	size_t k = n / 8;
	uint64_t *ev = malloc((k ? k : 1) * 8);
	if (!ev)
		return;
	memcpy(ev, d, k * 8);
	tr_spans s = { 0 }, part = { 0 };
	tr_tree t = { 0 };
	tc_error err;
	FILE *null = fopen("/dev/null", "w");
	if (tr_spans_build(&s, ev, k, TR_NO_TIME, &err) == TC_OK) {
		tr_slice q = { TR_SLICE_TIME, s.first_ms + 1, s.last_ms / 2 + s.first_ms / 2 + 1, 0, 0 };
		if (tr_spans_slice(&part, &s, &q, &err) == TC_OK && tr_tree_from_spans(&t, &part, &err) == TC_OK &&
		    tr_tree_sort(&t, TR_ORDER_TOTAL, &err) == TC_OK) {
			tr_chrome_opts co = { 0 };
			co.pid = co.tid = 1;
			tr_chrome_write(null, &part, NULL, &co, NULL, &err);
			tr_flame_opts fo = { 0 };
			tr_flame_write(null, &t, NULL, &fo, &err);
		}
	}
	fclose(null);
	tr_tree_dispose(&t);
	tr_spans_dispose(&part);
	tr_spans_dispose(&s);
	free(ev);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size == 0)
		return 0;
	/* an exact-size copy, so that reading past the end is caught */
	size_t n = size - 1;
	char *s = malloc(n ? n : 1);
	if (!s)
		return 0;
	memcpy(s, data + 1, n);
	switch (data[0] % 3) {
	case 0: json_and_report(s, n); break;
	case 1: mapping(s, n); break;
	default: events((const unsigned char *)s, n); break;
	}
	free(s);
	return 0;
}

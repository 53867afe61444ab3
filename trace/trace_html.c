/* trace_html.c: see trace_html.h. The data is JSON text in the order the page
 * reads it: title, source, the threads, the reports, the method names last
 * (every id seen). Buffered, it is written into the page at its <!--TC-DATA-->
 * mark by tr_html_write; streamed (tr_html_begin), the page up to the mark is
 * written first and each thread and report goes out as it is added, through a
 * buffer of about a megabyte: a 20 M event page is not held in memory twice. */
#include "trace_html.h"
#include "try.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "bytes.h"
#include "trace_agg.h"
#include "trace_flame.h"
#include "trace_report.h"
#include "trace_tree.h"
#include "report_page.h"

struct tr_html {
	const tr_mapping *m;
	tc_buf title, source;
	uint32_t resolution_ms;
	tc_buf threads, reports; /* JSON array items, comma-separated */
	size_t nthreads, nreports;
	uint32_t *ids;           /* ids seen, for the names */
	size_t nids, cap_ids;
	FILE *out;               /* streaming (tr_html_begin): where the page goes */
	tc_buf chunk;            /* streaming: what is not written yet */
};

/* Where a thread's or a report's JSON goes: appended to its list, or, streaming,
 * to the chunk that spill writes out. */
static tc_buf *sink(tr_html *h, tc_buf *list)
{
	return h->out ? &h->chunk : list;
}

/* Writes s with every '<' as \u003c: '<' only occurs inside JSON strings. */
static void put_data(FILE *out, const char *p, size_t len)
{
	if (!len)
		return;
	const char *end = p + len;
	while (p < end) {
		const char *lt = memchr(p, '<', (size_t)(end - p));
		size_t n = lt ? (size_t)(lt - p) : (size_t)(end - p);
		fwrite(p, 1, n, out);
		if (!lt)
			break;
		fputs("\\u003c", out);
		p = lt + 1;
	}
}

/* Streaming: the chunk written out once it holds a megabyte (or always: all). */
static void spill(tr_html *h, int all)
{
	if (!h->out || h->chunk.err || (!all && h->chunk.len < (1u << 20)))
		return;
	put_data(h->out, (const char *)h->chunk.str, h->chunk.len);
	h->chunk.len = 0;
}

static int oom(tc_error *err)
{
	return tc_set(err, TC_ENOMEM, "html: out of memory");
}

int tr_html_new(tr_html **out, const tr_mapping *m, const char *title, const char *source, tc_error *err)
{
	tr_html *h = calloc(1, sizeof *h);
	if (!h)
		return oom(err);
	h->m = m;
	buf_init(&h->title);
	buf_init(&h->source);
	buf_init(&h->threads);
	buf_init(&h->reports);
	buf_init(&h->chunk);
	json_escape(&h->title, title ? title : "tracecanary");
	json_escape(&h->source, source ? source : "");
	if (h->title.err || h->source.err) {
		tr_html_free(h);
		return oom(err);
	}
	*out = h;
	return TC_OK;
}

void tr_html_free(tr_html *h)
{
	if (!h)
		return;
	buf_free(&h->title);
	buf_free(&h->source);
	buf_free(&h->threads);
	buf_free(&h->reports);
	buf_free(&h->chunk);
	free(h->ids);
	free(h);
}

static int see_id(tr_html *h, uint32_t id, tc_error *err)
{
	if (h->nids == h->cap_ids) {
		size_t c = h->cap_ids ? h->cap_ids * 2 : 256;
		uint32_t *p = realloc(h->ids, c * sizeof *p);
		if (!p)
			return oom(err);
		h->ids = p;
		h->cap_ids = c;
	}
	h->ids[h->nids++] = id;
	return TC_OK;
}

/* The timeline: every span, for the page to draw (report_page.html). Compact,
 * since a page of 1,000,000 events must stay under 10 MB: numbers are varints
 * of 5 bits a character, base64url digits ('A'.. for the last digit, 'g'.. for
 * digits that more follow: 32 + d), so a value under 32 is one character.
 * Per span, in pre-order: start - the previous span's start (ms), duration
 * (ms), how many levels up from one below the previous span (0: its child,
 * 1: its sibling, ...) times 4 plus its flags (TR_SPAN_OPEN, TR_SPAN_CUT),
 * its method as an index into the thread's "tlIds". */
static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static void put_varint(tc_buf *b, uint64_t v)
{
	char tmp[16];
	size_t n = 0;
	tmp[n++] = b64[v & 31];
	for (v >>= 5; v; v >>= 5)
		tmp[n++] = b64[32 + (v & 31)];
	/* most significant digit first */
	while (n)
		buf_putc(b, tmp[--n]);
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

/* The spans v[0..n) as "IDS":[...] and "KEY":"packed" (the methods, or the sections:
 * those nest among themselves). */
static int put_spans(tr_html *h, tc_buf *b, const char *ids_key, const char *key, const tr_span *v, size_t n,
                     uint64_t first_ms, tc_error *err)
{
	uint32_t *ids = malloc((n ? n : 1) * sizeof *ids);
	if (!ids)
		return oom(err);
	for (size_t i = 0; i < n; i++)
		ids[i] = v[i].id;
	size_t nids = 0;
	if (n) {
		qsort(ids, n, sizeof *ids, cmp_u32);
		for (size_t i = 0; i < n; i++)
			if (!nids || ids[i] != ids[nids - 1])
				ids[nids++] = ids[i];
	}
	int rc = TC_OK;
	buf_printf(b, ",\"%s\":[", ids_key);
	for (size_t i = 0; i < nids && rc == TC_OK; i++) {
		buf_printf(b, "%s%u", i ? "," : "", (unsigned)ids[i]);
		rc = see_id(h, ids[i], err);
	}
	buf_printf(b, "],\"%s\":\"", key);
	uint64_t prev_start = first_ms;
	size_t prev_depth = SIZE_MAX; /* one below it is depth 0 */
	for (size_t i = 0; i < n && rc == TC_OK; i++) {
		const tr_span *sp = &v[i];
		uint32_t *at = bsearch(&sp->id, ids, nids, sizeof *ids, cmp_u32);
		/* pre-order: starts never go back (trace_spans.h raises a time that does) */
		put_varint(b, sp->start_ms >= prev_start ? sp->start_ms - prev_start : 0);
		put_varint(b, sp->end_ms - sp->start_ms);
		put_varint(b, (uint64_t)(prev_depth + 1 - sp->depth) * 4 + (sp->flags & (TR_SPAN_OPEN | TR_SPAN_CUT)));
		put_varint(b, (uint64_t)(at - ids));
		prev_start = sp->start_ms;
		prev_depth = sp->depth;
		if ((i & 4095) == 0)
			spill(h, 0);
	}
	buf_putc(b, '"');
	free(ids);
	return rc;
}

static int put_timeline(tr_html *h, tc_buf *b, const tr_spans *s, tc_error *err)
{
	TRY(put_spans(h, b, "tlIds", "tl", s->v, s->n, s->first_ms, err));
	buf_printf(b, ",\"nSect\":%zu", s->n_sect);
	return put_spans(h, b, "sectIds", "sect", s->sect, s->n_sect, s->first_ms, err);
}

int tr_html_add_thread(tr_html *h, const char *name, const tr_spans *s, uint64_t wall_base_ms, tc_error *err)
{
	tr_agg a;
	TRY(tr_agg_build(&a, s, err));
	int rc = TC_OK;
	/* streaming, the threads come before the reports (the data's order) */
	if (h->out && h->nreports)
		rc = tc_set(err, TC_EINVAL, "html: a thread added after a report");
	tc_buf *b = sink(h, &h->threads);
	if (rc == TC_OK && h->nthreads++)
		buf_putc(b, ',');
	buf_puts(b, "{\"name\":");
	json_escape(b, name);
	buf_printf(b,
	          ",\"first\":%llu,\"last\":%llu,\"wallBase\":%llu,\"busy\":%llu,\"grain\":%llu,\"grouped\":%s,"
	          "\"spans\":%zu,\"messages\":%zu",
	          (unsigned long long)s->first_ms, (unsigned long long)s->last_ms, (unsigned long long)wall_base_ms,
	          (unsigned long long)a.busy_ms, (unsigned long long)a.grain_ms, a.grouped ? "true" : "false", s->n,
	          s->messages);
	/* paths 1..n-1 as parent,id pairs; a parent is always an earlier node */
	buf_puts(b, ",\"paths\":[");
	for (size_t i = 1; i < a.tree.n && rc == TC_OK; i++) {
		buf_printf(b, "%s%zu,%u", i > 1 ? "," : "", a.tree.v[i].parent, (unsigned)a.tree.v[i].id);
		rc = see_id(h, a.tree.v[i].id, err);
		if ((i & 4095) == 0)
			spill(h, 0);
	}
	buf_puts(b, "],\"segs\":[");
	for (size_t k = 0; k < a.nsegs; k++) {
		buf_printf(b, "%s%llu,%llu,%zu", k ? "," : "", (unsigned long long)a.segs[k].from_ms,
		          (unsigned long long)a.segs[k].to_ms, a.segs[k].n);
		if ((k & 4095) == 0)
			spill(h, 0);
	}
	/* entries in segment order: a segment's are the next n */
	buf_puts(b, "],\"ent\":[");
	for (size_t e = 0; e < a.nent; e++) {
		buf_printf(b, "%s%u,%u,%llu", e ? "," : "", (unsigned)a.ent[e].path, (unsigned)a.ent[e].calls,
		          (unsigned long long)a.ent[e].ms);
		if ((e & 4095) == 0)
			spill(h, 0);
	}
	buf_puts(b, "],\"msgs\":[");
	for (size_t i = 0; i < a.nmsgs; i++) {
		buf_printf(b, "%s%llu,%llu,%zu,%zu", i ? "," : "", (unsigned long long)a.msgs[i].start_ms,
		          (unsigned long long)a.msgs[i].end_ms, a.msgs[i].seg0, a.msgs[i].seg1);
		if ((i & 4095) == 0)
			spill(h, 0);
	}
	buf_putc(b, ']');
	if (rc == TC_OK)
		rc = put_timeline(h, b, s, err);
	buf_putc(b, '}');
	tr_agg_dispose(&a);
	if (rc == TC_OK && b->err)
		rc = oom(err);
	spill(h, 1);
	return rc;
}

/* The flame graph of a stack, as SVG text appended as a JSON string. */
static int put_flame(tc_buf *b, const tc_stack *st, const tr_mapping *m, const char *title, tc_error *err)
{
	tr_tree t = { 0 };
	char *svg = NULL;
	size_t len = 0;
	FILE *f = NULL;
	int rc = tr_tree_from_stack(&t, st->items, st->len, err);
	if (rc == TC_OK)
		rc = tr_tree_sort(&t, TR_ORDER_CALL, err);
	if (rc == TC_OK && !(f = open_memstream(&svg, &len)))
		rc = oom(err);
	if (rc == TC_OK) {
		tr_flame_opts fo = { title, NULL, 900 };
		rc = tr_flame_write(f, &t, m, &fo, err);
	}
	if (f && fclose(f) && rc == TC_OK)
		rc = oom(err);
	if (rc == TC_OK) {
		/* the file's XML declaration does not belong inside a page */
		const char *s = svg;
		if (strncmp(s, "<?xml", 5) == 0 && strchr(s, '\n'))
			s = strchr(s, '\n') + 1;
		json_escape(b, s);
	}
	free(svg);
	tr_tree_dispose(&t);
	return rc;
}

int tr_html_add_report(tr_html *h, const json_val *report, const char *file, uint64_t line, tc_error *err)
{
	tc_stack st = { 0 };
	TRY(tr_report_stack(&st, report, file, line, err));
	int rc = TC_OK;
	tc_buf *b = sink(h, &h->reports);
	if (h->out && !h->nreports)
		buf_puts(b, "],\"reports\":[");
	if (h->nreports++)
		buf_putc(b, ',');
	buf_printf(b, "{\"line\":%llu,\"r\":", (unsigned long long)line);
	json_put(b, report);
	/* the stack as [depth, id, count, ms] rows, and its flame graph */
	buf_puts(b, ",\"stack\":[");
	for (size_t i = 0; i < st.len && rc == TC_OK; i++) {
		const tc_method_item *it = &st.items[i];
		buf_printf(b, "%s[%d,%u,%d,%lld]", i ? "," : "", (int)it->depth, (unsigned)it->id, (int)it->count,
		          (long long)it->dur_ms);
		rc = see_id(h, (uint32_t)it->id, err);
	}
	buf_putc(b, ']');
	const json_val *key = json_get(report, "stackKey");
	uint32_t *ids = NULL;
	size_t nids = 0, bad;
	if (rc == TC_OK && key && key->type == JSON_STR && tr_key_parse(&ids, &nids, key->s, key->len, &bad) == TC_OK) {
		buf_puts(b, ",\"key\":[");
		for (size_t i = 0; i < nids && rc == TC_OK; i++) {
			buf_printf(b, "%s%u", i ? "," : "", (unsigned)ids[i]);
			rc = see_id(h, ids[i], err);
		}
		buf_putc(b, ']');
	}
	free(ids);
	if (rc == TC_OK && st.len) {
		buf_puts(b, ",\"flame\":");
		const json_val *tag = json_get(report, "tag"), *detail = json_get(report, "detail");
		char title[160];
		snprintf(title, sizeof title, "%s %s (line %llu)", tag && tag->type == JSON_STR ? tag->s : "report",
		         detail && detail->type == JSON_STR ? detail->s : "", (unsigned long long)line);
		rc = put_flame(b, &st, h->m, title, err);
	}
	buf_putc(b, '}');
	tc_stack_dispose(&st);
	if (rc == TC_OK && b->err)
		rc = oom(err);
	spill(h, 1);
	return rc;
}

static const char mark[] = "<!--TC-DATA-->";

/* The page up to the data's mark, and the data up to its first thread. */
static int put_head(tr_html *h, FILE *out, tc_error *err)
{
	const char *at = strstr(tr_report_page, mark);
	if (!at)
		return tc_set(err, TC_EINVAL, "html: the page template has no %s", mark);
	fwrite(tr_report_page, 1, (size_t)(at - tr_report_page), out);
	tc_buf d;
	buf_init(&d);
	buf_puts(&d, "{\"title\":");
	buf_putn(&d, (const char *)h->title.str, h->title.len);
	buf_puts(&d, ",\"source\":");
	buf_putn(&d, (const char *)h->source.str, h->source.len);
	if (h->resolution_ms)
		buf_printf(&d, ",\"resolutionMs\":%u", (unsigned)h->resolution_ms);
	buf_printf(&d, ",\"dispatch\":%u,\"threads\":[", (unsigned)TC_ID_DISPATCH);
	int rc = d.err ? oom(err) : TC_OK;
	if (rc == TC_OK)
		put_data(out, (const char *)d.str, d.len);
	buf_free(&d);
	return rc;
}

int tr_html_begin(tr_html *h, FILE *out, tc_error *err)
{
	if (h->out || h->nthreads || h->nreports)
		return tc_set(err, TC_EINVAL, "html: streaming begins before the first thread, once");
	TRY(put_head(h, out, err));
	h->out = out;
	return TC_OK;
}

void tr_html_set_resolution(tr_html *h, uint32_t ms)
{
	h->resolution_ms = ms;
}

int tr_html_write(tr_html *h, FILE *out, tc_error *err)
{
	int rc = TC_OK;
	if (h->out && h->out != out)
		return tc_set(err, TC_EINVAL, "html: streamed to another file");
	if (!h->out) {
		rc = put_head(h, out, err);
		if (rc == TC_OK && (h->threads.err || h->reports.err))
			rc = oom(err);
		if (rc == TC_OK) {
			put_data(out, (const char *)h->threads.str, h->threads.len);
			fputs("],\"reports\":[", out);
			put_data(out, (const char *)h->reports.str, h->reports.len);
		}
	} else {
		if (h->chunk.err)
			rc = oom(err);
		if (rc == TC_OK && !h->nreports)
			fputs("],\"reports\":[", out);
	}
	if (rc != TC_OK)
		return rc;
	tc_buf d;
	buf_init(&d);
	buf_puts(&d, "],\"names\":{");
	if (h->nids)
		qsort(h->ids, h->nids, sizeof *h->ids, cmp_u32);
	tc_buf name;
	buf_init(&name);
	for (size_t i = 0, k = 0; i < h->nids; i++) {
		if (i && h->ids[i] == h->ids[i - 1])
			continue;
		name.len = 0;
		tr_name_put(&name, h->m, h->ids[i], TR_NAME_FULL);
		buf_printf(&d, "%s\"%u\":", k++ ? "," : "", (unsigned)h->ids[i]);
		json_escape(&d, name.str ? (const char *)name.str : "");
	}
	buf_puts(&d, "}}");
	if (d.err || name.err)
		rc = oom(err);
	if (rc == TC_OK) {
		put_data(out, (const char *)d.str, d.len);
		fputs(strstr(tr_report_page, mark) + sizeof mark - 1, out);
	}
	buf_free(&d);
	buf_free(&name);
	return rc;
}

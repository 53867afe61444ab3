/* trace_cmp_html.c: see trace_cmp_html.h. */
#include "trace_cmp_html.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "method_mapping.h"
#include "compare_page.h"

void tr_cmp_html_init(tr_cmp_html *h, size_t max_spans)
{
	memset(h, 0, sizeof *h);
	buf_init(&h->recs[0]);
	buf_init(&h->recs[1]);
	buf_init(&h->name);
	h->max_spans = max_spans;
}

void tr_cmp_html_dispose(tr_cmp_html *h)
{
	buf_free(&h->recs[0]);
	buf_free(&h->recs[1]);
	buf_free(&h->name);
	free(h->ids[0]);
	free(h->ids[1]);
	memset(h, 0, sizeof *h);
}

static int oom(tc_error *err)
{
	return tc_set(err, TC_ENOMEM, "compare --html: out of memory");
}

static int use_id(tr_cmp_html *h, int side, uint32_t id)
{
	if (h->nids[side] == h->capids[side]) {
		size_t cap = h->capids[side] ? h->capids[side] * 2 : 256;
		uint32_t *v = realloc(h->ids[side], cap * sizeof *v);
		if (!v)
			return -1;
		h->ids[side] = v;
		h->capids[side] = cap;
	}
	h->ids[side][h->nids[side]++] = id;
	return 0;
}

int tr_cmp_html_add(tr_cmp_html *h, int side, const char *file, const tr_spans *s, const tr_mapping *m, tc_error *err)
{
	tc_buf *b = &h->recs[side];
	if (h->nrec[side]++)
		buf_putc(b, ',');
	buf_puts(b, "{\"file\":");
	json_escape(b, file);
	buf_puts(b, ",\"msgs\":[");
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		const tr_span *sp = &s->v[i];
		if (sp->id != TC_ID_DISPATCH)
			continue;
		/* its handler: the first method dispatchMessage called (as the table's rows) */
		h->name.len = 0;
		if (i + 1 < s->n && s->v[i + 1].parent == i)
			tr_name_put(&h->name, m, s->v[i + 1].id, TR_NAME_FULL);
		else
			buf_puts(&h->name, "(no method)");
		buf_printf(b, "%s{\"h\":", k++ ? "," : "");
		json_escape(b, h->name.str ? h->name.str : "");
		buf_printf(b, ",\"t\":%llu,\"d\":%llu,\"s\":[", (unsigned long long)sp->start_ms,
		           (unsigned long long)(sp->end_ms - sp->start_ms));
		size_t j = i + 1, n = 0;
		for (; j < s->n && s->v[j].depth > sp->depth; j++)
			n++;
		if (h->spans[side] + n > h->max_spans) {
			h->cut[side]++;
		} else {
			for (size_t q = i + 1; q < j; q++) {
				const tr_span *c = &s->v[q];
				buf_printf(b, "%s%zu,%llu,%llu,%u", q > i + 1 ? "," : "", c->depth - sp->depth - 1,
				           (unsigned long long)(c->start_ms - sp->start_ms),
				           (unsigned long long)(c->end_ms - c->start_ms), (unsigned)c->id);
				if (use_id(h, side, c->id))
					return oom(err);
			}
			h->spans[side] += n;
		}
		buf_puts(b, "]}");
	}
	buf_puts(b, "]}");
	return b->err || h->name.err ? oom(err) : TC_OK;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

static void put_data(FILE *out, const tc_buf *s)
{
	const char *p = s->str ? s->str : "", *end = p + s->len;
	while (p < end) {
		const char *lt = memchr(p, '<', (size_t)(end - p));
		size_t n = lt ? (size_t)(lt - p) : (size_t)(end - p);
		fwrite(p, 1, n, out);
		if (!lt)
			break;
		fputs("\\u003c", out); /* no "</script>" inside the script */
		p = lt + 1;
	}
}

static const char *const verdict_name[] = { "slower", "faster", "unjudged", "same", "noise" };

int tr_cmp_html_write(FILE *out, tr_cmp_html *h, const tr_cmp *c, const tr_cmp_info *info, tr_mapping *const m[2],
                      const char *title, tc_error *err)
{
	tc_buf d;
	buf_init(&d);
	buf_puts(&d, "{\"title\":");
	json_escape(&d, title ? title : "tc-trace compare");
	buf_puts(&d, ",\"kinds\":[");
	size_t k = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const tr_cmp_row *r = &c->rows[i];
		if (r->kind != TR_CMP_MESSAGE)
			continue;
		const tr_cmp_result *t = &r->r[0];
		buf_printf(&d, "%s{\"key\":", k++ ? "," : "");
		json_escape(&d, r->key);
		buf_printf(&d, ",\"aMs\":%.3f,\"bMs\":%.3f,\"deltaMs\":%.3f,\"aCalls\":%.3f,\"bCalls\":%.3f,\"verdict\":\"%s\"}",
		           t->mean[0], t->mean[1], t->delta_ms, r->calls[0], r->calls[1], verdict_name[t->verdict]);
	}
	buf_puts(&d, "],\"sides\":[");
	for (int s = 0; s < 2; s++) {
		char id[MM_BUILD_ID_HEX + 8];
		if (info->build[s])
			mm_build_id_hex(info->build[s], id);
		else
			strcpy(id, "unknown");
		buf_printf(&d, "%s{\"label\":\"%c\",\"build\":\"%s\",\"mapping\":", s ? "," : "", 'A' + s, id);
		json_escape(&d, info->mapping[s]);
		buf_printf(&d, ",\"cut\":%zu,\"recs\":[", h->cut[s]);
		if (h->recs[s].len)
			buf_putn(&d, h->recs[s].str, h->recs[s].len);
		buf_puts(&d, "],\"names\":{");
		if (h->nids[s])
			qsort(h->ids[s], h->nids[s], sizeof *h->ids[s], cmp_u32);
		for (size_t i = 0, n = 0; i < h->nids[s]; i++) {
			if (i && h->ids[s][i] == h->ids[s][i - 1])
				continue;
			h->name.len = 0;
			tr_name_put(&h->name, m[s], h->ids[s][i], TR_NAME_FULL);
			buf_printf(&d, "%s\"%u\":", n++ ? "," : "", (unsigned)h->ids[s][i]);
			json_escape(&d, h->name.str ? h->name.str : "");
		}
		buf_puts(&d, "}}");
	}
	buf_puts(&d, "]}");
	int rc = TC_OK;
	if (d.err || h->name.err || h->recs[0].err || h->recs[1].err)
		rc = oom(err);
	if (rc == TC_OK) {
		static const char mark[] = "<!--TC-DATA-->";
		const char *at = strstr(tr_compare_page, mark);
		if (!at) {
			rc = tc_set(err, TC_EINVAL, "compare --html: the page template has no %s", mark);
		} else {
			fwrite(tr_compare_page, 1, (size_t)(at - tr_compare_page), out);
			put_data(out, &d);
			fputs(at + sizeof mark - 1, out);
			if (ferror(out))
				rc = tc_set(err, TC_EIO, "compare --html: write error");
		}
	}
	buf_free(&d);
	return rc;
}

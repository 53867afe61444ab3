/* trace_compare.c: see trace_compare.h. */
#include "trace_compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "method_mapping.h"
#include "trace_index.h"

static const char *const kind_name[TR_CMP_KINDS] = { "method", "message", "section" };
static const char *const metric_name[2] = { "total", "self" };
static const char *const verdict_name[] = { "slower", "faster", "unjudged", "same", "noise" };

void tr_cmp_dispose(tr_cmp *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].key);
		free(c->rows[i].v);
	}
	free(c->rows);
	tr_index_dispose(&c->index);
	free(c->acc);
	free(c->active);
	free(c->touched);
	free(c->open);
	free(c->kids);
	memset(c, 0, sizeof *c);
}

int tr_cmp_init(tr_cmp *c, size_t na, size_t nb, tc_error *err)
{
	memset(c, 0, sizeof *c);
	c->n[0] = na;
	c->n[1] = nb;
	c->nmax = na > nb ? na : nb;
	c->acc = calloc((size_t)(TC_ID_MAX + 1) * 3, sizeof *c->acc);
	c->active = calloc(TC_ID_MAX + 1, sizeof *c->active);
	c->touched = malloc((TC_ID_MAX + 1) * sizeof *c->touched);
	if (!c->acc || !c->active || !c->touched || tr_index_init(&c->index, 1024, err) != TC_OK) {
		tr_cmp_dispose(c);
		return tc_set(err, TC_ENOMEM, "compare: out of memory");
	}
	return TC_OK;
}

static uint64_t hash(tr_cmp_kind kind, const char *key)
{
	return tr_hash_str(tr_hash_byte(TR_HASH_SEED, (unsigned char)kind), key);
}

static uint64_t row_hash(const void *ctx, size_t r)
{
	const tr_cmp_row *rows = ctx;
	return hash(rows[r].kind, rows[r].key);
}

/* The row of (kind, key), made if new; *out its index. */
static int row_of(tr_cmp *c, tr_cmp_kind kind, const char *key, size_t *out, tc_error *err)
{
	size_t i = tr_index_slot(&c->index, hash(kind, key)), k;
	for (; (k = c->index.slots[i]) != TR_INDEX_EMPTY; i = tr_index_next(&c->index, i))
		if (c->rows[k].kind == kind && strcmp(c->rows[k].key, key) == 0) {
			*out = k;
			return TC_OK;
		}
	if (c->nrows == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		tr_cmp_row *v = realloc(c->rows, cap * sizeof *v);
		if (!v)
			return tc_set(err, TC_ENOMEM, "compare: out of memory");
		c->rows = v;
		c->cap = cap;
	}
	tr_cmp_row *r = &c->rows[c->nrows];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->key = malloc(strlen(key) + 1);
	r->v = calloc(2 * TR_CMP_FIGURES * (c->nmax ? c->nmax : 1), sizeof *r->v);
	if (!r->key || !r->v) {
		free(r->key);
		free(r->v);
		return tc_set(err, TC_ENOMEM, "compare: out of memory");
	}
	strcpy(r->key, key);
	*out = c->nrows++;
	return tr_index_put(&c->index, i, *out, row_hash, c->rows, err);
}

static double *fig(const tr_cmp *c, const tr_cmp_row *r, int side, int f)
{
	return &r->v[((size_t)side * TR_CMP_FIGURES + (size_t)f) * c->nmax];
}

void tr_cmp_begin(tr_cmp *c, int side, size_t rec)
{
	c->side = side;
	c->rec = rec;
}

static int add_to(tr_cmp *c, tr_cmp_kind kind, const char *key, double calls, double total, double self,
                  tc_error *err)
{
	size_t ri = 0;
	int rc = row_of(c, kind, key, &ri, err);
	if (rc != TC_OK)
		return rc;
	tr_cmp_row *r = &c->rows[ri];
	fig(c, r, c->side, TR_CMP_CALLS)[c->rec] += calls;
	fig(c, r, c->side, TR_CMP_TOTAL)[c->rec] += total;
	fig(c, r, c->side, TR_CMP_SELF)[c->rec] += self;
	return TC_OK;
}

static void name_of(tc_buf *b, const tr_mapping *m, uint32_t id)
{
	b->len = 0;
	tr_name_put(b, m, id, TR_NAME_FULL);
}

int tr_cmp_add_spans(tr_cmp *c, const tr_spans *s, const tr_mapping *m, tc_error *err)
{
	if (s->n > c->open_cap) {
		size_t cap = s->n;
		size_t *o = realloc(c->open, cap * sizeof *o);
		if (o)
			c->open = o;
		uint64_t *k = realloc(c->kids, cap * sizeof *k);
		if (k)
			c->kids = k;
		if (!o || !k)
			return tc_set(err, TC_ENOMEM, "compare: out of memory");
		c->open_cap = c->kids_cap = cap;
	}
	for (size_t i = 0; i < s->n; i++)
		c->kids[i] = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].parent != TR_NONE)
			c->kids[s->v[i].parent] += s->v[i].end_ms - s->v[i].start_ms;
	tc_buf name;
	buf_init(&name);
	int rc = TC_OK;
	size_t top = 0;
	for (size_t i = 0; i < s->n && rc == TC_OK; i++) {
		const tr_span *sp = &s->v[i];
		while (top > 0 && c->open[top - 1] != sp->parent)
			c->active[s->v[c->open[--top]].id]--;
		c->open[top++] = i;
		uint64_t d = sp->end_ms - sp->start_ms, self = d - c->kids[i];
		if (sp->id == TC_ID_DISPATCH) {
			/* a message, by its handler: the first method it called */
			size_t first = i + 1 < s->n && s->v[i + 1].parent == i ? i + 1 : TR_NONE;
			if (first == TR_NONE) {
				name.len = 0;
				buf_puts(&name, "(no method)");
			} else {
				name_of(&name, m, s->v[first].id);
			}
			if (name.err)
				rc = tc_set(err, TC_ENOMEM, "compare: out of memory");
			else
				rc = add_to(c, TR_CMP_MESSAGE, name.str, 1, (double)d, (double)self, err);
			c->active[sp->id]++;
			continue;
		}
		uint64_t *a = &c->acc[(size_t)sp->id * 3];
		if (a[0]++ == 0)
			c->touched[c->ntouched++] = sp->id;
		if (c->active[sp->id]++ == 0)
			a[1] += d;
		a[2] += self;
	}
	while (top > 0)
		c->active[s->v[c->open[--top]].id]--;
	/* sections by name, their time (they have no children among the methods) */
	for (size_t i = 0; i < s->n_sect && rc == TC_OK; i++) {
		const tr_span *sp = &s->sect[i];
		name_of(&name, m, sp->id);
		if (name.err)
			rc = tc_set(err, TC_ENOMEM, "compare: out of memory");
		else
			rc = add_to(c, TR_CMP_SECTION, name.str, 1, (double)(sp->end_ms - sp->start_ms),
			            (double)(sp->end_ms - sp->start_ms), err);
	}
	buf_free(&name);
	return rc;
}

int tr_cmp_end(tr_cmp *c, const tr_mapping *m, tc_error *err)
{
	tc_buf name;
	buf_init(&name);
	int rc = TC_OK;
	for (size_t k = 0; k < c->ntouched; k++) {
		uint32_t id = c->touched[k];
		uint64_t *a = &c->acc[(size_t)id * 3];
		if (rc == TC_OK) {
			name_of(&name, m, id);
			if (name.err)
				rc = tc_set(err, TC_ENOMEM, "compare: out of memory");
			else
				rc = add_to(c, TR_CMP_METHOD, name.str, (double)a[0], (double)a[1], (double)a[2], err);
		}
		a[0] = a[1] = a[2] = 0;
	}
	c->ntouched = 0;
	buf_free(&name);
	return rc;
}

static double mean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

const tr_cmp_result *tr_cmp_by(const tr_cmp *c, const tr_cmp_row *row)
{
	return &row->r[row->kind == TR_CMP_METHOD && c->o.by == TR_CMP_BY_SELF];
}

static int group(const tr_cmp_result *r)
{
	switch (r->verdict) {
	case TR_CMP_SLOWER: return 0;
	case TR_CMP_UNJUDGED: return r->delta_ms > 0 ? 1 : 3;
	case TR_CMP_FASTER: return 2;
	case TR_CMP_SAME: return 4;
	default: return 5;
	}
}

static const tr_cmp *sort_ctx; /* qsort has no user pointer (C11) */

static int by_finding(const void *x, const void *y)
{
	const tr_cmp_row *a = x, *b = y;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	const tr_cmp_result *ra = tr_cmp_by(sort_ctx, a), *rb = tr_cmp_by(sort_ctx, b);
	int ga = group(ra), gb = group(rb);
	if (ga != gb)
		return ga < gb ? -1 : 1;
	double da = fabs(ra->delta_ms), db = fabs(rb->delta_ms);
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->key, b->key);
}

int tr_cmp_finish(tr_cmp *c, const tr_cmp_opts *o, tc_error *err)
{
	c->o = *o;
	if (c->o.tick_ms <= 0)
		c->o.tick_ms = 5;
	if (c->o.alpha <= 0)
		c->o.alpha = 0.01;
	if (c->o.conf <= 0)
		c->o.conf = 0.95;
	int judged = c->n[0] >= 2 && c->n[1] >= 2;
	double *p = malloc((c->nrows ? c->nrows : 1) * sizeof *p);
	size_t *which = malloc((c->nrows ? c->nrows : 1) * sizeof *which);
	if (!p || !which) {
		free(p);
		free(which);
		return tc_set(err, TC_ENOMEM, "compare: out of memory");
	}
	int rc = TC_OK;
	memset(c->tested, 0, sizeof c->tested);
	for (size_t i = 0; i < c->nrows; i++) {
		tr_cmp_row *r = &c->rows[i];
		double ca = mean(fig(c, r, 0, TR_CMP_CALLS), c->n[0]), cb = mean(fig(c, r, 1, TR_CMP_CALLS), c->n[1]);
		r->calls[0] = ca;
		r->calls[1] = cb;
		r->only = ca == 0 ? 2 : cb == 0 ? 1 : 0;
		double calls = ca > cb ? ca : cb;
		for (int k = 0; k < 2; k++) {
			int f = k ? TR_CMP_SELF : TR_CMP_TOTAL;
			tr_cmp_result *res = &r->r[k];
			const double *a = fig(c, r, 0, f), *b = fig(c, r, 1, f);
			res->mean[0] = mean(a, c->n[0]);
			res->mean[1] = mean(b, c->n[1]);
			res->delta_ms = res->mean[1] - res->mean[0];
			res->rel = res->mean[0] > 0 ? res->delta_ms / res->mean[0] : res->delta_ms ? HUGE_VAL : 0;
			res->floor_ms = c->o.tick_ms * (calls > 1 ? calls : 1);
			res->test.p = 1;
			res->p_adj = 1;
			if (fabs(res->delta_ms) < res->floor_ms) {
				res->verdict = TR_CMP_NOISE;
				continue;
			}
			res->verdict = judged ? TR_CMP_SAME : TR_CMP_UNJUDGED;
			if (judged && (tr_mwu_test(a, c->n[0], b, c->n[1], &res->test) ||
			               tr_hl_shift(a, c->n[0], b, c->n[1], c->o.conf, &res->shift, &res->lo, &res->hi)))
				rc = tc_set(err, TC_ENOMEM, "compare: out of memory");
		}
	}
	/* Holm per kind and metric, over the rows past the floor */
	for (int kind = 0; kind < TR_CMP_KINDS && judged && rc == TC_OK; kind++)
		for (int k = 0; k < 2 && rc == TC_OK; k++) {
			size_t n = 0;
			for (size_t i = 0; i < c->nrows; i++)
				if (c->rows[i].kind == (tr_cmp_kind)kind && c->rows[i].r[k].verdict == TR_CMP_SAME) {
					which[n] = i;
					p[n++] = c->rows[i].r[k].test.p;
				}
			c->tested[kind][k] = n;
			if (tr_holm(p, n)) {
				rc = tc_set(err, TC_ENOMEM, "compare: out of memory");
				break;
			}
			for (size_t j = 0; j < n; j++) {
				tr_cmp_result *res = &c->rows[which[j]].r[k];
				res->p_adj = p[j];
				if (p[j] < c->o.alpha)
					res->verdict = res->delta_ms > 0 ? TR_CMP_SLOWER : TR_CMP_FASTER;
			}
		}
	free(p);
	free(which);
	if (rc == TC_OK && c->nrows) {
		sort_ctx = c;
		qsort(c->rows, c->nrows, sizeof *c->rows, by_finding);
		sort_ctx = NULL;
		/* the index points at rows by number: sorting moves them */
		tr_index_dispose(&c->index);
	}
	return rc;
}

/* ---- output ---- */

static void put_rel(char *buf, size_t cap, double rel)
{
	if (rel == HUGE_VAL)
		snprintf(buf, cap, "new");
	else if (rel == 0)
		snprintf(buf, cap, "0");
	else
		snprintf(buf, cap, "%+.0f", rel * 100);
}

static void put_p(char *buf, size_t cap, const tr_cmp_result *r)
{
	if (r->verdict == TR_CMP_NOISE || r->verdict == TR_CMP_UNJUDGED)
		snprintf(buf, cap, "-");
	else if (r->p_adj < 0.0001)
		snprintf(buf, cap, "%.1e", r->p_adj);
	else
		snprintf(buf, cap, "%.4f", r->p_adj);
}

static void put_build(char *buf, uint64_t id)
{
	if (id)
		mm_build_id_hex(id, buf);
	else
		strcpy(buf, "unknown");
}

/* the confidence statement of a finding */
static void statement(tc_buf *b, const tr_cmp *c, const tr_cmp_row *row, const tr_cmp_result *r, int k)
{
	double share = (r->test.effect + 1) / 2; /* P(B > A) + P(B = A)/2 */
	buf_printf(b, "%s %s: %s %+.1f ms per recording (%.1f -> %.1f", kind_name[row->kind], row->key,
	           metric_name[k], r->delta_ms, r->mean[0], r->mean[1]);
	char rel[32];
	put_rel(rel, sizeof rel, r->rel);
	buf_printf(b, ", %s%%); B %s A in %.0f%% of the %zu x %zu pairs of recordings (Cliff's delta %+.2f); "
	              "Mann-Whitney U = %.1f, p = %.2g (%s), %.2g after Holm's correction over %zu; shift %+.1f ms, "
	              "%.0f%% interval %+.1f..%+.1f",
	           rel, r->delta_ms > 0 ? "above" : "below", 100 * (r->delta_ms > 0 ? share : 1 - share), c->n[0],
	           c->n[1], r->test.effect, r->test.u, r->test.p, r->test.exact ? "exact" : "normal approximation",
	           r->p_adj, c->tested[row->kind][k], r->shift, c->o.conf * 100, r->lo, r->hi);
}

int tr_cmp_write_text(FILE *out, const tr_cmp *c, const tr_cmp_info *info, size_t top, tc_error *err)
{
	int judged = c->n[0] >= 2 && c->n[1] >= 2;
	char ba[MM_BUILD_ID_HEX + 8], bb[MM_BUILD_ID_HEX + 8];
	put_build(ba, info->build[0]);
	put_build(bb, info->build[1]);
	fprintf(out, "# tc-trace compare, by %s time: A = %zu recording%s of build %s (%s), B = %zu of build %s (%s)\n",
	        metric_name[c->o.by == TR_CMP_BY_SELF], c->n[0], c->n[0] == 1 ? "" : "s", ba, info->mapping[0], c->n[1], bb, info->mapping[1]);
	fprintf(out, "# ms are means per recording; the clock ticks every %g ms: a difference under one tick per call is "
	             "noise\n", c->o.tick_ms);
	if (judged) {
		fprintf(out, "# significance: Mann-Whitney U of the per-recording figures, two-sided, Holm's correction "
		             "per table, alpha %g; p is Holm's\n", c->o.alpha);
		double minp = tr_mwu_min_p(c->n[0], c->n[1]);
		if (minp * 1 >= c->o.alpha)
			fprintf(out, "# note: with %zu and %zu recordings the smallest p the test can give is %.2g, not below "
			             "alpha: nothing can be significant; record more\n", c->n[0], c->n[1], minp);
	} else {
		fprintf(out, "# one recording on a side: significance cannot be judged (record at least 2 per side, "
		             "better 5 or more); the rows are differences only\n");
	}
	static const char *const title[TR_CMP_KINDS] = { "methods", "messages (by handler)", "sections" };
	size_t i = 0;
	for (int kind = 0; kind < TR_CMP_KINDS; kind++) {
		size_t n = 0, shown = 0, slower = 0, faster = 0;
		/* a message's or section's own time is its total: by total */
		int by = kind == TR_CMP_METHOD && c->o.by == TR_CMP_BY_SELF;
		for (size_t j = i; j < c->nrows && c->rows[j].kind == (tr_cmp_kind)kind; j++) {
			n++;
			slower += tr_cmp_by(c, &c->rows[j])->verdict == TR_CMP_SLOWER;
			faster += tr_cmp_by(c, &c->rows[j])->verdict == TR_CMP_FASTER;
		}
		if (!n)
			continue;
		fprintf(out, "\n## %s: %zu", title[kind], n);
		if (judged)
			fprintf(out, ", %zu significantly slower, %zu faster (of %zu past the noise floor)", slower, faster,
			        c->tested[kind][by]);
		fprintf(out, "\n%-9s %9s %6s %9s %9s %9s %8s %8s %9s %6s  %s\n", "verdict", by ? "d self" : "d total", "d %",
		        by ? "A self" : "A total", by ? "B self" : "B total", by ? "d total" : "d self", "A calls",
		        "B calls", "p", "effect", kind == TR_CMP_METHOD ? "method" : kind == TR_CMP_MESSAGE ? "handler" : "section");
		for (size_t j = i; j < i + n; j++) {
			const tr_cmp_row *row = &c->rows[j];
			const tr_cmp_result *r = tr_cmp_by(c, row), *o = &row->r[!by];
			if (top && shown == top) {
				fprintf(out, "(%zu more rows; --top 0 shows all)\n", n - shown);
				break;
			}
			if (r->mean[0] == 0 && r->mean[1] == 0 && o->mean[0] == 0 && o->mean[1] == 0 &&
			    row->calls[0] == row->calls[1])
				continue; /* nothing measured, the same calls: not worth a line */
			char rel[32], p[32], eff[16];
			put_rel(rel, sizeof rel, r->rel);
			put_p(p, sizeof p, r);
			if (r->verdict == TR_CMP_NOISE || r->verdict == TR_CMP_UNJUDGED)
				snprintf(eff, sizeof eff, "-");
			else
				snprintf(eff, sizeof eff, "%+.2f", r->test.effect);
			fprintf(out, "%-9s %+9.1f %6s %9.1f %9.1f %+9.1f %8.1f %8.1f %9s %6s  %s%s\n", verdict_name[r->verdict],
			        r->delta_ms, rel, r->mean[0], r->mean[1], o->delta_ms, row->calls[0], row->calls[1], p, eff,
			        row->key, row->only == 1 ? "  [A only]" : row->only == 2 ? "  [B only]" : "");
			shown++;
		}
		i += n;
	}
	tc_buf b;
	buf_init(&b);
	size_t said = 0;
	for (size_t j = 0; j < c->nrows; j++) {
		const tr_cmp_result *r = tr_cmp_by(c, &c->rows[j]);
		if (r->verdict != TR_CMP_SLOWER && r->verdict != TR_CMP_FASTER)
			continue;
		if (!said++)
			fputs("\n## findings\n", out);
		b.len = 0;
		statement(&b, c, &c->rows[j], r, r == &c->rows[j].r[1]);
		if (b.err)
			break;
		fprintf(out, "%s\n", b.str);
	}
	if (judged && !said)
		fputs("\n## findings\nnone: no difference is both past the noise floor and significant\n", out);
	int oom = b.err;
	buf_free(&b);
	if (oom)
		return tc_set(err, TC_ENOMEM, "compare: out of memory");
	return ferror(out) ? tc_set(err, TC_EIO, "compare: write error") : TC_OK;
}

static void json_result(json *j, const tr_cmp *c, const tr_cmp_row *row, int k)
{
	const tr_cmp_result *r = &row->r[k];
	json_key(j, metric_name[k]);
	json_begin_object(j);
	json_kv_fixed(j, "aMs", r->mean[0], 3);
	json_kv_fixed(j, "bMs", r->mean[1], 3);
	json_kv_fixed(j, "deltaMs", r->delta_ms, 3);
	json_kv_double(j, "relative", r->rel == HUGE_VAL ? NAN : r->rel);
	json_kv_fixed(j, "noiseFloorMs", r->floor_ms, 3);
	json_kv_string(j, "verdict", verdict_name[r->verdict]);
	if (r->verdict != TR_CMP_NOISE && r->verdict != TR_CMP_UNJUDGED) {
		json_kv_double(j, "u", r->test.u);
		json_kv_double(j, "p", r->test.p);
		json_kv_bool(j, "exact", r->test.exact);
		json_kv_double(j, "pHolm", r->p_adj);
		json_kv_fixed(j, "cliffDelta", r->test.effect, 4);
		json_kv_fixed(j, "shiftMs", r->shift, 3);
		json_key(j, "shiftInterval");
		json_begin_array(j);
		json_fixed(j, r->lo, 3);
		json_fixed(j, r->hi, 3);
		json_end_array(j);
	}
	if (r->verdict == TR_CMP_SLOWER || r->verdict == TR_CMP_FASTER) {
		tc_buf b;
		buf_init(&b);
		statement(&b, c, row, r, k);
		json_kv_string(j, "statement", b.str ? b.str : "");
		if (b.err)
			j->sb.err = TC_ENOMEM;
		buf_free(&b);
	}
	json_end_object(j);
}

int tr_cmp_write_json(FILE *out, const tr_cmp *c, const tr_cmp_info *info, tc_error *err)
{
	json j;
	json_init_pretty(&j);
	json_begin_object(&j);
	json_kv_string(&j, "by", metric_name[c->o.by == TR_CMP_BY_SELF]);
	json_kv_double(&j, "tickMs", c->o.tick_ms);
	json_kv_double(&j, "alpha", c->o.alpha);
	int judged = c->n[0] >= 2 && c->n[1] >= 2;
	json_kv_bool(&j, "significanceJudged", judged);
	if (!judged)
		json_kv_string(&j, "significance", "cannot be judged: one recording on a side");
	for (int s = 0; s < 2; s++) {
		char id[MM_BUILD_ID_HEX + 8];
		put_build(id, info->build[s]);
		json_key(&j, s ? "b" : "a");
		json_begin_object(&j);
		json_kv_string(&j, "build", info->build[s] ? id : NULL);
		json_kv_string(&j, "mapping", info->mapping[s]);
		json_key(&j, "recordings");
		json_begin_array(&j);
		for (size_t k = 0; k < c->n[s]; k++)
			json_string(&j, info->files[s][k]);
		json_end_array(&j);
		json_end_object(&j);
	}
	json_key(&j, "rows");
	json_begin_array(&j);
	for (size_t i = 0; i < c->nrows; i++) {
		const tr_cmp_row *row = &c->rows[i];
		json_begin_object(&j);
		json_kv_string(&j, "kind", kind_name[row->kind]);
		json_kv_string(&j, "key", row->key);
		if (row->only)
			json_kv_string(&j, "only", row->only == 1 ? "a" : "b");
		json_kv_fixed(&j, "aCalls", row->calls[0], 3);
		json_kv_fixed(&j, "bCalls", row->calls[1], 3);
		json_result(&j, c, row, 0);
		json_result(&j, c, row, 1);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	int oom = j.sb.err;
	if (!oom && j.sb.len)
		fwrite(j.sb.str, 1, j.sb.len, out);
	json_dispose(&j);
	if (oom)
		return tc_set(err, TC_ENOMEM, "compare: out of memory");
	return ferror(out) ? tc_set(err, TC_EIO, "compare: write error") : TC_OK;
}

/* ---- the gate ---- */

int tr_cmp_gate_parse(tr_cmp_gate *g, const char *s)
{
	memset(g, 0, sizeof *g);
	g->text = s;
	if (strncmp(s, "self:", 5) == 0) {
		g->metric = TR_CMP_BY_SELF;
		s += 5;
	} else if (strncmp(s, "total:", 6) == 0) {
		g->metric = TR_CMP_BY_TOTAL;
		s += 6;
	} else {
		return -1;
	}
	int any = 0;
	while (*s) {
		if (*s == '+')
			s++;
		char *end;
		if (*s < '0' || *s > '9')
			return -1;
		double v = strtod(s, &end);
		if (end == s || !(v >= 0) || v > 1e12)
			return -1;
		if (*end == '%') {
			g->min_rel = v / 100;
			end++;
		} else if (strncmp(end, "ms", 2) == 0) {
			g->min_ms = v;
			end += 2;
		} else {
			return -1;
		}
		any = 1;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return any ? 0 : -1;
}

size_t tr_cmp_gate_check(const tr_cmp *c, const tr_cmp_gate *g, FILE *out, const char *prefix)
{
	size_t crossed = 0;
	int k = g->metric == TR_CMP_BY_SELF;
	for (size_t i = 0; i < c->nrows; i++) {
		const tr_cmp_row *row = &c->rows[i];
		const tr_cmp_result *r = &row->r[k];
		if (r->verdict != TR_CMP_SLOWER && r->verdict != TR_CMP_UNJUDGED)
			continue;
		if (r->delta_ms <= 0 || r->delta_ms < g->min_ms || (g->min_rel > 0 && r->rel < g->min_rel))
			continue;
		char rel[32];
		put_rel(rel, sizeof rel, r->rel);
		fprintf(out, "%s%s %s: %s %+.1f ms per recording (%s%%, %.1f -> %.1f), %s\n", prefix, kind_name[row->kind],
		        row->key, metric_name[k], r->delta_ms, rel, r->mean[0], r->mean[1],
		        r->verdict == TR_CMP_SLOWER ? "significant" : "significance not judged (one recording on a side)");
		crossed++;
	}
	return crossed;
}

/* trace_fleet.c: see trace_fleet.h. */
#include "trace_fleet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "method_mapping.h"
#include "trace_index.h"
#include "trace_report.h"

static const char *const verdict_often[] = { "more often", "less often", "same", "-" };
static const char *const verdict_slow[] = { "slower", "faster", "same", "-" };

void tr_fleet_dispose(tr_fleet *f)
{
	for (size_t i = 0; i < f->nrows; i++) {
		free(f->rows[i].detail);
		free(f->rows[i].key);
		free(f->rows[i].cost[0]);
		free(f->rows[i].cost[1]);
	}
	free(f->rows);
	tr_index_dispose(&f->index);
	buf_free(&f->key);
	memset(f, 0, sizeof *f);
}

int tr_fleet_init(tr_fleet *f, size_t files_a, size_t files_b, tc_error *err)
{
	memset(f, 0, sizeof *f);
	f->files[0] = files_a;
	f->files[1] = files_b;
	buf_init(&f->key);
	if (tr_index_init(&f->index, 1024, err) != TC_OK)
		return tc_set(err, TC_ENOMEM, "compare: out of memory");
	return TC_OK;
}

static uint64_t hash2(const char *detail, const char *key)
{
	return tr_hash_str(tr_hash_byte(tr_hash_str(TR_HASH_SEED, detail), 0xff), key);
}

static uint64_t row_hash(const void *ctx, size_t r)
{
	const tr_fleet_row *rows = ctx;
	return hash2(rows[r].detail, rows[r].key);
}

static char *dup(const char *s)
{
	char *d = malloc(strlen(s) + 1);
	if (d)
		strcpy(d, s);
	return d;
}

static int row_of(tr_fleet *f, const char *detail, const char *key, tr_fleet_row **out, tc_error *err)
{
	size_t i = tr_index_slot(&f->index, hash2(detail, key)), k;
	for (; (k = f->index.slots[i]) != TR_INDEX_EMPTY; i = tr_index_next(&f->index, i)) {
		tr_fleet_row *r = &f->rows[k];
		if (strcmp(r->detail, detail) == 0 && strcmp(r->key, key) == 0) {
			*out = r;
			return TC_OK;
		}
	}
	if (f->nrows == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		tr_fleet_row *v = realloc(f->rows, cap * sizeof *v);
		if (!v)
			return tc_set(err, TC_ENOMEM, "compare: out of memory");
		f->rows = v;
		f->cap = cap;
	}
	tr_fleet_row *r = &f->rows[f->nrows];
	memset(r, 0, sizeof *r);
	r->detail = dup(detail);
	r->key = dup(key);
	if (!r->detail || !r->key) {
		free(r->detail);
		free(r->key);
		return tc_set(err, TC_ENOMEM, "compare: out of memory");
	}
	*out = r;
	f->nrows++;
	return tr_index_put(&f->index, i, f->nrows - 1, row_hash, f->rows, err);
}

/* the first frame of a Java thread stack, "at a.B.c(B.java:1)" less its
 * "at " and its source position: LAG's key, which has no stackKey */
static void first_frame(tc_buf *b, const char *s, size_t n)
{
	const char *end = s + n;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\n'))
		s++;
	if (end - s > 3 && memcmp(s, "at ", 3) == 0)
		s += 3;
	const char *e = s;
	while (e < end && *e != '\n' && *e != '(')
		e++;
	buf_puts(b, "thread stack: ");
	buf_putn(b, s, (size_t)(e - s));
}

int tr_fleet_add(tr_fleet *f, int side, const json_val *report, const tr_mapping *m, const char *file, uint64_t line,
                 tc_error *err)
{
	const json_val *tag = json_get(report, "tag"), *detail = json_get(report, "detail");
	if (!tag || tag->type != JSON_STR || strcmp(tag->s, "Trace_EvilMethod") != 0) {
		f->other[side]++;
		return TC_OK;
	}
	f->reports[side]++;
	const json_val *key = json_get(report, "stackKey"), *ts = json_get(report, "threadStack"),
	               *cost = json_get(report, "cost");
	tc_buf *b = &f->key;
	b->len = 0;
	if (key && key->type == JSON_STR && key->len) {
		uint32_t *ids;
		size_t n, bad;
		int rc = tr_key_parse(&ids, &n, key->s, key->len, &bad);
		if (rc == TC_ENOMEM)
			return tc_set(err, rc, "compare: out of memory");
		if (rc != TC_OK)
			return tc_set(err, TC_EFORMAT, "%s:%llu: stackKey \"%.60s\", at byte %zu: expected \"methodId|\" repeated",
			              file, (unsigned long long)line, key->s, bad);
		for (size_t i = 0; i < n; i++) {
			tr_name_put(b, m, ids[i], TR_NAME_FULL);
			buf_putc(b, '|');
		}
		free(ids);
	} else if (ts && ts->type == JSON_STR && ts->len) {
		first_frame(b, ts->s, ts->len);
	} else {
		buf_puts(b, "(no stack)");
	}
	if (b->err)
		return tc_set(err, TC_ENOMEM, "compare: out of memory");
	tr_fleet_row *r = NULL;
	int rc = row_of(f, detail && detail->type == JSON_STR ? detail->s : "(no detail)", b->str, &r, err);
	if (rc != TC_OK)
		return rc;
	r->count[side]++;
	if (cost) {
		int64_t ms;
		if (!json_get_int(cost, &ms) || ms < 0)
			return tc_set(err, TC_EFORMAT, "%s:%llu: \"cost\" must be a whole number of ms, 0 or more", file,
			              (unsigned long long)line);
		if (r->ncost[side] == r->capcost[side]) {
			size_t cap = r->capcost[side] ? r->capcost[side] * 2 : 4;
			double *v = realloc(r->cost[side], cap * sizeof *v);
			if (!v)
				return tc_set(err, TC_ENOMEM, "compare: out of memory");
			r->cost[side] = v;
			r->capcost[side] = cap;
		}
		r->cost[side][r->ncost[side]++] = (double)ms;
	}
	return TC_OK;
}

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof *v, cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int group(const tr_fleet_row *r)
{
	if (r->often == TR_FLEET_UP)
		return 0;
	if (r->slow == TR_FLEET_UP)
		return 1;
	if (r->often == TR_FLEET_DOWN || r->slow == TR_FLEET_DOWN)
		return 2;
	return 3;
}

static int by_finding(const void *x, const void *y)
{
	const tr_fleet_row *a = x, *b = y;
	int ga = group(a), gb = group(b);
	if (ga != gb)
		return ga < gb ? -1 : 1;
	double da, db;
	if (ga == 1) {
		da = fabs(a->med[1] - a->med[0]);
		db = fabs(b->med[1] - b->med[0]);
	} else if (ga == 3) {
		da = (double)a->count[1];
		db = (double)b->count[1];
	} else {
		da = fabs(a->rate[1] - a->rate[0]);
		db = fabs(b->rate[1] - b->rate[0]);
	}
	if (da != db)
		return da > db ? -1 : 1;
	int c = strcmp(a->detail, b->detail);
	return c ? c : strcmp(a->key, b->key);
}

int tr_fleet_finish(tr_fleet *f, double alpha, double tick_ms, tc_error *err)
{
	f->alpha = alpha > 0 ? alpha : 0.01;
	f->tick_ms = tick_ms > 0 ? tick_ms : 5;
	size_t n = f->nrows ? f->nrows : 1;
	double *pr = malloc(n * sizeof *pr), *pc = malloc(n * sizeof *pc);
	size_t *wr = malloc(n * sizeof *wr), *wc = malloc(n * sizeof *wc);
	int rc = TC_OK;
	if (!pr || !pc || !wr || !wc)
		rc = tc_set(err, TC_ENOMEM, "compare: out of memory");
	size_t nr = 0, nc = 0;
	for (size_t i = 0; i < f->nrows && rc == TC_OK; i++) {
		tr_fleet_row *r = &f->rows[i];
		r->only = r->count[0] == 0 ? 2 : r->count[1] == 0 ? 1 : 0;
		for (int s = 0; s < 2; s++) {
			r->rate[s] = f->files[s] ? (double)r->count[s] / (double)f->files[s] : 0;
			r->med[s] = median(r->cost[s], r->ncost[s]);
		}
		r->p_rate = r->p_cost = 1;
		r->often = r->slow = TR_FLEET_UNTESTED;
		r->cost_test.p = 1;
		/* a rate from one report is not a finding whatever the test says */
		if (r->count[0] + r->count[1] >= 2) {
			r->often = TR_FLEET_SAME;
			wr[nr] = i;
			pr[nr++] = tr_rate_test((double)r->count[0], (double)f->files[0], (double)r->count[1],
			                        (double)f->files[1]);
		}
		if (r->ncost[0] >= 2 && r->ncost[1] >= 2 && fabs(r->med[1] - r->med[0]) >= f->tick_ms) {
			if (tr_mwu_test(r->cost[0], r->ncost[0], r->cost[1], r->ncost[1], &r->cost_test)) {
				rc = tc_set(err, TC_ENOMEM, "compare: out of memory");
				break;
			}
			r->slow = TR_FLEET_SAME;
			wc[nc] = i;
			pc[nc++] = r->cost_test.p;
		}
	}
	if (rc == TC_OK && (tr_holm(pr, nr) || tr_holm(pc, nc)))
		rc = tc_set(err, TC_ENOMEM, "compare: out of memory");
	if (rc == TC_OK) {
		f->tested_rate = nr;
		f->tested_cost = nc;
		for (size_t j = 0; j < nr; j++) {
			tr_fleet_row *r = &f->rows[wr[j]];
			r->p_rate = pr[j];
			if (pr[j] < f->alpha)
				r->often = r->rate[1] > r->rate[0] ? TR_FLEET_UP : TR_FLEET_DOWN;
		}
		for (size_t j = 0; j < nc; j++) {
			tr_fleet_row *r = &f->rows[wc[j]];
			r->p_cost = pc[j];
			if (pc[j] < f->alpha)
				r->slow = r->med[1] > r->med[0] ? TR_FLEET_UP : TR_FLEET_DOWN;
		}
		/* the slots point at rows by index: sorting moves them */
		qsort(f->rows, f->nrows, sizeof *f->rows, by_finding);
		tr_index_dispose(&f->index);
	}
	free(pr);
	free(pc);
	free(wr);
	free(wc);
	return rc;
}

/* ---- output ---- */

static void put_build(char *buf, uint64_t id)
{
	if (id)
		mm_build_id_hex(id, buf);
	else
		strcpy(buf, "unknown");
}

static void put_p(char *buf, size_t cap, double p, tr_fleet_verdict v)
{
	if (v == TR_FLEET_UNTESTED)
		snprintf(buf, cap, "-");
	else if (p < 0.0001)
		snprintf(buf, cap, "%.1e", p);
	else
		snprintf(buf, cap, "%.4f", p);
}

static void statement(tc_buf *b, const tr_fleet *f, const tr_fleet_row *r)
{
	buf_printf(b, "%s %s:", r->detail, r->key);
	int any = 0;
	if (r->often == TR_FLEET_UP || r->often == TR_FLEET_DOWN) {
		buf_printf(b, " %s%s: %zu reports from %zu files (%.3f per file) against %zu from %zu (%.3f), p = %.2g "
		              "after Holm's correction over %zu",
		           r->only == 2 ? "new, " : "", verdict_often[r->often], r->count[1], f->files[1], r->rate[1],
		           r->count[0], f->files[0], r->rate[0], r->p_rate, f->tested_rate);
		any = 1;
	}
	if (r->slow == TR_FLEET_UP || r->slow == TR_FLEET_DOWN)
		buf_printf(b, "%s %s: median cost %.0f ms against %.0f (%+.0f ms), B above A in %.0f%% of the pairs of "
		              "reports (Cliff's delta %+.2f), Mann-Whitney U p = %.2g after Holm's correction over %zu",
		           any ? ";" : "", verdict_slow[r->slow], r->med[1], r->med[0], r->med[1] - r->med[0],
		           100 * (r->cost_test.effect + 1) / 2, r->cost_test.effect, r->p_cost, f->tested_cost);
}

int tr_fleet_write_text(FILE *out, const tr_fleet *f, const tr_fleet_info *info, size_t top, tc_error *err)
{
	char ba[MM_BUILD_ID_HEX + 8], bb[MM_BUILD_ID_HEX + 8];
	put_build(ba, info->build[0]);
	put_build(bb, info->build[1]);
	fprintf(out, "# tc-trace compare of reports: A = %zu report file%s of build %s (%s), B = %zu of build %s (%s)\n",
	        f->files[0], f->files[0] == 1 ? "" : "s", ba, info->mapping[0], f->files[1], bb, info->mapping[1]);
	fprintf(out, "# Trace_EvilMethod reports: A %zu, B %zu (other tags, not compared: A %zu, B %zu); a row is a "
	             "detail and a stack (its stackKey with names, or a LAG's first thread-stack frame)\n",
	        f->reports[0], f->reports[1], f->other[0], f->other[1]);
	fprintf(out, "# how often: reports per file (a file is a device), the exact test of two rates; how slow: the "
	             "median cost, Mann-Whitney U of the costs (medians a %g ms tick apart or more); Holm's correction "
	             "per column, alpha %g\n", f->tick_ms, f->alpha);
	size_t up = 0, slower = 0, fresh = 0;
	for (size_t i = 0; i < f->nrows; i++) {
		up += f->rows[i].often == TR_FLEET_UP;
		slower += f->rows[i].slow == TR_FLEET_UP;
		fresh += f->rows[i].only == 2;
	}
	fprintf(out, "\n## stacks: %zu, %zu significantly more often, %zu slower, %zu new (only in B)\n", f->nrows, up,
	        slower, fresh);
	fprintf(out, "%-10s %7s %7s %8s %8s %9s %-7s %7s %7s %8s %9s  %s\n", "often", "A n", "B n", "A /file", "B /file",
	        "p", "slow", "A med", "B med", "d med", "p", "detail stack");
	for (size_t i = 0; i < f->nrows; i++) {
		const tr_fleet_row *r = &f->rows[i];
		if (top && i == top) {
			fprintf(out, "(%zu more rows; --top 0 shows all)\n", f->nrows - i);
			break;
		}
		char p1[32], p2[32], dm[32];
		put_p(p1, sizeof p1, r->p_rate, r->often);
		put_p(p2, sizeof p2, r->p_cost, r->slow);
		if (r->ncost[0] && r->ncost[1])
			snprintf(dm, sizeof dm, "%+.0f", r->med[1] - r->med[0]);
		else
			snprintf(dm, sizeof dm, "-");
		fprintf(out, "%-10s %7zu %7zu %8.3f %8.3f %9s %-7s %7.0f %7.0f %8s %9s  %s %s%s\n", verdict_often[r->often],
		        r->count[0], r->count[1], r->rate[0], r->rate[1], p1, verdict_slow[r->slow], r->med[0], r->med[1], dm,
		        p2, r->detail, r->key, r->only == 1 ? "  [A only]" : r->only == 2 ? "  [B only: new]" : "");
	}
	if (fresh) {
		fputs("\n## new stacks (only in B), most reported first\n", out);
		for (size_t i = 0, shown = 0; i < f->nrows; i++) {
			const tr_fleet_row *r = &f->rows[i];
			if (r->only != 2)
				continue;
			if (top && shown++ == top) {
				fputs("(more; --top 0 shows all)\n", out);
				break;
			}
			fprintf(out, "%7zu reports (%.3f per file), median %.0f ms  %s %s\n", r->count[1], r->rate[1], r->med[1],
			        r->detail, r->key);
		}
	}
	tc_buf b;
	buf_init(&b);
	fputs("\n## findings\n", out);
	size_t said = 0;
	for (size_t i = 0; i < f->nrows && !b.err; i++) {
		const tr_fleet_row *r = &f->rows[i];
		if (r->often > TR_FLEET_DOWN && r->slow > TR_FLEET_DOWN)
			continue;
		b.len = 0;
		statement(&b, f, r);
		if (!b.err)
			fprintf(out, "%s\n", b.str);
		said++;
	}
	if (!said)
		fputs("none: no stack significantly more or less often, slower or faster\n", out);
	int oom = b.err;
	buf_free(&b);
	if (oom)
		return tc_set(err, TC_ENOMEM, "compare: out of memory");
	return ferror(out) ? tc_set(err, TC_EIO, "compare: write error") : TC_OK;
}

int tr_fleet_write_json(FILE *out, const tr_fleet *f, const tr_fleet_info *info, tc_error *err)
{
	json j;
	json_init_pretty(&j);
	json_begin_object(&j);
	json_kv_string(&j, "inputs", "reports");
	json_kv_double(&j, "tickMs", f->tick_ms);
	json_kv_double(&j, "alpha", f->alpha);
	for (int s = 0; s < 2; s++) {
		char id[MM_BUILD_ID_HEX + 8];
		put_build(id, info->build[s]);
		json_key(&j, s ? "b" : "a");
		json_begin_object(&j);
		json_kv_string(&j, "build", info->build[s] ? id : NULL);
		json_kv_string(&j, "mapping", info->mapping[s]);
		json_kv_int(&j, "reports", (int64_t)f->reports[s]);
		json_kv_int(&j, "otherTags", (int64_t)f->other[s]);
		json_key(&j, "files");
		json_begin_array(&j);
		for (size_t k = 0; k < f->files[s]; k++)
			json_string(&j, info->files[s][k]);
		json_end_array(&j);
		json_end_object(&j);
	}
	static const char *const v_often[] = { "moreOften", "lessOften", "same", "untested" };
	static const char *const v_slow[] = { "slower", "faster", "same", "untested" };
	json_key(&j, "stacks");
	json_begin_array(&j);
	tc_buf b;
	buf_init(&b);
	for (size_t i = 0; i < f->nrows; i++) {
		const tr_fleet_row *r = &f->rows[i];
		json_begin_object(&j);
		json_kv_string(&j, "detail", r->detail);
		json_kv_string(&j, "stack", r->key);
		if (r->only)
			json_kv_string(&j, "only", r->only == 1 ? "a" : "b");
		json_kv_int(&j, "aReports", (int64_t)r->count[0]);
		json_kv_int(&j, "bReports", (int64_t)r->count[1]);
		json_kv_fixed(&j, "aPerFile", r->rate[0], 4);
		json_kv_fixed(&j, "bPerFile", r->rate[1], 4);
		json_kv_string(&j, "often", v_often[r->often]);
		if (r->often != TR_FLEET_UNTESTED)
			json_kv_double(&j, "oftenPHolm", r->p_rate);
		if (r->ncost[0])
			json_kv_fixed(&j, "aMedianMs", r->med[0], 1);
		if (r->ncost[1])
			json_kv_fixed(&j, "bMedianMs", r->med[1], 1);
		json_kv_string(&j, "slow", v_slow[r->slow]);
		if (r->slow != TR_FLEET_UNTESTED) {
			json_kv_double(&j, "slowPHolm", r->p_cost);
			json_kv_fixed(&j, "cliffDelta", r->cost_test.effect, 4);
		}
		if (r->often <= TR_FLEET_DOWN || r->slow <= TR_FLEET_DOWN) {
			b.len = 0;
			statement(&b, f, r);
			json_kv_string(&j, "statement", b.str ? b.str : "");
			if (b.err)
				j.sb.err = TC_ENOMEM;
		}
		json_end_object(&j);
	}
	buf_free(&b);
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

/* trace_hot.c: see trace_hot.h. */
#include "trace_hot.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "method_mapping.h"

void tr_method_stats_dispose(tr_method_stats *st)
{
	free(st->v);
	memset(st, 0, sizeof *st);
}

int tr_method_stats_build(tr_method_stats *out, const tr_spans *s, tc_error *err)
{
	memset(out, 0, sizeof *out);
	/* by id while counting; open[]: the spans on the current path, active[id]:
	 * how many of them are of that id (a call inside another call of the same
	 * method adds no time to total_ms) */
	tr_method_stat *by_id = calloc(TC_ID_MAX + 1, sizeof *by_id);
	uint32_t *active = calloc(TC_ID_MAX + 1, sizeof *active);
	size_t *open = malloc((s->n ? s->n : 1) * sizeof *open);
	int rc = TC_OK;
	if (!by_id || !active || !open) {
		rc = tc_set(err, TC_ENOMEM, "hot: out of memory");
		goto cleanup;
	}
	size_t top = 0, n = 0;
	for (size_t i = 0; i < s->n; i++) {
		const tr_span *sp = &s->v[i];
		while (top > 0 && open[top - 1] != sp->parent)
			active[s->v[open[--top]].id]--;
		open[top++] = i;
		if (sp->id == TC_ID_DISPATCH) {
			active[sp->id]++;
			continue;
		}
		tr_method_stat *m = &by_id[sp->id];
		uint64_t d = sp->end_ms - sp->start_ms;
		n += m->calls == 0;
		m->id = sp->id;
		m->calls++;
		m->sum_ms += d;
		if (d > m->max_ms)
			m->max_ms = d;
		if (active[sp->id]++ == 0)
			m->total_ms += d;
	}
	out->v = malloc((n ? n : 1) * sizeof *out->v);
	if (!out->v) {
		rc = tc_set(err, TC_ENOMEM, "hot: out of memory");
		goto cleanup;
	}
	for (uint32_t id = 0; id <= TC_ID_MAX; id++)
		if (by_id[id].calls)
			out->v[out->n++] = by_id[id];
cleanup:
	free(by_id);
	free(active);
	free(open);
	return rc;
}

static int by_calls(const void *a, const void *b)
{
	const tr_method_stat *x = *(const tr_method_stat *const *)a, *y = *(const tr_method_stat *const *)b;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

int tr_hot_write(FILE *out, const tr_method_stats *st, const tr_mapping *m, const tr_hot_opts *o, size_t *listed,
                 size_t *unnamed, tc_error *err)
{
	*listed = *unnamed = 0;
	const tr_method_stat **hot = malloc((st->n ? st->n : 1) * sizeof *hot);
	if (!hot)
		return tc_set(err, TC_ENOMEM, "hot: out of memory");
	size_t n = 0;
	uint64_t calls = 0, all_calls = 0;
	for (size_t i = 0; i < st->n; i++) {
		const tr_method_stat *x = &st->v[i];
		all_calls += x->calls;
		if (x->calls < o->min_calls || x->sum_ms * 1000 >= o->max_avg_us * x->calls ||
		    (o->keep_ms && x->total_ms >= o->keep_ms))
			continue;
		if (!tr_mapping_lookup(m, x->id)) {
			(*unnamed)++;
			continue;
		}
		hot[n++] = x;
		calls += x->calls;
	}
	qsort(hot, n, sizeof *hot, by_calls);
	fprintf(out, "# tc-trace hot --min-calls %" PRIu64 " --max-avg-us %" PRIu64, o->min_calls, o->max_avg_us);
	if (o->keep_ms)
		fprintf(out, " --keep-ms %" PRIu64, o->keep_ms);
	fprintf(out,
	        "\n# methods called that often and that briefly on average: a block list for tc-instrument "
	        "--blocklist\n# from %s: %zu methods, %" PRIu64 " calls; listed: %zu methods, %" PRIu64
	        " calls (%.1f%%)\n",
	        o->source ? o->source : "(ring)", st->n, all_calls, n, calls,
	        all_calls ? 100.0 * (double)calls / (double)all_calls : 0.0);
	tc_buf rule;
	buf_init(&rule);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "# %" PRIu64 " calls, %" PRIu64 " ms in all, %.2f us a call, longest %" PRIu64 " ms\n",
		        hot[i]->calls, hot[i]->total_ms, 1000.0 * (double)hot[i]->sum_ms / (double)hot[i]->calls,
		        hot[i]->max_ms);
		const char *key = tr_mapping_lookup(m, hot[i]->id);
		rule.len = 0;
		mm_put_keepmethod(&rule, key, strlen(key));
		fwrite(rule.data, 1, rule.len, out);
	}
	bool oom = rule.err != 0;
	buf_free(&rule);
	free(hot);
	*listed = n;
	if (oom)
		return tc_set(err, TC_ENOMEM, "out of memory");
	if (ferror(out))
		return tc_set(err, TC_EIO, "write failed");
	return TC_OK;
}

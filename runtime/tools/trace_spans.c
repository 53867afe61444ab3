/* trace_spans.c: see trace_spans.h. Matching an out walks the open stack
 * from the top; a per-id count of open spans answers "no match" in O(1), and
 * every entry walked over is popped, so the whole build is linear. */
#include "trace_spans.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tr_spans_dispose(tr_spans *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

static int reserve(tr_spans *s, size_t want, tr_error *err)
{
	if (want <= s->cap)
		return TC_OK;
	size_t cap = s->cap ? s->cap : 64;
	while (cap < want) {
		if (cap > SIZE_MAX / 2 / sizeof *s->v)
			return tr_fail(err, TC_ENOMEM, "spans: out of memory");
		cap *= 2;
	}
	tr_span *v = realloc(s->v, cap * sizeof *v);
	if (!v)
		return tr_fail(err, TC_ENOMEM, "spans: out of memory");
	s->v = v;
	s->cap = cap;
	return TC_OK;
}

int tr_spans_build(tr_spans *out, const uint64_t *ev, size_t n, uint64_t end_ms, tr_error *err)
{
	tr_spans_dispose(out);
	size_t *open = malloc((n ? n : 1) * sizeof *open);         /* indexes of open spans */
	uint32_t *open_by_id = calloc(TC_ID_MAX + 1, sizeof *open_by_id); /* open spans per id */
	if (!open || !open_by_id) {
		free(open);
		free(open_by_id);
		return tr_fail(err, TC_ENOMEM, "spans: out of memory");
	}
	size_t top = 0;
	uint64_t last = 0;
	int any = 0, rc = TC_OK;
	for (size_t i = 0; i < n && rc == TC_OK; i++) {
		uint64_t v = ev[i];
		if (v == 0)
			continue;
		uint64_t t = tc_event_time(v);
		uint32_t id = tc_event_id(v);
		if (!any) {
			out->first_ms = t;
			any = 1;
		} else if (t < last) {
			t = last;
			out->stats.clamped++;
		}
		last = t;
		out->stats.events++;
		if (tc_event_is_in(v)) {
			if ((rc = reserve(out, out->n + 1, err)) != TC_OK)
				break;
			size_t parent = top ? open[top - 1] : TR_NONE;
			out->v[out->n] = (tr_span){ id, 0, t, t, parent, top, TR_NONE };
			if (id == TC_ID_DISPATCH)
				out->v[out->n].message = out->messages++;
			open[top++] = out->n++;
			open_by_id[id]++;
			continue;
		}
		if (open_by_id[id] == 0) {
			out->stats.dropped_outs++;
			continue;
		}
		/* the nearest open span of this id; those above it lost their outs */
		for (;;) {
			tr_span *sp = &out->v[open[--top]];
			sp->end_ms = t;
			open_by_id[sp->id]--;
			if (sp->id == id)
				break;
			sp->flags |= TR_SPAN_CUT;
			out->stats.cut++;
		}
	}
	uint64_t end = end_ms != TR_NO_TIME && end_ms > last ? end_ms : last;
	while (top > 0) {
		tr_span *sp = &out->v[open[--top]];
		sp->end_ms = end;
		sp->flags |= TR_SPAN_OPEN;
		out->stats.open_at_end++;
	}
	out->last_ms = any ? end : 0;
	free(open);
	free(open_by_id);
	if (rc != TC_OK)
		tr_spans_dispose(out);
	return rc;
}

static int overlaps(const tr_span *sp, uint64_t from, uint64_t to)
{
	if (sp->start_ms == sp->end_ms)
		return sp->start_ms >= from && sp->start_ms <= to;
	return sp->start_ms < to && sp->end_ms > from;
}

int tr_spans_slice(tr_spans *out, const tr_spans *in, const tr_slice *sl, tr_error *err)
{
	tr_spans_dispose(out);
	if (sl->kind == TR_SLICE_MESSAGES) {
		if (sl->first_msg > sl->last_msg)
			return tr_fail(err, TC_EINVAL, "message range %zu..%zu is empty", sl->first_msg, sl->last_msg);
		if (sl->first_msg >= in->messages)
			return tr_fail(err, TC_EINVAL, "no message %zu: the trace has %zu (numbered from 0)",
			               sl->first_msg, in->messages);
	}
	if (sl->kind == TR_SLICE_TIME && sl->from_ms > sl->to_ms)
		return tr_fail(err, TC_EINVAL, "time range %llu..%llu ms is empty", (unsigned long long)sl->from_ms,
		               (unsigned long long)sl->to_ms);
	/* near[i]: the new index of span i's nearest kept ancestor-or-self, or
	 * TR_NONE; inside[i]: span i is within a chosen message */
	size_t *near = malloc((in->n ? in->n : 1) * sizeof *near);
	unsigned char *inside = calloc(in->n ? in->n : 1, 1);
	int rc = TC_OK;
	if (!near || !inside) {
		rc = tr_fail(err, TC_ENOMEM, "slice: out of memory");
		goto cleanup;
	}
	out->first_ms = TR_NO_TIME;
	for (size_t i = 0; i < in->n && rc == TC_OK; i++) {
		const tr_span *sp = &in->v[i];
		size_t p = sp->parent;
		int keep;
		switch (sl->kind) {
		case TR_SLICE_TIME:
			keep = overlaps(sp, sl->from_ms, sl->to_ms);
			break;
		case TR_SLICE_MESSAGES:
			inside[i] = (p != TR_NONE && inside[p]) ||
			            (sp->message != TR_NONE && sp->message >= sl->first_msg && sp->message <= sl->last_msg);
			keep = inside[i];
			break;
		default:
			keep = 1;
			break;
		}
		size_t up = p == TR_NONE ? TR_NONE : near[p];
		if (!keep) {
			near[i] = up;
			continue;
		}
		if ((rc = reserve(out, out->n + 1, err)) != TC_OK)
			break;
		tr_span ns = *sp;
		ns.parent = up;
		ns.depth = up == TR_NONE ? 0 : out->v[up].depth + 1;
		if (sl->kind == TR_SLICE_TIME) {
			if (ns.start_ms < sl->from_ms) {
				ns.start_ms = sl->from_ms;
				ns.flags |= TR_SPAN_CLIPPED;
			}
			if (ns.end_ms > sl->to_ms) {
				ns.end_ms = sl->to_ms;
				ns.flags |= TR_SPAN_CLIPPED;
			}
			if (ns.end_ms < ns.start_ms)
				ns.end_ms = ns.start_ms;
		}
		if (ns.id == TC_ID_DISPATCH)
			out->messages++;
		if (ns.start_ms < out->first_ms)
			out->first_ms = ns.start_ms;
		if (ns.end_ms > out->last_ms)
			out->last_ms = ns.end_ms;
		near[i] = out->n;
		out->v[out->n++] = ns;
	}
	if (out->first_ms == TR_NO_TIME)
		out->first_ms = 0;
	out->stats = in->stats;
cleanup:
	free(near);
	free(inside);
	if (rc != TC_OK)
		tr_spans_dispose(out);
	return rc;
}

void tr_slice_describe(const tr_slice *sl, char *buf, size_t cap)
{
	switch (sl->kind) {
	case TR_SLICE_TIME:
		snprintf(buf, cap, "time %llu..%llu ms", (unsigned long long)sl->from_ms, (unsigned long long)sl->to_ms);
		break;
	case TR_SLICE_MESSAGES:
		if (sl->first_msg == sl->last_msg)
			snprintf(buf, cap, "message %zu", sl->first_msg);
		else
			snprintf(buf, cap, "messages %zu..%zu", sl->first_msg, sl->last_msg);
		break;
	default:
		snprintf(buf, cap, "all");
		break;
	}
}

/* trace_spans.c: see trace_spans.h. Matching an out walks the open stack
 * from the top; a per-id count of open spans answers "no match" in O(1), and
 * every entry walked over is popped, so the whole build is linear. */
#include "trace_spans.h"
#include "try.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tr_spans_dispose(tr_spans *s)
{
	free(s->v);
	free(s->sect);
	memset(s, 0, sizeof *s);
}

/* Room for want spans in *v (of *cap). */
static int grow(tr_span **v, size_t *cap_io, size_t want, tc_error *err)
{
	if (want <= *cap_io)
		return TC_OK;
	size_t cap = *cap_io ? *cap_io : 64;
	while (cap < want) {
		if (cap > SIZE_MAX / 2 / sizeof **v)
			return tc_set(err, TC_ENOMEM, "spans: out of memory");
		cap *= 2;
	}
	tr_span *nv = realloc(*v, cap * sizeof *nv);
	if (!nv)
		return tc_set(err, TC_ENOMEM, "spans: out of memory");
	*v = nv;
	*cap_io = cap;
	return TC_OK;
}

static int reserve(tr_spans *s, size_t want, tc_error *err)
{
	return grow(&s->v, &s->cap, want, err);
}

/* One nesting of spans being built: the methods', or the sections'. */
typedef struct nest {
	tr_span **v;
	size_t *n, *cap;
	size_t *open;       /* indexes of open spans, innermost last */
	size_t top;
} nest;

static int nest_in(nest *k, uint32_t id, uint64_t t, tc_error *err)
{
	TRY(grow(k->v, k->cap, *k->n + 1, err));
	size_t parent = k->top ? k->open[k->top - 1] : TR_NONE;
	(*k->v)[*k->n] = (tr_span){ id, 0, t, t, parent, k->top, TR_NONE };
	k->open[k->top++] = (*k->n)++;
	return TC_OK;
}

/* Closes the nearest open span of id at t, and those above it, which lost
 * their outs; the caller knows one is open. */
static void nest_out(nest *k, uint32_t id, uint64_t t, uint32_t *open_by_id, tr_span_stats *st)
{
	for (;;) {
		tr_span *sp = &(*k->v)[k->open[--k->top]];
		sp->end_ms = t;
		open_by_id[sp->id]--;
		if (sp->id == id)
			break;
		sp->flags |= TR_SPAN_CUT;
		st->cut++;
	}
}

static void nest_close(nest *k, uint64_t end, tr_span_stats *st)
{
	while (k->top > 0) {
		tr_span *sp = &(*k->v)[k->open[--k->top]];
		sp->end_ms = end;
		sp->flags |= TR_SPAN_OPEN;
		st->open_at_end++;
	}
}

int tr_spans_build(tr_spans *out, const uint64_t *ev, size_t n, uint64_t end_ms, tc_error *err)
{
	tr_spans_dispose(out);
	size_t *open = malloc((n ? n : 1) * sizeof *open);         /* open method spans */
	size_t *open_sect = malloc((n ? n : 1) * sizeof *open_sect); /* open sections */
	uint32_t *open_by_id = calloc(TC_ID_MAX + 1, sizeof *open_by_id); /* open spans per id */
	if (!open || !open_sect || !open_by_id) {
		free(open);
		free(open_sect);
		free(open_by_id);
		return tc_set(err, TC_ENOMEM, "spans: out of memory");
	}
	nest methods = { &out->v, &out->n, &out->cap, open, 0 };
	nest sections = { &out->sect, &out->n_sect, &out->cap_sect, open_sect, 0 };
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
		nest *k = tc_id_is_section(id) ? &sections : &methods;
		if (tc_event_is_in(v)) {
			if ((rc = nest_in(k, id, t, err)) != TC_OK)
				break;
			if (id == TC_ID_DISPATCH)
				out->v[out->n - 1].message = out->messages++;
			open_by_id[id]++;
		} else if (open_by_id[id] == 0) {
			out->stats.dropped_outs++;
		} else {
			nest_out(k, id, t, open_by_id, &out->stats);
		}
	}
	uint64_t end = end_ms != TR_NO_TIME && end_ms > last ? end_ms : last;
	nest_close(&methods, end, &out->stats);
	nest_close(&sections, end, &out->stats);
	out->last_ms = any ? end : 0;
	free(open);
	free(open_sect);
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

/* Appends the sections of in that overlap [from, to], clipped to it,
 * re-parented to the nearest kept one. */
static int slice_sections(tr_spans *out, const tr_spans *in, uint64_t from, uint64_t to, tc_error *err)
{
	size_t *near = malloc((in->n_sect ? in->n_sect : 1) * sizeof *near);
	if (!near)
		return tc_set(err, TC_ENOMEM, "slice: out of memory");
	int rc = TC_OK;
	for (size_t i = 0; i < in->n_sect && rc == TC_OK; i++) {
		tr_span sp = in->sect[i];
		size_t up = sp.parent == TR_NONE ? TR_NONE : near[sp.parent];
		if (!overlaps(&sp, from, to)) {
			near[i] = up;
			continue;
		}
		if ((rc = grow(&out->sect, &out->cap_sect, out->n_sect + 1, err)) != TC_OK)
			break;
		sp.parent = up;
		sp.depth = up == TR_NONE ? 0 : out->sect[up].depth + 1;
		if (sp.start_ms < from) {
			sp.start_ms = from;
			sp.flags |= TR_SPAN_CLIPPED;
		}
		if (sp.end_ms > to) {
			sp.end_ms = to;
			sp.flags |= TR_SPAN_CLIPPED;
		}
		near[i] = out->n_sect;
		out->sect[out->n_sect++] = sp;
	}
	free(near);
	return rc;
}

int tr_spans_slice(tr_spans *out, const tr_spans *in, const tr_slice *sl, tc_error *err)
{
	tr_spans_dispose(out);
	if (sl->kind == TR_SLICE_MESSAGES) {
		if (sl->first_msg > sl->last_msg)
			return tc_set(err, TC_EINVAL, "message range %zu..%zu is empty", sl->first_msg, sl->last_msg);
		if (sl->first_msg >= in->messages)
			return tc_set(err, TC_EINVAL, "no message %zu: the trace has %zu (numbered from 0)",
			               sl->first_msg, in->messages);
	}
	if (sl->kind == TR_SLICE_TIME && sl->from_ms > sl->to_ms)
		return tc_set(err, TC_EINVAL, "time range %llu..%llu ms is empty", (unsigned long long)sl->from_ms,
		               (unsigned long long)sl->to_ms);
	/* near[i]: the new index of span i's nearest kept ancestor-or-self, or
	 * TR_NONE; inside[i]: span i is within a chosen message */
	size_t *near = malloc((in->n ? in->n : 1) * sizeof *near);
	unsigned char *inside = calloc(in->n ? in->n : 1, 1);
	int rc = TC_OK;
	if (!near || !inside) {
		rc = tc_set(err, TC_ENOMEM, "slice: out of memory");
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
	if (rc == TC_OK) {
		if (sl->kind == TR_SLICE_TIME)
			rc = slice_sections(out, in, sl->from_ms, sl->to_ms, err);
		else if (sl->kind == TR_SLICE_ALL)
			rc = slice_sections(out, in, 0, TR_NO_TIME, err);
		else if (out->n)
			rc = slice_sections(out, in, out->first_ms, out->last_ms, err);
	}
cleanup:
	free(near);
	free(inside);
	if (rc != TC_OK)
		tr_spans_dispose(out);
	return rc;
}

int tr_spans_slice_times(tr_spans *out, const tr_spans *in, const tr_interval *iv, size_t n, tc_error *err)
{
	tr_spans_dispose(out);
	out->first_ms = TR_NO_TIME;
	int rc = TC_OK;
	for (size_t k = 0; k < n && rc == TC_OK; k++) {
		tr_spans part = { 0 };
		tr_slice sl = { TR_SLICE_TIME, iv[k].from_ms, iv[k].to_ms, 0, 0 };
		rc = tr_spans_slice(&part, in, &sl, err);
		if (rc == TC_OK)
			rc = reserve(out, out->n + part.n, err);
		if (rc == TC_OK)
			rc = grow(&out->sect, &out->cap_sect, out->n_sect + part.n_sect, err);
		if (rc == TC_OK) {
			for (size_t i = 0; i < part.n; i++) {
				tr_span sp = part.v[i];
				if (sp.parent != TR_NONE)
					sp.parent += out->n;
				out->v[out->n + i] = sp;
			}
			for (size_t i = 0; i < part.n_sect; i++) {
				tr_span sp = part.sect[i];
				if (sp.parent != TR_NONE)
					sp.parent += out->n_sect;
				out->sect[out->n_sect + i] = sp;
			}
			out->n += part.n;
			out->n_sect += part.n_sect;
			out->messages += part.messages;
			if (part.n && part.first_ms < out->first_ms)
				out->first_ms = part.first_ms;
			if (part.n && part.last_ms > out->last_ms)
				out->last_ms = part.last_ms;
		}
		tr_spans_dispose(&part);
	}
	if (out->first_ms == TR_NO_TIME)
		out->first_ms = 0;
	out->stats = in->stats;
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

int tr_spans_walk(const tr_span *v, size_t n, uint64_t min_us, size_t *open,
                  int (*begin)(void *user, const tr_span *sp), int (*end)(void *user, const tr_span *sp),
                  void *user, tr_spans_dropped *drop)
{
	size_t top = 0;
	int rc = TC_OK;
	for (size_t i = 0; i < n && rc == TC_OK; i++) {
		const tr_span *sp = &v[i];
		uint64_t ms = sp->end_ms - sp->start_ms;
		if (ms * 1000 < min_us) {
			/* its parent is longer: kept, or counted already */
			drop->spans++;
			drop->messages += sp->message != TR_NONE;
			if (sp->parent == TR_NONE || (v[sp->parent].end_ms - v[sp->parent].start_ms) * 1000 >= min_us)
				drop->ms += ms;
			continue;
		}
		/* close what is not an ancestor of this span: it ended before */
		while (top > 0 && open[top - 1] != sp->parent && rc == TC_OK)
			rc = end(user, &v[open[--top]]);
		if (rc == TC_OK)
			rc = begin(user, sp);
		open[top++] = i;
	}
	while (top > 0 && rc == TC_OK)
		rc = end(user, &v[open[--top]]);
	return rc;
}

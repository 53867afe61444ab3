/* trace_agg.c: see trace_agg.h. One pass over the spans, unit by unit (a
 * top-level span and the spans after it up to the next top-level one: the
 * spans are in pre-order), making the unit's segments and one entry per span
 * and segment it overlaps; then the entries are sorted by (segment, path)
 * and merged. */
#include "trace_agg.h"
#include "try.h"

#include <stdlib.h>
#include <string.h>

void tr_agg_dispose(tr_agg *a)
{
	tr_tree_dispose(&a->tree);
	free(a->segs);
	free(a->ent);
	free(a->msgs);
	memset(a, 0, sizeof *a);
}

typedef struct builder {
	tr_agg *a;
	size_t cap_segs, cap_ent;
	uint64_t first_ms;
	bool open;            /* the last segment may take more units */
	uint64_t open_cell;
	tc_error *err;
} builder;

static int grow(void **v, size_t *cap, size_t want, size_t size, tc_error *err)
{
	if (want <= *cap)
		return TC_OK;
	size_t c = *cap ? *cap : 256;
	while (c < want) {
		if (c > SIZE_MAX / 2 / size)
			return tc_set(err, TC_ENOMEM, "aggregates: out of memory");
		c *= 2;
	}
	void *p = realloc(*v, c * size);
	if (!p)
		return tc_set(err, TC_ENOMEM, "aggregates: out of memory");
	*v = p;
	*cap = c;
	return TC_OK;
}

static int new_seg(builder *b, uint64_t from, uint64_t to)
{
	tr_agg *a = b->a;
	TRY(grow((void **)&a->segs, &b->cap_segs, a->nsegs + 1, sizeof *a->segs, b->err));
	a->segs[a->nsegs++] = (tr_agg_seg){ from, to, 0, 0 };
	return TC_OK;
}

/* Entries carry their segment in a side array while unsorted. */
typedef struct keyed_entry {
	size_t seg;
	tr_agg_entry e;
} keyed_entry;

static int cmp_entry(const void *x, const void *y)
{
	const keyed_entry *a = x, *b = y;
	if (a->seg != b->seg)
		return a->seg < b->seg ? -1 : 1;
	return (a->e.path > b->e.path) - (a->e.path < b->e.path);
}

int tr_agg_build(tr_agg *out, const tr_spans *s, tc_error *err)
{
	memset(out, 0, sizeof *out);
	size_t *node_of = malloc((s->n ? s->n : 1) * sizeof *node_of);
	size_t *seg_of = malloc((s->n ? s->n : 1) * sizeof *seg_of); /* the segment of each span's start */
	keyed_entry *ke = NULL;
	size_t nke = 0, cap_ke = 0;
	builder b = { out, 0, 0, s->first_ms, false, 0, err };
	int rc = TC_OK;
	if (!node_of || !seg_of) {
		rc = tc_set(err, TC_ENOMEM, "aggregates: out of memory");
		goto cleanup;
	}
	if ((rc = tr_tree_from_spans_map(&out->tree, s, node_of, err)) != TC_OK)
		goto cleanup;
	uint64_t range = s->last_ms > s->first_ms ? s->last_ms - s->first_ms : 0;
	out->grain_ms = range / TR_AGG_CELLS + 1;
	size_t units = 0;
	for (size_t i = 0; i < s->n; i++)
		units += s->v[i].parent == TR_NONE;
	out->grouped = units > TR_AGG_MAX_UNITS;
	const uint64_t g = out->grain_ms, t0 = s->first_ms;
#define CELL(t) (((t) - t0) / g)
	for (size_t i = 0, next; i < s->n && rc == TC_OK; i = next) {
		const tr_span *u = &s->v[i];
		for (next = i + 1; next < s->n && s->v[next].parent != TR_NONE; next++)
			;
		out->busy_ms += u->end_ms - u->start_ms;
		uint64_t c0 = CELL(u->start_ms), c1 = CELL(u->end_ms);
		/* an end on a cell's first ms belongs to the cell before */
		if (c1 > c0 && (u->end_ms - t0) % g == 0)
			c1--;
		size_t first_seg;
		if (c1 > c0) {
			/* a long unit: one segment per cell it covers */
			b.open = false;
			first_seg = out->nsegs;
			for (uint64_t c = c0; c <= c1 && rc == TC_OK; c++) {
				uint64_t from = c == c0 ? u->start_ms : t0 + c * g;
				uint64_t to = c == c1 ? u->end_ms : t0 + (c + 1) * g;
				rc = new_seg(&b, from, to);
			}
		} else {
			bool groupable = u->id != TC_ID_DISPATCH || out->grouped;
			if (b.open && groupable && b.open_cell == c0) {
				tr_agg_seg *last = &out->segs[out->nsegs - 1];
				if (u->end_ms > last->to_ms)
					last->to_ms = u->end_ms;
			} else {
				rc = new_seg(&b, u->start_ms, u->end_ms);
			}
			b.open = groupable;
			b.open_cell = c0;
			first_seg = out->nsegs - 1;
		}
		/* the unit's spans over its segments (pieces of whole cells) */
		for (size_t j = i; j < next && rc == TC_OK; j++) {
			const tr_span *sp = &s->v[j];
			uint64_t p0 = CELL(sp->start_ms) - c0, p1 = CELL(sp->end_ms) - c0;
			if (c1 == c0)
				p0 = p1 = 0;
			if (p1 > c1 - c0)
				p1 = c1 - c0;
			if (p0 > p1)
				p0 = p1;
			seg_of[j] = first_seg + p0;
			for (uint64_t p = p0; p <= p1 && rc == TC_OK; p++) {
				const tr_agg_seg *sg = &out->segs[first_seg + p];
				uint64_t from = sp->start_ms > sg->from_ms ? sp->start_ms : sg->from_ms;
				uint64_t to = sp->end_ms < sg->to_ms ? sp->end_ms : sg->to_ms;
				uint64_t ms = to > from ? to - from : 0;
				if (!ms && p != p0)
					continue;
				rc = grow((void **)&ke, &cap_ke, nke + 1, sizeof *ke, err);
				if (rc == TC_OK)
					ke[nke++] = (keyed_entry){ first_seg + p,
						                   { (uint32_t)node_of[j], p == p0, ms } };
			}
		}
	}
#undef CELL
	if (rc != TC_OK)
		goto cleanup;
	/* one entry per (segment, path) */
	if (nke) /* qsort's pointer must not be NULL, even for 0 items */
		qsort(ke, nke, sizeof *ke, cmp_entry);
	for (size_t k = 0; k < nke && rc == TC_OK; k++) {
		if (k > 0 && ke[k].seg == ke[k - 1].seg && ke[k].e.path == ke[k - 1].e.path) {
			tr_agg_entry *e = &out->ent[out->nent - 1];
			e->ms += ke[k].e.ms;
			e->calls += ke[k].e.calls;
			continue;
		}
		if ((rc = grow((void **)&out->ent, &b.cap_ent, out->nent + 1, sizeof *out->ent, err)) != TC_OK)
			break;
		tr_agg_seg *sg = &out->segs[ke[k].seg];
		if (sg->n++ == 0)
			sg->first = out->nent;
		out->ent[out->nent++] = ke[k].e;
	}
	if (rc != TC_OK)
		goto cleanup;
	/* messages: the segments from the one its start is in to the one its end is in */
	out->msgs = malloc((s->messages ? s->messages : 1) * sizeof *out->msgs);
	if (!out->msgs) {
		rc = tc_set(err, TC_ENOMEM, "aggregates: out of memory");
		goto cleanup;
	}
	for (size_t i = 0; i < s->n; i++) {
		const tr_span *sp = &s->v[i];
		if (sp->message == TR_NONE)
			continue;
		size_t last = seg_of[i];
		while (last + 1 < out->nsegs && out->segs[last + 1].from_ms < sp->end_ms)
			last++;
		out->msgs[out->nmsgs++] = (tr_agg_msg){ sp->start_ms, sp->end_ms, seg_of[i], last };
	}
cleanup:
	free(node_of);
	free(seg_of);
	free(ke);
	if (rc != TC_OK)
		tr_agg_dispose(out);
	return rc;
}

/* trace_agg.c: see trace_agg.h. One pass over the spans, unit by unit (a
 * top-level span and the spans after it up to the next top-level one: the
 * spans are in pre-order), making the unit's segments (unit_segments) and one
 * entry per span and segment it overlaps (unit_entries); then the entries are
 * sorted by (segment, path) and merged (merge_entries), and each message is
 * placed over its segments (place_messages). */
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

/* Entries carry their segment in a side array while unsorted. */
typedef struct keyed_entry {
	size_t seg;
	tr_agg_entry e;
} keyed_entry;

/* What the four steps share: the aggregate being built, the spans, and the side
 * arrays (each span's tree node and the segment its start is in; the unsorted
 * entries). */
typedef struct builder {
	tr_agg *a;
	const tr_spans *s;
	size_t cap_segs, cap_ent;
	uint64_t t0, grain;   /* cell c covers [t0 + c * grain, t0 + (c + 1) * grain) */
	bool open;            /* the last segment may take more units */
	uint64_t open_cell;
	size_t *node_of, *seg_of;
	keyed_entry *ke;
	size_t nke, cap_ke;
	size_t ke_max;      /* the last segment an entry in ke is on */
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

static uint64_t cell(const builder *b, uint64_t t)
{
	return (t - b->t0) / b->grain;
}

static int cmp_entry(const void *x, const void *y)
{
	const keyed_entry *a = x, *b = y;
	if (a->seg != b->seg)
		return a->seg < b->seg ? -1 : 1;
	return (a->e.path > b->e.path) - (a->e.path < b->e.path);
}

/* Step 1: the segments of unit u, which covers cells c0 to c1: one per cell for a
 * long unit; else u joins the open segment of its cell (a dispatch only when
 * grouped) or opens one. *first_seg: the unit's first segment. */
static int unit_segments(builder *b, const tr_span *u, uint64_t c0, uint64_t c1, size_t *first_seg)
{
	tr_agg *out = b->a;
	int rc = TC_OK;
	if (c1 > c0) {
		b->open = false;
		*first_seg = out->nsegs;
		for (uint64_t c = c0; c <= c1 && rc == TC_OK; c++) {
			uint64_t from = c == c0 ? u->start_ms : b->t0 + c * b->grain;
			uint64_t to = c == c1 ? u->end_ms : b->t0 + (c + 1) * b->grain;
			rc = new_seg(b, from, to);
		}
		return rc;
	}
	bool groupable = u->id != TC_ID_DISPATCH || out->grouped;
	if (b->open && groupable && b->open_cell == c0) {
		tr_agg_seg *last = &out->segs[out->nsegs - 1];
		if (u->end_ms > last->to_ms)
			last->to_ms = u->end_ms;
	} else {
		rc = new_seg(b, u->start_ms, u->end_ms);
	}
	b->open = groupable;
	b->open_cell = c0;
	*first_seg = out->nsegs - 1;
	return rc;
}

/* Step 2: the entries of the unit's spans i to next - 1 over its segments (pieces of
 * whole cells), unsorted; each span's first segment in seg_of. */
static int unit_entries(builder *b, size_t i, size_t next, uint64_t c0, uint64_t c1, size_t first_seg)
{
	const tr_agg *out = b->a;
	int rc = TC_OK;
	for (size_t j = i; j < next && rc == TC_OK; j++) {
		const tr_span *sp = &b->s->v[j];
		uint64_t p0 = cell(b, sp->start_ms) - c0, p1 = cell(b, sp->end_ms) - c0;
		if (c1 == c0)
			p0 = p1 = 0;
		if (p1 > c1 - c0)
			p1 = c1 - c0;
		if (p0 > p1)
			p0 = p1;
		b->seg_of[j] = first_seg + p0;
		for (uint64_t p = p0; p <= p1 && rc == TC_OK; p++) {
			const tr_agg_seg *sg = &out->segs[first_seg + p];
			uint64_t from = sp->start_ms > sg->from_ms ? sp->start_ms : sg->from_ms;
			uint64_t to = sp->end_ms < sg->to_ms ? sp->end_ms : sg->to_ms;
			uint64_t ms = to > from ? to - from : 0;
			if (!ms && p != p0)
				continue;
			rc = grow((void **)&b->ke, &b->cap_ke, b->nke + 1, sizeof *b->ke, b->err);
			if (rc == TC_OK) {
				b->ke[b->nke++] = (keyed_entry){ first_seg + p, { (uint32_t)b->node_of[j], p == p0, ms } };
				if (first_seg + p > b->ke_max)
					b->ke_max = first_seg + p;
			}
		}
	}
	return rc;
}

/* Step 3: one entry per (segment, path), the segments pointing at theirs; ke
 * emptied. Called for each run of units that share segments: a unit's segments
 * come after every earlier unit's, or it joins the last one, so the runs' entries,
 * each sorted, are the whole sorted, and ke (and qsort's copy of it) holds one
 * run, not the thread (a 20 M event ring: 480 MB less). */
static int merge_entries(builder *b)
{
	tr_agg *out = b->a;
	keyed_entry *ke = b->ke;
	if (b->nke) /* qsort's pointer must not be NULL, even for 0 items */
		qsort(ke, b->nke, sizeof *ke, cmp_entry);
	for (size_t k = 0; k < b->nke; k++) {
		if (k > 0 && ke[k].seg == ke[k - 1].seg && ke[k].e.path == ke[k - 1].e.path) {
			tr_agg_entry *e = &out->ent[out->nent - 1];
			e->ms += ke[k].e.ms;
			e->calls += ke[k].e.calls;
			continue;
		}
		TRY(grow((void **)&out->ent, &b->cap_ent, out->nent + 1, sizeof *out->ent, b->err));
		tr_agg_seg *sg = &out->segs[ke[k].seg];
		if (sg->n++ == 0)
			sg->first = out->nent;
		out->ent[out->nent++] = ke[k].e;
	}
	b->nke = 0;
	return TC_OK;
}

/* Step 4: messages: the segments from the one its start is in to the one its end is in. */
static int place_messages(builder *b)
{
	tr_agg *out = b->a;
	const tr_spans *s = b->s;
	out->msgs = malloc((s->messages ? s->messages : 1) * sizeof *out->msgs);
	if (!out->msgs)
		return tc_set(b->err, TC_ENOMEM, "aggregates: out of memory");
	for (size_t i = 0; i < s->n; i++) {
		const tr_span *sp = &s->v[i];
		if (sp->message == TR_NONE)
			continue;
		size_t last = b->seg_of[i];
		while (last + 1 < out->nsegs && out->segs[last + 1].from_ms < sp->end_ms)
			last++;
		out->msgs[out->nmsgs++] = (tr_agg_msg){ sp->start_ms, sp->end_ms, b->seg_of[i], last };
	}
	return TC_OK;
}

int tr_agg_build(tr_agg *out, const tr_spans *s, tc_error *err)
{
	memset(out, 0, sizeof *out);
	builder b = { .a = out, .s = s, .t0 = s->first_ms, .err = err };
	b.node_of = malloc((s->n ? s->n : 1) * sizeof *b.node_of);
	b.seg_of = malloc((s->n ? s->n : 1) * sizeof *b.seg_of);
	int rc = TC_OK;
	if (!b.node_of || !b.seg_of) {
		rc = tc_set(err, TC_ENOMEM, "aggregates: out of memory");
		goto cleanup;
	}
	if ((rc = tr_tree_from_spans_map(&out->tree, s, b.node_of, err)) != TC_OK)
		goto cleanup;
	uint64_t range = s->last_ms > s->first_ms ? s->last_ms - s->first_ms : 0;
	out->grain_ms = b.grain = range / TR_AGG_CELLS + 1;
	size_t units = 0;
	for (size_t i = 0; i < s->n; i++)
		units += s->v[i].parent == TR_NONE;
	out->grouped = units > TR_AGG_MAX_UNITS;
	for (size_t i = 0, next; i < s->n && rc == TC_OK; i = next) {
		const tr_span *u = &s->v[i];
		for (next = i + 1; next < s->n && s->v[next].parent != TR_NONE; next++)
			;
		out->busy_ms += u->end_ms - u->start_ms;
		uint64_t c0 = cell(&b, u->start_ms), c1 = cell(&b, u->end_ms);
		/* an end on a cell's first ms belongs to the cell before */
		if (c1 > c0 && (u->end_ms - b.t0) % b.grain == 0)
			c1--;
		size_t first_seg = 0;
		rc = unit_segments(&b, u, c0, c1, &first_seg);
		if (rc == TC_OK && b.nke && first_seg > b.ke_max)
			rc = merge_entries(&b);
		if (rc == TC_OK)
			rc = unit_entries(&b, i, next, c0, c1, first_seg);
	}
	if (rc == TC_OK)
		rc = merge_entries(&b);
	if (rc == TC_OK)
		rc = place_messages(&b);
cleanup:
	free(b.node_of);
	free(b.seg_of);
	free(b.ke);
	if (rc != TC_OK)
		tr_agg_dispose(out);
	return rc;
}

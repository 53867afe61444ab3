/* trace_agg.h: one thread's spans as aggregates small enough to ship in a
 * web page, yet fine enough to answer "what ran between two times" and "what
 * ran in message N" there (the HTML report, trace_html.h).
 *
 * Paths: the call tree (trace_tree.h): a node per call path, its parent
 * before it. Segments: consecutive pieces of the thread's time, each with its
 * own per-path sums (entries: time of the path's calls within the segment,
 * clipped to it, and the calls that began in it). The sums of a run of
 * segments are the tree of that run, exactly: a page selects a window by the
 * segments it overlaps and adds up their entries.
 *
 * How the time is cut. A top-level span (a message, or a call outside any
 * message) with what it called is a unit. A unit longer than the grain (the
 * thread's time / TR_AGG_CELLS, at least 1 ms) is cut at multiples of the
 * grain, so that a window within a long message is a window and not the
 * whole message. Short units that are not messages are grouped within a grain
 * cell; messages stay alone, so selecting a message is exact, unless the
 * thread has more than TR_AGG_MAX_UNITS units: then messages are grouped as
 * well, and `grouped` says so. A message inside a call (a nested loop)
 * covers the segments of its time, with its callers' share of them. */
#ifndef TR_AGG_H
#define TR_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc_error.h"
#include "tc_runtime.h"
#include "trace_spans.h"
#include "trace_tree.h"

#define TR_AGG_CELLS 2000
#define TR_AGG_MAX_UNITS 50000

typedef struct tr_agg_seg {
	uint64_t from_ms, to_ms;
	size_t first, n;     /* its entries */
} tr_agg_seg;

typedef struct tr_agg_entry {
	uint32_t path;       /* tree node (>= 1) */
	uint32_t calls;      /* calls of the path that began in the segment */
	uint64_t ms;         /* time of its calls within the segment */
} tr_agg_entry;

typedef struct tr_agg_msg {
	uint64_t start_ms, end_ms;
	size_t seg0, seg1;   /* the segments it covers, inclusive */
} tr_agg_msg;

typedef struct tr_agg {
	tr_tree tree;        /* the paths; v[0] is the root, no path */
	tr_agg_seg *segs;
	size_t nsegs;
	tr_agg_entry *ent;
	size_t nent;
	tr_agg_msg *msgs;    /* in message order */
	size_t nmsgs;
	uint64_t grain_ms;
	uint64_t busy_ms;    /* the top-level spans' time */
	bool grouped;        /* messages share segments (too many units) */
} tr_agg;

int tr_agg_build(tr_agg *out, const tr_spans *s, tc_error *err);
void tr_agg_dispose(tr_agg *a);

#endif

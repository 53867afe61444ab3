/* trace_spans.h: recorded events -> properly nested method spans.
 *
 * The ring holds what the recording thread wrote: in and out events
 * (tc_event.h), oldest first, possibly cut by a wrap (outs whose ins were
 * overwritten), by a kill (ins never closed) or by a lost out (a method left
 * by a path the instrumentation missed). Every consumer (tree, Chrome trace,
 * flame graph) needs a well-nested form of it, which this module gives:
 *
 *  - an out closes the nearest open span of its id; spans opened above it
 *    lost their outs and are closed at the same time (TR_SPAN_CUT);
 *  - an out with no open span of its id is dropped (counted);
 *  - spans still open at the end are closed at the end time (TR_SPAN_OPEN);
 *  - a time earlier than the previous event's (corrupt input) is raised to
 *    it (counted), so every child lies within its parent and siblings do
 *    not overlap.
 *
 * Spans are stored in pre-order (the order of their in events), each with
 * its parent and depth. TC_ID_DISPATCH spans are the main-looper messages;
 * they are numbered 0, 1, ... in that order.
 *
 * Sections (ids TC_ID_SECTION...: named intervals, tc_event.h) need not nest
 * with the methods: they are spans of their own, in `sect`, nested among
 * themselves by the same rules. */
#ifndef TR_SPANS_H
#define TR_SPANS_H

#include <stddef.h>
#include <stdint.h>

#include "tc_error.h"
#include "tc_event.h"
#include "tc_runtime.h"

#define TR_NONE SIZE_MAX
#define TR_NO_TIME UINT64_MAX

enum {
	TR_SPAN_OPEN = 1u << 0,    /* no out: closed at the end time */
	TR_SPAN_CUT = 1u << 1,     /* no out: closed when an enclosing span closed */
	TR_SPAN_CLIPPED = 1u << 2, /* cut to a time slice */
};

typedef struct tr_span {
	uint32_t id;
	uint32_t flags;
	uint64_t start_ms, end_ms;
	size_t parent;   /* index of the enclosing span, or TR_NONE */
	size_t depth;    /* 0 at the top */
	size_t message;  /* for TC_ID_DISPATCH spans: the message number; else TR_NONE */
} tr_span;

typedef struct tr_span_stats {
	size_t events;        /* non-empty events read */
	size_t dropped_outs;  /* outs with no matching in */
	size_t open_at_end;   /* spans closed at the end time */
	size_t cut;           /* spans closed with an enclosing one */
	size_t clamped;       /* times raised to the previous event's */
} tr_span_stats;

typedef struct tr_spans {
	tr_span *v;
	size_t n, cap;
	tr_span *sect;          /* sections, pre-order; parents index sect */
	size_t n_sect, cap_sect;
	size_t messages;        /* number of TC_ID_DISPATCH spans */
	uint64_t first_ms, last_ms; /* time range covered (0, 0 when empty) */
	tr_span_stats stats;
} tr_spans;

/* What a walk left out for being shorter than its min_us. */
typedef struct tr_spans_dropped {
	size_t spans, messages;
	uint64_t ms;           /* their time, outermost ones only */
} tr_spans_dropped;

/* One track's spans v[0..n), nested and in pre-order, as begin and end calls: begin for
 * each span lasting at least min_us (0: every span), end once the spans nested in it
 * are done, so the calls are well parenthesized and their times never decrease. Spans
 * shorter than min_us are left out and counted in *drop (their children are shorter
 * still, so what stays nests as before). open is scratch for n indexes. Stops at the
 * first call that returns other than TC_OK, and returns that. The exports' one walk
 * (trace_chrome.c, trace_perfetto.c). */
int tr_spans_walk(const tr_span *v, size_t n, uint64_t min_us, size_t *open,
                  int (*begin)(void *user, const tr_span *sp), int (*end)(void *user, const tr_span *sp),
                  void *user, tr_spans_dropped *drop);

/* Builds spans from n events (0 = empty slot, skipped). Spans still open are
 * closed at end_ms, or at the last event's time if end_ms is TR_NO_TIME or
 * earlier. out is replaced. */
int tr_spans_build(tr_spans *out, const uint64_t *events, size_t n, uint64_t end_ms, tc_error *err);
void tr_spans_dispose(tr_spans *s);

/* A part of the spans: everything, a time range, or a range of messages. */
typedef enum tr_slice_kind { TR_SLICE_ALL, TR_SLICE_TIME, TR_SLICE_MESSAGES } tr_slice_kind;

/* A time range, inclusive. */
typedef struct tr_interval {
	uint64_t from_ms, to_ms;
} tr_interval;

typedef struct tr_slice {
	tr_slice_kind kind;
	uint64_t from_ms, to_ms;     /* TR_SLICE_TIME: inclusive */
	size_t first_msg, last_msg;  /* TR_SLICE_MESSAGES: inclusive */
} tr_slice;

/* The spans in the slice, re-parented and re-numbered (messages keep their
 * numbers). A time slice keeps the spans that overlap it, clipped to it; a
 * message slice keeps those messages and everything inside them, at depth 0
 * from the message. Sections are kept where they overlap the slice's time
 * (for messages: from the first one's start to the last one's end), clipped
 * to it. An empty result is not an error; a message number past the last
 * message is (TC_EINVAL). */
int tr_spans_slice(tr_spans *out, const tr_spans *in, const tr_slice *slice, tc_error *err);
/* The time slices of n intervals, one after the other in out (a span that
 * overlaps two is there twice, clipped to each: times add up, calls do not). */
int tr_spans_slice_times(tr_spans *out, const tr_spans *in, const tr_interval *iv, size_t n, tc_error *err);

/* "all", "time 10..200 ms", "message 3", "messages 3..5" */
void tr_slice_describe(const tr_slice *slice, char *buf, size_t cap);

#endif

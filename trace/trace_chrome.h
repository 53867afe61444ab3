/* trace_chrome.h: the Chrome Trace Event format ("JSON Object Format":
 * {"traceEvents":[...]}), which ui.perfetto.dev and chrome://tracing open.
 *
 * One track per thread (tr_chrome_write: one, the recording thread), named by
 * process_name / thread_name metadata with its pid and tid. Methods become
 * slices named by the mapping (category "method"), messages (TC_ID_DISPATCH
 * spans) slices named "message N" (category "message"); a thread's sections
 * (named intervals, which need not nest with its methods) go on a track of
 * their own, category "section". ts and dur are in microseconds on the clock
 * the ring records (CLOCK_MONOTONIC, as atrace's): base_us (the ring's time
 * base) plus the event's ms, so that the trace lines up with a system trace of
 * the same time. Method spans shorter than min_us are left out, and counted:
 * their children are shorter still, so what stays nests as before. The spans
 * are nested already
 * (trace_spans.h), so per thread the B/E events form a well-parenthesized
 * sequence with non-decreasing ts, and X events nest by [ts, ts+dur].
 * Events are written one per line as they are produced. */
#ifndef TR_CHROME_H
#define TR_CHROME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "tc_runtime.h"
#include "trace_mapping.h"
#include "trace_spans.h"

/* A point in time to mark (a report), with its args as a JSON object text. */
typedef struct tr_instant {
	uint64_t ts_ms;
	const char *name;
	const char *args_json; /* NULL for none */
} tr_instant;

typedef struct tr_chrome_opts {
	uint32_t pid, tid;
	const char *process_name, *thread_name;
	bool complete;         /* X events instead of B/E pairs */
	tr_name_style names;   /* slice names; args.method always has the full name */
	/* instant events (reports), read one at a time after the slices:
	 * returns 1 with *out filled (valid until the next call), 0 at the
	 * end, or a negative code; NULL for none */
	int (*next_instant)(void *user, tr_instant *out, tc_error *err);
	void *instant_user;
	const char *source;    /* put in otherData, or NULL */
	const char *slice;     /* put in otherData, or NULL */
	uint32_t resolution_ms; /* the ring's clock tick, put in otherData (clockResolutionMs) and the
	                         * Perfetto trace's metadata; 0: unknown, left out */
	uint64_t base_us;      /* ts of time 0 of the spans */
	uint64_t min_us;       /* leave out spans shorter than this (0: none) */
} tr_chrome_opts;

/* What was left out for being shorter than min_us. */
typedef tr_spans_dropped tr_chrome_dropped;

/* dropped may be NULL. */
int tr_chrome_write(FILE *out, const tr_spans *s, const tr_mapping *m, const tr_chrome_opts *o,
                    tr_chrome_dropped *dropped, tc_error *err);

/* A track: a thread's methods (spans->v), or with sections set its sections
 * (spans->sect). */
typedef struct tr_chrome_track {
	uint32_t tid;
	const char *name;      /* thread_name */
	const tr_spans *spans;
	bool sections;
} tr_chrome_track;

/* Calls fn on each of o->next_instant's instants (none without it), in order; stops at
 * the first call that returns other than TC_OK. Returns that, next_instant's error, or
 * TC_OK. Shared by the exports (trace_perfetto.c). */
int tr_chrome_each_instant(const tr_chrome_opts *o, int (*fn)(void *user, const tr_instant *in), void *user,
                           tc_error *err);

/* Several tracks; o->tid and o->thread_name are not used. The instants go
 * on the first track; otherData counts the method tracks' repairs. */
int tr_chrome_write_tracks(FILE *out, const tr_chrome_track *tracks, size_t n, const tr_mapping *m,
                           const tr_chrome_opts *o, tr_chrome_dropped *dropped, tc_error *err);

#endif

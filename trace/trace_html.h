/* trace_html.h: the HTML report (tc-trace html): one self-contained file,
 * its CSS and JS inline (report_page.html, embedded at build time), no
 * network. The page gets per thread the call paths and the segments of
 * trace_agg.h, so that a time window or a message chosen in the page is added
 * up there exactly; every span, packed (about 5 characters a span: see
 * put_timeline in trace_html.c), for the timeline; the reports with their
 * stacks decoded and a flame graph (SVG) each; the names of every method shown.
 *
 * The data sits in <script id="tc-data" type="application/json">, with
 * every '<' written \u003c so no string can end the element. */
#ifndef TR_HTML_H
#define TR_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "tc_runtime.h"
#include "json_read.h"
#include "trace_mapping.h"
#include "trace_spans.h"

typedef struct tr_html tr_html;

/* m is borrowed until tr_html_free; title and source are copied. */
int tr_html_new(tr_html **out, const tr_mapping *m, const char *title, const char *source, tc_error *err);
void tr_html_free(tr_html *h);

/* A thread's spans (all of them: the page selects). The ring's time base:
 * wall clock ms at time 0, to place reports on the thread's timeline. */
int tr_html_add_thread(tr_html *h, const char *name, const tr_spans *s, uint64_t wall_base_ms, tc_error *err);

/* The ring's clock tick (ms; 0 unknown), in the page's data as resolutionMs. */
void tr_html_set_resolution(tr_html *h, uint32_t ms);

/* One report line (a parsed JSON object); file and line name it in errors. */
int tr_html_add_report(tr_html *h, const json_val *report, const char *file, uint64_t line, tc_error *err);

/* Streaming: the page up to its data, then each thread and report as it is
 * added (threads first: a thread after a report is TC_EINVAL), so the page is
 * never held in memory whole; called once, before the first thread. Without it
 * everything is kept until tr_html_write. The output is the same either way. */
int tr_html_begin(tr_html *h, FILE *out, tc_error *err);

/* The page (buffered), or the rest of it (streamed: out is the same file). */
int tr_html_write(tr_html *h, FILE *out, tc_error *err);

#endif

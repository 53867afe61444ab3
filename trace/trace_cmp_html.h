/* trace_cmp_html.h: `tc-trace compare --html FILE`: one self-contained page
 * (compare_page.html, its CSS and JS inline, no network) with the message kinds
 * as the compare table has them and, for a chosen kind, the two sides'
 * timelines of one of its messages one above the other, on one time scale.
 *
 * The data: per side, per recording, the main thread's messages (their
 * handler's key, start and duration) with the calls under each (depth, start
 * from the message's, duration, id), and the names of that side's ids (ids
 * differ between builds, names do not). Past max_spans calls a side, later
 * messages keep their figures but not their calls (the page says so). */
#ifndef TR_CMP_HTML_H
#define TR_CMP_HTML_H

#include <stdio.h>

#include "tc_error.h"
#include "trace_compare.h"

typedef struct tr_cmp_html {
	tc_buf recs[2];      /* per side: the recordings' JSON, comma-separated */
	uint32_t *ids[2];    /* per side: the ids the calls use, with repeats */
	size_t nids[2], capids[2];
	size_t nrec[2];
	size_t spans[2], max_spans;
	size_t cut[2];       /* messages whose calls were left out */
	tc_buf name;         /* scratch */
} tr_cmp_html;

void tr_cmp_html_init(tr_cmp_html *h, size_t max_spans);
void tr_cmp_html_dispose(tr_cmp_html *h);

/* Adds a recording of side (0 A, 1 B): its main thread's spans, named with m. */
int tr_cmp_html_add(tr_cmp_html *h, int side, const char *file, const tr_spans *main_thread, const tr_mapping *m,
                    tc_error *err);

/* Writes the page: c's message rows (after tr_cmp_finish), the sides'
 * recordings, names from m[side]. */
int tr_cmp_html_write(FILE *out, tr_cmp_html *h, const tr_cmp *c, const tr_cmp_info *info, tr_mapping *const m[2],
                      const char *title, tc_error *err);

#endif

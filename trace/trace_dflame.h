/* trace_dflame.h: a differential flame graph of two builds (`tc-trace compare
 * --flame`), as one self-contained SVG file like trace_flame.h's: the call
 * paths of every recording of both sides merged by name (a path is the keys
 * of its methods, "class.method desc", so ids may differ between builds), each
 * frame's width its total time on side B (the new build; means per recording),
 * its colour the change of that total from A: red where it grew, blue where
 * it shrank, the deeper the larger the change against the largest one, and
 * grey where the change is under the noise floor (one clock tick per call, as
 * trace_compare.h's; the colour is the change, not its significance, which
 * compare's table judges). Hovering shows both sides' total, self time and calls.
 * A path with no time in B has no width: such paths are counted in the
 * subtitle, not drawn. */
#ifndef TR_DFLAME_H
#define TR_DFLAME_H

#include <stddef.h>
#include <stdio.h>

#include "tc_error.h"
#include "tc_runtime.h"
#include "trace_mapping.h"
#include "trace_spans.h"

typedef struct tr_dflame tr_dflame;

/* For na and nb recordings (the means divide by them). */
int tr_dflame_new(tr_dflame **out, size_t na, size_t nb, tc_error *err);
void tr_dflame_free(tr_dflame *f);

/* Adds the spans of one thread of a recording of side (0 A, 1 B), named by
 * that side's mapping; its top-level calls are at the root. */
int tr_dflame_add(tr_dflame *f, int side, const tr_spans *s, const tr_mapping *m, tc_error *err);

typedef struct tr_dflame_opts {
	const char *title;    /* NULL: "Differential flame graph" */
	const char *subtitle; /* NULL: none */
	unsigned width;       /* pixels; 0: 1200 */
	double tick_ms;       /* the noise floor per call; 0: 5 */
} tr_dflame_opts;

int tr_dflame_write(FILE *out, const tr_dflame *f, const tr_dflame_opts *o, tc_error *err);

#endif

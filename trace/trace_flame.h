/* trace_flame.h: a flame graph of a call tree as one self-contained SVG
 * file: no scripts, no external fonts or styles (a generic monospace
 * family), every name XML-escaped. The root ("all") is at the bottom; a
 * frame's width is its total time; hovering shows a frame's name, total,
 * share, self time and calls (<title>). Frames narrower than a pixel's
 * fraction, or deeper than 4096 levels, are left out with what is above
 * them. */
#ifndef TR_FLAME_H
#define TR_FLAME_H

#include <stdio.h>

#include "tc_runtime.h"
#include "trace_mapping.h"
#include "trace_tree.h"

typedef struct tr_flame_opts {
	const char *title;     /* NULL: "Flame graph" */
	const char *subtitle;  /* NULL: none */
	unsigned width;        /* pixels; 0: 1200 */
} tr_flame_opts;

int tr_flame_write(FILE *out, const tr_tree *t, const tr_mapping *m, const tr_flame_opts *o, tc_error *err);

/* Appends s with XML's five special characters escaped, control
 * characters and invalid UTF-8 replaced (XML 1.0 forbids them). */
void tr_xml_escape(tc_buf *sb, const char *s);

#endif

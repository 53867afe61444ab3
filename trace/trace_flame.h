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

#include "tc_error.h"
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
/* The same for the first len bytes of s (a label cut to fit its frame). */
void tr_xml_escape_n(tc_buf *sb, const char *s, size_t len);

/* The drawing both flame graphs share (trace_dflame.c): the geometry, in pixels... */
#define TR_FLAME_FRAME_H 16
#define TR_FLAME_PAD 10
#define TR_FLAME_TOP 48
#define TR_FLAME_BOTTOM 24
#define TR_FLAME_MIN_W 0.25     /* narrower frames are left out */
#define TR_FLAME_MAX_ROWS 4096  /* deeper frames (a runaway recursion) are left out */

/* ... the SVG up to the subtitle's text (its subtitle then "; " when there is one), which
 * the caller ends with "</text>\n"... */
void tr_flame_svg_open(tc_buf *sb, unsigned width, unsigned height, const char *title, const char *subtitle);
/* ... a frame's box (after its <title>) and label: the first len bytes of label, cut on a
 * UTF-8 boundary and marked ".." where the frame is too narrow, none when not even three
 * characters fit... */
void tr_flame_svg_frame(tc_buf *sb, double x, double y, double w, int r, int g, int b, const char *label,
                        size_t len);
/* ... and the text so far written out (sb emptied), or its error. */
int tr_flame_svg_flush(FILE *out, tc_buf *sb, tc_error *err);

#endif

/* trace_text.h: the call tree and the message list as text for people. */
#ifndef TR_TEXT_H
#define TR_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "tc_runtime.h"
#include "trace_mapping.h"
#include "trace_spans.h"
#include "trace_tree.h"

typedef struct tr_text_opts {
	uint64_t min_ms;    /* leave out nodes (and what is under them) shorter than this */
	size_t max_depth;   /* leave out nodes deeper than this (0: no limit) */
} tr_text_opts;

/* One row per node, pre-order in the tree's child order: total ms, % of
 * the whole, self ms, calls, then the name indented two spaces a level,
 * marked when a call had no out event. */
int tr_tree_write_text(FILE *out, const tr_tree *t, const tr_mapping *m, const tr_text_opts *o, tc_error *err);

/* One row per message (TC_ID_DISPATCH span): number, start, duration, and
 * its heaviest direct callee; in message order, or longest_first (the
 * slowest first, equal ones in message order). */
int tr_messages_write(FILE *out, const tr_spans *s, const tr_mapping *m, int longest_first, tc_error *err);

/* A line for each thing the span builder had to repair, or nothing. written
 * and kept: the events the thread ever wrote and those its ring still holds
 * (more written than kept: the ring wrapped, and outs without an in are ones
 * whose ins it overwrote; else the recording began inside those calls). */
void tr_spans_write_notes(FILE *out, const char *prefix, const tr_spans *s, uint64_t written, size_t kept);

#endif

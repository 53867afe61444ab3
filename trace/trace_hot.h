/* trace_hot.h: the hot-method filter (Beike's call-count filter). Methods that
 * are called very often and return quickly cost more to trace than they tell:
 * each call costs two events. This module counts calls and time per method
 * over spans, picks those called at least min_calls times with an average
 * below max_avg_us, and writes them as a block list that
 * `tc-instrument --blocklist` reads (-keepmethod rules, rules/rules.h).
 *
 * Times come from the ring, whose clock ticks in whole milliseconds: a call's
 * duration is a multiple of 1000 us, most short calls measure 0, and an
 * average over many calls is the share of ticks that fell inside them. */
#ifndef TR_HOT_H
#define TR_HOT_H

#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "tc_runtime.h"
#include "trace_mapping.h"
#include "trace_spans.h"

typedef struct tr_method_stat {
	uint32_t id;
	uint64_t calls;
	uint64_t sum_ms;   /* of every call's duration (a recursive call counts again) */
	uint64_t total_ms; /* time inside the method: calls under another call of it not counted again */
	uint64_t max_ms;   /* the longest call */
} tr_method_stat;

typedef struct tr_method_stats {
	tr_method_stat *v; /* methods with at least one call, by id */
	size_t n;
} tr_method_stats;

/* Per method over the spans, TC_ID_DISPATCH left out. */
int tr_method_stats_build(tr_method_stats *out, const tr_spans *s, tc_error *err);
void tr_method_stats_dispose(tr_method_stats *st);

typedef struct tr_hot_opts {
	uint64_t min_calls;   /* called at least this often */
	uint64_t max_avg_us;  /* and on average for less than this */
	uint64_t keep_ms;     /* never list a method whose total_ms reaches this (0: no limit) */
	const char *source;   /* for the header comment */
} tr_hot_opts;

/* Writes the block list: a header saying how it was made, then per method
 * (most calls first) a comment with its figures and its -keepmethod rule.
 * Methods without a mapping entry cannot be named and are counted in
 * *unnamed. *listed gets the number of rules written. */
int tr_hot_write(FILE *out, const tr_method_stats *st, const tr_mapping *m, const tr_hot_opts *o, size_t *listed,
                 size_t *unnamed, tc_error *err);

#endif

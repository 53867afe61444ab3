/* trace_fleet.h: `tc-trace compare` of report files from a fleet: per stack,
 * how often and how slow on each side.
 *
 * Each side is one or more report files (Config.reportPath, one per device:
 * the exposure of a side is its number of files). Every Trace_EvilMethod
 * report (slow message NORMAL, ANR, LAG, SIGNAL_ANR, LAG_TOUCH, STARTUP...)
 * counts in the row of its detail and its stack: the stackKey with names for
 * ids ("com.x.Main.run ()V|", decoded with the side's mapping, so a stack
 * keeps its identity across builds whose ids differ), or, for a report
 * without one (LAG has only a Java thread stack), the first frame of its
 * threadStack. Then per row:
 *
 *  - how often: reports per file on each side; the two rates compared by the
 *    exact conditional binomial test (tr_rate_test), Holm's correction over
 *    the rows; a row of B only is a new stack;
 *  - how slow: the median "cost" (ms) of its reports on each side; with 2 or
 *    more reports on each side and medians a clock tick apart or more, the
 *    Mann-Whitney U test of the costs, Holm's correction over those rows.
 *
 * Rows are in finding order: more often (the new stacks among them), then
 * slower, then less often and faster, then the rest by B's count. */
#ifndef TR_FLEET_H
#define TR_FLEET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "json_read.h"
#include "tc_runtime.h"
#include "trace_index.h"
#include "trace_mapping.h"
#include "trace_stats.h"

typedef enum tr_fleet_verdict {
	TR_FLEET_UP,      /* significantly more often / slower */
	TR_FLEET_DOWN,    /* significantly less often / faster */
	TR_FLEET_SAME,    /* tested, not significant */
	TR_FLEET_UNTESTED /* too few reports, or the medians within a tick */
} tr_fleet_verdict;

typedef struct tr_fleet_row {
	char *detail, *key;
	size_t count[2];        /* reports per side */
	double *cost[2];        /* ms of each report that has a cost */
	size_t ncost[2], capcost[2];
	double rate[2];         /* count / files */
	double med[2];          /* median cost, ms (0 without costs) */
	double p_rate, p_cost;  /* after Holm's correction (1 when untested) */
	tr_mwu cost_test;
	tr_fleet_verdict often, slow;
	int only;               /* 0 both sides, 1 A only, 2 B only (new) */
} tr_fleet_row;

typedef struct tr_fleet {
	size_t files[2];        /* exposure: report files per side */
	size_t reports[2];      /* Trace_EvilMethod reports per side */
	size_t other[2];        /* other tags, not compared */
	tr_fleet_row *rows;
	size_t nrows, cap;
	tr_index index;         /* (detail, key) -> row */
	size_t tested_rate, tested_cost;
	double alpha, tick_ms;
	tc_buf key;             /* scratch */
} tr_fleet;

int tr_fleet_init(tr_fleet *f, size_t files_a, size_t files_b, tc_error *err);
void tr_fleet_dispose(tr_fleet *f);

/* Counts one parsed report line of side (0 A, 1 B), decoded with m; file and
 * line name it in errors (a malformed stackKey or cost: TC_EFORMAT). */
int tr_fleet_add(tr_fleet *f, int side, const json_val *report, const tr_mapping *m, const char *file, uint64_t line,
                 tc_error *err);

/* Tests and orders the rows (alpha 0: 0.01; tick_ms 0: 5). */
int tr_fleet_finish(tr_fleet *f, double alpha, double tick_ms, tc_error *err);

typedef struct tr_fleet_info {
	const char *const *files[2];
	uint64_t build[2];
	const char *mapping[2];
} tr_fleet_info;

/* The text: a header, the table (up to top rows, 0 all), the new stacks,
 * a sentence per finding. */
int tr_fleet_write_text(FILE *out, const tr_fleet *f, const tr_fleet_info *info, size_t top, tc_error *err);
/* The same as one JSON object, every row. */
int tr_fleet_write_json(FILE *out, const tr_fleet *f, const tr_fleet_info *info, tc_error *err);

#endif

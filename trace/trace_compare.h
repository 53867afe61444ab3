/* trace_compare.h: what got slower between two builds (`tc-trace compare`).
 *
 * Two sides, A (the old build) and B (the new one), each one or more
 * recordings of its build. Every recording is summed per row: per method (calls,
 * total time inside it, a call under another call of it not counted again, and
 * self time), per main-looper message kind (the messages whose handler, the
 * first method dispatchMessage called, is one method) and per section (by
 * name). Rows are matched across the sides by key, the method's name as its
 * build's methodMapping.txt gives it ("class.method desc", original names
 * where tc-instrument was given the ProGuard/R8 mapping.txt), never by id: ids
 * differ between builds. An id without a mapping entry is keyed "#id", which
 * only matches the same id on the other side.
 *
 * Then per row and per metric (total, self): the per-recording means, their
 * difference B - A, and whether it is more than the noise:
 *
 *  - the noise floor: the ring's clock ticks every tick_ms, so a call's time is
 *    known to a tick; a difference under one tick per call (per recording, the
 *    side with more calls) is never a finding;
 *  - with at least 2 recordings per side, the Mann-Whitney U test of the
 *    per-recording figures (trace_stats.h), with Holm's correction over the
 *    rows of one kind past the floor, Cliff's delta as the effect size and the
 *    Hodges-Lehmann shift with its confidence interval;
 *  - with one recording on a side, significance cannot be judged: the rows
 *    are differences only (TR_CMP_UNJUDGED).
 *
 * The tables are in finding order: the significant regressions, the largest
 * first, then the improvements, then what is not significant, then the noise. */
#ifndef TR_COMPARE_H
#define TR_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "tc_runtime.h"
#include "trace_index.h"
#include "trace_mapping.h"
#include "trace_spans.h"
#include "trace_stats.h"

typedef enum tr_cmp_kind { TR_CMP_METHOD, TR_CMP_MESSAGE, TR_CMP_SECTION, TR_CMP_KINDS } tr_cmp_kind;

/* The figures of a row, per recording. */
enum { TR_CMP_CALLS, TR_CMP_TOTAL, TR_CMP_SELF, TR_CMP_FIGURES };

typedef enum tr_cmp_verdict {
	TR_CMP_SLOWER,   /* significant growth */
	TR_CMP_FASTER,   /* significant shrinkage */
	TR_CMP_UNJUDGED, /* past the floor, one recording on a side: cannot be judged */
	TR_CMP_SAME,     /* past the floor, not significant */
	TR_CMP_NOISE,    /* under the noise floor */
} tr_cmp_verdict;

/* One metric (total or self) of a row, compared. */
typedef struct tr_cmp_result {
	double mean[2];     /* ms per recording, A and B */
	double delta_ms;    /* mean B - mean A */
	double rel;         /* delta / mean A (HUGE_VAL when A is 0 and B is not) */
	double floor_ms;    /* one tick per call */
	tr_mwu test;        /* of B against A (n of each >= 2, past the floor) */
	double p_adj;       /* after Holm's correction; 1 when not tested */
	double shift, lo, hi; /* Hodges-Lehmann shift and its confidence interval */
	tr_cmp_verdict verdict;
} tr_cmp_result;

typedef struct tr_cmp_row {
	tr_cmp_kind kind;
	char *key;            /* method: "class.method desc"; message: its handler's key; section: its name */
	double *v;            /* [side][figure][recording]: v[(side * TR_CMP_FIGURES + f) * nmax + rec] */
	double calls[2];      /* mean calls per recording */
	tr_cmp_result r[2];   /* [0] total, [1] self */
	int only;             /* 0 on both sides, else 1 (A only) or 2 (B only) */
} tr_cmp_row;

typedef enum tr_cmp_metric { TR_CMP_BY_TOTAL, TR_CMP_BY_SELF } tr_cmp_metric;

typedef struct tr_cmp_opts {
	double tick_ms;         /* the clock's tick (the ring's resolution); 0: 5 */
	double alpha;           /* 0: 0.01 (a CI gate's false alarm costs more than a late finding) */
	double conf;            /* of the shift's interval; 0: 0.95 */
	tr_cmp_metric by;       /* what orders the methods: self (default) or total */
} tr_cmp_opts;

typedef struct tr_cmp {
	size_t n[2], nmax;      /* recordings per side */
	tr_cmp_row *rows;       /* after tr_cmp_finish: by kind, then in finding order */
	size_t nrows, cap;
	tr_index index;         /* (kind, key) -> row */
	size_t tested[TR_CMP_KINDS][2]; /* rows in each Holm family, per metric */
	tr_cmp_opts o;
	/* the recording being added */
	int side;
	size_t rec;
	uint64_t *acc;          /* per method id: calls, total, self (3 per id) */
	uint32_t *active;       /* per method id: open calls of it on the current path */
	uint32_t *touched;      /* ids with figures */
	size_t ntouched;
	size_t *open, open_cap; /* the spans on the current path */
	uint64_t *kids, kids_cap; /* per span: its children's time */
} tr_cmp;

/* Rows for na and nb recordings. */
int tr_cmp_init(tr_cmp *c, size_t na, size_t nb, tc_error *err);
void tr_cmp_dispose(tr_cmp *c);

/* Adds recording rec (0 up) of side (0 A, 1 B): begin, the spans of each of
 * its threads, then end with its build's mapping (which names its ids and its
 * sections, tr_recording_name_sections). */
void tr_cmp_begin(tr_cmp *c, int side, size_t rec);
int tr_cmp_add_spans(tr_cmp *c, const tr_spans *s, const tr_mapping *m, tc_error *err);
int tr_cmp_end(tr_cmp *c, const tr_mapping *m, tc_error *err);

/* Compares and orders the rows. */
int tr_cmp_finish(tr_cmp *c, const tr_cmp_opts *o, tc_error *err);

/* The result of the metric that orders the table: --by for methods, total
 * for messages and sections (their own time is their total). */
const tr_cmp_result *tr_cmp_by(const tr_cmp *c, const tr_cmp_row *row);

/* What the output says about where the sides came from. */
typedef struct tr_cmp_info {
	const char *const *files[2]; /* the recordings of each side */
	uint64_t build[2];           /* each side's build id (its mapping's; 0 unknown) */
	const char *mapping[2];
} tr_cmp_info;

/* The text table: a header saying what was compared and how, then per kind
 * (methods, messages, sections) up to top rows (0: all) in finding order,
 * then a sentence per significant finding. */
int tr_cmp_write_text(FILE *out, const tr_cmp *c, const tr_cmp_info *info, size_t top, tc_error *err);
/* The same as one JSON object, every row. */
int tr_cmp_write_json(FILE *out, const tr_cmp *c, const tr_cmp_info *info, tc_error *err);

/* A CI gate: a row crosses it when its metric grew by at least min_rel
 * (0.10 for +10%; 0 none) and at least min_ms, past the noise floor, and
 * significantly (or, with one recording on a side, where significance
 * cannot be judged, on the figures alone). */
typedef struct tr_cmp_gate {
	tr_cmp_metric metric;
	double min_rel, min_ms;
	const char *text;            /* as given, for messages */
} tr_cmp_gate;

/* Parses "self:+10%,5ms", "total:+50ms", "self:+20%"; -1 if malformed. */
int tr_cmp_gate_parse(tr_cmp_gate *g, const char *s);
/* Writes a line per row that crosses g to out (prefix first), returns how many. */
size_t tr_cmp_gate_check(const tr_cmp *c, const tr_cmp_gate *g, FILE *out, const char *prefix);

#endif

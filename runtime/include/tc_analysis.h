/* tc_analysis.h: turning recorded events into Matrix's call stack, its
 * stack key and its report strings (TraceDataUtils). Pure functions over
 * caller-owned arrays; no context needed, so tools can analyse a decoded ring.
 *
 * Matrix quirks fixed on purpose (each has a test named quirk_fixed_*):
 *  - an out event with no matching in is dropped; the open methods stay open
 *    (Matrix made an item from the bottom of the stack unless it was DISPATCH)
 *  - a negative duration drops that item, not the whole stack
 *  - a 5000 ms duration merges like any other (Matrix swapped in the sibling's)
 *  - the tree keeps items whose first entry is not at depth 0 (Matrix returned
 *    an empty tree, which emptied every stack taken inside a message)
 *  - the stack key's sort weight is 64-bit (Matrix multiplied ints) */
#ifndef TC_ANALYSIS_H
#define TC_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc_rt_error.h" /* the codes its functions return */

#ifdef __cplusplus
extern "C" {
#endif

#define TC_TRIM_TARGET 30        /* TARGET_EVIL_METHOD_STACK */
#define TC_TRIM_STEP_MS 5        /* TIME_UPDATE_CYCLE_MS: filter k removes items < k*5 ms */
#define TC_TRIM_MAX_PASSES 60    /* FILTER_STACK_MAX_COUNT */
#define TC_NO_END_TIME UINT64_MAX

/* MethodItem. The report line is "depth,methodId,count,durTime". */
typedef struct tc_method_item {
	uint32_t id;
	int32_t dur_ms;
	int32_t depth;
	int32_t count;
} tc_method_item;

/* A growable list of items, owned by whoever declared it. A zeroed stack is
 * empty and valid; tc_stack_dispose frees it and leaves it empty. */
typedef struct tc_stack {
	tc_method_item *items;
	size_t len, cap;
} tc_stack;

void tc_stack_dispose(tc_stack *s);

/* structuredDataToStack (section events are skipped: not methods). Strict: ignores everything before the first
 * DISPATCH in, and closes methods still open at end_ms (same time base as
 * the events). Not strict: drops open methods (pass TC_NO_END_TIME).
 * The result replaces out's contents, in pre-order (parent before children,
 * siblings in call order). Returns TC_RT_OK or TC_RT_ENOMEM. */
int tc_stack_build(tc_stack *out, const uint64_t *events, size_t n, bool strict, uint64_t end_ms);

/* The two steps tc_stack_build ends with, exposed for tests: items in
 * completion order (as addMethodItem leaves them, reversed) -> pre-order. */
int tc_stack_tree_order(tc_stack *s);

/* addMethodItem: merge into the last item or append. */
int tc_stack_add(tc_stack *s, uint32_t id, int32_t dur_ms, int32_t depth);

/* trimStack with Matrix's filter: drop items shorter than k*5 ms, tail
 * first, k = 1..60, until at most target remain; then keep the first target. */
void tc_stack_trim(tc_stack *s, int target);

/* getTreeKey: "id|" of the heaviest item, or "" for an empty stack. buf must
 * hold at least 16 bytes. */
void tc_stack_key(const tc_stack *s, int64_t stack_cost, char *buf, size_t cap);

/* stackToString: the report text ("depth,id,count,dur\n" per item) and the
 * logcat text, each malloc'd (either out pointer may be NULL). Returns the
 * largest duration, or -1 when out of memory. */
int64_t tc_stack_format(const tc_stack *s, char **report, char **logcat);

#ifdef __cplusplus
}
#endif
#endif

/* trace_tree.h: the call tree. Calls of one method under one path merge
 * into one node: its calls, total time (sum of the calls' durations) and
 * self time (total less the children's totals). Built from spans (a ring
 * or a slice of it) or from a report's stack (depth,id,count,dur items). */
#ifndef TR_TREE_H
#define TR_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "tc_error.h"
#include "tc_analysis.h"
#include "tc_runtime.h"
#include "trace_index.h"
#include "trace_spans.h"

typedef struct tr_node {
	uint32_t id;
	uint32_t flags;        /* TR_SPAN_* of any call merged here */
	size_t parent;         /* TR_NONE for the root */
	size_t first_child, next_sibling, last_child; /* TR_NONE-terminated list */
	size_t depth;          /* root 0, its children 1, ... */
	uint64_t total_ms, self_ms, calls;
	uint64_t order;        /* when the first call began (sort key for call order) */
} tr_node;

/* v[0] is the root: it stands for the whole input (id 0, total = the sum
 * of the top-level totals). */
typedef struct tr_tree {
	tr_node *v;
	size_t n, cap;
	tr_index index;        /* (parent, id) -> node */
	size_t max_depth;
} tr_tree;

int tr_tree_from_spans(tr_tree *t, const tr_spans *spans, tc_error *err);
/* The same, and node_of[i] (spans->n entries, or NULL) gets span i's node. */
int tr_tree_from_spans_map(tr_tree *t, const tr_spans *spans, size_t *node_of, tc_error *err);
/* Several threads: a child of the root per thread, with id ids[k] (a
 * pseudo-method the mapping names, tr_mapping_name), and its spans under it;
 * a thread's total is that of its top-level calls. */
int tr_tree_from_threads(tr_tree *t, const tr_spans *const *spans, const uint32_t *ids, size_t n, tc_error *err);
/* Items in pre-order (as in a report's stack); an item's parent is the
 * nearest earlier item with a smaller depth. Negative durations count 0. */
int tr_tree_from_stack(tr_tree *t, const tc_method_item *items, size_t n, tc_error *err);
void tr_tree_dispose(tr_tree *t);

typedef enum tr_order {
	TR_ORDER_TOTAL, /* heaviest first */
	TR_ORDER_CALL,  /* first called first */
	TR_ORDER_CALLS, /* most calls first */
} tr_order;

/* Reorders every node's children (ties: call order). */
int tr_tree_sort(tr_tree *t, tr_order order, tc_error *err);

#endif

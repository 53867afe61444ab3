/* trace_tree.c: see trace_tree.h. Nodes are found by (parent, id) in an
 * open-addressing table, so wide nodes cost no more than narrow ones. */
#include "trace_tree.h"
#include "try.h"

#include <stdlib.h>
#include <string.h>

void tr_tree_dispose(tr_tree *t)
{
	free(t->v);
	tr_index_dispose(&t->index);
	memset(t, 0, sizeof *t);
}

static uint64_t hash_of(const void *ctx, size_t i)
{
	const tr_node *v = ctx;
	return tr_hash_pair(v[i].parent, v[i].id);
}

static int init(tr_tree *t, tc_error *err)
{
	memset(t, 0, sizeof *t);
	t->v = malloc(64 * sizeof *t->v);
	if (!t->v)
		return tc_set(err, TC_ENOMEM, "tree: out of memory");
	t->cap = 64;
	t->n = 1;
	t->v[0] = (tr_node){ 0, 0, TR_NONE, TR_NONE, TR_NONE, TR_NONE, 0, 0, 0, 0, 0 };
	return tr_index_init(&t->index, 256, err);
}

/* The child of parent for id, created if missing; *out gets its index. */
static int child(tr_tree *t, size_t parent, uint32_t id, uint64_t order, size_t *out, tc_error *err)
{
	size_t s = tr_index_slot(&t->index, tr_hash_pair(parent, id)), r;
	for (; (r = t->index.slots[s]) != TR_INDEX_EMPTY; s = tr_index_next(&t->index, s))
		if (t->v[r].parent == parent && t->v[r].id == id) {
			*out = r;
			return TC_OK;
		}
	if (t->n == t->cap) {
		if (t->cap > SIZE_MAX / 2 / sizeof *t->v)
			return tc_set(err, TC_ENOMEM, "tree: out of memory");
		tr_node *v = realloc(t->v, t->cap * 2 * sizeof *v);
		if (!v)
			return tc_set(err, TC_ENOMEM, "tree: out of memory");
		t->v = v;
		t->cap *= 2;
	}
	size_t i = t->n++;
	tr_node *p = &t->v[parent];
	t->v[i] = (tr_node){ id, 0, parent, TR_NONE, TR_NONE, TR_NONE, p->depth + 1, 0, 0, 0, order };
	if (p->last_child == TR_NONE)
		p->first_child = i;
	else
		t->v[p->last_child].next_sibling = i;
	p->last_child = i;
	if (t->v[i].depth > t->max_depth)
		t->max_depth = t->v[i].depth;
	*out = i;
	return tr_index_put(&t->index, s, i, hash_of, t->v, err);
}

/* Self times and the root's total, once the totals are in. Children have
 * larger indexes than their parents, so one backward pass sums them. */
static void finish(tr_tree *t)
{
	uint64_t *kids = calloc(t->n, sizeof *kids);
	if (kids) {
		for (size_t i = t->n; i-- > 1;)
			kids[t->v[i].parent] += t->v[i].total_ms;
		t->v[0].total_ms = kids[0];
		for (size_t i = 0; i < t->n; i++)
			t->v[i].self_ms = t->v[i].total_ms > kids[i] ? t->v[i].total_ms - kids[i] : 0;
	} else {
		/* kept correct without the scratch array, in O(n * children) */
		for (size_t i = 0; i < t->n; i++) {
			uint64_t k = 0;
			for (size_t c = t->v[i].first_child; c != TR_NONE; c = t->v[c].next_sibling)
				k += t->v[c].total_ms;
			if (i == 0)
				t->v[0].total_ms = k;
			t->v[i].self_ms = t->v[i].total_ms > k ? t->v[i].total_ms - k : 0;
		}
	}
	free(kids);
	t->v[0].calls = 1;
}

/* Adds the spans of s under node `under`; map (s->n entries, or NULL) gets span i's node. */
static int add_spans(tr_tree *t, const tr_spans *s, size_t under, size_t *map, tc_error *err)
{
	size_t *node_of = map ? map : malloc((s->n ? s->n : 1) * sizeof *node_of);
	if (!node_of)
		return tc_set(err, TC_ENOMEM, "tree: out of memory");
	int rc = TC_OK;
	for (size_t i = 0; i < s->n && rc == TC_OK; i++) {
		const tr_span *sp = &s->v[i];
		size_t parent = sp->parent == TR_NONE ? under : node_of[sp->parent], nd;
		if ((rc = child(t, parent, sp->id, sp->start_ms, &nd, err)) != TC_OK)
			break;
		t->v[nd].total_ms += sp->end_ms - sp->start_ms;
		t->v[nd].calls++;
		t->v[nd].flags |= sp->flags;
		node_of[i] = nd;
	}
	if (node_of != map)
		free(node_of);
	return rc;
}

int tr_tree_from_spans(tr_tree *t, const tr_spans *s, tc_error *err)
{
	return tr_tree_from_spans_map(t, s, NULL, err);
}

int tr_tree_from_spans_map(tr_tree *t, const tr_spans *s, size_t *map, tc_error *err)
{
	TRY(init(t, err));
	int rc = add_spans(t, s, 0, map, err);
	if (rc != TC_OK) {
		tr_tree_dispose(t);
		return rc;
	}
	finish(t);
	return TC_OK;
}

int tr_tree_from_threads(tr_tree *t, const tr_spans *const *spans, const uint32_t *ids, size_t n, tc_error *err)
{
	TRY(init(t, err));
	int rc = TC_OK;
	for (size_t k = 0; k < n && rc == TC_OK; k++) {
		size_t nd;
		if ((rc = child(t, 0, ids[k], k, &nd, err)) == TC_OK)
			rc = add_spans(t, spans[k], nd, NULL, err);
		if (rc != TC_OK)
			break;
		/* a thread's time is that of what ran on it */
		uint64_t sum = 0;
		for (size_t c = t->v[nd].first_child; c != TR_NONE; c = t->v[c].next_sibling)
			sum += t->v[c].total_ms;
		t->v[nd].total_ms = sum;
		t->v[nd].calls = 1;
	}
	if (rc != TC_OK) {
		tr_tree_dispose(t);
		return rc;
	}
	finish(t);
	return TC_OK;
}

int tr_tree_from_stack(tr_tree *t, const tc_method_item *items, size_t n, tc_error *err)
{
	TRY(init(t, err));
	/* path[k]: the node of the k-th item on the current path, and its depth */
	size_t *path = malloc((n ? n : 1) * sizeof *path);
	int32_t *pdepth = malloc((n ? n : 1) * sizeof *pdepth);
	int rc = TC_OK;
	if (!path || !pdepth)
		rc = tc_set(err, TC_ENOMEM, "tree: out of memory");
	size_t len = 0;
	for (size_t i = 0; i < n && rc == TC_OK; i++) {
		const tc_method_item *it = &items[i];
		while (len > 0 && pdepth[len - 1] >= it->depth)
			len--;
		size_t parent = len ? path[len - 1] : 0, nd;
		if ((rc = child(t, parent, it->id, i, &nd, err)) != TC_OK)
			break;
		t->v[nd].total_ms += it->dur_ms > 0 ? (uint64_t)it->dur_ms : 0;
		t->v[nd].calls += it->count > 0 ? (uint64_t)it->count : 0;
		path[len] = nd;
		pdepth[len++] = it->depth;
	}
	free(path);
	free(pdepth);
	if (rc != TC_OK) {
		tr_tree_dispose(t);
		return rc;
	}
	finish(t);
	return TC_OK;
}

/* qsort has no context argument; the comparison needs the nodes. Sort
 * (key, index) pairs instead. */
typedef struct keyed {
	uint64_t k1, k2;
	size_t i;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
	const keyed *x = a, *y = b;
	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

int tr_tree_sort(tr_tree *t, tr_order order, tc_error *err)
{
	keyed *tmp = malloc(t->n * sizeof *tmp);
	if (!tmp)
		return tc_set(err, TC_ENOMEM, "tree: out of memory");
	for (size_t p = 0; p < t->n; p++) {
		size_t k = 0;
		for (size_t c = t->v[p].first_child; c != TR_NONE; c = t->v[c].next_sibling) {
			const tr_node *nd = &t->v[c];
			uint64_t primary = order == TR_ORDER_TOTAL ? UINT64_MAX - nd->total_ms
			                 : order == TR_ORDER_CALLS ? UINT64_MAX - nd->calls
			                                           : nd->order;
			tmp[k++] = (keyed){ primary, nd->order, c };
		}
		if (k < 2)
			continue;
		qsort(tmp, k, sizeof *tmp, cmp_keyed);
		t->v[p].first_child = tmp[0].i;
		for (size_t j = 0; j + 1 < k; j++)
			t->v[tmp[j].i].next_sibling = tmp[j + 1].i;
		t->v[tmp[k - 1].i].next_sibling = TR_NONE;
		t->v[p].last_child = tmp[k - 1].i;
	}
	free(tmp);
	return TC_OK;
}

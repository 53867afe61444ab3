/* stack_tree.c: stackToTree then treeToStack, in one step. Input: items in
 * completion order (a child completes before its parent). Output: pre-order.
 *
 * Walking completion order backwards visits each parent before its
 * children, last child first. An item's parent is the nearest item on the
 * current path with a smaller depth; adding each child at the front of its
 * parent's list puts siblings back in call order (Matrix's TreeNode.add).
 *
 * Matrix returned an empty tree when the first item it met (the last to
 * complete) was not at depth 0, which happens whenever the copy ends inside a
 * message whose DISPATCH in is still open; and it lost an item whose climb
 * ended on a top-level node. Both attach to the root here. */
#include <stdlib.h>
#include <string.h>

#include "tc_analysis.h"
#include "tc_runtime.h"

typedef struct node {
	size_t first_child, next_sibling; /* indexes, or NONE */
} node;

#define NONE ((size_t)-1)

int tc_stack_tree_order(tc_stack *s)
{
	size_t n = s->len;
	if (n < 2) {
		return TC_RT_OK;
	}
	node *nodes = malloc((n + 1) * sizeof *nodes); /* nodes[n] is the root */
	size_t *path = malloc(n * sizeof *path);
	size_t *todo = malloc(n * sizeof *todo);
	tc_method_item *outv = malloc(n * sizeof *outv);
	if (!nodes || !path || !todo || !outv) {
		free(nodes); free(path); free(todo); free(outv);
		return TC_RT_ENOMEM;
	}
	for (size_t i = 0; i <= n; i++)
		nodes[i].first_child = nodes[i].next_sibling = NONE;

	size_t depth_of_path = 0;
	for (size_t j = n; j-- > 0;) {
		int32_t d = s->items[j].depth;
		while (depth_of_path > 0 && s->items[path[depth_of_path - 1]].depth >= d)
			depth_of_path--;
		size_t parent = depth_of_path ? path[depth_of_path - 1] : n;
		nodes[j].next_sibling = nodes[parent].first_child;
		nodes[parent].first_child = j;
		path[depth_of_path++] = j;
	}

	/* pre-order walk with an explicit stack */
	size_t out = 0, sp = 0;
	for (size_t c = nodes[n].first_child; c != NONE; c = nodes[c].next_sibling)
		todo[sp++] = c;
	/* todo holds siblings in order; reverse so the first pops first */
	for (size_t a = 0, b = sp; a + 1 < b; a++, b--) {
		size_t t = todo[a]; todo[a] = todo[b - 1]; todo[b - 1] = t;
	}
	while (sp > 0) {
		size_t j = todo[--sp];
		outv[out++] = s->items[j];
		size_t mark = sp;
		for (size_t c = nodes[j].first_child; c != NONE; c = nodes[c].next_sibling)
			todo[sp++] = c;
		for (size_t a = mark, b = sp; a + 1 < b; a++, b--) {
			size_t t = todo[a]; todo[a] = todo[b - 1]; todo[b - 1] = t;
		}
	}
	memcpy(s->items, outv, n * sizeof *outv);
	free(nodes); free(path); free(todo); free(outv);
	return TC_RT_OK;
}

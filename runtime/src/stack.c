/* stack.c: the item list, addMethodItem, and structuredDataToStack
 * (Matrix TraceDataUtils), with the quirks listed in tc_analysis.h fixed. */
#include <stdlib.h>
#include <string.h>

#include "tc_analysis.h"
#include "tc_event.h"
#include "tc_runtime.h"

void tc_stack_dispose(tc_stack *s)
{
	free(s->items);
	s->items = NULL;
	s->len = s->cap = 0;
}

static int reserve(tc_stack *s, size_t want)
{
	if (want <= s->cap)
		return TC_RT_OK;
	size_t cap = s->cap ? s->cap : 16;
	while (cap < want) {
		if (cap > SIZE_MAX / 2 / sizeof *s->items)
			return TC_RT_ENOMEM;
		cap *= 2;
	}
	tc_method_item *p = realloc(s->items, cap * sizeof *p);
	if (!p)
		return TC_RT_ENOMEM;
	s->items = p;
	s->cap = cap;
	return TC_RT_OK;
}

/* Items are kept in completion order, so "the front" of Matrix's
 * LinkedList is our last item. */
int tc_stack_add(tc_stack *s, uint32_t id, int32_t dur_ms, int32_t depth)
{
	if (s->len) {
		tc_method_item *last = &s->items[s->len - 1];
		/* Back-to-back calls of one method at one (non-top) level merge.
		 * Matrix replaced a duration of exactly 5000 ms (DEFAULT_ANR) by the
		 * sibling's before merging; we merge the real duration. */
		if (last->id == id && last->depth == depth && depth != 0) {
			last->count++;
			last->dur_ms += dur_ms;
			return TC_RT_OK;
		}
	}
	if (reserve(s, s->len + 1))
		return TC_RT_ENOMEM;
	s->items[s->len++] = (tc_method_item){ id, dur_ms, depth, 1 };
	return TC_RT_OK;
}

static int32_t clamp_ms(int64_t v)
{
	return v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

int tc_stack_build(tc_stack *out, const uint64_t *ev, size_t n, bool strict, uint64_t end_ms)
{
	out->len = 0;
	uint64_t *raw = malloc((n ? n : 1) * sizeof *raw); /* open method-in events */
	if (!raw)
		return TC_RT_ENOMEM;
	size_t top = 0;
	int32_t depth = 0;
	bool begun = !strict;
	int rc = TC_RT_OK;

	for (size_t i = 0; i < n && rc == TC_RT_OK; i++) {
		uint64_t v = ev[i];
		if (v == 0)
			continue;
		bool in = tc_event_is_in(v);
		uint32_t id = tc_event_id(v);
		if (tc_id_is_section(id))
			continue; /* an interval, not a method: it need not nest with them */
		/* Strict mode starts at the first message: what came before belongs
		 * to methods whose beginning we may not have. */
		if (!begun) {
			if (!(in && id == TC_ID_DISPATCH))
				continue;
			begun = true;
		}
		if (in) {
			if (id == TC_ID_DISPATCH)
				depth = 0;
			depth++;
			raw[top++] = v;
			continue;
		}
		/* Find the matching in, topmost first. Ins above it never got their
		 * out (an exception path or a guarded call) and are dropped, as in
		 * Matrix. Without a match the out is dropped and the stack left as it
		 * was; Matrix did so only when the bottom was DISPATCH and otherwise
		 * emptied the stack and made an item from the bottom event. */
		size_t k = top;
		while (k > 0 && tc_event_id(raw[k - 1]) != id)
			k--;
		if (k == 0)
			continue;
		depth -= (int32_t)(top - (k - 1));
		top = k - 1;
		int64_t during = (int64_t)tc_event_time(v) - (int64_t)tc_event_time(raw[top]);
		/* A negative duration is corrupt input: Matrix discarded the whole
		 * result; we drop the one item. */
		if (during < 0)
			continue;
		rc = tc_stack_add(out, id, clamp_ms(during), depth);
	}
	/* Strict mode closes what is still open at end_ms, innermost first, each
	 * at the depth of the entries below it. */
	if (strict && end_ms != TC_NO_END_TIME) {
		while (top > 0 && rc == TC_RT_OK) {
			uint64_t v = raw[--top];
			int64_t during = (int64_t)end_ms - (int64_t)tc_event_time(v);
			if (during < 0)
				continue;
			rc = tc_stack_add(out, tc_event_id(v), clamp_ms(during), (int32_t)top);
		}
	}
	free(raw);
	if (rc == TC_RT_OK)
		rc = tc_stack_tree_order(out);
	return rc;
}

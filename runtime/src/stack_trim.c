/* stack_trim.c: trimStack and getTreeKey (Matrix TraceDataUtils). */
#include <stdio.h>
#include <string.h>

#include "tc_analysis.h"
#include "tc_event.h"

void tc_stack_trim(tc_stack *s, int target)
{
	if (target < 0) {
		s->len = 0;
		return;
	}
	size_t want = (size_t)target;
	/* Pass k drops items shorter than k * 5 ms, walking from the tail (the
	 * deepest, latest calls) to the head, and stops as soon as few enough
	 * remain. */
	for (int k = 1; s->len > want && k <= TC_TRIM_MAX_PASSES; k++) {
		for (size_t i = s->len; i-- > 0;) {
			if (s->items[i].dur_ms < k * TC_TRIM_STEP_MS) {
				memmove(&s->items[i], &s->items[i + 1], (s->len - i - 1) * sizeof *s->items);
				s->len--;
				if (s->len <= want)
					return;
			}
		}
	}
	/* fallback: keep the first `target` items in pre-order */
	if (s->len > want)
		s->len = want;
}

void tc_stack_key(const tc_stack *s, int64_t stack_cost, char *buf, size_t cap)
{
	if (cap == 0)
		return;
	buf[0] = '\0';
	if (s->len == 0)
		return;
	/* Matrix computes the limit in float: (long)(stackCost * 0.3f). */
	int64_t limit = (int64_t)((float)stack_cost * 0.3f);
	const tc_method_item *best = NULL, *second = NULL;
	int64_t best_w = 0, second_w = 0;
	/* Matrix sorts the items >= limit by (depth + 1) * durTime, descending,
	 * stable, and keeps the first (the second if the first is DISPATCH and
	 * there is another). Only the top two matter; ties keep list order. The
	 * weight is 64-bit here (Matrix's int product could overflow). */
	for (size_t i = 0; i < s->len; i++) {
		const tc_method_item *it = &s->items[i];
		if (it->dur_ms < limit)
			continue;
		int64_t w = (int64_t)(it->depth + 1) * it->dur_ms;
		if (!best || w > best_w) {
			second = best; second_w = best_w;
			best = it; best_w = w;
		} else if (!second || w > second_w) {
			second = it; second_w = w;
		}
	}
	const tc_method_item *pick = best;
	if (!pick)
		pick = &s->items[0];
	else if (pick->id == TC_ID_DISPATCH && second)
		pick = second;
	snprintf(buf, cap, "%u|", (unsigned)pick->id);
}

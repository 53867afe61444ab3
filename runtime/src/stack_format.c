/* stack_format.c: stackToString, the report's "stack" value and the logcat
 * lines (MethodItem.toString and MethodItem.print). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "tc_analysis.h"

int64_t tc_stack_format(const tc_stack *s, char **report, char **logcat)
{
	strbuf r, l;
	sb_init(&r);
	sb_init(&l);
	int64_t max = 0;
	sb_puts(&l, "|*\t\tTraceStack:\n|*\t\t[id count cost]\n");
	for (size_t i = 0; i < s->len; i++) {
		const tc_method_item *it = &s->items[i];
		sb_printf(&r, "%d,%u,%d,%d\n", it->depth, (unsigned)it->id, it->count, it->dur_ms);
		sb_puts(&l, "|*\t\t");
		for (int32_t d = 0; d < it->depth; d++)
			sb_putc(&l, '.');
		sb_printf(&l, "%u %d %d\n", (unsigned)it->id, it->count, it->dur_ms);
		if (it->dur_ms > max)
			max = it->dur_ms;
	}
	if (r.failed || l.failed) {
		sb_dispose(&r);
		sb_dispose(&l);
		return -1;
	}
	if (report)
		*report = sb_take(&r);
	if (logcat)
		*logcat = sb_take(&l);
	sb_dispose(&r);
	sb_dispose(&l);
	return max;
}

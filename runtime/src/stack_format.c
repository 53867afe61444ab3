/* stack_format.c: stackToString, the report's "stack" value and the logcat
 * lines (MethodItem.toString and MethodItem.print). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "tc_analysis.h"

int64_t tc_stack_format(const tc_stack *s, char **report, char **logcat)
{
	tc_buf r, l;
	buf_init(&r);
	buf_init(&l);
	int64_t max = 0;
	buf_puts(&l, "|*\t\tTraceStack:\n|*\t\t[id count cost]\n");
	for (size_t i = 0; i < s->len; i++) {
		const tc_method_item *it = &s->items[i];
		buf_printf(&r, "%d,%u,%d,%d\n", it->depth, (unsigned)it->id, it->count, it->dur_ms);
		buf_puts(&l, "|*\t\t");
		for (int32_t d = 0; d < it->depth; d++)
			buf_putc(&l, '.');
		buf_printf(&l, "%u %d %d\n", (unsigned)it->id, it->count, it->dur_ms);
		if (it->dur_ms > max)
			max = it->dur_ms;
	}
	if (r.err || l.err) {
		buf_free(&r);
		buf_free(&l);
		return -1;
	}
	if (report)
		*report = buf_take_str(&r);
	if (logcat)
		*logcat = buf_take_str(&l);
	buf_free(&r);
	buf_free(&l);
	return max;
}

/* trace_report.h: the report lines the runtime appends to reportPath (one
 * JSON object per line; runtime/README.md, "Reports"), with their stack and
 * stack key decoded into method names.
 *
 *   stack     Matrix's "depth,methodId,count,durTime\n" lines, pre-order
 *   stackKey  "methodId|" (Matrix's deprecated form repeats it: "1|2|3|")
 *
 * JSON output keeps every member as it was and adds, right after its
 * source, "stackDecoded" (an array of {depth,id,name,count,durMs}) and
 * "stackKeyDecoded" (the key with names for ids: "com.x.Main.run ()V|").
 * Text output is for people: the tag and detail, the scalar members, the
 * key and the stack as an indented tree, the thread stack. */
#ifndef TR_REPORT_H
#define TR_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "tc_analysis.h"
#include "tc_runtime.h"
#include "json_read.h"
#include "trace_mapping.h"

/* Parses a stack text into items. On a malformed line returns TC_EFORMAT
 * with its 1-based number in *bad_line and the reason in why. */
int tr_stack_parse(tc_stack *out, const char *s, size_t n, size_t *bad_line, char *why, size_t cap);

/* Parses a stack key into ids (malloc'd; *n may be 0). TC_EFORMAT with the
 * byte offset in *bad_off when it is not "id|" repeated. */
int tr_key_parse(uint32_t **ids, size_t *n, const char *s, size_t len, size_t *bad_off);

typedef struct tr_report_opts {
	const tr_mapping *map;
	int text;          /* 0: JSON lines; 1: text */
} tr_report_opts;

/* Writes one parsed report line. file and line name it in errors and in
 * the text output. */
int tr_report_write(FILE *out, const json_val *report, const char *file, uint64_t line, const tr_report_opts *o,
                    tc_error *err);

/* Appends a stack as JSON: [{depth,id,name,count,durMs}...] ("stackDecoded"). */
void tr_stack_put_json(tc_buf *sb, const tc_stack *st, const tr_mapping *m);

/* Appends a stack as text: "ms calls method" rows, indented by depth. */
void tr_stack_put_text(tc_buf *sb, const tc_stack *st, const tr_mapping *m, const char *indent);

/* Reads a report line's stack into items (none if it has no "stack"). */
int tr_report_stack(tc_stack *out, const json_val *report, const char *file, uint64_t line, tc_error *err);

#endif

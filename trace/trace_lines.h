/* trace_lines.h: reading a text file one line at a time, in bounded memory
 * (a report file may be gigabytes; a line may not be longer than max_len).
 * A line may hold any byte, NUL included; the terminating "\n" and a "\r"
 * before it are not part of it. The reader borrows the FILE and the name. */
#ifndef TR_LINES_H
#define TR_LINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "bytes.h"
#include "tc_runtime.h"

#define TR_LINE_MAX_DEFAULT ((size_t)64 << 20)

typedef struct tr_lines {
	FILE *f;
	const char *name;     /* for messages */
	size_t max_len;
	unsigned char *blk;   /* read-ahead block */
	size_t blk_pos, blk_len;
	tc_buf line;          /* the current line, NUL-terminated (line.str) */
	uint64_t line_no;     /* of the current line, 1-based */
	uint64_t offset;      /* byte offset of the current line's start */
	uint64_t next_offset;
	int eof;
} tr_lines;

void tr_lines_init(tr_lines *lr, FILE *f, const char *name, size_t max_len);
/* 1 with the next line in *s / *n (valid until the next call), 0 at the
 * end of the file, or a negative code (read error, line too long). */
int tr_lines_next(tr_lines *lr, const char **s, size_t *n, tc_error *err);
void tr_lines_dispose(tr_lines *lr);

#endif

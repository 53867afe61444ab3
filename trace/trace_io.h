/* trace_io.h: tc-trace's files: the earlier run's ring, and writing an output
 * file through a temporary one renamed into place, so that a failed run
 * leaves no half-written output. */
#ifndef TR_IO_H
#define TR_IO_H

#include <stdio.h>

#include "tc_error.h"
#include "tc_ringfile.h"
#include "tc_runtime.h"

/* The launch after a run keeps that run's ring as PATH.prev (runtime/README.md, "The ring
 * and its file format"): PATH.prev, malloc'd, when it exists and path is not itself a
 * .prev; else NULL. The programs say so, since the run a user looks for (a killed one)
 * may be that one. */
char *tr_prev_ring(const char *path);

typedef struct tr_output {
	FILE *f;
	char *path;       /* NULL for standard output */
	char *tmp;        /* NULL when writing to path directly */
} tr_output;

/* path NULL or "-": standard output; an existing path that is not a
 * regular file (/dev/null, a FIFO) is written directly. */
int tr_output_open(tr_output *o, const char *path, tc_error *err);
/* Flushes and closes; renames the temporary file into place. */
int tr_output_commit(tr_output *o, tc_error *err);
/* Closes and removes the temporary file. Safe after commit and twice. */
void tr_output_abort(tr_output *o);

#endif

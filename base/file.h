/* Whole files and regular files: the one reader every layer uses.
 *
 * Errors go through tc_fail with the path as the part ("PATH: cannot open: ..."): a
 * caller whose messages say where by themselves (the runtime, tc-trace) formats the
 * record with tc_error_format. */
#ifndef TC_FILE_H
#define TC_FILE_H

#include <stdint.h>
#include <sys/types.h>

#include "bytes.h"
#include "tc_error.h"

/* Opens a regular file for reading, never blocking (a FIFO is refused, not waited on),
 * whose size is at most max bytes (UINT64_MAX: any). Beyond, TC_ELIMIT: "N bytes, more
 * than the input limit of M MB (OPTION)", OPTION naming what sets the limit (NULL: not
 * said). Returns the descriptor and *size, or a negative status with err set. */
int tc_file_open(const char *path, uint64_t max, const char *option, uint64_t *size, tc_error *err);
/* Reads a whole regular file into buf (tc_file_open's rules; buf is cleared first). The
 * size it had when opened is read: a file that grows meanwhile is not read past it. */
int tc_file_read(const char *path, tc_buf *buf, uint64_t max, const char *option, tc_error *err);
/* "a FIFO", "a directory", ... for messages. */
const char *tc_file_kind(mode_t mode);

#endif

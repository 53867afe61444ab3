/* Helpers shared by the compiler's unit tests: temporary directories and files, and
 * running tc_instrument() on them. Test code: failures abort through Criterion. */
#ifndef TC_CTEST_H
#define TC_CTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc_error.h"

/* A fresh directory under $TMPDIR (or /tmp); the caller frees the string. */
char *ct_tmpdir(void);
/* dir/rel, malloc'd. */
char *ct_path(const char *dir, const char *rel);
/* Writes a file, creating its parent directories. */
void ct_write(const char *path, const void *data, size_t len);
void ct_write_str(const char *path, const char *text);
/* The whole file NUL-terminated (len excludes the NUL), or NULL when it cannot be read. */
char *ct_read(const char *path, size_t *len);
bool ct_exists(const char *path);
void ct_rm_rf(const char *path);
/* tc_error_format into a static buffer (one test thread). */
const char *ct_err(const tc_error *err);
/* Number of lines of text (a last line without '\n' counts). */
size_t ct_lines(const char *text);

#endif

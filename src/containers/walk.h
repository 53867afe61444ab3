/* Class files named on a command line: a .class file, a directory (walked recursively,
 * in byte order of the relative paths, so output does not depend on the file system)
 * or a jar (its .class entries in archive order). */
#ifndef TC_WALK_H
#define TC_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bytes.h"
#include "tc_error.h"
#include "pipeline/instrument.h"

/* Called once per class file with a label ("dir/a/B.class" or "x.jar!a/B.class").
 * A non-zero return stops the walk and is returned. */
typedef int (*walk_fn)(void *ctx, const char *label, const uint8_t *data, size_t len);

/* Walks path. I/O and archive errors are reported through err and returned; errors
 * inside one class are the callback's business. */
int walk_classes(const char *path, walk_fn fn, void *ctx, tc_error *err);
/* The same, with dex files too (*.dex files, entries and a file named on its own). */
int walk_classes_and_dex(const char *path, walk_fn fn, void *ctx, tc_error *err);

/* dst = a + sep + b (sep may be ""), truncated to size; returns the length it needed.
 * For the paths built per file, where printf's parsing costs more than the copy. */
size_t walk_path_join(char *dst, size_t size, const char *a, const char *sep, const char *b);

/* Lists regular files under dir (relative paths, '/'-separated), sorted by strcmp.
 * *out is a malloc'd array of malloc'd strings; free with walk_free_list. */
int walk_list_files(const char *dir, char ***out, size_t *n, tc_error *err);
void walk_free_list(char **list, size_t n);

#endif

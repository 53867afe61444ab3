/* A ProGuard or R8 mapping.txt, for retracing obfuscated names to the original ones.
 *
 * Understood: class lines "orig -> obf:", method lines "[a:b:]ret name(args)[:c[:d]] -> obf"
 * (R8 line ranges), field lines (ignored), '#' comment and metadata lines, inlined-frame
 * lines whose original name is qualified by another class (ignored: they describe call
 * sites, not methods), and mappings into the default package (-repackageclasses '').
 * All names given and returned here are in internal form ("a/b/C", "(La/b/C;)V"). The
 * map is immutable once loaded and may be shared by threads. */
#ifndef TC_PROGUARD_H
#define TC_PROGUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "tc_error.h"

typedef struct pg_map pg_map;

int pg_load(pg_map **out, const char *path, tc_error *err);
int pg_parse(pg_map **out, const char *text, size_t len, const char *label, tc_error *err);
void pg_free(pg_map *m);

/* The original name of an obfuscated class, or NULL when the mapping does not list it. */
const char *pg_class(const pg_map *m, const char *obf);
/* The obfuscated name of an original class, or NULL. */
const char *pg_obfuscate_class(const pg_map *m, const char *orig);

/* Retraces a method of obfuscated class `cls`: writes the original name and
 * descriptor. Methods the mapping does not list keep their name; the class names in
 * their descriptor are still retraced. Returns false only when a buffer is too small. */
bool pg_method(const pg_map *m, const char *cls, const char *name, const char *desc,
               char *name_out, size_t name_size, char *desc_out, size_t desc_size);

/* Retraces the class names inside a descriptor. */
bool pg_desc(const pg_map *m, const char *desc, char *out, size_t size);

size_t pg_class_count(const pg_map *m);

#endif

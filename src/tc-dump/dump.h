/* A stable, diff-friendly text form of a class file: header, constant pool, members,
 * code with offsets, exception table, stack-map frames, line numbers, local variables.
 * The same input always prints the same text; golden tests depend on it. */
#ifndef TC_DUMP_H
#define TC_DUMP_H

#include <stdio.h>

#include "classfile.h"

/* Prints cls. Problems inside one method's code are printed in place ("! error: ...")
 * and counted; the return value is the number of such problems. */
int dump_class(FILE *out, cf_class *cls, arena *scratch);

/* Prints a dex file (dump_dex.c): classes, members, code with every id resolved, tries,
 * debug events; no file offsets, so equal content prints equal text. Returns the
 * number of problems printed in place. */
struct dex_file;
int dump_dex(FILE *out, const struct dex_file *d);

#endif

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

#endif

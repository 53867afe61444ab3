/* A program's command-line options as one table (tc-instrument, tc-trace): a row per
 * option, its long name, its short one, whether it takes a value and the commands it
 * applies to. The program walks argv, finds each argument's row with tc_opt_find and acts
 * on the row it found; the table is what its usage text documents. */
#ifndef TC_OPT_H
#define TC_OPT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct tc_opt {
	const char *l, *s; /* "--long", and "-s" or NULL */
	int arg;           /* takes a value */
	int cmds;          /* the commands it applies to, a bit each (a program of one command: 1) */
} tc_opt;

/* The index of the row whose long name is name, or (unless long_only) whose short name
 * is; -1 for none. */
int tc_opt_find(const tc_opt *table, size_t n, const char *name, bool long_only);

#endif

/* Which files and methods are worth tracing (Matrix's filters, see
 * shared/reference/matrix-build.md), separate from the block list.
 *
 * File filter: generated Android classes are never traced: R, R$*, Manifest,
 * Manifest$*, BuildConfig, BuildConfig$*. Matrix tested whether the path contained
 * "R.class", "R$", "Manifest" or "BuildConfig" anywhere, which also skipped ordinary
 * classes such as HeapByteBufferR or CurrencyNames_es_BR; we test the simple name.
 *
 * Method filter, on the method's instructions: a method is not traced when it has
 * none (abstract, native), when it is a plain accessor (only field access, returns,
 * constants, loads and array loads; one invokespecial allowed in a constructor), or
 * when it calls nothing. */
#ifndef TC_FILTER_H
#define TC_FILTER_H

#include <stdbool.h>

#include "classfile.h"

enum filter_verdict {
	FILTER_TRACE = 0,
	FILTER_EMPTY,   /* no instruction at all */
	FILTER_GETSET,  /* accessor or trivial constructor */
	FILTER_SINGLE,  /* makes no call */
};

/* Whether a file or jar entry name ("a/b/C.class") is a class worth looking at. */
bool filter_file(const char *name);

/* The verdict for method m, from its code. Malformed code is an error. */
int filter_method(const cf_class *cls, const cf_member *m, enum filter_verdict *out, cf_error *err);

const char *filter_name(enum filter_verdict v);

#endif

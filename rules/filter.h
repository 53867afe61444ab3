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
 * when it calls nothing.
 *
 * Both formats reach the decision through one neutral view of the method's
 * instructions (filter_view), so that Matrix's rule is stated once. For Dalvik
 * instructions the rule reads: accessor-like are nop, move, move-wide, move-object (not
 * move-result, not move-exception: Dalvik has no loads and stores, its moves stand for
 * both), return*, const*, aget*, iget*, iput*, sget*, sput*; the constructor's one
 * allowed call is an invoke-direct or invoke-super (JVM invokespecial); every invoke
 * (polymorphic and custom included) is a call. d8 rewrites some code (a local copied
 * and returned becomes one register, a non-capturing lambda becomes a static field
 * read), so a method's verdict can differ between its class file and its dex form. */
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

/* A method as the filter sees it, whatever its format. */
typedef struct filter_view {
	bool code;         /* has instructions (not abstract, not native) */
	bool ctor;         /* an instance initializer (<init>) */
	uint32_t other;    /* instructions neither accessor-like nor calls */
	uint32_t special;  /* invokespecial; invoke-direct, invoke-super */
	uint32_t invoke;   /* every other call */
} filter_view;

enum filter_verdict filter_decide(const filter_view *v);

/* Whether a file or jar entry name ("a/b/C.class") is a class worth looking at. */
bool filter_file(const char *name);

/* The verdict for method m, from its code. Malformed code is an error. */
int filter_method(const cf_class *cls, const cf_member *m, enum filter_verdict *out, tc_error *err);

/* The verdict for a dex method (m of the model d; name tells a constructor). */
struct dex_file;
struct dex_emethod;
int filter_dex_method(const struct dex_file *d, const struct dex_emethod *m, enum filter_verdict *out,
                      tc_error *err);

const char *filter_name(enum filter_verdict v);

#endif

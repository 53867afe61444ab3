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
 * Inlining filter (ours, off unless a rule file says `-keepinlinable N`, rules.h): a
 * class-file method that calls something and whose bytecode fits the JIT's inlining limit
 * N (HotSpot's MaxInlineSize, 35 bytes) but would not once its probes are added
 * (FILTER_PROBE_BYTES) is not traced either. Such a method is inlined into its callers
 * untraced and stops being inlined traced, so its probes cost far more than the two
 * events they record (bench/runtime/javac/inlining.sh measures it); what it calls is
 * still traced, under its caller. For a dex method the limits are ART's, whose inliner
 * (art/compiler/optimizing/inliner.cc) refuses a callee for rules the probes change:
 *   - code units: more than inline_max_code_units (M, 32 by default: rules.h). The size
 *     with probes is not a bound but measured: the method is hooked as inject_dex.c
 *     would (dex_hook_apply, register moves, payload padding and branch growth included),
 *     once with an id of const/16 (up to 32767) and once with one of const (3 code units,
 *     one more per probe). A method that fits only with the narrow id is traced with
 *     *narrow set: the ids are given later, and one that gets an id past 32767 is left
 *     out then (collect.c).
 *   - the try item of the probes' catch-all: before ART 14 (API 34) no callee with one is
 *     inlined, so every method that is inlinable without probes is left out; from ART 14
 *     on a callee with one is not inlined at a call site in a try block nor where ART
 *     finds it by class hierarchy analysis or an inline cache, so a virtual method that
 *     neither it nor its class declares final is left out (it would be inlined only
 *     where the receiver's exact class is known).
 * A method that ART would not inline without its probes either is traced: none up to API
 * 23, none without a return, none with a try item of its own before API 34, none with a
 * throw or an invoke-interface on Android 7 (API 24, 25). What the probes change but the
 * method alone does not decide is not modelled: their registers count towards the budget
 * of what the method's own body inlines (kMaximumNumberOfCumulatedDexRegisters counts the
 * caller's chain, never the callee being decided), call sites inside a try block, the
 * caller's instruction budget (kMaximumNumberOfTotalInstructions, past which only callees
 * of 3 instructions are inlined), a caller with irreducible loops or no exit (which takes
 * no callee ending in a throw) and the JIT's baseline tier (kBaselineInlineMaxCodeUnits).
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
	FILTER_INLINE,  /* inlinable, and would not be with its probes (-keepinlinable) */
};

/* The most the probes add to a class-file method's code (src/inject/inject.c): the
 * entry's push of the id (at most 3 bytes) and invokestatic i (3), the same before each
 * return, the catch-all handler (push, invokestatic o, athrow), and up to 3 bytes of
 * padding more for each tableswitch or lookupswitch the insertions move. */
#define FILTER_PROBE_ENTRY 6u
#define FILTER_PROBE_RETURN 6u
#define FILTER_PROBE_HANDLER 7u
#define FILTER_PROBE_SWITCH 3u

/* A method as the filter sees it, whatever its format. */
typedef struct filter_view {
	bool code;         /* has instructions (not abstract, not native) */
	bool ctor;         /* an instance initializer (<init>) */
	uint32_t other;    /* instructions neither accessor-like nor calls */
	uint32_t special;  /* invokespecial; invoke-direct, invoke-super */
	uint32_t invoke;   /* every other call */
	uint32_t size;     /* the code's length (bytes; 0 for dex: not measured) */
	uint32_t returns;  /* return instructions */
	uint32_t switches; /* tableswitch, lookupswitch */
	uint32_t traced;   /* dex: the code units once hooked (0: not measured) */
} filter_view;

/* The verdict; inline_limit is -keepinlinable's N, 0 when there is none. */
enum filter_verdict filter_decide(const filter_view *v, uint32_t inline_limit);

/* The size of v's code once instrumented: v->traced when measured, else at most
 * (FILTER_PROBE_*). */
uint32_t filter_traced_size(const filter_view *v);

/* Whether a file or jar entry name ("a/b/C.class") is a class worth looking at. */
bool filter_file(const char *name);

/* The verdict for method m, from its code (inline_limit as filter_decide's). Malformed
 * code is an error. */
int filter_method(const cf_class *cls, const cf_member *m, uint32_t inline_limit, enum filter_verdict *out,
                  tc_error *err);

/* The ART modelled for dex methods (-keepinlinable's M and API, rules.h). */
typedef struct filter_art {
	uint32_t units; /* inline_max_code_units; 0: no dex method is left out */
	uint32_t api;   /* the API level of the ART release */
} filter_art;

/* The first ART releases, as API levels, whose inliner (compiler/optimizing/inliner.cc)
 * inlines a method that calls something (Android 7), takes a callee with a throw or an
 * invoke-interface (Android 8) and takes one with a try item (Android 14: kInlineTryCatches). */
#define FILTER_ART_INLINER_API 24u
#define FILTER_ART_8_API 26u
#define FILTER_ART_TRY_API 34u

/* The verdict for a dex method (m of the model d, of a class with class_flags; its name
 * tells a constructor) under art. focus says m also gets the at() call (an
 * onWindowFocusChanged(Z)V override); scratch is reset and used to measure m hooked;
 * *narrow: see above (false unless traced). */
struct dex_file;
struct dex_emethod;
struct arena;
int filter_dex_method(const struct dex_file *d, const struct dex_emethod *m, uint32_t class_flags,
                      const filter_art *art, bool focus, struct arena *scratch, enum filter_verdict *out,
                      bool *narrow, tc_error *err);

const char *filter_name(enum filter_verdict v);

#endif

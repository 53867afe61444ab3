/* trace_error.h: tc-trace's error record and its one funnel.
 *
 * A fallible function returns TC_OK (0) or a negative TC_E* code
 * (tc_runtime.h) and fills a caller-owned tr_error. The message already
 * names where the problem is: "FILE:LINE: ..." for text inputs,
 * "FILE:LINE:COL: ..." inside a JSON line, "FILE: ring at byte N: ..." for
 * a ring file. Callers propagate it unchanged. */
#ifndef TR_ERROR_H
#define TR_ERROR_H

#include "tc_runtime.h"

#if defined(__GNUC__)
#define TR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TR_PRINTF(a, b)
#endif

typedef struct tr_error {
	int code;
	char message[512];
} tr_error;

/* Fills err (if not NULL) and returns code. */
int tr_fail(tr_error *err, int code, const char *fmt, ...) TR_PRINTF(3, 4);

#define TR_TRY(expr) do { int tr_rc_ = (expr); if (tr_rc_ < 0) return tr_rc_; } while (0)

#endif

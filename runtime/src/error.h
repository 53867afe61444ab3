/* error.h: the one funnel every error passes through. */
#ifndef TC_ERROR_INTERNAL_H
#define TC_ERROR_INTERNAL_H

#include "tc_runtime.h"

#if defined(__GNUC__)
#define TC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TC_PRINTF(a, b)
#endif

/* Fills err (if not NULL) and returns code, so callers write
 * `return tc_fail(err, TC_EIO, "open %s: %s", path, strerror(errno));`. */
int tc_fail(tc_error *err, int code, const char *fmt, ...) TC_PRINTF(3, 4);

#define TRY(expr) do { int try_rc_ = (expr); if (try_rc_ < 0) return try_rc_; } while (0)

#endif

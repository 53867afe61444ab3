/* rt_error.h: filling the runtime's error record (tc_rt_error.h), inside
 * runtime/src. */
#ifndef TC_RT_ERROR_INTERNAL_H
#define TC_RT_ERROR_INTERNAL_H

#include "tc_rt_error.h"

#if defined(__GNUC__)
#define TC_RT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TC_RT_PRINTF(a, b)
#endif

/* Sets code and a formatted message, replacing an error already set; err
 * may be NULL, and fmt's arguments may be read from err itself ("%s: %s",
 * path, err->message). Returns code. */
int tc_rt_set(tc_rt_error *err, int code, const char *fmt, ...) TC_RT_PRINTF(3, 4);

#endif

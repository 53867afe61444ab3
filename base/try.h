/* try.h: the one propagation macro, for .c files only (never included by a header, so
 * it never reaches a user of a public one). */
#ifndef TC_TRY_H
#define TC_TRY_H

/* Returns from the calling function when expr is negative. */
#define TRY(expr) do { int try_rc_ = (expr); if (try_rc_ < 0) return try_rc_; } while (0)

#endif

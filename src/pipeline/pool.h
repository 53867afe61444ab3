/* A fixed set of worker threads taking indices from a shared counter. Work items must
 * be independent; results go into per-item slots, so the outcome does not depend on
 * which thread ran which item. */
#ifndef TC_POOL_H
#define TC_POOL_H

#include <stddef.h>

/* Called for each index; `worker` is 0..threads-1 and names per-thread scratch state.
 * A non-zero return stops the other workers from taking new items. */
typedef int (*pool_fn)(void *ctx, size_t index, int worker);

/* Runs fn for every index in [0, n) on `threads` threads (the caller counts as one).
 * Returns the first non-zero result of fn, or 0. */
int pool_run(int threads, size_t n, pool_fn fn, void *ctx);

/* Online processors, at least 1. */
int pool_cpus(void);

#endif

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

/* Work that the items make as they run (a large entry's parts to deflate): pushed by
 * fn, taken by any worker once every item is taken, so that a worker with no item left
 * helps with what the others made instead of waiting for them. */
typedef struct pool_queue pool_queue;
pool_queue *pool_queue_new(void);
void pool_queue_free(pool_queue *q);
/* Adds one index for qfn; thread-safe. -1 when out of memory (nothing was added). */
int pool_queue_push(pool_queue *q, size_t index);
/* pool_run, and then qfn for every index pushed on q (q may be NULL: pool_run) until the
 * items are done and q is empty; the first non-zero result of either stops both. */
int pool_run_queue(int threads, size_t n, pool_fn fn, pool_queue *q, pool_fn qfn, void *ctx);

/* Online processors, at least 1. */
int pool_cpus(void);

#endif

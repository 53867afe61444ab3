/* threads.h: the rings of the threads other than the recording thread
 * (threads = all; the thread file in tc_ringfile.h). One region, made once
 * for max rings of one capacity, never moved or unmapped while the process
 * lives: a thread's ring is handed out at its first event and its writers
 * (the Java writer of that thread) keep its address. So a thread's writes
 * take no lock and allocate nothing; handing a ring out takes the set's lock
 * once per thread. A thread that finds every ring taken is not recorded: it
 * and its events are counted in the header. */
#ifndef TC_THREADS_H
#define TC_THREADS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "region.h"
#include "ring.h"

#define TC_SECTION_DEPTH 32 /* open sections per thread; deeper ones are not recorded */

/* Open sections of one thread, innermost last: their ids, or 0 for one
 * begun too deep to be recorded (its end is not either). */
typedef struct section_stack {
	uint32_t id[TC_SECTION_DEPTH];
	size_t n;
} section_stack;

struct thread_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;
	uint32_t byte_order;
	uint32_t max_threads;
	uint64_t ring_size;
	uint64_t time_base_ns;
	uint64_t wall_base_ms;
	uint32_t pid;
	_Atomic uint32_t used;
	_Atomic uint64_t refused;
	_Atomic uint64_t dropped;      /* offset 64 */
	char pad1[56];
	_Atomic uint64_t now_ms;       /* offset 128 */
	_Atomic uint32_t ticking;
	char pad2[116];
};

/* One thread's ring, as its C writers (tc_record on that thread) use it. */
typedef struct thread_ring {
	ring ring;                     /* a view on its part of the region */
	bool in_record;                /* re-entrancy guard, its thread only */
	section_stack sections;        /* its thread only */
	struct thread_ring *next;
} thread_ring;

typedef struct thread_set {
	region mem;
	struct thread_header *hdr;     /* mem.base */
	uint32_t max;
	uint64_t capacity;             /* events per ring */
	ring_params params;            /* what every ring's header says */
	pthread_key_t key;             /* the calling thread's thread_ring */
	bool key_made;
	pthread_mutex_t mu;            /* handing rings out; status changes */
	thread_ring *list;             /* every ring handed out */
	thread_ring refused;           /* the key's value for a thread that got none */
} thread_set;

/* p gives the time base, pid and resolution of every ring (p->capacity and
 * p->path are not used): a file at path (region.h; an earlier run's file
 * there goes to p->prev_path), or memory. */
int threads_open(thread_set *t, const char *path, uint32_t max, uint64_t capacity, const ring_params *p,
                 tc_error *err);
int threads_publish(thread_set *t, tc_error *err);
/* Frees the C side and retires the region (region_retire): writers on other
 * threads may hold its addresses. A zeroed set is fine. */
void threads_close(thread_set *t);

/* The calling thread's ring, handed out at its first call with the status
 * *status has then (the context's, read under the lock threads_set_status
 * takes) and named name (NULL: its system name; a later non-NULL name
 * renames it), or &t->refused when every ring is taken. */
thread_ring *threads_here(thread_set *t, const _Atomic int *status, const char *name);
/* Every ring's status (the context's, mirrored). */
void threads_set_status(thread_set *t, int status);

static inline void threads_set_now(thread_set *t, uint64_t ms)
{
	atomic_store_explicit(&t->hdr->now_ms, ms, memory_order_relaxed);
}

/* On: release, after the clock word was set (dispatch begin refreshes it). */
static inline void threads_set_ticking(thread_set *t, bool on)
{
	atomic_store_explicit(&t->hdr->ticking, on, memory_order_release);
}

#endif

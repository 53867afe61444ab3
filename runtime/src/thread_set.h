/* thread_set.h: the rings of the threads other than the recording thread
 * (threads = all; the thread file in tc_ringfile.h). One region, made once
 * for max rings of one capacity, never moved or unmapped while the process
 * lives. A thread's ring is handed out at its first event (or when a staged
 * writer attaches), and a thread's writes take no lock and allocate nothing;
 * handing a ring out takes the set's lock once per thread. When a thread
 * ends (a TLS destructor marks its ring), its ring can be handed out again:
 * a thread that finds no ring free first takes the never-used ones, then the
 * one whose thread ended longest ago, with a new generation. A thread that
 * finds every ring in use is not recorded: it and its events are counted in
 * the header. */
#ifndef TC_THREAD_SET_H
#define TC_THREAD_SET_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ring_region.h"
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
	uint64_t handed;               /* offset 72 */
	char pad1[48];
	_Atomic uint64_t now_ms;       /* offset 128 */
	_Atomic uint32_t ticking;
	char pad2[116];
};

/* One thread's ring, as its C writers (tc_record on that thread) and the
 * set use it. */
typedef struct thread_ring {
	ring ring;                     /* a view on its part of the region */
	bool in_record;                /* re-entrancy guard, its thread only */
	section_stack sections;        /* its thread only */
	tc_feed feed;                  /* a staged writer's, under the set's mu */
	bool has_feed;
	uint64_t seen;                 /* its count at the clock thread's last look */
} thread_ring;

typedef struct thread_set {
	ring_region mem;
	struct thread_header *hdr;     /* mem.base */
	uint32_t max;
	uint64_t capacity;             /* events per ring */
	ring_params params;            /* what every ring's header says */
	pthread_key_t key;             /* the calling thread's ring header, or a mark for "refused" */
	bool key_made;
	pthread_mutex_t mu;            /* handing rings out, feeds, status changes */
	thread_ring *rings;            /* max of them: ring k is the region's k-th */
	uint32_t used;                 /* rings handed out at least once (the header's used) */
	char *globs;                   /* thread_set_filter's, under mu */
	tc_thread_filter filter;
	void *filter_user;
} thread_set;

/* p gives the time base, pid and resolution of every ring (p->capacity and
 * p->path are not used): a file at path (ring_region.h; an earlier run's file
 * there goes to p->prev_path), or memory. */
int thread_set_open(thread_set *t, const char *path, uint32_t max, uint64_t capacity, const ring_params *p,
                 tc_rt_error *err);
int thread_set_publish(thread_set *t, tc_rt_error *err);
/* Frees the C side and retires the region (ring_region_retire): writers on other
 * threads may hold its addresses. A zeroed set is fine. */
void thread_set_close(thread_set *t);

/* The calling thread's ring, handed out at its first call with the status
 * *status has then (the context's, read under the lock thread_set_status
 * takes) and named name (NULL: its system name; a later non-NULL name
 * renames it), or NULL when every ring was in use at its first call (it
 * stays refused unless a staged writer attaches again) or the filter said
 * no (*filtered, when filtered is not NULL, says which). */
thread_ring *thread_set_here(thread_set *t, const _Atomic int *status, const char *name, bool *filtered);
/* Which threads thread_set_here hands a ring (tc_config.thread_names and
 * thread_filter): asked once per thread, at its first call, under mu. A
 * thread said no to gets none, is not counted as refused, and is not asked
 * again (*filtered says so); a staged writer's attach is not asked (the Java
 * writer asks its own interceptor). */
int thread_set_filter(thread_set *t, const char *globs, tc_thread_filter fn, void *user, tc_rt_error *err);
/* Attaches the calling thread's staged writer to its ring (tc_feed_attach),
 * handing one out if it has none (or was refused); NULL if every ring is in
 * use. A feed attached before is pulled a last time and released. */
thread_ring *thread_set_attach(thread_set *t, const _Atomic int *status, const char *name, const tc_feed *feed,
                            uint64_t *token);
/* The thread of ring token (thread_set_attach's) writes no more: the ring may
 * be handed out again (tc_feed_ended). */
void thread_set_ended(thread_set *t, uint64_t token);
/* Copies the calling thread's feed (a thread file). */
void thread_set_pull_here(thread_set *t);
/* Copies every ring's feed (a thread file; in memory nothing reads them) and
 * releases those whose thread ended. Returns how many rings' writers wrote
 * since the last call; *lost adds the events writers overran. */
uint64_t thread_set_pull_all(thread_set *t, uint64_t *lost);
/* Every ring's status (the context's, mirrored). */
void thread_set_status(thread_set *t, int status);

static inline void thread_set_now(thread_set *t, uint64_t ms)
{
	atomic_store_explicit(&t->hdr->now_ms, ms, memory_order_relaxed);
}

/* On: release, after the clock word was set (dispatch begin refreshes it). */
static inline void thread_set_ticking(thread_set *t, bool on)
{
	atomic_store_explicit(&t->hdr->ticking, on, memory_order_release);
}

#endif

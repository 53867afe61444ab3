/* ring.h: the event ring (layout in tc_ringfile.h). One writer thread; any
 * thread may read seq and copy events. A ring owns its memory (ring_open), or
 * is a view on a thread's ring in a thread file (ring_init, thread_set.c). */
#ifndef TC_RING_H
#define TC_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ring_region.h"
#include "tc_ringfile.h"

struct ring_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;
	uint32_t byte_order;
	uint32_t event_size;
	uint64_t capacity;
	uint64_t time_base_ns;
	uint64_t wall_base_ms;
	uint32_t pid;
	uint32_t resolution_ms;
	_Atomic int32_t status;
	uint32_t tid;
	_Atomic uint64_t seq;          /* offset 64 */
	char thread_name[16];
	uint32_t generation;           /* offset 88 */
	uint32_t reserved;
	_Atomic uint64_t ended_ns;     /* offset 96 */
	uint64_t build_id;             /* offset 104 */
	_Atomic uint64_t lost;         /* offset 112: events the copier dropped (ring_pull_some) */
	_Atomic uint32_t check_ps;     /* offset 120: the start's self-check (tc_self_check) */
	uint32_t reserved2;
	_Atomic uint64_t now_ms;       /* offset 128 */
	char pad2[120];
};

typedef struct ring {
	struct ring_header *hdr;       /* start of the region */
	_Atomic uint64_t *slots;
	uint64_t capacity;
	ring_region mem;               /* what ring_open got (nothing for a view) */
} ring;

typedef struct ring_params {
	uint64_t capacity;
	const char *path;              /* NULL: heap */
	uint64_t time_base_ns, wall_base_ms;
	uint32_t pid, resolution_ms;
	uint64_t build_id;             /* tc_config.build_id */
	int own_fd;                    /* this process's ring file, which path may name, or -1 */
	const char *prev_path;         /* where an earlier run's file at path is kept (ring_region.h), or NULL */
} ring_params;

/* A context's ring (with the section names) in memory or a file (ring_region.h:
 * TC_RT_EBUSY, TC_RT_ENOSPC). */
int ring_open(ring *r, const ring_params *p, tc_rt_error *err);
/* Moves a file ring to its path (nothing for a heap ring). */
int ring_publish(ring *r, tc_rt_error *err);
/* Unmaps or frees; an unpublished file is removed. Nothing for a view. */
void ring_close(ring *r);
/* Bytes a ring of this capacity takes, header_size included. */
size_t ring_bytes(size_t header_size, uint64_t capacity);
/* Writes a ring header into zeroed memory at base (ring_bytes(header_size,
 * p->capacity) of it) and makes r a view on it; p->path is not used. */
void ring_init(ring *r, void *base, size_t header_size, const ring_params *p);
/* Records the writing thread's id and name (truncated to 15 bytes). */
void ring_set_thread(ring *r, uint32_t tid, const char *name);

/* The section name table of a context's ring: entry n names id TC_ID_SECTION + n. */
static inline char *ring_name(const ring *r, uint32_t n)
{
	return (char *)r->hdr + TC_RING_OFF_NAMES + (size_t)n * TC_RING_NAME_SIZE;
}

/* Recording thread only. */
static inline void ring_write(ring *r, uint64_t ev)
{
	uint64_t s = atomic_load_explicit(&r->hdr->seq, memory_order_relaxed);
	/* a reader copying concurrently must see seq >= s before it can see this
	 * slot's new value (ring_copy_since detects overwrites that way) */
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&r->slots[s % r->capacity], ev, memory_order_relaxed);
	/* release: a reader that sees seq + 1 also sees the event */
	atomic_store_explicit(&r->hdr->seq, s + 1, memory_order_release);
}

static inline uint64_t ring_seq(const ring *r)
{
	return atomic_load_explicit(&r->hdr->seq, memory_order_acquire);
}

static inline uint64_t ring_now(const ring *r)
{
	return atomic_load_explicit(&r->hdr->now_ms, memory_order_relaxed);
}

/* Events a staged writer overwrote before or while they were copied in. */
static inline uint64_t ring_lost(const ring *r)
{
	return atomic_load_explicit(&r->hdr->lost, memory_order_relaxed);
}

static inline void ring_set_now(ring *r, uint64_t ms)
{
	atomic_store_explicit(&r->hdr->now_ms, ms, memory_order_relaxed);
}

/* Sets now_ms to ms unless it is later already, and returns now_ms: the
 * clock thread and the recording thread both set it, and the time an event
 * reads never goes back. */
static inline uint64_t ring_raise_now(ring *r, uint64_t ms)
{
	uint64_t cur = atomic_load_explicit(&r->hdr->now_ms, memory_order_relaxed);
	while (cur < ms && !atomic_compare_exchange_weak_explicit(&r->hdr->now_ms, &cur, ms, memory_order_relaxed,
	                                                          memory_order_relaxed))
		;
	return cur < ms ? ms : cur;
}

/* Copies what feed f wrote since the ring's count into the ring, oldest
 * first, and publishes the new count with one release store, then tells the
 * feed (copied). Events the feed no longer held, because its writer overran
 * it, and those it may have overwritten while they were copied (the count
 * is read again after the copy, as a seqlock's reader does), become empty
 * slots, never another event: *lost says how many, and the ring's header
 * adds them up (ring_lost). The caller keeps every other
 * writer and every reader of the slots out meanwhile (the context's feed
 * lock, the thread set's lock). Returns the events the count moved by.
 * ring_pull_some copies at most max events (a caller that lets go of its
 * lock between calls keeps it a short time). */
uint64_t ring_pull(ring *r, const tc_feed *f, uint64_t *lost);
uint64_t ring_pull_some(ring *r, const tc_feed *f, uint64_t max, uint64_t *lost);

/* How many events a writer may have stored beyond the count a reader of the
 * region sees (tc_ringfile.h): the C writer (ring_write) fences before each
 * slot store, so only event seq is in flight; pulls are not raced by the
 * runtime's readers (the feed lock). The margin stays two, as version 1's
 * Java writer needed (it fenced once per event, between the slot and the
 * count): a record is given up one event early, nothing more. */
#define RING_WRITER_AHEAD 2u
/* A staged writer's count this far past the copy's is not a real one: no
 * writer stores 2^31 events between two copies (a tick apart). It is a
 * count whose two 32-bit halves were read on either side of a carry, when
 * the writer's store is two halves (32-bit ARM, tc_ringfile.h "Staged
 * writers"): 2^32 - 1 too high. */
#define RING_COUNT_TORN (UINT64_C(1) << 31)

/* An index record whose events did not survive a ring replacement
 * (ring_rebase). It is never valid again, whatever is written later. */
#define RING_SEQ_LOST UINT64_MAX

/* Fills `to`, just opened and empty, with the newest events of `from` that
 * fit, oldest first, and takes over its clock word and thread (not the
 * section names: the caller copies them where no one registers one). Returns the shift: event k
 * of `from` is event k - shift of `to`. Nothing may record into either ring
 * meanwhile (the clock thread may still store from's clock word). */
uint64_t ring_refill(ring *to, const ring *from);
/* The index record mark_seq of the old ring, in the ring ring_refill filled
 * with this shift: the same events, or RING_SEQ_LOST if the event before the
 * mark (any event, for a mark at 0) was not carried over. */
uint64_t ring_rebase(uint64_t mark_seq, uint64_t shift);

/* Is the event before the mark (or the first, for a mark at 0) still in the ring? */
int ring_index_valid(const ring *r, uint64_t mark_seq);
/* See tc_copy_since. Safe against a concurrent writer: events overwritten
 * while copying are cut from the front, and TC_RT_ESTALE if that reaches the mark;
 * a staged writer's count read half-stored is read again (TC_RT_EBUSY if it stays so). */
int ring_copy_since(const ring *r, uint64_t mark_seq, uint64_t **out, size_t *n, tc_rt_error *err);
/* The same for a ring of record a staged writer holds (tc_feed), of which
 * capacity events are read as the ring (its own capacity, or fewer). */
int ring_feed_index_valid(const tc_feed *f, uint64_t capacity, uint64_t mark_seq);
int ring_feed_copy_since(const tc_feed *f, uint64_t capacity, uint64_t mark_seq, uint64_t **out, size_t *n,
                    tc_rt_error *err);
/* Moves the newest events of from (a ring, or with from_feed a feed read as
 * capacity from_cap) into the staged writer to, at the same numbers, and
 * sets its count: when a staged writer becomes the ring of record, or
 * replaces another. */
void ring_feed_fill(const tc_feed *to, const ring *from, const tc_feed *from_feed, uint64_t from_cap);

#endif

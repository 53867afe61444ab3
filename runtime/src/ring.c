/* ring.c: the event ring's layout and index records (its memory: ring_region.c).
 *
 * An index record is the write sequence number at the time it was taken.
 * Validity is a function of that number and the current sequence, so a wrap
 * invalidates every record it passes, wherever it sits; Matrix kept records
 * in a list and only checked its head (quirk fixed, see test
 * ring/quirk_fixed_pileup_checks_every_record). Nothing on the write path
 * looks at records. */
#include "ring.h"
#include "rt_error.h"
#include "try.h"

#include <assert.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tc_runtime.h"

_Static_assert(sizeof(struct ring_header) == TC_RING_HEADER_SIZE, "header is 256 bytes");
_Static_assert(offsetof(struct ring_header, capacity) == TC_RING_OFF_CAPACITY, "capacity offset");
_Static_assert(offsetof(struct ring_header, time_base_ns) == TC_RING_OFF_TIME_BASE, "time base offset");
_Static_assert(offsetof(struct ring_header, status) == TC_RING_OFF_STATUS, "status offset");
_Static_assert(offsetof(struct ring_header, seq) == TC_RING_OFF_SEQ, "seq offset");
_Static_assert(offsetof(struct ring_header, now_ms) == TC_RING_OFF_NOW, "now offset");
_Static_assert(offsetof(struct ring_header, tid) == TC_RING_OFF_TID, "tid offset");
_Static_assert(offsetof(struct ring_header, thread_name) == TC_RING_OFF_THREAD_NAME, "thread name offset");
_Static_assert(offsetof(struct ring_header, generation) == TC_RING_OFF_GENERATION, "generation offset");
_Static_assert(offsetof(struct ring_header, ended_ns) == TC_RING_OFF_ENDED, "ended offset");
_Static_assert(offsetof(struct ring_header, build_id) == TC_RING_OFF_BUILD_ID, "build id offset");
_Static_assert(offsetof(struct ring_header, lost) == TC_RING_OFF_LOST, "lost offset");
_Static_assert(sizeof(_Atomic uint64_t) == 8, "slots are 8 bytes");

/* Java addresses the region through a ByteBuffer, whose size is an int. */
#define RING_MAX_CAPACITY ((UINT64_C(0x7FFFFFFF) - TC_RING_MAIN_HEADER_SIZE) / 8)

size_t ring_bytes(size_t header_size, uint64_t capacity)
{
	return header_size + (size_t)capacity * 8;
}

void ring_init(ring *r, void *base, size_t header_size, const ring_params *p)
{
	r->hdr = base;
	r->capacity = p->capacity;
	r->slots = (_Atomic uint64_t *)((char *)base + header_size);
	struct ring_header *h = r->hdr;
	memcpy(h->magic, TC_RING_MAGIC, 8);
	h->version = TC_RING_VERSION;
	h->header_size = (uint32_t)header_size;
	h->byte_order = TC_RING_BYTE_ORDER;
	h->event_size = 8;
	h->capacity = p->capacity;
	h->time_base_ns = p->time_base_ns;
	h->wall_base_ms = p->wall_base_ms;
	h->pid = p->pid;
	h->resolution_ms = p->resolution_ms;
	h->build_id = p->build_id;
	atomic_store(&h->status, TC_STATUS_READY);
	atomic_store(&h->seq, 0);
	atomic_store(&h->now_ms, 0);
	atomic_store(&h->lost, 0);
	atomic_store(&h->check_ps, 0);
}

void ring_set_thread(ring *r, uint32_t tid, const char *name)
{
	r->hdr->tid = tid;
	char buf[sizeof r->hdr->thread_name] = { 0 };
	if (name)
		memcpy(buf, name, strnlen(name, sizeof buf - 1));
	memcpy(r->hdr->thread_name, buf, sizeof buf);
}

int ring_open(ring *r, const ring_params *p, tc_rt_error *err)
{
	memset(r, 0, sizeof *r);
	if (p->capacity < 2 || p->capacity > RING_MAX_CAPACITY)
		return tc_rt_set(err, TC_RT_EINVAL, "ring capacity %llu not in [2, %llu]",
		               (unsigned long long)p->capacity, (unsigned long long)RING_MAX_CAPACITY);
	size_t size = ring_bytes(TC_RING_MAIN_HEADER_SIZE, p->capacity);
	TRY(ring_region_open(&r->mem, p->path, p->prev_path, size, p->own_fd, false, err));
	ring_init(r, r->mem.base, TC_RING_MAIN_HEADER_SIZE, p);
	return TC_RT_OK;
}

int ring_publish(ring *r, tc_rt_error *err)
{
	return ring_region_publish(&r->mem, err);
}

void ring_close(ring *r)
{
	ring_region_close(&r->mem);
	memset(r, 0, sizeof *r);
	r->mem.fd = r->mem.claim_fd = -1;
}

uint64_t ring_refill(ring *to, const ring *from)
{
	assert(ring_seq(to) == 0);
	uint64_t w = ring_seq(from);
	uint64_t n = w < from->capacity ? w : from->capacity;
	if (n > to->capacity)
		n = to->capacity;
	uint64_t first = w - n;
	/* Slot k % capacity holds event k; the new ring numbers from 0, so the
	 * decoder and the Java writer (slot seq % capacity) need nothing else. */
	for (uint64_t i = 0; i < n; i++)
		atomic_store_explicit(&to->slots[i],
		                      atomic_load_explicit(&from->slots[(first + i) % from->capacity],
		                                           memory_order_relaxed),
		                      memory_order_relaxed);
	ring_set_now(to, ring_now(from));
	ring_set_thread(to, from->hdr->tid, from->hdr->thread_name);
	atomic_store_explicit(&to->hdr->seq, n, memory_order_release);
	return first;
}

/* Events [first, end) of f into their slots; end - first <= capacity. */
static void copy_in(ring *r, const tc_feed *f, uint64_t first, uint64_t end)
{
#if UINTPTR_MAX > 0xFFFFFFFFu
	/* Straight into the slots: 8-byte aligned 64-bit words, which a 64-bit
	 * CPU stores whole (ARMv8: aligned 64-bit accesses, and each half of a
	 * 128-bit pair, are single-copy atomic), so a process killed in the
	 * middle leaves whole events; one copy per contiguous run. The caller's
	 * lock keeps every reader out: the slots are written as plain memory. */
	while (first < end) {
		uint64_t i = first % r->capacity;
		uint64_t k = end - first < r->capacity - i ? end - first : r->capacity - i;
		f->copy(f->user, first, (size_t)k, (uint64_t *)(void *)&r->slots[i]);
		first += k;
	}
#else
	/* 32-bit: a plain copy may store halves (two 32-bit stores); each slot
	 * gets one 64-bit atomic store instead. */
	uint64_t buf[256];
	while (first < end) {
		size_t k = end - first < 256 ? (size_t)(end - first) : 256;
		f->copy(f->user, first, k, buf);
		for (size_t i = 0; i < k; i++)
			atomic_store_explicit(&r->slots[(first + i) % r->capacity], buf[i], memory_order_relaxed);
		first += k;
	}
#endif
}

uint64_t ring_pull_some(ring *r, const tc_feed *f, uint64_t max, uint64_t *lost)
{
	*lost = 0;
	uint64_t w = f->count(f->user);
	uint64_t s = atomic_load_explicit(&r->hdr->seq, memory_order_relaxed);
	if (w <= s)
		return 0; /* nothing new, or the runtime wrote last and reset the count */
	if (w - s >= RING_COUNT_TORN)
		return 0; /* a count read half-stored across its carry (32-bit ARM): the next copy reads it whole */
	uint64_t first = s;
	if (w - s > f->capacity) {
		/* the writer went round its memory before this copy (no Java
		 * writer waits for one: it never reads COPIED) */
		first = w - f->capacity;
		*lost = first - s;
	}
	uint64_t end = w - first > max ? first + max : w;
	/* the slots of lost events among the newest capacity must not show the
	 * older events they hold: empty (0) */
	uint64_t lo = end > r->capacity ? end - r->capacity : 0;
	for (uint64_t e = lo > s ? lo : s; e < first; e++)
		atomic_store_explicit(&r->slots[e % r->capacity], 0, memory_order_relaxed);
	if (end - first > r->capacity)
		first = end - r->capacity; /* only the newest fit; nothing is lost by that */
	copy_in(r, f, first, end);
	/* A seqlock's second read: the writer ran on while we copied, and may
	 * have stored events up to w2 + RING_WRITER_AHEAD - 1 over the slots of
	 * those capacity before them (a torn one too, on 32-bit ARM). The
	 * acquire fence pairs with the writer's release store of its count
	 * after each event: if a slot we read was overwritten, this load sees
	 * the count that overwrote it. What may have been overwritten is
	 * dropped (an empty slot: never decoded as the event of its slot) and
	 * counted as lost. */
	atomic_thread_fence(memory_order_acquire);
	uint64_t w2 = f->count(f->user);
	uint64_t safe = w2 + RING_WRITER_AHEAD > f->capacity ? w2 + RING_WRITER_AHEAD - f->capacity : 0;
	if (safe > first) {
		uint64_t cut = safe < end ? safe : end;
		for (uint64_t e = first; e < cut; e++)
			atomic_store_explicit(&r->slots[e % r->capacity], 0, memory_order_relaxed);
		*lost += cut - first;
	}
	if (*lost)
		atomic_fetch_add_explicit(&r->hdr->lost, *lost, memory_order_relaxed);
	/* release: whoever sees the count sees the events below it */
	atomic_store_explicit(&r->hdr->seq, end, memory_order_release);
	if (f->copied)
		f->copied(f->user, end);
	return end - s;
}

uint64_t ring_pull(ring *r, const tc_feed *f, uint64_t *lost)
{
	uint64_t moved = 0, n, l;
	*lost = 0;
	while ((n = ring_pull_some(r, f, UINT64_MAX, &l)) != 0) {
		moved += n;
		*lost += l;
	}
	return moved;
}

uint64_t ring_rebase(uint64_t mark_seq, uint64_t shift)
{
	if (mark_seq == RING_SEQ_LOST)
		return RING_SEQ_LOST;
	if (shift == 0)
		return mark_seq; /* every event was carried over */
	/* the record needs event mark_seq - 1, which was carried over if >= shift */
	return mark_seq > shift ? mark_seq - shift : RING_SEQ_LOST;
}

static uint64_t first_of(uint64_t mark_seq)
{
	/* Matrix's copy starts at the last event written before the mark. */
	return mark_seq ? mark_seq - 1 : 0;
}

/* Where a reader finds the events: a ring's slots, or the memory of a
 * staged writer that holds the ring of record (tc_feed). */
typedef struct source {
	const ring *r;
	const tc_feed *f;
	uint64_t capacity;
} source;

static uint64_t source_seq(const source *s)
{
	return s->f ? s->f->count(s->f->user) : ring_seq(s->r);
}

static void source_copy(const source *s, uint64_t first, size_t n, uint64_t *out)
{
	if (s->f) {
		s->f->copy(s->f->user, first, n, out);
		return;
	}
	for (size_t i = 0; i < n; i++)
		out[i] = atomic_load_explicit(&s->r->slots[(first + i) % s->r->capacity], memory_order_relaxed);
}

/* A staged writer's count read while its two 32-bit halves were being
 * stored across a carry (32-bit ARM, tc_ringfile.h "Staged writers"): 2^32
 * away from any count the writer had (RING_COUNT_TORN), so RING_COUNT_TORN
 * or more from an index taken in its ring, either way. It says nothing of
 * the index: it is not a lap. */
static bool torn_from(uint64_t w, uint64_t mark_seq)
{
	return w >= mark_seq ? w - mark_seq >= RING_COUNT_TORN : mark_seq - w >= RING_COUNT_TORN;
}

/* Reads of a half-stored count before a reader gives up: the writer, stopped
 * between the two stores of its count, runs on within a yield or two. */
#define RING_TORN_READS 1000u

/* The count as a reader of events since mark_seq needs it: read again
 * (yielding to the writer) while it is half-stored. False if it still was
 * after RING_TORN_READS reads (*w is the last read). */
static bool source_seq_whole(const source *s, uint64_t mark_seq, uint64_t *w)
{
	for (unsigned k = 1;; k++) {
		*w = source_seq(s);
		if (!torn_from(*w, mark_seq))
			return true;
		if (k == RING_TORN_READS)
			return false;
		sched_yield();
	}
}

static int torn(tc_rt_error *err, uint64_t mark_seq, uint64_t w)
{
	return tc_rt_set(err, TC_RT_EBUSY, "index %llu: the writer's count read half-stored (%llu) %u times",
	              (unsigned long long)mark_seq, (unsigned long long)w, RING_TORN_READS);
}

static int index_valid(const source *src, uint64_t mark_seq)
{
	uint64_t w;
	if (!source_seq_whole(src, mark_seq, &w))
		return 0;
	/* Event k lives in slot k % capacity until event k + capacity is written.
	 * A writer may be storing events up to w + RING_WRITER_AHEAD - 1 now, so
	 * the events before w + RING_WRITER_AHEAD - capacity are already unsafe. */
	return mark_seq <= w && w + RING_WRITER_AHEAD - first_of(mark_seq) <= src->capacity;
}

static int copy_since(const source *src, uint64_t mark_seq, uint64_t **out, size_t *n, tc_rt_error *err)
{
	*out = NULL;
	*n = 0;
	if (mark_seq == RING_SEQ_LOST)
		return tc_rt_set(err, TC_RT_ESTALE, "index lost: its events were dropped when the ring was replaced");
	uint64_t w;
	if (!source_seq_whole(src, mark_seq, &w))
		return torn(err, mark_seq, w);
	if (mark_seq > w)
		return tc_rt_set(err, TC_RT_EINVAL, "index %llu is ahead of the ring (%llu)",
		               (unsigned long long)mark_seq, (unsigned long long)w);
	uint64_t start = first_of(mark_seq);
	if (w + RING_WRITER_AHEAD - start > src->capacity)
		return tc_rt_set(err, TC_RT_ESTALE, "index %llu overwritten (written %llu, capacity %llu)",
		               (unsigned long long)mark_seq, (unsigned long long)w,
		               (unsigned long long)src->capacity);
	if (w == mark_seq)
		return TC_RT_OK; /* nothing since the mark */
	size_t count = (size_t)(w - start);
	uint64_t *buf = malloc(count * sizeof *buf);
	if (!buf)
		return tc_rt_set(err, TC_RT_ENOMEM, "copy of %zu events", count);
	source_copy(src, start, count, buf);
	/* Pairs with the writer's fence before a slot store (the C writer's, or
	 * the staged writer's release store of the count after its event): if we
	 * read an overwritten slot, this load sees the count that overwrote it. */
	atomic_thread_fence(memory_order_acquire);
	uint64_t w2;
	if (!source_seq_whole(src, mark_seq, &w2)) {
		free(buf);
		return torn(err, mark_seq, w2);
	}
	if (w2 + RING_WRITER_AHEAD - start > src->capacity) {
		uint64_t cut = w2 + RING_WRITER_AHEAD - src->capacity - start; /* events possibly overwritten */
		if (start + cut > mark_seq) {
			free(buf);
			return tc_rt_set(err, TC_RT_ESTALE, "index %llu overwritten while copying",
			               (unsigned long long)mark_seq);
		}
		memmove(buf, buf + cut, (count - (size_t)cut) * sizeof *buf);
		count -= (size_t)cut;
	}
	*out = buf;
	*n = count;
	return TC_RT_OK;
}

int ring_index_valid(const ring *r, uint64_t mark_seq)
{
	source src = { r, NULL, r->capacity };
	return index_valid(&src, mark_seq);
}

int ring_copy_since(const ring *r, uint64_t mark_seq, uint64_t **out, size_t *n, tc_rt_error *err)
{
	source src = { r, NULL, r->capacity };
	return copy_since(&src, mark_seq, out, n, err);
}

int ring_feed_index_valid(const tc_feed *f, uint64_t capacity, uint64_t mark_seq)
{
	source src = { NULL, f, capacity };
	return index_valid(&src, mark_seq);
}

int ring_feed_copy_since(const tc_feed *f, uint64_t capacity, uint64_t mark_seq, uint64_t **out, size_t *n,
                    tc_rt_error *err)
{
	source src = { NULL, f, capacity };
	return copy_since(&src, mark_seq, out, n, err);
}

void ring_feed_fill(const tc_feed *to, const ring *from, const tc_feed *from_feed, uint64_t from_cap)
{
	source src = { from, from_feed, from_feed ? from_cap : from->capacity };
	uint64_t w = source_seq(&src);
	uint64_t n = w < src.capacity ? w : src.capacity;
	if (n > to->capacity)
		n = to->capacity;
	uint64_t buf[256];
	for (uint64_t e = w - n; e < w;) {
		size_t k = w - e < 256 ? (size_t)(w - e) : 256;
		source_copy(&src, e, k, buf);
		to->store(to->user, e, k, buf);
		e += k;
	}
	to->reset(to->user, w);
}

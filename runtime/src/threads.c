/* threads.c: see threads.h. */
#include "threads.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "thread.h"

_Static_assert(sizeof(struct thread_header) == TC_THREADS_HEADER_SIZE, "thread header is 256 bytes");
_Static_assert(offsetof(struct thread_header, max_threads) == TC_THREADS_OFF_MAX, "max offset");
_Static_assert(offsetof(struct thread_header, ring_size) == TC_THREADS_OFF_RING_SIZE, "ring size offset");
_Static_assert(offsetof(struct thread_header, used) == TC_THREADS_OFF_USED, "used offset");
_Static_assert(offsetof(struct thread_header, refused) == TC_THREADS_OFF_REFUSED, "refused offset");
_Static_assert(offsetof(struct thread_header, dropped) == TC_THREADS_OFF_DROPPED, "dropped offset");
_Static_assert(offsetof(struct thread_header, now_ms) == TC_THREADS_OFF_NOW, "now offset");
_Static_assert(offsetof(struct thread_header, ticking) == TC_THREADS_OFF_TICKING, "ticking offset");

/* Java addresses each ring through a ByteBuffer, whose size is an int. */
#define THREAD_RING_MAX_CAPACITY ((UINT64_C(0x7FFFFFFF) - TC_RING_HEADER_SIZE) / 8)

int threads_open(thread_set *t, const char *path, uint32_t max, uint64_t capacity, const ring_params *p,
                 tc_error *err)
{
	memset(t, 0, sizeof *t);
	t->mem.fd = t->mem.claim_fd = -1;
	if (max == 0 || max > 4096)
		return tc_fail(err, TC_EINVAL, "max threads %u not in [1, 4096]", max);
	if (capacity < 2 || capacity > THREAD_RING_MAX_CAPACITY)
		return tc_fail(err, TC_EINVAL, "thread ring capacity %llu not in [2, %llu]",
		               (unsigned long long)capacity, (unsigned long long)THREAD_RING_MAX_CAPACITY);
	size_t ring_size = ring_bytes(TC_RING_HEADER_SIZE, capacity);
	if (ring_size > (SIZE_MAX - TC_THREADS_HEADER_SIZE) / max)
		return tc_fail(err, TC_EINVAL, "%u thread rings of %llu events do not fit in memory", max,
		               (unsigned long long)capacity);
	if (pthread_mutex_init(&t->mu, NULL))
		return tc_fail(err, TC_ETHREAD, "thread set mutex");
	if (pthread_key_create(&t->key, NULL)) {
		pthread_mutex_destroy(&t->mu);
		return tc_fail(err, TC_ETHREAD, "thread set key");
	}
	t->key_made = true;
	/* anonymous pages, not the heap: threads_close retires them */
	int rc = region_open(&t->mem, path, path ? p->prev_path : NULL, TC_THREADS_HEADER_SIZE + ring_size * max,
	                     p->own_fd, true, err);
	if (rc != TC_OK) {
		pthread_key_delete(t->key);
		pthread_mutex_destroy(&t->mu);
		memset(t, 0, sizeof *t);
		t->mem.fd = t->mem.claim_fd = -1;
		return rc;
	}
	t->max = max;
	t->capacity = capacity;
	t->params = *p;
	t->params.capacity = capacity;
	t->params.path = NULL;
	t->params.prev_path = NULL;
	struct thread_header *h = t->hdr = t->mem.base;
	memcpy(h->magic, TC_THREADS_MAGIC, 8);
	h->version = TC_THREADS_VERSION;
	h->header_size = TC_THREADS_HEADER_SIZE;
	h->byte_order = TC_RING_BYTE_ORDER;
	h->max_threads = max;
	h->ring_size = ring_size;
	h->time_base_ns = p->time_base_ns;
	h->wall_base_ms = p->wall_base_ms;
	h->pid = p->pid;
	return TC_OK;
}

int threads_publish(thread_set *t, tc_error *err)
{
	return region_publish(&t->mem, err);
}

void threads_close(thread_set *t)
{
	if (!t->hdr)
		return;
	/* No thread calls in any more (the owner's contract); a key value left
	 * in a thread that outlives the set is never read again: the key is gone. */
	pthread_key_delete(t->key);
	for (thread_ring *r = t->list, *next; r; r = next) {
		next = r->next;
		free(r);
	}
	pthread_mutex_destroy(&t->mu);
	region_retire(&t->mem);
	memset(t, 0, sizeof *t);
	t->mem.fd = t->mem.claim_fd = -1;
}

/* Under mu. */
static thread_ring *hand_out(thread_set *t, const _Atomic int *status, const char *name)
{
	uint32_t k = atomic_load_explicit(&t->hdr->used, memory_order_relaxed);
	thread_ring *tr = k < t->max ? calloc(1, sizeof *tr) : NULL;
	if (!tr) {
		atomic_fetch_add_explicit(&t->hdr->refused, 1, memory_order_relaxed);
		return &t->refused;
	}
	void *base = (char *)t->hdr + TC_THREADS_HEADER_SIZE + (size_t)k * t->hdr->ring_size;
	ring_init(&tr->ring, base, TC_RING_HEADER_SIZE, &t->params);
	char sys[16];
	if (!name)
		thread_name(sys);
	ring_set_thread(&tr->ring, thread_id(), name ? name : sys);
	atomic_store_explicit(&tr->ring.hdr->status, atomic_load(status), memory_order_relaxed);
	tr->next = t->list;
	t->list = tr;
	/* release: a reader that sees the count sees the ring's header */
	atomic_store_explicit(&t->hdr->used, k + 1, memory_order_release);
	return tr;
}

thread_ring *threads_here(thread_set *t, const _Atomic int *status, const char *name)
{
	thread_ring *tr = pthread_getspecific(t->key);
	if (tr && !name)
		return tr;
	pthread_mutex_lock(&t->mu);
	if (!tr) {
		tr = hand_out(t, status, name);
		pthread_setspecific(t->key, tr);
	} else if (tr != &t->refused) {
		ring_set_thread(&tr->ring, tr->ring.hdr->tid, name);
	}
	pthread_mutex_unlock(&t->mu);
	return tr;
}

void threads_set_status(thread_set *t, int status)
{
	pthread_mutex_lock(&t->mu);
	for (thread_ring *r = t->list; r; r = r->next)
		atomic_store_explicit(&r->ring.hdr->status, status, memory_order_release);
	pthread_mutex_unlock(&t->mu);
}

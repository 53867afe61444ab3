/* thread_set.c: see thread_set.h. */
#include "thread_set.h"
#include "rt_error.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tc_runtime.h"
#include "os_thread.h"

_Static_assert(sizeof(struct thread_header) == TC_THREADS_HEADER_SIZE, "thread header is 256 bytes");
_Static_assert(offsetof(struct thread_header, max_threads) == TC_THREADS_OFF_MAX, "max offset");
_Static_assert(offsetof(struct thread_header, ring_size) == TC_THREADS_OFF_RING_SIZE, "ring size offset");
_Static_assert(offsetof(struct thread_header, used) == TC_THREADS_OFF_USED, "used offset");
_Static_assert(offsetof(struct thread_header, refused) == TC_THREADS_OFF_REFUSED, "refused offset");
_Static_assert(offsetof(struct thread_header, dropped) == TC_THREADS_OFF_DROPPED, "dropped offset");
_Static_assert(offsetof(struct thread_header, now_ms) == TC_THREADS_OFF_NOW, "now offset");
_Static_assert(offsetof(struct thread_header, ticking) == TC_THREADS_OFF_TICKING, "ticking offset");
_Static_assert(offsetof(struct thread_header, handed) == TC_THREADS_OFF_HANDED, "handed offset");

/* The key's values for a thread that found no ring, and for one the filter
 * said no to: only their addresses count. */
static const char refused_mark, filtered_mark;
#define REFUSED ((void *)&refused_mark)
#define FILTERED ((void *)&filtered_mark)
#define NO_RING(v) ((v) == REFUSED || (v) == FILTERED)

/* The key's destructor, run as a thread that has a ring ends. It touches
 * only the ring's header, in the region, which stays mapped for the life of
 * the process (thread_set_close retires it): a context freed meanwhile is no
 * harm. The set's lock is not needed: the thread no longer writes, and the
 * one who hands the ring out again reads this with acquire. */
static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return ns ? ns : 1;
}

static void thread_ended(void *v)
{
	if (NO_RING(v))
		return;
	struct ring_header *h = v;
	/* its writer may have said so before (tc_feed_ended), and the ring gone
	 * to another thread since: that one's id is in the header then */
	if (h->tid != os_thread_id())
		return;
	uint64_t zero = 0;
	atomic_compare_exchange_strong_explicit(&h->ended_ns, &zero, now_ns(), memory_order_release,
	                                        memory_order_relaxed);
}

/* A thread's Java staging ring is a long[] as large as its ring (its
 * length an int), and the file's offsets stay below 2 GB. */
#define THREAD_RING_MAX_CAPACITY ((UINT64_C(0x7FFFFFFF) - TC_RING_HEADER_SIZE) / 8)

int thread_set_open(thread_set *t, const char *path, uint32_t max, uint64_t capacity, const ring_params *p,
                 tc_rt_error *err)
{
	memset(t, 0, sizeof *t);
	t->mem.fd = t->mem.claim_fd = -1;
	if (max == 0 || max > 4096)
		return tc_rt_set(err, TC_RT_EINVAL, "max threads %u not in [1, 4096]", max);
	if (capacity < 2 || capacity > THREAD_RING_MAX_CAPACITY)
		return tc_rt_set(err, TC_RT_EINVAL, "thread ring capacity %llu not in [2, %llu]",
		               (unsigned long long)capacity, (unsigned long long)THREAD_RING_MAX_CAPACITY);
	size_t ring_size = ring_bytes(TC_RING_HEADER_SIZE, capacity);
	if (ring_size > (SIZE_MAX - TC_THREADS_HEADER_SIZE) / max)
		return tc_rt_set(err, TC_RT_EINVAL, "%u thread rings of %llu events do not fit in memory", max,
		               (unsigned long long)capacity);
	t->rings = calloc(max, sizeof *t->rings);
	if (!t->rings)
		return tc_rt_set(err, TC_RT_ENOMEM, "%u thread rings", max);
	if (pthread_mutex_init(&t->mu, NULL)) {
		free(t->rings);
		t->rings = NULL;
		return tc_rt_set(err, TC_RT_ETHREAD, "thread set mutex");
	}
	if (pthread_key_create(&t->key, thread_ended)) {
		pthread_mutex_destroy(&t->mu);
		free(t->rings);
		t->rings = NULL;
		return tc_rt_set(err, TC_RT_ETHREAD, "thread set key");
	}
	t->key_made = true;
	/* anonymous pages, not the heap: thread_set_close retires them */
	int rc = ring_region_open(&t->mem, path, path ? p->prev_path : NULL, TC_THREADS_HEADER_SIZE + ring_size * max,
	                     p->own_fd, true, err);
	if (rc != TC_RT_OK) {
		pthread_key_delete(t->key);
		pthread_mutex_destroy(&t->mu);
		free(t->rings);
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
	return TC_RT_OK;
}

int thread_set_publish(thread_set *t, tc_rt_error *err)
{
	return ring_region_publish(&t->mem, err);
}

/* Copies tr's staged writer into its ring. Only a thread file keeps the
 * copies: nothing in the process reads another thread's ring, so in memory
 * the writer's own memory is all there is (tc_ringfile.h). Under mu. */
static uint64_t pull_ring(const thread_set *t, thread_ring *tr, uint64_t *lost)
{
	*lost = 0;
	if (!tr->has_feed || t->mem.kind != RING_REGION_FILE)
		return 0;
	return ring_pull(&tr->ring, &tr->feed, lost);
}

static void drop_feed(thread_ring *tr)
{
	if (!tr->has_feed)
		return;
	tr->has_feed = false;
	if (tr->feed.release)
		tr->feed.release(tr->feed.user);
}

void thread_set_close(thread_set *t)
{
	if (!t->hdr)
		return;
	/* No thread calls in any more (the owner's contract); a key value left
	 * in a thread that outlives the set is never read again: the key is
	 * gone, and its destructor no longer runs. */
	pthread_key_delete(t->key);
	for (uint32_t k = 0; k < t->used; k++) {
		thread_ring *tr = &t->rings[k];
		uint64_t lost;
		pull_ring(t, tr, &lost); /* the last events, into the file */
		drop_feed(tr);
	}
	free(t->rings);
	free(t->globs);
	pthread_mutex_destroy(&t->mu);
	ring_region_retire(&t->mem);
	memset(t, 0, sizeof *t);
	t->mem.fd = t->mem.claim_fd = -1;
}

static void *ring_base(const thread_set *t, uint32_t k)
{
	return (char *)t->hdr + TC_THREADS_HEADER_SIZE + (size_t)k * t->hdr->ring_size;
}

/* The ring a key value names. */
static thread_ring *ring_of(thread_set *t, void *v)
{
	size_t k = ((size_t)((char *)v - (char *)t->hdr) - TC_THREADS_HEADER_SIZE) / t->hdr->ring_size;
	return &t->rings[k];
}

/* Under mu: a never-used ring, else the one whose thread ended longest ago. */
static int pick(thread_set *t, uint32_t *k)
{
	if (t->used < t->max) {
		*k = t->used;
		return 1;
	}
	uint64_t oldest = 0;
	for (uint32_t i = 0; i < t->used; i++) {
		uint64_t e = atomic_load_explicit(&t->rings[i].ring.hdr->ended_ns, memory_order_acquire);
		if (e && (!oldest || e < oldest)) {
			oldest = e;
			*k = i;
		}
	}
	return oldest != 0;
}

/* Under mu. A thread refused before (again) is not counted twice. */
static thread_ring *hand_out(thread_set *t, const _Atomic int *status, const char *name, bool again)
{
	uint32_t k;
	if (!pick(t, &k)) {
		if (!again)
			atomic_fetch_add_explicit(&t->hdr->refused, 1, memory_order_relaxed);
		return NULL;
	}
	thread_ring *tr = &t->rings[k];
	void *base = ring_base(t, k);
	if (k < t->used) {
		/* again: the ended thread's last events first, then empty slots
		 * (the decoder would read its old events as the new thread's); the
		 * header is rewritten in place, so that the file stays readable */
		uint64_t lost;
		pull_ring(t, tr, &lost);
		drop_feed(tr);
		atomic_store_explicit(&tr->ring.hdr->seq, 0, memory_order_relaxed);
		memset((char *)base + TC_RING_HEADER_SIZE, 0, (size_t)t->capacity * 8);
	}
	memset(tr, 0, sizeof *tr);
	ring_init(&tr->ring, base, TC_RING_HEADER_SIZE, &t->params);
	tr->ring.hdr->generation = (uint32_t)++t->hdr->handed;
	atomic_store_explicit(&tr->ring.hdr->ended_ns, 0, memory_order_relaxed);
	char sys[16];
	if (!name)
		os_thread_name(sys);
	ring_set_thread(&tr->ring, os_thread_id(), name ? name : sys);
	atomic_store_explicit(&tr->ring.hdr->status, atomic_load(status), memory_order_relaxed);
	if (k == t->used) {
		t->used++;
		/* release: a reader that sees the count sees the ring's header */
		atomic_store_explicit(&t->hdr->used, t->used, memory_order_release);
	}
	return tr;
}

/* Does s match the glob [g, end)? '*' any run of characters, '?' one,
 * anything else itself (TraceCanary's glob, the Java writer's). */
static bool glob(const char *g, const char *end, const char *s)
{
	const char *star = NULL, *mark = s;
	while (*s) {
		if (g < end && (*g == '?' || (*g != '*' && *g == *s))) {
			g++;
			s++;
		} else if (g < end && *g == '*') {
			star = g++;
			mark = s;
		} else if (star) {
			g = star + 1;
			s = ++mark;
		} else {
			return false;
		}
	}
	while (g < end && *g == '*')
		g++;
	return g == end;
}

/* Does name match one of the ';'-separated globs (each trimmed of spaces)? */
static bool names_match(const char *globs, const char *name)
{
	for (const char *p = globs;;) {
		const char *end = strchr(p, ';');
		if (!end)
			end = p + strlen(p);
		const char *a = p, *z = end;
		while (a < z && *a == ' ')
			a++;
		while (z > a && z[-1] == ' ')
			z--;
		if (a < z && glob(a, z, name))
			return true;
		if (!*end)
			return false;
		p = end + 1;
	}
}

/* Under mu: may the calling thread, named name, record? */
static bool allowed(const thread_set *t, const char *name)
{
	if (t->globs && !names_match(t->globs, name))
		return false;
	return !t->filter || t->filter(t->filter_user, os_thread_id(), name);
}

/* Under mu: the calling thread's ring, handed out if it has none (or, with
 * retry, was refused, or said no to by the filter: a staged writer's attach,
 * which its own side decided); NULL if refused or filtered. */
static thread_ring *mine(thread_set *t, const _Atomic int *status, const char *name, bool retry)
{
	void *v = pthread_getspecific(t->key);
	/* a ring its writer gave back while this thread lived on (a native
	 * thread whose Java thread ended, attached again) is another's now */
	if (v && !NO_RING(v) && ring_of(t, v)->ring.hdr->tid != os_thread_id())
		v = NULL;
	if (v && !NO_RING(v)) {
		thread_ring *tr = ring_of(t, v);
		if (name)
			ring_set_thread(&tr->ring, tr->ring.hdr->tid, name);
		return tr;
	}
	if (NO_RING(v) && !retry)
		return NULL;
	if (!v && !retry && (t->globs || t->filter)) {
		char sys[16];
		if (!name)
			os_thread_name(sys);
		if (!allowed(t, name ? name : sys)) {
			pthread_setspecific(t->key, FILTERED);
			return NULL;
		}
	}
	thread_ring *tr = hand_out(t, status, name, v == REFUSED);
	pthread_setspecific(t->key, tr ? (void *)tr->ring.hdr : REFUSED);
	return tr;
}

thread_ring *thread_set_here(thread_set *t, const _Atomic int *status, const char *name, bool *filtered)
{
	void *v = pthread_getspecific(t->key);
	if (v && !name) {
		if (filtered)
			*filtered = v == FILTERED;
		return NO_RING(v) ? NULL : ring_of(t, v);
	}
	pthread_mutex_lock(&t->mu);
	thread_ring *tr = mine(t, status, name, false);
	pthread_mutex_unlock(&t->mu);
	if (filtered)
		*filtered = !tr && pthread_getspecific(t->key) == FILTERED;
	return tr;
}

int thread_set_filter(thread_set *t, const char *globs, tc_thread_filter fn, void *user, tc_rt_error *err)
{
	char *copy = NULL;
	if (globs && !(copy = strdup(globs)))
		return tc_rt_set(err, TC_RT_ENOMEM, "thread names");
	pthread_mutex_lock(&t->mu);
	free(t->globs);
	t->globs = copy;
	t->filter = fn;
	t->filter_user = user;
	pthread_mutex_unlock(&t->mu);
	return TC_RT_OK;
}

thread_ring *thread_set_attach(thread_set *t, const _Atomic int *status, const char *name, const tc_feed *feed,
                            uint64_t *token)
{
	pthread_mutex_lock(&t->mu);
	thread_ring *tr = mine(t, status, name, true);
	if (tr) {
		*token = (uint64_t)tr->ring.hdr->generation << 32 | (uint64_t)(tr - t->rings);
		uint64_t lost;
		pull_ring(t, tr, &lost);
		drop_feed(tr);
		tr->feed = *feed;
		tr->has_feed = true;
		tr->feed.reset(tr->feed.user, ring_seq(&tr->ring));
	}
	pthread_mutex_unlock(&t->mu);
	return tr;
}

void thread_set_ended(thread_set *t, uint64_t token)
{
	uint32_t k = (uint32_t)token, gen = (uint32_t)(token >> 32);
	pthread_mutex_lock(&t->mu);
	if (k < t->used && t->rings[k].ring.hdr->generation == gen) {
		uint64_t zero = 0;
		atomic_compare_exchange_strong_explicit(&t->rings[k].ring.hdr->ended_ns, &zero, now_ns(),
		                                        memory_order_release, memory_order_relaxed);
	}
	pthread_mutex_unlock(&t->mu);
}

void thread_set_pull_here(thread_set *t)
{
	void *v = pthread_getspecific(t->key);
	if (!v || v == REFUSED)
		return;
	pthread_mutex_lock(&t->mu);
	uint64_t lost;
	pull_ring(t, ring_of(t, v), &lost);
	pthread_mutex_unlock(&t->mu);
}

uint64_t thread_set_pull_all(thread_set *t, uint64_t *lost)
{
	uint64_t moved = 0;
	pthread_mutex_lock(&t->mu);
	for (uint32_t k = 0; k < t->used; k++) {
		thread_ring *tr = &t->rings[k];
		if (!tr->has_feed)
			continue;
		/* ended first: then the copy below has every event of the thread
		 * (it wrote them before it ended), and is its last */
		bool ended = atomic_load_explicit(&tr->ring.hdr->ended_ns, memory_order_acquire) != 0;
		uint64_t l, count = tr->feed.count(tr->feed.user);
		/* events written since the last look (copied or not: the clock
		 * thread's reason to tick on) */
		moved += count != tr->seen;
		tr->seen = count;
		pull_ring(t, tr, &l);
		*lost += l;
		if (ended)
			drop_feed(tr);
	}
	pthread_mutex_unlock(&t->mu);
	return moved;
}

void thread_set_status(thread_set *t, int status)
{
	pthread_mutex_lock(&t->mu);
	for (uint32_t k = 0; k < t->used; k++)
		atomic_store_explicit(&t->rings[k].ring.hdr->status, status, memory_order_release);
	pthread_mutex_unlock(&t->mu);
}

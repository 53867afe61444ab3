/* Staged writers (tc_feed): a writer that keeps its events in memory of its
 * own, as the Java writer keeps them in a long[]. The recording thread's is
 * the ring of record: readers read there, the message markers go there, the
 * numbering is kept when the ring or the writer changes, and a ring file is
 * a copy of it made at every clock tick (the lag a killed process can leave);
 * a writer that overruns the copies leaves empty slots in the file, not old
 * events. Another thread's is copied into that thread's ring. And the clock
 * word such a writer reads instead of the clock: the time while the clock
 * thread ticks, stale when it sleeps, off when not recording; a kick wakes
 * it. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "ring.h"
#include "tc_ringfile.h"

/* A staging ring as the Java writer's (AppMethodBeat): its count, what the
 * runtime copied, then its slots, a power of two of them. */
typedef struct stage {
	_Atomic uint64_t count;
	_Atomic uint64_t slot[64];
	uint32_t slots;
	int resets, released;
	_Atomic uint64_t copied;
} stage;

static uint64_t st_count(void *u)
{
	return atomic_load_explicit(&((stage *)u)->count, memory_order_acquire);
}

static void st_copy(void *u, uint64_t first, size_t n, uint64_t *out)
{
	stage *s = u;
	for (size_t i = 0; i < n; i++)
		out[i] = atomic_load_explicit(&s->slot[(first + i) & (s->slots - 1)], memory_order_relaxed);
}

static void st_store(void *u, uint64_t first, size_t n, const uint64_t *in)
{
	stage *s = u;
	for (size_t i = 0; i < n; i++)
		atomic_store_explicit(&s->slot[(first + i) & (s->slots - 1)], in[i], memory_order_relaxed);
}

static void st_reset(void *u, uint64_t count)
{
	stage *s = u;
	atomic_store_explicit(&s->count, count, memory_order_relaxed);
	atomic_store_explicit(&s->copied, count, memory_order_relaxed);
	s->resets++;
}

static void st_release(void *u)
{
	((stage *)u)->released++;
}

static void st_copied(void *u, uint64_t count)
{
	atomic_store_explicit(&((stage *)u)->copied, count, memory_order_relaxed);
}

static tc_feed feed_of(stage *s, uint32_t slots)
{
	memset(s, 0, sizeof *s);
	s->slots = slots;
	return (tc_feed){ st_count, st_copy, st_store, st_reset, st_release, st_copied, slots, s };
}

/* One event as AppMethodBeat.i/o (and ThreadRing) write it: the slot, then
 * the count with release semantics. The writer never waits for a copy. */
static void st_write(stage *s, uint64_t ev)
{
	uint64_t n = atomic_load_explicit(&s->count, memory_order_relaxed);
	atomic_store_explicit(&s->slot[n & (s->slots - 1)], ev, memory_order_relaxed);
	atomic_store_explicit(&s->count, n + 1, memory_order_release);
}

static fake f;
static tc_ctx *ctx;
static stage st;
static char path[96];

/* the clock words published, in order */
static pthread_mutex_t words_mu = PTHREAD_MUTEX_INITIALIZER;
static int64_t words[4096];
static size_t n_words;

static void on_word(void *user, int64_t w)
{
	(void)user;
	pthread_mutex_lock(&words_mu);
	if (n_words < sizeof words / sizeof words[0])
		words[n_words++] = w;
	pthread_mutex_unlock(&words_mu);
}

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
	fake_free(&f);
	n_words = 0;
	if (path[0]) {
		unlink(path);
		char threads[128];
		snprintf(threads, sizeof threads, "%s-threads", path);
		unlink(threads);
		path[0] = '\0';
	}
}

TestSuite(feed, .fini = teardown);

static const char *make_path(void)
{
	snprintf(path, sizeof path, "/tmp/tc-feed-%d-XXXXXX", (int)getpid());
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	return path;
}

/* file: a ring file (NULL: memory) */
static void open_fake(uint32_t capacity, const char *file)
{
	tc_config c;
	fake_config(&c, &f);
	c.capacity = capacity;
	c.buffer_path = file;
	c.on_clock_word = on_word;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_OK, "%s", err.message);
}

static void open_threaded(uint32_t capacity, const char *file)
{
	tc_config c;
	tc_config_init(&c);
	c.capacity = capacity;
	c.buffer_path = file;
	c.tracers = 0;
	c.expire_ms = 0;
	c.on_clock_word = on_word;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_OK, "%s", err.message);
}

static void attach(uint32_t slots)
{
	tc_feed fd = feed_of(&st, slots);
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_feed_attach(ctx, &fd, NULL, NULL, &err), TC_RT_OK, "%s", err.message);
}

/* The ring's region as it is now (a file: the copy as of the last copy). */
static void decode_now(tc_ring_image *img)
{
	size_t size;
	void *base = tc_ring_base(ctx, &size);
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ring_decode(img, base, size, &err), TC_RT_OK, "%s", err.message);
}

static uint64_t ring_count(void)
{
	struct ring_header *h = tc_ring_base(ctx, NULL);
	return atomic_load_explicit(&h->seq, memory_order_acquire);
}

static uint64_t ev(bool in, uint32_t id, uint64_t ms)
{
	return tc_event_encode(in, id, ms);
}

/* Every event since the first, through the runtime's reader. */
static size_t copy_all(uint64_t **out)
{
	size_t n = 0;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_copy_since(ctx, (tc_index){ 0 }, out, &n, &err), TC_RT_OK, "%s", err.message);
	return n;
}

Test(feed, the_writers_memory_is_the_ring_markers_included)
{
	open_fake(16, NULL);
	attach(16);
	cr_assert_eq(st.resets, 1, "attaching sets the writer's count");
	st_write(&st, ev(true, 1, 0));
	st_write(&st, ev(true, 2, 0));
	st_write(&st, ev(false, 2, 0));
	cr_assert_eq(tc_written(ctx), 3, "a reader counts the writer's events");
	fake_advance_ms(&f, 7);
	tc_dispatch_begin(ctx);
	cr_assert_eq(atomic_load(&st.count), 4, "the marker went into the writer's memory, its count past it");
	st_write(&st, ev(false, 1, 7));
	tc_dispatch_end(ctx);
	cr_assert_eq(atomic_load(&st.count), 6);
	uint64_t want[6] = { ev(true, 1, 0), ev(true, 2, 0), ev(false, 2, 0), ev(true, TC_ID_DISPATCH, 7),
	                     ev(false, 1, 7), ev(false, TC_ID_DISPATCH, 7) };
	for (int k = 0; k < 6; k++)
		cr_assert_eq(atomic_load(&st.slot[k]), want[k], "slot %d", k);
	uint64_t *out;
	size_t n = copy_all(&out);
	cr_assert_eq(n, 6);
	for (size_t i = 0; i < 6; i++)
		cr_assert_eq(out[i], want[i], "event %zu", i);
	free(out);
	cr_assert_eq(ring_count(), 0, "a ring in memory holds only the header: nothing copied");
}

Test(feed, the_events_before_it_move_into_the_writer)
{
	open_fake(16, NULL);
	rec_in(ctx, 1); /* the C writer's, in the ring */
	rec_in(ctx, 2);
	attach(16);
	cr_assert_eq(atomic_load(&st.count), 2, "numbered as they were");
	cr_assert_eq(atomic_load(&st.slot[1]), ev(true, 2, 0));
	st_write(&st, ev(false, 2, 0));
	rec_out(ctx, 1); /* the C writer now writes into the writer's memory too */
	cr_assert_eq(atomic_load(&st.count), 4);
	cr_assert_eq(atomic_load(&st.slot[3]), ev(false, 1, 0));
}

Test(feed, readers_see_what_a_racing_writer_may_overwrite)
{
	open_fake(8, NULL);
	attach(8);
	for (uint32_t k = 0; k < 5; k++)
		st_write(&st, ev(true, 1 + k, k));
	tc_index m = tc_mark(ctx);
	cr_assert_eq(m.seq, 5);
	for (uint32_t k = 5; k < 10; k++)
		st_write(&st, ev(true, 1 + k, k));
	uint64_t *out;
	size_t n;
	cr_assert(tc_index_valid(ctx, m), "written 10: event 4 lives until event 12");
	cr_assert_eq(tc_copy_since(ctx, m, &out, &n, NULL), TC_RT_OK);
	cr_assert_eq(n, 6, "the event before the mark and the five since");
	cr_assert_eq(out[0], ev(true, 5, 4));
	free(out);
	st_write(&st, ev(true, 11, 10));
	cr_assert_not(tc_index_valid(ctx, m), "written 11: the writer may be storing 11 and 12 (12 over 4)");
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_copy_since(ctx, m, &out, &n, &err), TC_RT_ESTALE);
}

/* The first start may replace the ring: the events stay in the writer's
 * memory with their numbers; the writer's memory is read as the smaller of
 * the two capacities until the writer attaches a larger one, into which the
 * events move. */
Test(feed, a_replaced_ring_keeps_the_writer_and_its_numbering)
{
	open_fake(16, NULL);
	attach(16);
	for (uint32_t k = 0; k < 12; k++)
		st_write(&st, ev(true, 1 + k, k));
	tc_index m = tc_mark(ctx);
	tc_config c;
	fake_config(&c, &f);
	c.capacity = 64;
	c.on_clock_word = on_word;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_reconfigure(ctx, &c, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(tc_written(ctx), 12, "the numbering goes on");
	cr_assert_eq(tc_mark(ctx).seq, m.seq, "marks stay");
	uint64_t *out;
	size_t n = copy_all(&out);
	cr_assert_eq(n, 12, "read as 16 events: the writer's size");
	free(out);
	for (uint32_t k = 12; k < 20; k++)
		st_write(&st, ev(true, 1 + k, k));
	cr_assert_not(tc_index_valid(ctx, (tc_index){ 0 }), "the writer's 16 slots went round");
	static stage bigger;
	tc_feed fd = feed_of(&bigger, 64);
	cr_assert_eq(tc_feed_attach(ctx, &fd, NULL, NULL, &err), TC_RT_OK);
	cr_assert_eq(st.released, 1);
	cr_assert_eq(atomic_load(&bigger.count), 20);
	st_write(&bigger, ev(true, 99, 30));
	cr_assert_eq(tc_copy_since(ctx, (tc_index){ 5 }, &out, &n, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(n, 17, "event 4 on, moved into the larger memory");
	cr_assert_eq(out[0], ev(true, 5, 4));
	cr_assert_eq(out[16], ev(true, 99, 30));
	free(out);
}

/* With a ring file, the file is a copy of the writer's memory, made at every
 * copy (tc_feed_pull here; the clock thread's ticks below). */
Test(feed, a_ring_file_is_a_copy_of_the_writer)
{
	open_fake(16, make_path());
	attach(16);
	for (uint32_t k = 0; k < 5; k++)
		st_write(&st, ev(k % 2 == 0, 1, k));
	cr_assert_eq(ring_count(), 0, "not copied yet");
	tc_dispatch_begin(ctx);
	tc_feed_pull(ctx);
	cr_assert_eq(ring_count(), 6);
	cr_assert_eq(atomic_load(&st.copied), 6, "the writer is told what was copied");
	tc_ring_image img;
	decode_now(&img);
	cr_assert_eq(img.count, 6);
	cr_assert_eq(img.events[4], ev(true, 1, 4));
	cr_assert(tc_event_id(img.events[5]) == TC_ID_DISPATCH && tc_event_is_in(img.events[5]), "the marker too");
	tc_ring_image_dispose(&img);
}

/* A writer that went round its memory before a copy: the file counts the
 * events it missed, and shows them empty, never as the older events that
 * were in their slots. */
Test(feed, a_copy_that_fell_behind_leaves_empty_slots_not_old_events)
{
	open_fake(16, make_path());
	attach(8);
	for (uint32_t k = 0; k < 20; k++) {
		st_write(&st, ev(true, 100 + k, k));
		tc_feed_pull(ctx); /* copied as it goes: the file's slots 0..3 hold events 16..19 */
	}
	for (uint32_t k = 20; k < 40; k++) /* 20 more, not copied: 20..31 overwritten */
		st_write(&st, ev(true, 100 + k, k));
	tc_feed_pull(ctx);
	cr_assert_eq(ring_count(), 40, "the count takes every event");
	tc_ring_image img;
	decode_now(&img);
	cr_assert_eq(img.count, 16);
	/* 32 and 33 too: a writer that had stored 40 may be storing 40 and 41
	 * over them (RING_WRITER_AHEAD), so the copy drops them */
	for (uint32_t k = 24; k < 34; k++)
		cr_assert_eq(img.events[k - 24], 0, "lost event %u shows empty", k);
	for (uint32_t k = 34; k < 40; k++)
		cr_assert_eq(img.events[k - 24], ev(true, 100 + k, k), "event %u", k);
	cr_assert_eq(img.lost, 14, "20..33 counted lost in the header (got %llu)", (unsigned long long)img.lost);
	tc_ring_image_dispose(&img);
}

Test(feed, a_writer_attached_again_takes_the_events_and_the_first_goes)
{
	open_fake(16, NULL);
	attach(16);
	st_write(&st, ev(true, 1, 0));
	st_write(&st, ev(true, 2, 0));
	stage second;
	tc_feed fd = feed_of(&second, 16);
	cr_assert_eq(tc_feed_attach(ctx, &fd, NULL, NULL, NULL), TC_RT_OK);
	cr_assert_eq(st.released, 1, "the first feed is let go");
	cr_assert_eq(atomic_load(&second.count), 2, "after its events moved");
	cr_assert_eq(atomic_load(&second.slot[1]), ev(true, 2, 0));
	st_write(&second, ev(false, 2, 0));
	cr_assert_eq(tc_written(ctx), 3);
	tc_feed no_store = fd;
	no_store.store = NULL;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_feed_attach(ctx, &no_store, NULL, NULL, &err), TC_RT_EINVAL, "the ring of record takes markers");
	tc_ctx_free(ctx);
	ctx = NULL;
	cr_assert_eq(second.released, 1, "freeing the context lets the second go");
	cr_assert_eq(st.released, 1, "and the first only once");
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Waits up to ms for the clock word to be w (or, w == 0, any time). */
static bool word_becomes(int64_t w, long ms)
{
	for (long i = 0; i < ms; i++) {
		int64_t now = tc_clock_word(ctx);
		if (w == 0 ? now >= 0 : now == w)
			return true;
		sleep_ms(1);
	}
	return false;
}

Test(feed, the_clock_word_follows_status_messages_and_kicks)
{
	open_threaded(4096, NULL);
	cr_assert_eq(tc_clock_word(ctx), TC_CLOCK_STALE, "recording, nothing ticks: stale");
	cr_assert_eq(words[n_words - 1], TC_CLOCK_STALE, "and published");
	tc_dispatch_begin(ctx);
	cr_assert_geq(tc_clock_word(ctx), 0, "a message runs: the time");
	sleep_ms(20);
	await_word_at_least(ctx, 10, 2000); /* 10 ms or more says the thread moved it */
	int64_t t = tc_clock_word(ctx);
	cr_assert_geq(t, 10, "the clock thread keeps it (%lld ms)", (long long)t);
	tc_dispatch_end(ctx);
	cr_assert(word_becomes(TC_CLOCK_STALE, 200), "after the message, a tick with nothing new: stale");
	int64_t ms = tc_clock_kick(ctx);
	cr_assert_geq(ms, t, "a kick gives the time (%lld)", (long long)ms);
	cr_assert_geq(tc_clock_word(ctx), 0, "and the word has it before it returns");
	cr_assert(word_becomes(TC_CLOCK_STALE, 200), "nothing written since the kick: stale again");
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	cr_assert_eq(tc_clock_word(ctx), TC_CLOCK_STALE);
	tc_stop(ctx);
	cr_assert_eq(tc_clock_word(ctx), TC_CLOCK_OFF, "stopped: off");
	cr_assert_eq(tc_clock_kick(ctx), TC_CLOCK_OFF, "a kick while stopped says so");
	cr_assert_eq(words[n_words - 1], TC_CLOCK_OFF);
	for (size_t i = 1; i < n_words; i++)
		cr_assert_neq(words[i], words[i - 1], "a word is published when it changes");
}

/* What a killed process leaves: the clock thread copies the writer into the
 * ring file at every tick, in a message and after a kick, with no reader. */
Test(feed, the_clock_thread_copies_into_the_ring_file_at_every_tick)
{
	open_threaded(64, make_path());
	attach(64);
	tc_dispatch_begin(ctx);
	for (uint32_t k = 0; k < 30; k++)
		st_write(&st, ev(k % 2 == 0, 1, 0));
	uint64_t start = mono_ms();
	while (ring_count() < 31 && mono_ms() - start < 1000)
		sleep_ms(1);
	cr_assert_eq(ring_count(), 31, "in a message: copied by the clock thread");
	cr_log_info("in a message: copied %llu ms after the last event", (unsigned long long)(mono_ms() - start));
	tc_dispatch_end(ctx);
	cr_assert(word_becomes(TC_CLOCK_STALE, 200));
	cr_assert_eq(ring_count(), 32, "the end marker too");
	cr_assert_geq(tc_clock_kick(ctx), 0);
	for (uint32_t k = 0; k < 30; k++)
		st_write(&st, ev(k % 2 == 0, 2, 0));
	start = mono_ms();
	while (ring_count() < 62 && mono_ms() - start < 1000)
		sleep_ms(1);
	cr_assert_eq(ring_count(), 62, "after a kick: copied by the clock thread");
	cr_log_info("after a kick: copied %llu ms after the last event", (unsigned long long)(mono_ms() - start));
}

/* Writing on and on outside messages: one kick, and the word stays the time
 * while events come; the clock thread sleeps once they stop. */
Test(feed, a_kicked_clock_ticks_while_events_come)
{
	open_threaded(64, NULL);
	attach(64);
	cr_assert_eq(tc_clock_word(ctx), TC_CLOCK_STALE);
	size_t kicks = 0, events = 0;
	uint64_t start = mono_ms();
	while (mono_ms() - start < 60) {
		int64_t w = tc_clock_word(ctx);
		if (w < 0) {
			w = tc_clock_kick(ctx);
			kicks++;
		}
		st_write(&st, ev(true, 1, (uint64_t)w));
		events++;
	}
	cr_log_info("60 ms of events outside messages: %zu events, %zu kicks", events, kicks);
	/* one, and one more each time this thread lost the CPU for a whole tick
	 * (a loaded machine): never one per event */
	cr_assert(kicks >= 1 && kicks * 1000 <= events, "%zu kicks for %zu events", kicks, events);
	cr_assert(word_becomes(TC_CLOCK_STALE, 200), "they stopped: stale");
	cr_assert_eq(tc_written(ctx), atomic_load(&st.count));
}

/* ---- other threads (TC_THREADS_ALL) ---- */

typedef struct thread_arg {
	stage st;
	const char *name;
	uint32_t n, id;
	int rc;
} thread_arg;

/* Attaches, writes n events and ends without asking for a copy of the last. */
static void *staged_thread(void *p)
{
	thread_arg *a = p;
	tc_feed fd = feed_of(&a->st, 16);
	a->rc = tc_feed_attach(ctx, &fd, a->name, NULL, NULL);
	if (a->rc != TC_RT_OK)
		return NULL;
	for (uint32_t k = 0; k < a->n; k++)
		st_write(&a->st, ev(k % 2 == 0, a->id, 0));
	return NULL;
}

static void open_all(uint32_t max)
{
	tc_config c;
	fake_config(&c, &f);
	c.buffer_path = make_path(); /* the thread file keeps the copies */
	c.record_threads = TC_THREADS_ALL;
	c.thread_capacity = 64;
	c.max_threads = max;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_OK, "%s", err.message);
}

static void decode_threads(tc_threads_image *img)
{
	size_t size;
	void *base = tc_threads_base(ctx, &size);
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_threads_decode(img, base, size, &err), TC_RT_OK, "%s", err.message);
}

static void run_thread(thread_arg *a)
{
	pthread_t th;
	pthread_create(&th, NULL, staged_thread, a);
	pthread_join(th, NULL);
}

/* Its events are copied a last time after its thread ended (before the ring
 * goes to another thread), and its feed is let go then. */
Test(feed, another_threads_feed_outlives_its_thread_until_copied)
{
	open_all(1);
	thread_arg a = { .name = "io-1", .n = 11, .id = 7 };
	run_thread(&a);
	cr_assert_eq(a.rc, TC_RT_OK);
	cr_assert_eq(a.st.released, 0, "not let go before its events are copied");
	tc_threads_image img;
	decode_threads(&img);
	cr_assert_lt(img.rings[0].seq, 11, "its last events were not copied yet");
	tc_threads_image_dispose(&img);

	thread_arg b = { .name = "io-2", .n = 3, .id = 8 };
	run_thread(&b);
	cr_assert_eq(b.rc, TC_RT_OK, "the ended thread's ring goes to the next");
	cr_assert_eq(a.st.released, 1, "after a last copy, the first feed is let go");
	decode_threads(&img);
	cr_assert_eq(img.handed, 2);
	cr_assert_str_eq(img.rings[0].thread_name, "io-2");
	cr_assert_eq(img.rings[0].generation, 2);
	tc_threads_image_dispose(&img);

	tc_ctx_free(ctx);
	ctx = NULL;
	cr_assert_eq(b.st.released, 1, "freeing the context lets the last feed go");
}

/* A thread that found every ring in use (TC_RT_ENOSPC) attaches again once a
 * thread ended, and is counted as refused once. */
typedef struct pair {
	atomic_int held, first_done, release, again;
	thread_arg holder, late;
	int late_first, late_again;
} pair;

static void wait_for(atomic_int *flag)
{
	while (!atomic_load(flag))
		sleep_ms(1);
}

static void *holder_thread(void *p)
{
	pair *s = p;
	tc_feed fd = feed_of(&s->holder.st, 16);
	s->holder.rc = tc_feed_attach(ctx, &fd, "holder", NULL, NULL);
	atomic_store(&s->held, 1);
	wait_for(&s->release);
	return NULL;
}

static void *late_thread(void *p)
{
	pair *s = p;
	tc_feed fd = feed_of(&s->late.st, 16);
	s->late_first = tc_feed_attach(ctx, &fd, "late", NULL, NULL);
	atomic_store(&s->first_done, 1);
	wait_for(&s->again);
	fd = feed_of(&s->late.st, 16);
	s->late_again = tc_feed_attach(ctx, &fd, "late", NULL, NULL);
	st_write(&s->late.st, ev(true, 5, 0));
	return NULL;
}

Test(feed, a_thread_past_the_cap_attaches_again_later)
{
	open_all(1);
	static pair s;
	memset(&s, 0, sizeof s);
	pthread_t h, l;
	pthread_create(&h, NULL, holder_thread, &s);
	wait_for(&s.held);
	pthread_create(&l, NULL, late_thread, &s);
	wait_for(&s.first_done);
	atomic_store(&s.release, 1);
	pthread_join(h, NULL);
	atomic_store(&s.again, 1);
	pthread_join(l, NULL);
	cr_assert_eq(s.holder.rc, TC_RT_OK);
	cr_assert_eq(s.late_first, TC_RT_ENOSPC, "every ring in use");
	cr_assert_eq(s.late_again, TC_RT_OK, "the holder ended: its ring");
	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.refused, 1, "refused once, however often it asked");
	cr_assert_str_eq(img.rings[0].thread_name, "late");
	tc_threads_image_dispose(&img);
}

/* Another thread's ring in the thread file is a copy of its writer's memory,
 * made by the clock thread at its ticks (the writer kicked it, as ThreadRing
 * does when it reads the clock word stale); the writer never waits for a
 * copy, and the file holds each event at its number or an empty slot, never
 * another. */
static void *writing_thread(void *p)
{
	thread_arg *a = p;
	tc_feed fd = feed_of(&a->st, 64);
	a->rc = tc_feed_attach(ctx, &fd, a->name, NULL, NULL);
	if (a->rc != TC_RT_OK)
		return NULL;
	tc_clock_kick(ctx);
	for (uint32_t k = 0; k < a->n; k++)
		st_write(&a->st, ev(k % 2 == 0, 1 + k / 2, k));
	return NULL;
}

static uint64_t thread_ring_seq(void)
{
	tc_threads_image img;
	decode_threads(&img);
	uint64_t seq = img.count ? img.rings[0].seq : 0;
	tc_threads_image_dispose(&img);
	return seq;
}

Test(feed, another_threads_ring_in_the_thread_file_is_copied_at_ticks)
{
	tc_config c;
	tc_config_init(&c);
	c.buffer_path = make_path();
	c.tracers = 0;
	c.expire_ms = 0;
	c.record_threads = TC_THREADS_ALL;
	c.thread_capacity = 64;
	c.max_threads = 2;
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
	static thread_arg a; /* the runtime holds its feed until teardown frees the context */
	memset(&a, 0, sizeof a);
	a.name = "writer";
	a.n = 300;
	pthread_t th;
	pthread_create(&th, NULL, writing_thread, &a);
	uint64_t start = mono_ms();
	while (thread_ring_seq() < 300 && mono_ms() - start < 2000)
		sleep_ms(1);
	pthread_join(th, NULL);
	cr_assert_eq(a.rc, TC_RT_OK);
	cr_assert_eq(thread_ring_seq(), 300, "the clock thread copied every event it was kicked for");
	tc_threads_image img;
	decode_threads(&img);
	const tc_ring_image *r = &img.rings[0];
	size_t missed = 0;
	for (uint64_t k = 0; k < r->count; k++) {
		uint64_t e = r->seq - r->count + k;
		if (r->events[k] == 0)
			missed++;
		else
			cr_assert_eq(r->events[k], ev(e % 2 == 0, 1 + (uint32_t)e / 2, e), "event %llu",
			             (unsigned long long)e);
	}
	cr_log_info("%zu of the file's %zu events missed (the copier a whole array behind)", missed, r->count);
	tc_threads_image_dispose(&img);
}

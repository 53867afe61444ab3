/* Replacing the ring before the first start (tc_reconfigure): a context the
 * first traced call created with the defaults is started with another ring.
 * The events move into it in order, the context's index records follow
 * them, and the old memory is freed (under ASan, a later use of it fails). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "helpers.h"
#include "tc_ringfile.h"

static fake f;
static tc_ctx *ctx;
static tc_config cfg;
static char path[64];

static void setup(void)
{
	fake_config(&cfg, &f);
	snprintf(path, sizeof path, "/tmp/tc-ring-change-%d-XXXXXX", (int)getpid());
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
}

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
	fake_free(&f);
	unlink(path);
}

TestSuite(ring_change, .init = setup, .fini = teardown);

static void open_ctx(void)
{
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, &err), TC_RT_OK, "%s", err.message);
}

/* records n events, id 1 in and out by turns, whose times are from, from + 1, ... */
static void record(uint64_t from, uint64_t n)
{
	for (uint64_t k = from; k < from + n; k++) {
		f.now_ns = 1000000000u + k * 1000000u;
		tc_record(ctx, 1, k % 2 == 0);
	}
}

static void assert_times(const uint64_t *ev, size_t n, uint64_t first)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(tc_event_time(ev[i]), first + i, "event %zu has time %llu, not %llu", i,
		             (unsigned long long)tc_event_time(ev[i]), (unsigned long long)(first + i));
}

/* the events since idx: their count, the first one's time, or -1 if stale */
static long copy_count(tc_index idx, uint64_t *first_time)
{
	uint64_t *ev = NULL;
	size_t n = 0;
	tc_rt_error err = { 0 };
	int rc = tc_copy_since(ctx, idx, &ev, &n, &err);
	if (rc == TC_RT_ESTALE) {
		cr_assert_not(tc_index_valid(ctx, idx));
		return -1;
	}
	cr_assert_eq(rc, TC_RT_OK, "%s", err.message);
	cr_assert(tc_index_valid(ctx, idx));
	for (size_t i = 1; i < n; i++)
		cr_assert_eq(tc_event_time(ev[i]), tc_event_time(ev[i - 1]) + 1, "copy out of order at %zu", i);
	if (n && first_time)
		*first_time = tc_event_time(ev[0]);
	free(ev);
	return (long)n;
}

static void decode_live(tc_ring_image *img)
{
	size_t size;
	void *base = tc_ring_base(ctx, &size);
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ring_decode(img, base, size, &err), TC_RT_OK, "%s", err.message);
}

static int reconfigure(const tc_config *c)
{
	tc_rt_error err = { 0 };
	int rc = tc_reconfigure(ctx, c, &err);
	cr_assert_eq(rc, TC_RT_OK, "%s", err.message);
	return rc;
}

Test(ring_change, file_ring_at_start_keeps_events_and_marks_in_order)
{
	cfg.capacity = 1000000; /* the defaults: a heap ring of a million events */
	open_ctx();
	tc_app_create_begin(ctx); /* as the lazy start does: the application-create mark at 0 */
	record(0, 10);
	ctx->st.warm_mark = tc_mark(ctx); /* a record in the middle */
	record(10, 5);
	void *old = tc_ring_base(ctx, NULL);

	tc_config c = cfg;
	c.buffer_path = path;
	c.capacity = 64;
	c.evil_threshold_ms = 123;
	reconfigure(&c);
	cr_assert_neq(tc_ring_base(ctx, NULL), old, "a new ring");
	cr_assert_eq(ctx->cfg.evil_threshold_ms, 123, "the other settings apply too");
	cr_assert(strstr(f.logs, "ring replaced (capacity 64, buffer file /tmp/tc-ring-change-"), "%s", f.logs);
	cr_assert(strstr(f.logs, "15 events moved, 0 before them dropped"), "%s", f.logs);

	tc_ring_image img;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ring_load(&img, path, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.capacity, 64);
	cr_assert_eq(img.seq, 15);
	cr_assert_eq(img.count, 15);
	cr_assert_eq(img.first_seq, 0);
	cr_assert_eq(img.status, TC_STATUS_READY);
	cr_assert_eq(img.time_base_ns, 1000000000u, "the time base is kept: event times stay valid");
	cr_assert_eq(img.wall_base_ms, 1700000000000u);
	assert_times(img.events, img.count, 0);
	for (size_t i = 0; i < img.count; i++)
		cr_assert_eq(tc_event_is_in(img.events[i]), i % 2 == 0);
	tc_ring_image_dispose(&img);

	uint64_t t0 = 99;
	cr_assert_eq(copy_count(ctx->st.app_mark, &t0), 15, "the application-create mark: everything");
	cr_assert_eq(t0, 0);
	cr_assert_eq(copy_count(ctx->st.warm_mark, &t0), 6, "the middle mark: the event before it and 5");
	cr_assert_eq(t0, 9);

	/* recording goes on into the file, and the start shows there */
	record(15, 3);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	cr_assert_eq(tc_ring_load(&img, path, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.count, 18);
	cr_assert_eq(img.status, TC_STATUS_STARTED);
	assert_times(img.events, img.count, 0);
	tc_ring_image_dispose(&img);
	cr_assert_eq(copy_count(ctx->st.app_mark, NULL), 18);
}

Test(ring_change, smaller_ring_keeps_the_newest_and_invalidates_older_marks)
{
	open_ctx(); /* capacity 4096, heap */
	tc_app_create_begin(ctx);         /* 0 */
	record(0, 12);
	ctx->st.warm_mark = tc_mark(ctx); /* 12: needs event 11 */
	record(12, 2);
	ctx->evil_mark = tc_mark(ctx);    /* 14: needs event 13 */
	record(14, 1);
	ctx->first_mark = tc_mark(ctx);   /* 15: needs event 14 */
	record(15, 5);                    /* 20 events */

	tc_config c = cfg;
	c.capacity = 8;
	reconfigure(&c);
	cr_assert(strstr(f.logs, "8 events moved, 12 before them dropped"), "%s", f.logs);
	cr_assert_eq(tc_written(ctx), 8);
	tc_ring_image img;
	decode_live(&img);
	cr_assert_eq(img.capacity, 8);
	cr_assert_eq(img.count, 8);
	assert_times(img.events, img.count, 12);
	tc_ring_image_dispose(&img);

	uint64_t t0 = 0;
	cr_assert_eq(copy_count(ctx->st.app_mark, NULL), -1, "the start-up mark lost its events");
	cr_assert_eq(copy_count(ctx->st.warm_mark, NULL), -1, "a mark whose event before was dropped");
	/* as in any full ring, a mark needing one of the two oldest events is
	 * stale: readers give a writer a margin of two events in flight
	 * (RING_WRITER_AHEAD) */
	cr_assert_eq(copy_count(ctx->evil_mark, NULL), -1, "event 13 is the oldest but one");
	cr_assert_eq(copy_count(ctx->first_mark, &t0), 6);
	cr_assert_eq(t0, 14);

	/* lost records stay lost however much is written; kept ones age as usual */
	record(20, 1);
	cr_assert_eq(copy_count(ctx->first_mark, NULL), -1, "event 14 is now the oldest but one");
	record(21, 100);
	cr_assert_eq(copy_count(ctx->st.warm_mark, NULL), -1, "a lost record stays lost");
	uint64_t *ev = NULL;
	size_t n = 0;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_copy_since(ctx, ctx->st.app_mark, &ev, &n, &err), TC_RT_ESTALE);
	cr_assert(strstr(err.message, "ring was replaced"), "%s", err.message);
	cr_assert_not(tc_index_valid(ctx, ctx->st.warm_mark));
}

Test(ring_change, startup_stack_reaches_back_before_the_move)
{
	cfg.capacity = 1000000;
	open_ctx();
	tc_app_create_begin(ctx);
	rec_in(ctx, 5); /* Application.<init>, before start */
	fake_advance_ms(&f, 30);
	rec_out(ctx, 5);

	tc_config c = cfg;
	c.buffer_path = path;
	c.capacity = 128;
	c.cold_threshold_ms = 10;
	reconfigure(&c);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	rec_in(ctx, 6); /* Application.onCreate, after */
	fake_advance_ms(&f, 20);
	rec_out(ctx, 6);
	tc_app_create_end(ctx, 100, true);
	tc_activity_created(ctx, "Main", 1);
	fake_advance_ms(&f, 5);
	tc_activity_focus(ctx, "Main", 1, true);
	int i = fake_find(&f, "Trace_EvilMethod", 0);
	cr_assert_geq(i, 0, "a slow cold start");
	cr_assert(strstr(fake_json(&f, i), "\"stack\":\"0,5,1,30\\n0,6,1,20\\n\""), "%s", fake_json(&f, i));
}

Test(ring_change, unchanged_ring_is_kept)
{
	cfg.clock_resolution_ms = 1;
	open_ctx();
	record(0, 3);
	void *old = tc_ring_base(ctx, NULL);
	tc_config c = cfg;
	c.clock_resolution_ms = 0; /* the same as 1 */
	c.evil_threshold_ms = 5;
	reconfigure(&c);
	cr_assert_eq(tc_ring_base(ctx, NULL), old);
	cr_assert_eq(tc_written(ctx), 3);
	cr_assert_null(f.logs ? strstr(f.logs, "ring") : NULL, "%s", f.logs);
}

Test(ring_change, file_ring_is_kept_when_asked_again)
{
	cfg.buffer_path = path;
	cfg.capacity = 16;
	open_ctx();
	record(0, 4);
	void *old = tc_ring_base(ctx, NULL);
	reconfigure(&cfg);
	cr_assert_eq(tc_ring_base(ctx, NULL), old, "the same file and size: nothing to do");
}

/* The new file is built aside and renamed over the path: opening the path
 * itself would empty the current ring's own file before the copy. */
Test(ring_change, same_file_with_another_capacity)
{
	cfg.buffer_path = path;
	cfg.capacity = 16;
	open_ctx();
	record(0, 20);
	tc_config c = cfg;
	c.capacity = 32;
	reconfigure(&c);
	tc_ring_image img;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ring_load(&img, path, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.capacity, 32);
	cr_assert_eq(img.count, 16, "the 16 events the old ring still had");
	assert_times(img.events, img.count, 4);
	tc_ring_image_dispose(&img);
	char tmp[96];
	snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
	cr_assert_neq(access(tmp, F_OK), 0, "no temporary file left");
}

Test(ring_change, file_to_heap)
{
	cfg.buffer_path = path;
	open_ctx();
	record(0, 6);
	tc_config c = cfg;
	c.buffer_path = NULL;
	reconfigure(&c);
	cr_assert_null(ctx->buffer_path);
	tc_ring_image img;
	decode_live(&img);
	cr_assert_eq(img.count, 6);
	assert_times(img.events, img.count, 0);
	tc_ring_image_dispose(&img);
}

Test(ring_change, failure_leaves_the_context_as_it_was)
{
	open_ctx();
	record(0, 5);
	void *old = tc_ring_base(ctx, NULL);
	tc_config c = cfg;
	c.buffer_path = "/nonexistent/dir/ring";
	c.evil_threshold_ms = 5;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_reconfigure(ctx, &c, &err), TC_RT_EIO);
	cr_assert(strstr(err.message, "/nonexistent/dir/ring"), "%s", err.message);
	cr_assert_eq(tc_ring_base(ctx, NULL), old);
	cr_assert_null(ctx->buffer_path);
	cr_assert_eq(ctx->cfg.evil_threshold_ms, 700, "no setting applied");
	c.buffer_path = NULL;
	c.capacity = 1;
	cr_assert_eq(tc_reconfigure(ctx, &c, &err), TC_RT_EINVAL, "a bad capacity is refused as at creation");
	record(5, 2);
	cr_assert_eq(copy_count((tc_index){ 0 }, NULL), 7, "recording goes on in the old ring");
}

Test(ring_change, ring_stays_once_started)
{
	open_ctx();
	record(0, 3);
	void *old = tc_ring_base(ctx, NULL);
	tc_start(ctx, NULL);
	tc_config c = cfg;
	c.capacity = 64;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_reconfigure(ctx, &c, &err), TC_RT_ESTATE, "refused while started, as before");
	tc_stop(ctx);
	reconfigure(&c);
	cr_assert_eq(tc_ring_base(ctx, NULL), old, "stopped: tracer tasks may hold records");
	cr_assert_eq(ctx->cfg.capacity, 4096);
	cr_assert(strstr(f.logs, "ring settings not applied once started (capacity 64"), "%s", f.logs);
}

static void *reconfigure_elsewhere(void *arg)
{
	tc_config *c = arg;
	return (void *)(intptr_t)tc_reconfigure(ctx, c, NULL);
}

Test(ring_change, ring_stays_off_the_recording_thread)
{
	open_ctx();
	void *old = tc_ring_base(ctx, NULL);
	tc_config c = cfg;
	c.capacity = 64;
	pthread_t t;
	void *rc;
	pthread_create(&t, NULL, reconfigure_elsewhere, &c);
	pthread_join(t, &rc);
	cr_assert_eq((intptr_t)rc, TC_RT_OK);
	cr_assert_eq(tc_ring_base(ctx, NULL), old);
	cr_assert(strstr(f.logs, "not applied off the recording thread"), "%s", f.logs);
}

Test(ring_change, expiry_after_the_move_reaches_the_new_header)
{
	cfg.buffer_path = NULL;
	open_ctx();
	record(0, 2);
	tc_config c = cfg;
	c.buffer_path = path;
	reconfigure(&c);
	fake_advance_ms(&f, 10000);
	tc_ctx_poll(ctx);
	cr_assert_eq(tc_status(ctx), TC_STATUS_EXPIRED_START);
	tc_ring_image img;
	cr_assert_eq(tc_ring_load(&img, path, NULL), TC_RT_OK);
	cr_assert_eq(img.status, TC_STATUS_EXPIRED_START);
	tc_ring_image_dispose(&img);
	/* expired is not started yet: the ring may still change */
	c.capacity = 100;
	reconfigure(&c);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	cr_assert_eq(tc_ring_load(&img, path, NULL), TC_RT_OK);
	cr_assert_eq(img.capacity, 100);
	cr_assert_eq(img.status, TC_STATUS_STARTED);
	cr_assert_eq(img.count, 2);
	tc_ring_image_dispose(&img);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* With threads: the clock thread starts again on the new ring at the new
 * resolution (it stored into the old header until the move). */
Test(ring_change, clock_thread_moves_to_the_new_ring)
{
	tc_config_init(&cfg);
	cfg.capacity = 64;
	open_ctx();
	tc_dispatch_begin(ctx);
	tc_record(ctx, 1, true);
	int64_t w_in = tc_clock_word(ctx); /* what that event read */
	tc_config c = cfg;
	c.capacity = 128;
	c.clock_resolution_ms = 5;
	c.buffer_path = path;
	reconfigure(&c);
	cr_assert(ctx->clock.running);
	cr_assert_eq(ctx->clock.resolution_ms, 5);
	sleep_ms(40);
	await_word_at_least(ctx, w_in + 20, 2000);
	tc_record(ctx, 1, false);
	tc_dispatch_end(ctx);
	tc_ring_image img;
	cr_assert_eq(tc_ring_load(&img, path, NULL), TC_RT_OK);
	cr_assert_eq(img.resolution_ms, 5);
	cr_assert_eq(img.count, 4);
	uint64_t in = tc_event_time(img.events[1]), out = tc_event_time(img.events[2]);
	cr_assert_geq(out, in + 20, "the clock ticked in the new ring while the message ran (%llu, %llu)",
	              (unsigned long long)in, (unsigned long long)out);
	tc_ring_image_dispose(&img);
}

/* Other threads read the status, the count and copies while the recording
 * thread replaces the ring again and again: they must never see freed
 * memory (ASan) or a torn ring. */
static _Atomic bool stop_readers;

static void *reader(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop_readers)) {
		(void)tc_status(ctx);
		(void)tc_now_ms(ctx);
		uint64_t w = tc_written(ctx);
		uint64_t *ev = NULL;
		size_t n = 0;
		tc_index idx = { w > 4 ? w - 4 : 0 };
		if (tc_copy_since(ctx, idx, &ev, &n, NULL) == TC_RT_OK)
			free(ev);
		tc_record(ctx, 9, true); /* not the recording thread: ignored */
	}
	return NULL;
}

Test(ring_change, readers_on_other_threads_during_moves)
{
	open_ctx();
	pthread_t t[2];
	atomic_store(&stop_readers, false);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, reader, NULL);
	tc_config c = cfg;
	for (int k = 0; k < 200; k++) {
		record((uint64_t)k * 3, 3);
		c.capacity = 16 + (uint32_t)(k % 7);
		c.buffer_path = k % 3 == 0 ? path : NULL;
		reconfigure(&c);
	}
	atomic_store(&stop_readers, true);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	uint64_t *ev = NULL;
	size_t n = 0;
	cr_assert_eq(tc_copy_since(ctx, (tc_index){ tc_written(ctx) - 8 }, &ev, &n, NULL), TC_RT_OK);
	cr_assert_eq(n, 9);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(tc_event_id(ev[i]), 1, "only the recording thread's events");
	free(ev);
}

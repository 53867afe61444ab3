/* Recording every thread (record_threads = TC_THREADS_ALL): a ring per
 * thread, handed out at its first event; several threads writing at once,
 * every event accounted for and none torn, with a reader on another thread
 * meanwhile; threads past the cap counted; the thread file, also after the
 * process is killed; status, time and sections on other threads. Built
 * with ThreadSanitizer too (rt_all_threads_tsan, tests/runtime/meson.build). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "tc_ringfile.h"
#include "thread_set.h"

static fake f;
static tc_ctx *ctx;
static char path[96];

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
	fake_free(&f);
	if (path[0]) {
		unlink(path);
		char threads[128];
		snprintf(threads, sizeof threads, "%s-threads", path);
		unlink(threads);
		path[0] = '\0';
	}
}

TestSuite(all_threads, .fini = teardown);

static void open_all(uint32_t capacity, uint32_t max, const char *file)
{
	tc_config c;
	fake_config(&c, &f);
	c.record_threads = TC_THREADS_ALL;
	c.thread_capacity = capacity;
	c.max_threads = max;
	c.buffer_path = file;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_OK, "%s", err.message);
}

static void make_path(void)
{
	snprintf(path, sizeof path, "/tmp/tc-all-threads-%d-XXXXXX", (int)getpid());
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
}

/* The thread file as it is now (every writer has stopped). */
static void decode_threads(tc_threads_image *img)
{
	size_t size;
	void *base = tc_threads_base(ctx, &size);
	cr_assert_not_null(base);
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_threads_decode(img, base, size, &err), TC_RT_OK, "%s", err.message);
}

/* the k-th event thread t writes: a function of both, so that any event in
 * the wrong ring or the wrong slot, or half-written, shows */
static uint32_t id_of(int t, uint64_t k)
{
	return 1 + (uint32_t)(((uint64_t)t * 7919u + k) % 100000u);
}

static uint64_t event_of(int t, uint64_t k, uint64_t ms)
{
	return tc_event_encode(k % 2 == 0, id_of(t, k), ms);
}

typedef struct writer_arg {
	int t;
	uint64_t n;
	atomic_int *go;
	char name[16];
} writer_arg;

static void *writer(void *p)
{
	writer_arg *w = p;
	if (w->name[0])
		tc_thread_name(ctx, w->name);
	while (!atomic_load(w->go))
		;
	for (uint64_t k = 0; k < w->n; k++)
		tc_record(ctx, id_of(w->t, k), k % 2 == 0);
	return NULL;
}

Test(all_threads, main_only_by_default)
{
	tc_config c;
	fake_config(&c, &f);
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
	atomic_int go = 1;
	writer_arg w = { 0, 10, &go, "" };
	pthread_t th;
	pthread_create(&th, NULL, writer, &w);
	pthread_join(th, NULL);
	cr_assert_eq(tc_written(ctx), 0, "another thread's events are not recorded");
	cr_assert_null(tc_threads_base(ctx, NULL));
}

Test(all_threads, each_thread_records_into_its_own_ring)
{
	open_all(1024, 8, NULL);
	rec_in(ctx, 5);
	atomic_int go = 1;
	writer_arg w[3];
	pthread_t th[3];
	for (int t = 0; t < 3; t++) {
		w[t] = (writer_arg){ t, 10 + (uint64_t)t, &go, "" };
		snprintf(w[t].name, sizeof w[t].name, "worker-%d", t);
		pthread_create(&th[t], NULL, writer, &w[t]);
		pthread_join(th[t], NULL); /* one after the other: rings in this order */
	}
	rec_out(ctx, 5);
	cr_assert_eq(tc_written(ctx), 2, "the recording thread's events stay in the context's ring");

	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.count, 3);
	cr_assert_eq(img.max_threads, 8);
	cr_assert_eq(img.pid, (uint32_t)getpid());
	cr_assert_eq(img.time_base_ns, 1000000000u, "one time base with the context's ring");
	cr_assert_eq(img.refused, 0);
	for (int t = 0; t < 3; t++) {
		tc_ring_image *r = &img.rings[t];
		char want[16];
		snprintf(want, sizeof want, "worker-%d", t);
		cr_assert_str_eq(r->thread_name, want);
		cr_assert_neq(r->tid, 0);
		cr_assert_eq(r->capacity, 1024);
		cr_assert_null(r->names, "a thread's ring has no name table");
		cr_assert_eq(r->count, 10 + (size_t)t);
		for (uint64_t k = 0; k < r->count; k++)
			cr_assert_eq(r->events[k], event_of(t, k, 0), "thread %d event %llu", t, (unsigned long long)k);
	}
	cr_assert_neq(img.rings[0].tid, img.rings[1].tid);
	tc_threads_image_dispose(&img);
}

/* A reader on another thread while the writers write: what it reads of a
 * ring below the count it loaded (acquire) is what that thread wrote. */
typedef struct reader_arg {
	atomic_int *stop;
	size_t checks;
} reader_arg;

static void *reader(void *p)
{
	reader_arg *ra = p;
	struct thread_header *h = tc_threads_base(ctx, NULL);
	while (!atomic_load(ra->stop)) {
		uint32_t used = atomic_load_explicit(&h->used, memory_order_acquire);
		for (uint32_t k = 0; k < used; k++) {
			struct ring_header *rh = (void *)((char *)h + TC_THREADS_HEADER_SIZE + (size_t)k * h->ring_size);
			_Atomic uint64_t *slots = (void *)((char *)rh + rh->header_size);
			uint64_t seq = atomic_load_explicit(&rh->seq, memory_order_acquire);
			if (seq == 0)
				continue;
			/* which writer: its first event says (the rings are not full) */
			uint64_t first = atomic_load_explicit(&slots[0], memory_order_relaxed);
			int t = (int)((tc_event_id(first) - 1) / 7919u);
			for (uint64_t i = 0; i < seq; i++)
				cr_assert_eq(atomic_load_explicit(&slots[i], memory_order_relaxed), event_of(t, i, 0),
				             "ring %u slot %llu of %llu", k, (unsigned long long)i, (unsigned long long)seq);
			ra->checks++;
		}
	}
	return NULL;
}

#define WRITERS 6
#define EVENTS 200000u

Test(all_threads, writers_at_once_every_event_accounted_for)
{
	open_all(EVENTS, WRITERS, NULL);
	atomic_int go = 0, stop = 0;
	writer_arg w[WRITERS];
	pthread_t th[WRITERS], rd;
	reader_arg ra = { &stop, 0 };
	for (int t = 0; t < WRITERS; t++) {
		w[t] = (writer_arg){ t, EVENTS, &go, "" };
		pthread_create(&th[t], NULL, writer, &w[t]);
	}
	pthread_create(&rd, NULL, reader, &ra);
	atomic_store(&go, 1);
	for (int t = 0; t < WRITERS; t++)
		pthread_join(th[t], NULL);
	atomic_store(&stop, 1);
	pthread_join(rd, NULL);
	cr_log_info("reader checked %zu rings while they were written", ra.checks);

	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.count, WRITERS);
	bool seen[WRITERS] = { false };
	for (size_t k = 0; k < img.count; k++) {
		tc_ring_image *r = &img.rings[k];
		cr_assert_eq(r->seq, EVENTS, "ring %zu: every event counted", k);
		cr_assert_eq(r->count, EVENTS);
		cr_assert_not(r->recovered);
		int t = (int)((tc_event_id(r->events[0]) - 1) / 7919u);
		cr_assert(t >= 0 && t < WRITERS && !seen[t], "ring %zu belongs to one writer", k);
		seen[t] = true;
		for (uint64_t i = 0; i < EVENTS; i++)
			cr_assert_eq(r->events[i], event_of(t, i, 0), "ring %zu event %llu", k, (unsigned long long)i);
	}
	tc_threads_image_dispose(&img);
}

/* With the context's own threads and clock: while a message runs, other
 * threads take the clock thread's time; after it, the clock's. */
Test(all_threads, other_threads_take_the_ticking_clock)
{
	tc_config c;
	fake_config(&c, &f);
	c.threads = true;
	c.clock = (tc_clock){ 0 };
	c.record_threads = TC_THREADS_ALL;
	c.max_threads = WRITERS;
	c.thread_capacity = 4096;
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	atomic_int go = 0;
	writer_arg w[WRITERS];
	pthread_t th[WRITERS];
	tc_dispatch_begin(ctx);
	for (int t = 0; t < WRITERS; t++) {
		w[t] = (writer_arg){ t, 100000, &go, "" };
		pthread_create(&th[t], NULL, writer, &w[t]);
	}
	atomic_store(&go, 1);
	for (int k = 0; k < 1000; k++) {
		tc_record(ctx, 1, true);
		tc_record(ctx, 1, false);
	}
	for (int t = 0; t < WRITERS; t++)
		pthread_join(th[t], NULL);
	tc_dispatch_end(ctx);
	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.count, WRITERS);
	uint64_t end = tc_now_ms(ctx);
	for (size_t k = 0; k < img.count; k++) {
		cr_assert_eq(img.rings[k].seq, 100000);
		for (size_t i = 1; i < img.rings[k].count; i++)
			cr_assert_geq(tc_event_time(img.rings[k].events[i]), tc_event_time(img.rings[k].events[i - 1]),
			              "ring %zu: time goes forward", k);
		cr_assert_leq(tc_event_time(img.rings[k].events[img.rings[k].count - 1]), end);
	}
	tc_threads_image_dispose(&img);
}

/* Writers that stay alive until every one has made its first event: the
 * threads past the cap find every ring in use. */
typedef struct alive_arg {
	writer_arg w;
	pthread_barrier_t *all_started;
} alive_arg;

static void *writer_alive(void *p)
{
	alive_arg *a = p;
	tc_record(ctx, id_of(a->w.t, 0), true);
	pthread_barrier_wait(a->all_started);
	for (uint64_t k = 1; k < a->w.n; k++)
		tc_record(ctx, id_of(a->w.t, k), k % 2 == 0);
	return NULL;
}

Test(all_threads, threads_past_the_cap_are_counted_not_recorded)
{
	open_all(64, 2, NULL);
	pthread_barrier_t all_started;
	pthread_barrier_init(&all_started, NULL, 4);
	alive_arg a[4];
	pthread_t th[4];
	for (int t = 0; t < 4; t++) {
		a[t] = (alive_arg){ { t, 100, NULL, "" }, &all_started };
		pthread_create(&th[t], NULL, writer_alive, &a[t]);
	}
	for (int t = 0; t < 4; t++)
		pthread_join(th[t], NULL);
	pthread_barrier_destroy(&all_started);
	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.count, 2);
	cr_assert_eq(img.refused, 2, "two threads found every ring in use");
	cr_assert_eq(img.dropped, 200, "and their events are counted");
	cr_assert_eq(img.rings[0].seq, 100, "a wrapped ring counts every event");
	cr_assert_eq(img.rings[0].count, 64, "and keeps the newest");
	tc_threads_image_dispose(&img);
}

/* Defect: rings were never given back, so a pool that starts and ends
 * threads used up the cap and every later thread went unrecorded. A ring
 * whose thread ended goes to the next thread, with a new generation; the
 * never-used ones first, then the one that ended longest ago. */
Test(all_threads, a_churning_pool_keeps_recording_past_the_cap)
{
	open_all(64, 2, NULL);
	atomic_int go = 1;
	for (int t = 0; t < 10; t++) {
		writer_arg w = { t, 20, &go, "" };
		snprintf(w.name, sizeof w.name, "pool-%d", t);
		pthread_t th;
		pthread_create(&th, NULL, writer, &w);
		pthread_join(th, NULL);
	}
	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.refused, 0, "no thread went unrecorded (%llu refused)", (unsigned long long)img.refused);
	cr_assert_eq(img.dropped, 0);
	cr_assert_eq(img.count, 2);
	cr_assert_eq(img.handed, 10, "ten rings handed out, eight of them again");
	/* ring 0 went to threads 0, 2, 4, 6, 8; ring 1 to 1, 3, 5, 7, 9 */
	for (int k = 0; k < 2; k++) {
		tc_ring_image *r = &img.rings[k];
		char want[16];
		snprintf(want, sizeof want, "pool-%d", 8 + k);
		cr_assert_str_eq(r->thread_name, want);
		cr_assert_eq(r->generation, 9u + (uint32_t)k, "ring %d: generation %u", k, r->generation);
		cr_assert_neq(r->ended_ns, 0, "its thread ended");
		cr_assert_eq(r->seq, 20, "only the last thread's events");
		for (uint64_t i = 0; i < 20; i++)
			cr_assert_eq(r->events[i], event_of(8 + k, i, 0), "ring %d event %llu", k, (unsigned long long)i);
		cr_assert_not(r->recovered, "no event of the thread before it");
	}
	tc_threads_image_dispose(&img);
}

Test(all_threads, status_and_time_follow_the_context)
{
	open_all(64, 4, NULL);
	atomic_int go = 1;
	writer_arg w = { 0, 4, &go, "" };
	pthread_t th;
	fake_advance_ms(&f, 250);
	pthread_create(&th, NULL, writer, &w);
	pthread_join(th, NULL);
	tc_stop(ctx); /* READY: a warning, no change */
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	tc_stop(ctx);
	pthread_create(&th, NULL, writer, &w);
	pthread_join(th, NULL);
	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.count, 2);
	cr_assert_eq(img.rings[0].seq, 4);
	cr_assert_eq(tc_event_time(img.rings[0].events[0]), 250, "the context's clock and time base");
	cr_assert_eq(img.rings[1].status, TC_STATUS_STOPPED, "a ring handed out while stopped says so");
	cr_assert_eq(img.rings[1].seq, 0, "and records nothing");
	cr_assert_eq(img.rings[0].status, TC_STATUS_STOPPED, "the others follow the context's status");
	tc_threads_image_dispose(&img);
}

/* After tc_ctx_free the thread file's address stays mapped, zeroed: a thread
 * with a ring that ends later (its TLS destructor writes the ring's header)
 * or a C writer racing the free touches memory that is still there, and
 * reads "not recording". The Java writers hold no C memory (their staging
 * rings are Java arrays). */
Test(all_threads, a_freed_context_leaves_the_rings_mapped_and_inert)
{
	open_all(64, 4, NULL);
	atomic_int go = 1;
	writer_arg w = { 0, 4, &go, "" };
	pthread_t th;
	pthread_create(&th, NULL, writer, &w);
	pthread_join(th, NULL);
	struct thread_header *h = tc_threads_base(ctx, NULL);
	struct ring_header *rh = (void *)((char *)h + TC_THREADS_HEADER_SIZE);
	cr_assert_eq(atomic_load(&rh->seq), 4);
	tc_ctx_free(ctx);
	ctx = NULL;
	cr_assert_eq(atomic_load(&rh->status), 0);
	cr_assert_eq(atomic_load(&rh->seq), 0);
	atomic_store(&rh->seq, 1); /* and writable */
}

Test(all_threads, the_thread_file_sits_next_to_the_ring_file)
{
	make_path();
	open_all(4096, 3, path);
	atomic_int go = 1;
	writer_arg w = { 1, 7, &go, "io" };
	pthread_t th;
	pthread_create(&th, NULL, writer, &w);
	pthread_join(th, NULL);
	char threads[128];
	snprintf(threads, sizeof threads, "%s-threads", path);
	struct stat st;
	cr_assert_eq(stat(threads, &st), 0);
	cr_assert_eq(st.st_size, 256 + 3 * (256 + 4096 * 8));
	cr_assert_geq((long long)st.st_blocks * 512, (long long)st.st_size, "reserved up front");
	tc_threads_image img;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_threads_load(&img, threads, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.count, 1);
	cr_assert_str_eq(img.rings[0].thread_name, "io");
	cr_assert_eq(img.rings[0].count, 7);
	tc_threads_image_dispose(&img);
}

static int wait_child(pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A process killed (SIGKILL) while its threads write leaves all of them in
 * the files. */
Test(all_threads, a_killed_process_leaves_every_thread)
{
	make_path();
	int ready[2];
	cr_assert_eq(pipe(ready), 0);
	pid_t child = fork();
	cr_assert_geq(child, 0);
	if (child == 0) {
		close(ready[0]);
		open_all(1 << 16, 4, path);
		rec_in(ctx, 9);
		atomic_int go = 1;
		writer_arg w[3];
		pthread_t th[3];
		for (int t = 0; t < 3; t++) {
			w[t] = (writer_arg){ t, 1000, &go, "" };
			snprintf(w[t].name, sizeof w[t].name, "pool-%d", t);
			pthread_create(&th[t], NULL, writer, &w[t]);
			pthread_join(th[t], NULL);
		}
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	char c;
	cr_assert_eq(read(ready[0], &c, 1), 1, "the child got ready");
	kill(child, SIGKILL);
	cr_assert_eq(wait_child(child), 128 + SIGKILL);
	tc_ring_image main_ring;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ring_load(&main_ring, path, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(main_ring.count, 1);
	cr_assert_eq(main_ring.pid, (uint32_t)child);
	tc_ring_image_dispose(&main_ring);
	char threads[128];
	snprintf(threads, sizeof threads, "%s-threads", path);
	tc_threads_image img;
	cr_assert_eq(tc_threads_load(&img, threads, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.count, 3);
	for (int t = 0; t < 3; t++) {
		char want[16];
		snprintf(want, sizeof want, "pool-%d", t);
		cr_assert_str_eq(img.rings[t].thread_name, want);
		cr_assert_eq(img.rings[t].count, 1000);
		cr_assert_eq(img.rings[t].events[999], event_of(t, 999, 0));
	}
	tc_threads_image_dispose(&img);
}

Test(all_threads, the_mode_is_chosen_once)
{
	tc_config c;
	fake_config(&c, &f);
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
	c.record_threads = TC_THREADS_ALL;
	c.max_threads = 5;
	cr_assert_eq(tc_reconfigure(ctx, &c, NULL), TC_RT_OK, "main -> all before the start");
	cr_assert_not_null(tc_threads_base(ctx, NULL));
	c.record_threads = TC_THREADS_MAIN;
	c.max_threads = 9;
	cr_assert_eq(tc_reconfigure(ctx, &c, NULL), TC_RT_OK);
	cr_assert(strstr(f.logs, "thread settings not applied (threads main, 32768 events per thread, 9 threads)"),
	          "%s", f.logs);
	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.max_threads, 5, "the rings made first stay");
	tc_threads_image_dispose(&img);
	c.record_threads = 7;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_reconfigure(ctx, &c, &err), TC_RT_EINVAL);
}

Test(all_threads, bad_thread_settings_are_refused)
{
	tc_config c;
	fake_config(&c, &f);
	c.record_threads = TC_THREADS_ALL;
	c.max_threads = 0;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_EINVAL);
	cr_assert(strstr(err.message, "max threads"), "%s", err.message);
	c.max_threads = 4;
	c.thread_capacity = 1;
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_EINVAL);
	cr_assert(strstr(err.message, "thread ring capacity"), "%s", err.message);
}

/* ---- sections ---- */

static void *sections_elsewhere(void *p)
{
	(void)p;
	tc_section_begin(ctx, "download", NULL);
	tc_record(ctx, 3, true);
	tc_record(ctx, 3, false);
	tc_section_end(ctx);
	return NULL;
}

Test(all_threads, sections_on_every_thread_share_the_names)
{
	open_all(64, 4, NULL);
	cr_assert_eq(tc_section_begin(ctx, "cold start", NULL), TC_RT_OK);
	pthread_t th;
	pthread_create(&th, NULL, sections_elsewhere, NULL);
	pthread_join(th, NULL);
	tc_section_end(ctx);
	uint64_t *ev;
	size_t n;
	cr_assert_eq(tc_copy_since(ctx, (tc_index){ 0 }, &ev, &n, NULL), TC_RT_OK);
	cr_assert_eq(n, 2);
	cr_assert_eq(ev[0], tc_event_encode(true, TC_ID_SECTION, 0));
	cr_assert_eq(ev[1], tc_event_encode(false, TC_ID_SECTION, 0));
	free(ev);
	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.rings[0].count, 4);
	cr_assert_eq(img.rings[0].events[0], tc_event_encode(true, TC_ID_SECTION + 1, 0));
	cr_assert_eq(img.rings[0].events[3], tc_event_encode(false, TC_ID_SECTION + 1, 0));
	tc_threads_image_dispose(&img);
	size_t size;
	void *base = tc_ring_base(ctx, &size);
	tc_ring_image r;
	cr_assert_eq(tc_ring_decode(&r, base, size, NULL), TC_RT_OK);
	cr_assert_str_eq(r.names[0], "cold start");
	cr_assert_str_eq(r.names[1], "download");
	cr_assert_str_eq(r.names[2], "");
	tc_ring_image_dispose(&r);
}

/* ---- which threads the C writer records (tc_config.thread_names, thread_filter) ---- */

static atomic_int filter_calls;

static bool all_but_bad(void *user, uint32_t tid, const char *name)
{
	(void)user;
	atomic_fetch_add(&filter_calls, 1);
	return tid != 0 && strcmp(name, "pool-bad") != 0;
}

/* a thread with this system name (prctl, as ART names a Java thread) records 10 events */
static void *named_writer(void *p)
{
	prctl(PR_SET_NAME, (unsigned long)p, 0, 0, 0);
	for (int k = 0; k < 10; k++)
		tc_record(ctx, 7, k % 2 == 0);
	return NULL;
}

/* Beike's interceptor for C writers: the globs on the thread's system name,
 * then the callback, each asked once per thread at its first event; a thread
 * said no to takes no ring and is not counted as refused or dropped. */
Test(all_threads, thread_names_and_the_filter_choose_who_records)
{
	tc_config c;
	fake_config(&c, &f);
	c.record_threads = TC_THREADS_ALL;
	c.thread_capacity = 64;
	c.max_threads = 8;
	c.thread_names = " pool-* ;worker ?;";
	c.thread_filter = all_but_bad;
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
	const char *names[] = { "pool-1", "pool-bad", "worker 7", "worker 12", "main-x", "xpool-2" };
	for (size_t t = 0; t < sizeof names / sizeof *names; t++) {
		pthread_t th;
		pthread_create(&th, NULL, named_writer, (void *)names[t]);
		pthread_join(th, NULL); /* one after the other: rings in this order */
	}
	cr_assert_eq(atomic_load(&filter_calls), 3, "asked once per thread whose name matched, not per event");
	tc_threads_image img;
	decode_threads(&img);
	cr_assert_eq(img.count, 2);
	cr_assert_str_eq(img.rings[0].thread_name, "pool-1");
	cr_assert_str_eq(img.rings[1].thread_name, "worker 7");
	cr_assert_eq(img.rings[0].seq, 10);
	cr_assert_eq(img.refused, 0, "a thread said no to is not refused");
	cr_assert_eq(img.dropped, 0, "nor are its events dropped");
	tc_threads_image_dispose(&img);
}

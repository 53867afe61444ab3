/* The ring: wrap, index records (mark/copy/invalidate), a concurrent copy,
 * and the file format with its decoder. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "ring.h"
#include "tc_ringfile.h"

static fake f;
static tc_ctx *ctx;

static void open_ctx(uint32_t cap, const char *path)
{
	tc_config c;
	fake_config(&c, &f);
	c.capacity = cap;
	c.buffer_path = path;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_OK, "%s", err.message);
}

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
	fake_free(&f);
}

/* writes n events whose time is their sequence number */
static void write_seq(uint64_t from, uint64_t n)
{
	for (uint64_t k = from; k < from + n; k++) {
		f.now_ns = 1000000000u + k * 1000000u;
		rec_in(ctx, 1);
	}
}

static void assert_times(const uint64_t *ev, size_t n, uint64_t first)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(tc_event_time(ev[i]), first + i, "event %zu has time %llu", i,
		             (unsigned long long)tc_event_time(ev[i]));
}

TestSuite(ring, .fini = teardown);

Test(ring, copy_since_mark_includes_the_event_before_it)
{
	open_ctx(16, NULL);
	write_seq(0, 3);
	tc_index m = tc_mark(ctx);
	write_seq(3, 4);
	uint64_t *ev;
	size_t n;
	cr_assert_eq(tc_copy_since(ctx, m, &ev, &n, NULL), TC_RT_OK);
	cr_assert_eq(n, 5); /* event 2 (before the mark), then 3..6 */
	assert_times(ev, n, 2);
	free(ev);
}

Test(ring, nothing_since_mark_is_empty)
{
	open_ctx(16, NULL);
	write_seq(0, 3);
	tc_index m = tc_mark(ctx);
	uint64_t *ev;
	size_t n = 99;
	cr_assert_eq(tc_copy_since(ctx, m, &ev, &n, NULL), TC_RT_OK);
	cr_assert_eq(n, 0);
	cr_assert_null(ev);
}

/* Matrix: a mark taken before anything was written has index -1; copyData
 * used max(0, -1) = 0 for both ends once one event was written and returned
 * an empty array, losing that event. */
Test(ring, quirk_fixed_mark_before_first_event_keeps_it)
{
	open_ctx(16, NULL);
	tc_index m = tc_mark(ctx);
	write_seq(0, 1);
	uint64_t *ev;
	size_t n;
	cr_assert_eq(tc_copy_since(ctx, m, &ev, &n, NULL), TC_RT_OK);
	cr_assert_eq(n, 1);
	assert_times(ev, n, 0);
	free(ev);
}

Test(ring, wrap_keeps_the_newest_capacity_events)
{
	open_ctx(8, NULL);
	tc_index m = { 9 };
	write_seq(0, 13); /* slots hold 5..12 */
	cr_assert_eq(tc_written(ctx), 13);
	uint64_t *ev;
	size_t n;
	cr_assert_eq(tc_copy_since(ctx, m, &ev, &n, NULL), TC_RT_OK);
	cr_assert_eq(n, 5); /* 8..12, across the end of the ring */
	assert_times(ev, n, 8);
	free(ev);
	size_t size;
	struct ring_header *h = tc_ring_base(ctx, &size);
	cr_assert_eq(size, TC_RING_MAIN_HEADER_SIZE + 8 * 8);
	uint64_t *slots = (uint64_t *)((char *)h + TC_RING_MAIN_HEADER_SIZE);
	cr_assert_eq(tc_event_time(slots[13 % 8]), 5, "the next slot to write holds the oldest event");
}

Test(ring, record_invalid_once_the_event_before_it_is_overwritten)
{
	open_ctx(8, NULL);
	write_seq(0, 5);
	tc_index m = tc_mark(ctx); /* seq 5: the copy starts at event 4 */
	write_seq(5, 5);           /* written 10: event 4 lives until event 12 is stored */
	cr_assert(tc_index_valid(ctx, m));
	/* written 11: readers give a writer a margin of two events in flight
	 * (RING_WRITER_AHEAD), 11 and 12, and event 12 goes into event 4's slot */
	write_seq(10, 1);
	cr_assert_not(tc_index_valid(ctx, m));
	uint64_t *ev;
	size_t n;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_copy_since(ctx, m, &ev, &n, &err), TC_RT_ESTALE);
	cr_assert_eq(err.code, TC_RT_ESTALE);
	cr_assert_eq(n, 0);
}

/* Matrix kept IndexRecords in a list sorted by slot index and checkPileup
 * only looked at the head. After a wrap the newer record (smaller index)
 * is the head, so an older record deeper in the list was overwritten and
 * stayed "valid", and copyData returned events from after the wrap. */
Test(ring, quirk_fixed_pileup_checks_every_record)
{
	open_ctx(10, NULL);
	write_seq(0, 9);            /* slots 0..8 */
	tc_index a = tc_mark(ctx);  /* Matrix index 8 */
	write_seq(9, 3);            /* wraps: slots 9, 0, 1 */
	tc_index b = tc_mark(ctx);  /* Matrix index 1: the list is now [b, a] */
	cr_assert(tc_index_valid(ctx, a) && tc_index_valid(ctx, b));
	write_seq(12, 7);           /* writes slot 8: a's event is gone, b's is not */
	cr_assert_not(tc_index_valid(ctx, a), "a record behind the head is invalidated too");
	cr_assert(tc_index_valid(ctx, b));
	uint64_t *ev;
	size_t n;
	cr_assert_eq(tc_copy_since(ctx, a, &ev, &n, NULL), TC_RT_ESTALE);
	cr_assert_eq(tc_copy_since(ctx, b, &ev, &n, NULL), TC_RT_OK);
	assert_times(ev, n, 11);
	cr_assert_eq(n, 8);
	free(ev);
}

Test(ring, mark_ahead_of_the_ring_is_rejected)
{
	open_ctx(8, NULL);
	uint64_t *ev;
	size_t n;
	cr_assert_eq(tc_copy_since(ctx, (tc_index){ 3 }, &ev, &n, NULL), TC_RT_EINVAL);
}

Test(ring, capacity_is_checked)
{
	tc_config c;
	fake_config(&c, &f);
	c.capacity = 1;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_EINVAL);
	cr_assert(strstr(err.message, "capacity"), "%s", err.message);
	cr_assert_null(ctx);
}

/* A writer thread and a reader copying at the same time: every copy the
 * reader gets is a run of consecutive events, and the early events of a
 * copy that the writer overwrote meanwhile are cut, never returned. */
typedef struct race {
	ring r;
	atomic_bool done;
} race;

static void *writer(void *arg)
{
	race *rc = arg;
	for (uint64_t k = 0; k < 3000000; k++)
		ring_write(&rc->r, tc_event_encode(true, 1, k));
	atomic_store(&rc->done, true);
	return NULL;
}

Test(ring, concurrent_copy_is_consistent)
{
	race rc;
	ring_params p = { .capacity = 1024 };
	cr_assert_eq(ring_open(&rc.r, &p, NULL), TC_RT_OK);
	atomic_init(&rc.done, false);
	pthread_t t;
	pthread_create(&t, NULL, writer, &rc);
	size_t copies = 0, stale = 0;
	while (!atomic_load(&rc.done)) {
		uint64_t w = ring_seq(&rc.r);
		uint64_t mark = w > 600 ? w - 600 : 0;
		uint64_t *ev;
		size_t n;
		int e = ring_copy_since(&rc.r, mark, &ev, &n, NULL);
		if (e == TC_RT_ESTALE) {
			stale++;
			continue;
		}
		cr_assert_eq(e, TC_RT_OK);
		for (size_t i = 1; i < n; i++)
			cr_assert_eq(tc_event_time(ev[i]), tc_event_time(ev[i - 1]) + 1, "copy %zu broken at %zu", copies, i);
		if (n)
			cr_assert_geq(tc_event_time(ev[0]) + 1, mark, "the copy starts at most one event before the mark");
		free(ev);
		copies++;
	}
	pthread_join(t, NULL);
	ring_close(&rc.r);
	cr_assert_gt(copies, 0);
	cr_log_info("%zu copies, %zu stale", copies, stale);
}

/* ---- the file format ---- */

static char tmp_path[64];

static void make_tmp(void)
{
	snprintf(tmp_path, sizeof tmp_path, "/tmp/tc-ring-test-%d-XXXXXX", (int)getpid());
	int fd = mkstemp(tmp_path);
	cr_assert_geq(fd, 0);
	close(fd);
}

Test(ring, file_backed_ring_decodes_while_alive)
{
	make_tmp();
	open_ctx(8, tmp_path);
	write_seq(0, 11);
	tc_ring_image img;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ring_load(&img, tmp_path, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.capacity, 8);
	cr_assert_eq(img.seq, 11);
	cr_assert_eq(img.count, 8);
	cr_assert_eq(img.first_seq, 3);
	cr_assert_eq(img.status, TC_STATUS_READY);
	cr_assert_eq(img.pid, (uint32_t)getpid());
	cr_assert_eq(img.time_base_ns, 1000000000u);
	cr_assert_eq(img.wall_base_ms, 1700000000000u);
	cr_assert_eq(img.resolution_ms, 5, "the default tick, in the header");
	cr_assert_not(img.recovered);
	assert_times(img.events, img.count, 3);
	tc_ring_image_dispose(&img);
	unlink(tmp_path);
}

/* A sparse file would take its blocks as the ring is written, and on a full
 * disk the write would fault (SIGBUS): the blocks are taken when the ring is
 * made (tests/runtime/disk/ fills a disk). */
Test(ring, file_ring_is_reserved_up_front)
{
	make_tmp();
	open_ctx(100000, tmp_path);
	struct stat st;
	cr_assert_eq(stat(tmp_path, &st), 0);
	cr_assert_eq(st.st_size, TC_RING_MAIN_HEADER_SIZE + 100000 * 8);
	cr_assert_geq((long long)st.st_blocks * 512, (long long)st.st_size, "%lld of %lld bytes allocated",
	              (long long)st.st_blocks * 512, (long long)st.st_size);
	unlink(tmp_path);
}

static int wait_child(pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Two processes of one app configured with one ring file: the second must not
 * truncate the file the first maps (its events would be gone, and its header
 * rewritten), but record in memory, and say so. */
Test(ring, a_ring_file_another_live_process_holds_is_left_alone)
{
	make_tmp();
	int ready[2], done[2];
	cr_assert_eq(pipe(ready), 0);
	cr_assert_eq(pipe(done), 0);
	pid_t child = fork();
	cr_assert_geq(child, 0);
	if (child == 0) { /* the first process: 5 events, then checks them once the other is done */
		close(ready[0]);
		close(done[1]); /* so that a failed test, gone, gives us an end of file */
		open_ctx(64, tmp_path);
		write_seq(0, 5);
		char c = 'r';
		if (write(ready[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(2);
		uint64_t *ev = NULL;
		size_t n = 0;
		int rc = tc_copy_since(ctx, (tc_index){ 0 }, &ev, &n, NULL);
		bool intact = rc == TC_RT_OK && n == 5 && tc_event_time(ev[4]) == 4;
		free(ev);
		tc_ring_image img;
		intact = intact && tc_ring_load(&img, tmp_path, NULL) == TC_RT_OK && img.pid == (uint32_t)getpid() &&
		         img.count == 5;
		tc_ring_image_dispose(&img);
		tc_ctx_free(ctx);
		_exit(intact ? 0 : 1);
	}
	close(ready[1]);
	close(done[0]);
	char c;
	cr_assert_eq(read(ready[0], &c, 1), 1);
	open_ctx(128, tmp_path); /* the second */
	write_seq(0, 50);
	cr_assert(f.logs && strstr(f.logs, "another live process's ring: the ring is in memory instead"), "%s",
	          f.logs ? f.logs : "(no log)");
	cr_assert_eq(tc_written(ctx), 50, "the second records all the same");
	cr_assert_eq(write(done[1], "d", 1), 1);
	cr_assert_eq(wait_child(child), 0, "the first process's ring file was left as it was");
	unlink(tmp_path);
}

static void open_ctx_all_threads(uint32_t cap, const char *path)
{
	tc_config c;
	fake_config(&c, &f);
	c.capacity = cap;
	c.buffer_path = path;
	c.record_threads = TC_THREADS_ALL;
	c.max_threads = 2;
	c.thread_capacity = 16;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_OK, "%s", err.message);
}

/* The last run's ring is the trace a user wants, most of all when that run
 * was killed: the next launch keeps it as PATH.prev (its thread file as
 * PATH.prev-threads, so that tc-trace --ring PATH.prev finds both) instead
 * of renaming its own ring over it. */
Test(ring, a_killed_run_s_ring_is_kept_as_prev_by_the_next_launch)
{
	make_tmp();
	char prev[96], threads[96], prev_threads[96];
	snprintf(prev, sizeof prev, "%s.prev", tmp_path);
	snprintf(threads, sizeof threads, "%s-threads", tmp_path);
	snprintf(prev_threads, sizeof prev_threads, "%s.prev-threads", tmp_path);
	pid_t child = fork();
	cr_assert_geq(child, 0);
	if (child == 0) { /* the first launch: 5 events, then killed */
		open_ctx_all_threads(64, tmp_path);
		write_seq(0, 5);
		raise(SIGKILL);
		_exit(2);
	}
	cr_assert_eq(wait_child(child), 128 + SIGKILL);
	open_ctx_all_threads(32, tmp_path); /* the next launch */
	write_seq(100, 3);

	tc_ring_image img;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ring_load(&img, prev, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.pid, (uint32_t)child, "PATH.prev is the killed run's ring");
	cr_assert_eq(img.count, 5);
	assert_times(img.events, img.count, 0);
	tc_ring_image_dispose(&img);
	cr_assert_eq(tc_ring_load(&img, tmp_path, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.pid, (uint32_t)getpid(), "PATH is this run's");
	cr_assert_eq(img.count, 3);
	tc_ring_image_dispose(&img);
	tc_threads_image ti;
	cr_assert_eq(tc_threads_load(&ti, prev_threads, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(ti.pid, (uint32_t)child, "and its thread file is PATH.prev-threads");
	tc_threads_image_dispose(&ti);
	cr_assert_eq(tc_threads_load(&ti, threads, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(ti.pid, (uint32_t)getpid());
	tc_threads_image_dispose(&ti);

	/* a third launch keeps the second's, and the first's goes */
	tc_ctx_free(ctx);
	ctx = NULL;
	open_ctx(16, tmp_path);
	cr_assert_eq(tc_ring_load(&img, prev, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.pid, (uint32_t)getpid());
	cr_assert_eq(img.count, 3);
	assert_times(img.events, img.count, 100);
	tc_ring_image_dispose(&img);
	unlink(tmp_path);
	unlink(prev);
	unlink(threads);
	unlink(prev_threads);
}

static char *process_remote(void *user)
{
	(void)user;
	return strdup("com.example.app:remote");
}

/* Android names a secondary process "package:name": its ring is PATH.name. */
Test(ring, a_secondary_process_has_its_own_ring_file)
{
	make_tmp();
	tc_config c;
	fake_config(&c, &f);
	c.capacity = 8;
	c.buffer_path = tmp_path;
	c.probe.process_name = process_remote;
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
	write_seq(0, 3);
	char remote[80];
	snprintf(remote, sizeof remote, "%s.remote", tmp_path);
	tc_ring_image img;
	cr_assert_eq(tc_ring_load(&img, remote, NULL), TC_RT_OK);
	cr_assert_eq(img.count, 3);
	tc_ring_image_dispose(&img);
	struct stat st;
	cr_assert_eq(stat(tmp_path, &st), 0);
	cr_assert_eq(st.st_size, 0, "the main process's file is untouched");
	unlink(remote);
	unlink(tmp_path);
}

/* builds a ring image in memory: capacity cap, seq, slot times as given */
static unsigned char *image(uint64_t cap, uint64_t seq, const uint64_t *times, size_t *size)
{
	ring r;
	ring_params p = { .capacity = cap, .resolution_ms = 1 };
	cr_assert_eq(ring_open(&r, &p, NULL), TC_RT_OK);
	for (uint64_t i = 0; i < cap; i++)
		if (times[i] != UINT64_MAX)
			atomic_store(&r.slots[i], tc_event_encode(false, 7, times[i]));
	atomic_store(&r.hdr->seq, seq);
	*size = r.mem.size;
	unsigned char *copy = malloc(r.mem.size);
	memcpy(copy, r.hdr, r.mem.size);
	ring_close(&r);
	return copy;
}

#define NONE UINT64_MAX

Test(ring, decode_recovers_an_event_written_before_its_count_before_wrap)
{
	uint64_t t[4] = { 10, 11, 12, NONE };
	size_t size;
	unsigned char *img_bytes = image(4, 2, t, &size); /* count says 2, slot 2 holds a third */
	tc_ring_image img;
	cr_assert_eq(tc_ring_decode(&img, img_bytes, size, NULL), TC_RT_OK);
	cr_assert_eq(img.count, 3);
	cr_assert(img.recovered);
	assert_times(img.events, img.count, 10);
	tc_ring_image_dispose(&img);
	free(img_bytes);
}

Test(ring, decode_recovers_an_event_written_before_its_count_after_wrap)
{
	/* seq 6 in a ring of 4: slots hold events 2..5 = times 2,3 at slots 2,3 and
	 * 4,5 at slots 0,1; slot 2 was overwritten by event 6 (time 6) before seq
	 * was stored */
	uint64_t t[4] = { 4, 5, 6, 3 };
	size_t size;
	unsigned char *b = image(4, 6, t, &size);
	tc_ring_image img;
	cr_assert_eq(tc_ring_decode(&img, b, size, NULL), TC_RT_OK);
	cr_assert(img.recovered);
	cr_assert_eq(img.first_seq, 3);
	cr_assert_eq(img.count, 4);
	assert_times(img.events, img.count, 3);
	tc_ring_image_dispose(&img);
	/* the same ring without the extra event */
	uint64_t t2[4] = { 4, 5, 2, 3 };
	free(b);
	b = image(4, 6, t2, &size);
	cr_assert_eq(tc_ring_decode(&img, b, size, NULL), TC_RT_OK);
	cr_assert_not(img.recovered);
	cr_assert_eq(img.first_seq, 2);
	assert_times(img.events, img.count, 2);
	tc_ring_image_dispose(&img);
	free(b);
}

/* Defect: a writer that stores an event as two 32-bit halves (the ByteBuffer
 * path on 32-bit ARM: Memory.pokeLong is two str there) and is killed between
 * them leaves half an event in the slot past the count, and the decoder
 * recovered it: an out of method 0, or the old event's id with the new time.
 * The halves as a little-endian writer lays them out: low word at the lower
 * address. */
/* Decodes a ring of capacity cap with these slot times, count seq, version,
 * and slot_value in the slot past the count: is it recovered (and *newest)? */
static bool recovers(uint64_t cap, uint64_t seq, const uint64_t *times, uint64_t slot_value, uint32_t version,
                     uint64_t *newest)
{
	size_t size;
	unsigned char *b = image(cap, seq, times, &size);
	memcpy(b + TC_RING_MAIN_HEADER_SIZE + (seq % cap) * 8, &slot_value, 8);
	memcpy(b + 8, &version, 4);
	tc_ring_image img;
	cr_assert_eq(tc_ring_decode(&img, b, size, NULL), TC_RT_OK);
	bool r = img.recovered;
	*newest = img.count ? img.events[img.count - 1] : 0;
	tc_ring_image_dispose(&img);
	free(b);
	return r;
}

Test(ring, decode_never_recovers_half_an_event)
{
	uint64_t whole = tc_event_encode(true, 300, 5000), newest;
	uint64_t lo = whole & 0xFFFFFFFFu, hi = whole & ~UINT64_C(0xFFFFFFFF);
	/* before the wrap, next to events of time 4990..4992 */
	uint64_t t[4] = { 4990, 4991, 4992, NONE };
	cr_assert(recovers(4, 3, t, whole, 2, &newest), "a whole event is recovered");
	cr_assert_eq(newest, whole);
	cr_assert_not(recovers(4, 3, t, lo, 2, &newest), "the low half alone: method 0, out");
	cr_assert_not(recovers(4, 3, t, lo, 1, &newest), "the low half alone (version 1)");
	cr_assert_not(recovers(4, 3, t, hi, 1, &newest), "the high half alone: the time before the newest");
	/* after the wrap: seq 7, the next slot (3) holds the oldest event, at 4980 */
	uint64_t w[4] = { 4990, 4991, 4992, 4980 };
	uint64_t old = tc_event_encode(false, 7, 4980);
	uint64_t lo_new_hi_old = (old & ~UINT64_C(0xFFFFFFFF)) | lo, hi_new_lo_old = hi | (old & 0xFFFFFFFFu);
	cr_assert(recovers(4, 7, w, whole, 2, &newest), "a whole event over the oldest (version 2)");
	cr_assert_eq(newest, whole);
	cr_assert_not(recovers(4, 7, w, hi_new_lo_old, 1, &newest), "the new high half over the oldest: the old time");
	cr_assert_not(recovers(4, 7, w, lo_new_hi_old, 1, &newest),
	              "the new low half over the oldest (the old id, the new time): a version 1 file recovers nothing "
	              "past the wrap");
}

static void expect_format_error(unsigned char *b, size_t size, const char *what)
{
	tc_ring_image img;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ring_decode(&img, b, size, &err), TC_RT_EFORMAT, "%s", what);
	cr_assert(strstr(err.message, what), "message '%s' lacks '%s'", err.message, what);
	cr_assert_null(img.events);
}

Test(ring, decode_rejects_malformed_input)
{
	uint64_t t[4] = { 1, 2, 3, 4 };
	size_t size;
	unsigned char *b = image(4, 4, t, &size);
	expect_format_error(b, 7, "truncated");
	expect_format_error(b, size - 8, "does not match");
	b[0] ^= 1;
	expect_format_error(b, size, "magic");
	b[0] ^= 1;
	uint32_t bo = 0x04030201u;
	memcpy(b + 16, &bo, 4);
	expect_format_error(b, size, "other byte order");
	bo = TC_RING_BYTE_ORDER;
	memcpy(b + 16, &bo, 4);
	uint32_t v = TC_RING_VERSION + 1;
	memcpy(b + 8, &v, 4);
	expect_format_error(b, size, "version");
	v = 0;
	memcpy(b + 8, &v, 4);
	expect_format_error(b, size, "version");
	v = TC_RING_VERSION;
	memcpy(b + 8, &v, 4);
	uint64_t huge = UINT64_MAX / 4;
	memcpy(b + TC_RING_OFF_CAPACITY, &huge, 8);
	expect_format_error(b, size, "capacity");
	huge = 4;
	memcpy(b + TC_RING_OFF_CAPACITY, &huge, 8);
	tc_ring_image img;
	cr_assert_eq(tc_ring_decode(&img, b, size, NULL), TC_RT_OK, "restored image decodes");
	tc_ring_image_dispose(&img);
	free(b);
}

Test(ring, load_reports_a_missing_file)
{
	tc_ring_image img;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ring_load(&img, "/nonexistent/ring", &err), TC_RT_EIO);
	cr_assert(strstr(err.message, "/nonexistent/ring"));
}

/* The build id (tc_config.build_id, from tc-instrument's marker class) is in the ring
 * file's header from version 3; a version 2 file has no such field: whatever its bytes
 * at 104 hold, it decodes with no id. tc_reconfigure keeps it, as the ring it moves to. */
Test(ring, the_build_id_is_in_the_header_from_version_3)
{
	make_tmp();
	tc_config c;
	fake_config(&c, &f);
	c.capacity = 8;
	c.buffer_path = tmp_path;
	c.build_id = UINT64_C(0x0123456789abcdef);
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_OK, "%s", err.message);
	write_seq(0, 3);
	tc_ring_image img;
	cr_assert_eq(tc_ring_load(&img, tmp_path, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.version, 3);
	cr_assert_eq(img.build_id, UINT64_C(0x0123456789abcdef));
	tc_ring_image_dispose(&img);

	c.capacity = 16; /* a new ring */
	c.build_id = 0;
	cr_assert_eq(tc_reconfigure(ctx, &c, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(tc_ring_load(&img, tmp_path, &err), TC_RT_OK, "%s", err.message);
	cr_assert_eq(img.capacity, 16);
	cr_assert_eq(img.build_id, UINT64_C(0x0123456789abcdef), "tc_reconfigure keeps the build id");
	tc_ring_image_dispose(&img);

	uint64_t t[4] = { 1, 2, 3, 4 };
	size_t size;
	unsigned char *b = image(4, 4, t, &size);
	uint64_t id = 42;
	memcpy(b + TC_RING_OFF_BUILD_ID, &id, 8);
	cr_assert_eq(tc_ring_decode(&img, b, size, NULL), TC_RT_OK);
	cr_assert_eq(img.build_id, 42);
	tc_ring_image_dispose(&img);
	uint32_t v = 2;
	memcpy(b + 8, &v, 4);
	cr_assert_eq(tc_ring_decode(&img, b, size, NULL), TC_RT_OK, "a version 2 ring decodes");
	cr_assert_eq(img.build_id, 0, "a version 2 ring has no build id");
	cr_assert_eq(img.count, 4);
	tc_ring_image_dispose(&img);
	free(b);
	unlink(tmp_path);
}

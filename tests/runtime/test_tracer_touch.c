/* TouchEventLagTracer on a stand-in for libinput.so (plthook/fake_input.c,
 * loaded with dlopen and hooked by name) and a real socket pair as the input
 * channel: the system side writes an event, the library reads it (recvfrom)
 * and later sends the finished signal (sendto); the main thread records
 * methods meanwhile. The fake clock makes the event's time exact. */
#define _GNU_SOURCE 1
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "helpers.h"

static fake f;
static tc_ctx *ctx;
static tc_config cfg;
static void *lib;
static long (*consume)(int, void *, size_t);
static long (*finish)(int, unsigned);
static int sv[2]; /* [0] the system's end, [1] the app's (the library's) */

static void load(void)
{
	char path[4096];
	const char *dir = getenv("TC_PLTHOOK_LIBS");
	cr_assert_not_null(dir, "TC_PLTHOOK_LIBS (the directory of the test libraries) is not set");
	snprintf(path, sizeof path, "%s/libtc_fakeinput.so", dir);
	lib = dlopen(path, RTLD_NOW);
	cr_assert_not_null(lib, "dlopen: %s", dlerror());
	*(void **)&consume = dlsym(lib, "fake_input_consume");
	*(void **)&finish = dlsym(lib, "fake_input_finish");
	cr_assert(consume && finish);
}

static void setup(void)
{
	load();
	cr_assert_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	fake_config(&cfg, &f);
	cfg.tracers = TC_TRACER_TOUCH;
	cfg.touch_libs = "libtc_fakeinput.so";
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
}

static void teardown(void)
{
	fake_end(&ctx, &f);
	close(sv[0]);
	close(sv[1]);
}

TestSuite(tracer_touch, .init = setup, .fini = teardown);

/* the system sends an event of `size` bytes; the app reads it */
static void arrive(size_t size)
{
	unsigned char ev[256] = { 1 };
	cr_assert_eq(send(sv[0], ev, size, 0), (ssize_t)size);
	unsigned char buf[256];
	cr_assert_eq(consume(sv[1], buf, sizeof buf), (long)size);
}

static void done(unsigned seq)
{
	cr_assert_eq(finish(sv[1], seq), 24);
	unsigned char buf[64];
	cr_assert_eq(recv(sv[0], buf, sizeof buf, 0), 24, "the finished signal reached the system");
	tc_ctx_poll(ctx);
}

/* the app handles the event: method 7 runs `ms`, inside it method 8 the last 100 ms */
static void handle(uint64_t ms)
{
	rec_in(ctx, 7);
	fake_advance_ms(&f, ms - 100);
	rec_in(ctx, 8);
	fake_advance_ms(&f, 100);
	rec_out(ctx, 8);
	rec_out(ctx, 7);
}

Test(tracer_touch, a_slow_event_is_reported_with_the_main_threads_recorded_stack)
{
	arrive(120);
	handle(2500);
	done(1);
	cr_assert_eq(f.n_reports, 1);
	cr_assert_str_eq(f.reports[0].tag, "Trace_EvilMethod");
	cr_assert_str_eq(f.reports[0].json,
	                 "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,"
	                 "\"detail\":\"LAG_TOUCH\",\"cost\":2500,\"scene\":\"default\","
	                 "\"stack\":\"0,7,1,2500\\n1,8,1,100\\n\",\"stackKey\":\"7|\",\"isProcessForeground\":true,"
	                 "\"tag\":\"Trace_EvilMethod\",\"process\":\"com.example.app\",\"time\":1700000000000}");
	cr_assert(strstr(f.logs, "finished after 2500 ms"));
}

Test(tracer_touch, a_fast_event_is_not_reported_and_the_threshold_is_configuration)
{
	arrive(120);
	handle(1999);
	done(1);
	cr_assert_eq(f.n_reports, 0);
	tc_stop(ctx);
	tc_config c2 = cfg;
	c2.touch_lag_ms = 500;
	cr_assert_eq(tc_reconfigure(ctx, &c2, NULL), TC_RT_OK);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	arrive(120);
	handle(600);
	done(2);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"cost\":600,"));
}

Test(tracer_touch, the_wait_runs_from_the_first_unfinished_event_and_small_messages_are_not_events)
{
	arrive(40); /* a control message (<= 50 bytes): not an event */
	fake_advance_ms(&f, 5000);
	arrive(120);
	fake_advance_ms(&f, 1500);
	arrive(120); /* batched: the first one's wait counts */
	handle(600);
	done(1);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"cost\":2100,"), "%s", f.reports[0].json);
	done(2); /* the second event's finish: nothing pending any more */
	cr_assert_eq(f.n_reports, 1);
}

Test(tracer_touch, one_report_per_twice_the_threshold)
{
	arrive(120);
	handle(2000);
	done(1);
	arrive(120);
	handle(2000);
	done(2);
	cr_assert_eq(f.n_reports, 1, "2 s after the last report: within Matrix's 4 s");
	fake_advance_ms(&f, 1);
	arrive(120);
	handle(2000);
	done(3);
	cr_assert_eq(f.n_reports, 2);
}

Test(tracer_touch, a_closed_channel_forgets_its_event_and_other_libraries_are_not_hooked)
{
	arrive(120);
	fake_advance_ms(&f, 3000);
	close(sv[0]);
	unsigned char buf[64];
	cr_assert_eq(consume(sv[1], buf, sizeof buf), 0, "the peer closed");
	finish(sv[1], 1); /* fails: nothing reported in any case */
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 0);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	/* this program's own calls are not the library's */
	unsigned char ev[120] = { 1 };
	cr_assert_eq(send(sv[0], ev, sizeof ev, 0), 120);
	cr_assert_eq(recvfrom(sv[1], buf, sizeof buf, 0, NULL, NULL), 64);
	fake_advance_ms(&f, 3000);
	cr_assert_eq(sendto(sv[1], ev, 24, 0, NULL, 0), 24);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 0);
}

/* Threads each reading and answering a channel of their own through the
 * library while the context is freed under them (the hooks removed, calls
 * in flight waited for); ThreadSanitizer in rt_tracer_touch_tsan. */
static _Atomic unsigned rounds;
static _Atomic bool stop_churn;

static void *churn(void *arg)
{
	(void)arg;
	int ch[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, ch) != 0)
		return NULL;
	unsigned char ev[120] = { 1 }, buf[256];
	for (unsigned i = 0; !atomic_load(&stop_churn); i++) {
		if (send(ch[0], ev, sizeof ev, 0) != (ssize_t)sizeof ev || consume(ch[1], buf, sizeof buf) != 120 ||
		    finish(ch[1], i) != 24 || recv(ch[0], buf, sizeof buf, 0) != 24)
			break;
		atomic_fetch_add(&rounds, 1);
	}
	close(ch[0]);
	close(ch[1]);
	return NULL;
}

static void wait_rounds(unsigned n)
{
	unsigned target = atomic_load(&rounds) + n;
	for (int i = 0; i < 20000 && atomic_load(&rounds) < target; i++)
		usleep(500);
	cr_assert_geq(atomic_load(&rounds), target, "the threads keep going");
}

Test(tracer_touch, threads_on_their_channels_while_the_context_is_freed)
{
	pthread_t t[3];
	for (size_t i = 0; i < 3; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, churn, NULL), 0);
	wait_rounds(300);
	tc_ctx_free(ctx); /* returns once no call is inside a hook with it */
	ctx = NULL;
	wait_rounds(300); /* unhooked: the calls go straight to libc */
	atomic_store(&stop_churn, true);
	for (size_t i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	cr_assert_eq(f.n_reports, 0, "no event was slow: the clock stood still");
}

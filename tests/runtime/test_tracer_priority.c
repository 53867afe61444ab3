/* ThreadPriorityTracer on a stand-in for the platform library
 * (plthook/fake_runtime.c, loaded with dlopen and hooked by name): a change
 * of the recording thread's nice value, scheduling policy or timer slack,
 * made through that library by the thread itself or by another, is reported
 * with the changer's stack; other threads' changes are not. Each test runs
 * in a process of its own (Criterion), so a nice value raised stays there. */
#define _GNU_SOURCE 1
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "helpers.h"
#include "tc_plthook.h"

static fake f;
static tc_ctx *ctx;
static tc_config cfg;
static void *lib;
static int (*set_prio)(int, int);
static int (*set_sched)(int, int, int);
static int (*set_slack)(unsigned long);

static int tid(void)
{
	return (int)syscall(SYS_gettid);
}

/* the caller's stack names the thread it was taken on */
static char *stack_probe(void *user, int style)
{
	(void)user;
	char buf[64];
	snprintf(buf, sizeof buf, style == TC_STACK_CALLER ? "at Changer.run(tid %d)\n" : "at Main.run(tid %d)\n",
	         tid());
	return strdup(buf);
}

static void load(void)
{
	char path[4096];
	const char *dir = getenv("TC_PLTHOOK_LIBS");
	cr_assert_not_null(dir, "TC_PLTHOOK_LIBS (the directory of the test libraries) is not set");
	snprintf(path, sizeof path, "%s/libtc_fakeruntime.so", dir);
	lib = dlopen(path, RTLD_NOW);
	cr_assert_not_null(lib, "dlopen: %s", dlerror());
	*(void **)&set_prio = dlsym(lib, "fake_set_thread_priority");
	*(void **)&set_sched = dlsym(lib, "fake_set_thread_scheduler");
	*(void **)&set_slack = dlsym(lib, "fake_set_timer_slack");
	cr_assert(set_prio && set_sched && set_slack);
}

static void start(uint32_t tracers)
{
	fake_config(&cfg, &f);
	cfg.tracers = tracers;
	cfg.priority_libs = "libtc_fakeruntime.so";
	cfg.probe.thread_stack = stack_probe;
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
}

static void teardown(void)
{
	fake_end(&ctx, &f);
}

TestSuite(tracer_priority, .fini = teardown);

Test(tracer_priority, the_main_thread_lowering_its_own_priority_is_reported_with_its_stack)
{
	load();
	start(TC_TRACER_PRIORITY);
	int before = getpriority(PRIO_PROCESS, (id_t)tid());
	int want = before < 19 ? before + 1 : 19;
	if (!(before < 19))
		cr_skip_test("already at the lowest priority");
	cr_assert_eq(set_prio(0, want), 0);
	cr_assert_eq(getpriority(PRIO_PROCESS, (id_t)tid()), want, "the real call was made");
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 1);
	char expect[512];
	snprintf(expect, sizeof expect,
	         "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,"
	         "\"detail\":\"PRIORITY_MODIFIED\",\"threadStack\":\"at Changer.run(tid %d)\\n\","
	         "\"processPriority\":%d,\"priorityBefore\":%d,\"changerTid\":%d,"
	         "\"tag\":\"Trace_EvilMethod\",\"process\":\"com.example.app\",\"time\":1700000000000}",
	         tid(), want, before, tid());
	cr_assert_str_eq(f.reports[0].json, expect);
	cr_assert_str_eq(f.reports[0].tag, "Trace_EvilMethod");
	cr_assert(strstr(f.logs, "main thread's priority changed from"));
	cr_assert_eq(set_prio(0, want), 0);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 1, "setting the value it has is no change");
}

static int main_tid;
static int other_tid;

static void *change_main(void *arg)
{
	(void)arg;
	other_tid = tid();
	int cur = getpriority(PRIO_PROCESS, (id_t)main_tid);
	set_prio(main_tid, cur + 1);
	set_prio(0, 5); /* its own: not the main thread */
	return NULL;
}

Test(tracer_priority, another_thread_changing_the_main_threads_priority_is_reported_with_the_changers_stack)
{
	load();
	start(TC_TRACER_PRIORITY);
	main_tid = tid();
	if (!(getpriority(PRIO_PROCESS, (id_t)main_tid) < 19))
		cr_skip_test("already at the lowest priority");
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, change_main, NULL), 0);
	pthread_join(t, NULL);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 1, "one report: the other thread's own change is not the main thread's");
	char want[128];
	snprintf(want, sizeof want, "\"threadStack\":\"at Changer.run(tid %d)\\n\"", other_tid);
	cr_assert(strstr(f.reports[0].json, want), "%s", f.reports[0].json);
	snprintf(want, sizeof want, "\"changerTid\":%d,", other_tid);
	cr_assert(strstr(f.reports[0].json, want), "%s", f.reports[0].json);
}

Test(tracer_priority, the_scheduling_policy_and_the_timer_slack_are_reported)
{
	load();
	start(TC_TRACER_PRIORITY);
	cr_assert_eq(set_slack(40000), 0);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 0, "a slack at most 50 us is Matrix's normal");
	cr_assert_eq(set_slack(200000), 0);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"detail\":\"TIMERSLACK_MODIFIED\",\"threadStack\":\"at Changer.run("));
	cr_assert(strstr(f.reports[0].json, "\"processTimerSlack\":200000,"));
	cr_assert_eq(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), 200000, "the real call was made");

	int policy = sched_getscheduler(0);
	if (policy < 0 && errno == ENOSYS)
		cr_skip_test("this libc has no sched_getscheduler or sched_setscheduler (musl)");
	cr_assert_eq(policy, SCHED_OTHER);
	cr_assert_eq(set_sched(0, SCHED_BATCH, 0), 0);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 2);
	cr_assert(strstr(f.reports[1].json, "\"detail\":\"PRIORITY_MODIFIED\""));
	cr_assert(strstr(f.reports[1].json,
	                 "\"schedPolicy\":\"SCHED_BATCH\",\"schedPolicyBefore\":\"SCHED_OTHER\",\"schedPriority\":0,"),
	          "%s", f.reports[1].json);
}

Test(tracer_priority, off_by_default_and_after_free)
{
	load();
	fake_config(&cfg, &f);
	cr_assert_eq(cfg.tracers & TC_TRACER_PRIORITY, 0, "not in the default tracers");
	start(TC_TRACER_ALL);
	if (!(getpriority(PRIO_PROCESS, (id_t)tid()) < 18))
		cr_skip_test("already at the lowest priority");
	cr_assert_eq(set_prio(0, getpriority(PRIO_PROCESS, (id_t)tid()) + 1), 0);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 0);
	fake_end(&ctx, &f);
	start(TC_TRACER_PRIORITY);
	tc_ctx_free(ctx);
	ctx = NULL;
	cr_assert_eq(set_prio(0, getpriority(PRIO_PROCESS, (id_t)tid()) + 1), 0, "unhooked: the call still works");
	cr_assert_eq(f.n_reports, 0);
}

Test(tracer_priority, a_library_loaded_after_the_start_is_hooked_and_reconfigure_turns_it_off)
{
	start(TC_TRACER_PRIORITY);
	cr_assert(strstr(f.logs, "no library matching \"libtc_fakeruntime.so\""), "warned: nothing hooked yet");
	/* this program holds the engine, so its own dlopen is not watched (a
	 * platform library's is: test_plthook.c): the refresh finds the library */
	load();
	cr_assert_eq(tc_plthook_refresh(NULL), TC_RT_OK);
	if (!(getpriority(PRIO_PROCESS, (id_t)tid()) < 18))
		cr_skip_test("already at the lowest priority");
	cr_assert_eq(set_prio(0, getpriority(PRIO_PROCESS, (id_t)tid()) + 1), 0);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 1);
	tc_stop(ctx);
	tc_config c2 = cfg;
	c2.tracers = TC_TRACER_ALL;
	cr_assert_eq(tc_reconfigure(ctx, &c2, NULL), TC_RT_OK);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	cr_assert_eq(set_prio(0, getpriority(PRIO_PROCESS, (id_t)tid()) + 1), 0);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 1, "off after reconfigure");
}

Test(tracer_priority, a_second_context_runs_without_the_hooks_with_a_warning)
{
	load();
	start(TC_TRACER_PRIORITY);
	fake f2;
	tc_config c2;
	fake_config(&c2, &f2);
	c2.tracers = TC_TRACER_PRIORITY;
	c2.priority_libs = "libtc_fakeruntime.so";
	tc_ctx *second = NULL;
	cr_assert_eq(tc_ctx_new(&second, &c2, NULL), TC_RT_OK);
	cr_assert(f2.logs && strstr(f2.logs, "thread priority off: another context traces thread priority"));
	cr_assert_eq(tc_start(second, NULL), TC_RT_OK);
	if (getpriority(PRIO_PROCESS, (id_t)tid()) >= 19)
		cr_skip_test("already at the lowest priority");
	cr_assert_eq(set_prio(0, getpriority(PRIO_PROCESS, (id_t)tid()) + 1), 0);
	tc_ctx_poll(ctx);
	tc_ctx_poll(second);
	cr_assert_eq(f.n_reports, 1, "the first context keeps them");
	cr_assert_eq(f2.n_reports, 0);
	tc_ctx_free(second);
	fake_free(&f2);
}

Test(tracer_priority, arts_own_library_is_never_hooked)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/libart.so", getenv("TC_PLTHOOK_LIBS"));
	void *art = dlopen(path, RTLD_NOW);
	cr_assert_not_null(art, "dlopen: %s", dlerror());
	int (*art_prio)(int, int);
	*(void **)&art_prio = dlsym(art, "fake_set_thread_priority");
	cr_assert_not_null(art_prio);
	load();
	fake_config(&cfg, &f);
	cfg.tracers = TC_TRACER_PRIORITY;
	cfg.priority_libs = "libart.so;libtc_fakeruntime.so";
	cfg.probe.thread_stack = stack_probe;
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
	if (getpriority(PRIO_PROCESS, (id_t)tid()) >= 18)
		cr_skip_test("already at the lowest priority");
	cr_assert_eq(art_prio(0, getpriority(PRIO_PROCESS, (id_t)tid()) + 1), 0);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 0, "Thread.setPriority's path (ART's lock held): no upcall there");
	cr_assert_eq(set_prio(0, getpriority(PRIO_PROCESS, (id_t)tid()) + 1), 0);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 1, "the other library named is hooked");
}

/* EvilMethodTracer with an injected clock. */
#define _DEFAULT_SOURCE 1 /* syscall() */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "helpers.h"
#include "viewphase.h" /* VP_POLL_MS, VP_SETTLE_MS */

static fake f;
static tc_ctx *ctx;
static tc_config cfg;

static void setup(void)
{
	fake_config(&cfg, &f);
}

static void start(void)
{
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
}

static void teardown(void)
{
	fake_end(&ctx, &f);
}

TestSuite(tracer_evil, .init = setup, .fini = teardown);

/* one message whose method 100 takes ms */
static void message(uint64_t ms)
{
	tc_dispatch_begin(ctx);
	rec_in(ctx, 100);
	fake_advance_ms(&f, ms);
	rec_out(ctx, 100);
	tc_dispatch_end(ctx);
}

Test(tracer_evil, slow_message_gives_matrix_report)
{
	start();
	fake_advance_ms(&f, 5);
	message(720);
	cr_assert_eq(f.n_reports, 1);
	cr_assert_str_eq(f.reports[0].tag, "Trace_EvilMethod");
	cr_assert_str_eq(f.reports[0].json,
	                 "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,"
	                 "\"detail\":\"NORMAL\",\"cost\":720,\"scene\":\"default\","
	                 "\"stack\":\"0,1048574,1,720\\n1,100,1,720\\n\",\"stackKey\":\"100|\","
	                 "\"tag\":\"Trace_EvilMethod\",\"process\":\"com.example.app\",\"time\":1700000000000}");
	cr_assert(strstr(f.logs, ">>>>>>>>>>>>>>>>>>>>> maybe happens Jankiness!(720ms) <<<<<<<<<<<<<<<<<<<<<"));
	cr_assert(strstr(f.logs, "|*\t\tStackKey: 100|\n|*\t\tTraceStack:\n|*\t\t[id count cost]\n|*\t\t1048574 1 720\n|*\t\t.100 1 720\n"));
	cr_assert(strstr(f.logs, "|*\t\tPriority: 10\tNice: -10\n"));
}

/* A build with a build id (tc-instrument's marker class): every report ends with it,
 * after Matrix's keys. */
Test(tracer_evil, a_report_carries_the_build_id)
{
	cfg.build_id = UINT64_C(0x00ab0000000000cd);
	start();
	fake_advance_ms(&f, 5);
	message(720);
	cr_assert_eq(f.n_reports, 1);
	const char *end = "\"time\":1700000000000,\"buildId\":\"00ab0000000000cd\"}";
	size_t n = strlen(f.reports[0].json), m = strlen(end);
	cr_assert(n > m && !strcmp(f.reports[0].json + n - m, end), "%s", f.reports[0].json);
}

/* A fact of the start (the Java writer's Unsafe refused, the fast path's
 * self-check): a field of the first report only, before its tag. */
Test(tracer_evil, the_first_report_carries_the_start_notes_once)
{
	start();
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_first_report_note(ctx, "recordingOff", "sun.misc.Unsafe.putOrderedLong refused", &err), TC_RT_OK);
	cr_assert_eq(tc_first_report_note(ctx, "recordingOff", "replaced", &err), TC_RT_OK, "a key given again");
	for (int k = 1; k < TC_FIRST_NOTES_MAX; k++) {
		char key[16];
		snprintf(key, sizeof key, "note%d", k);
		cr_assert_eq(tc_first_report_note(ctx, key, "x", &err), TC_RT_OK);
	}
	cr_assert_eq(tc_first_report_note(ctx, "onemore", "x", &err), TC_RT_ENOSPC);
	cr_assert_eq(tc_first_report_note(ctx, "", "x", &err), TC_RT_EINVAL);
	fake_advance_ms(&f, 5);
	message(720);
	message(720);
	cr_assert_eq(f.n_reports, 2);
	cr_assert(strstr(f.reports[0].json, "\"stackKey\":\"100|\",\"recordingOff\":\"replaced\",\"note1\":\"x\","),
	          "%s", f.reports[0].json);
	cr_assert_null(strstr(f.reports[1].json, "recordingOff"), "%s", f.reports[1].json);
}

/* The recording thread is not the process's first (HotSpot: java's main
 * thread is another than the launcher's, pid 20701 against 20703): the
 * report's priority and nice are the recording thread's, not the pid's. */
static void *record_on_a_thread(void *arg)
{
	(void)arg;
	cr_assert_eq(setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 7), 0); /* this thread only */
	start();
	fake_advance_ms(&f, 5);
	message(720);
	tc_ctx_free(ctx); /* on its thread; teardown frees the logs */
	ctx = NULL;
	return NULL;
}

Test(tracer_evil, the_priority_is_the_recording_thread_s_not_the_pid_s)
{
	errno = 0;
	int main_nice = getpriority(PRIO_PROCESS, 0);
	if (errno || main_nice >= 7)
		cr_skip_test("this process runs at nice %d", main_nice);
	cfg.probe.process_stat = NULL; /* the /proc defaults */
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, record_on_a_thread, NULL), 0);
	pthread_join(t, NULL);
	cr_assert_not_null(f.logs);
	cr_assert(strstr(f.logs, "\tNice: 7\n"), "the recording thread's nice, not the pid's (%d): %s", main_nice, f.logs);
}

Test(tracer_evil, threshold_is_700_ms_inclusive)
{
	start();
	message(699);
	cr_assert_eq(f.n_reports, 0);
	message(700);
	cr_assert_eq(f.n_reports, 1);
}

Test(tracer_evil, threshold_is_configurable)
{
	cfg.evil_threshold_ms = 50;
	start();
	message(60);
	cr_assert_eq(f.n_reports, 1);
}

Test(tracer_evil, only_this_message_is_in_the_stack)
{
	start();
	message(10); /* an earlier fast message */
	tc_dispatch_begin(ctx);
	rec_in(ctx, 7);
	fake_advance_ms(&f, 300);
	rec_in(ctx, 8);
	fake_advance_ms(&f, 500);
	rec_out(ctx, 8);
	rec_out(ctx, 7);
	tc_dispatch_end(ctx);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"stack\":\"0,1048574,1,800\\n1,7,1,800\\n2,8,1,500\\n\""),
	          "%s", f.reports[0].json);
	cr_assert(strstr(f.reports[0].json, "\"stackKey\":\"7|\""), "(1+1)*800 > (2+1)*500");
}

/* Matrix HEAD closed methods still open at the end with System.nanoTime()
 * as the end time: durations of days. Ours end in the events' time base;
 * and since we always write the DISPATCH out, a method left open inside the
 * message is dropped when the message closes. No absurd duration either way. */
Test(tracer_evil, quirk_fixed_open_method_gets_no_nanotime_duration)
{
	start();
	tc_dispatch_begin(ctx);
	rec_in(ctx, 100); /* its out never comes (say a nested loop ended the message) */
	fake_advance_ms(&f, 750);
	tc_dispatch_end(ctx);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"cost\":750"), "%s", f.reports[0].json);
	cr_assert(strstr(f.reports[0].json, "\"stack\":\"0,1048574,1,750\\n\""), "%s", f.reports[0].json);
}

Test(tracer_evil, scene_is_reported)
{
	start();
	tc_set_scene(ctx, "com.example.MainActivity");
	message(800);
	cr_assert(strstr(f.reports[0].json, "\"scene\":\"com.example.MainActivity\""));
}

Test(tracer_evil, a_wrapped_ring_gives_a_report_without_stack)
{
	cfg.capacity = 16;
	start();
	tc_dispatch_begin(ctx);
	for (int i = 0; i < 20; i++) {
		rec_in(ctx, 5);
		rec_out(ctx, 5);
	}
	fake_advance_ms(&f, 900);
	tc_dispatch_end(ctx);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"cost\":900,\"scene\":\"default\",\"stack\":\"\",\"stackKey\":\"\""),
	          "%s", f.reports[0].json);
	cr_assert(strstr(f.logs, "no stack"));
	cr_assert(strstr(f.logs, "AppMethodBeat is close"));
}

Test(tracer_evil, disabled_or_not_started_reports_nothing)
{
	cfg.tracers = TC_TRACER_ALL & ~TC_TRACER_EVIL;
	start();
	message(800);
	cr_assert_eq(f.n_reports, 0);
	tc_ctx_free(ctx);
	fake_free(&f);
	fake_config(&cfg, &f);
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_RT_OK); /* READY, not started */
	message(800);
	cr_assert_eq(f.n_reports, 0);
}

/* ---- block context (cfg.block_context) with fake CPU and GC counters ---- */

static int64_t cpu_thread_ns, cpu_runq_ns, cpu_process_ns, gc[4];
static bool gc_known;
static int cpu_calls, gc_calls;

static void fake_cpu(void *user, uint32_t tid, int64_t *thread_ns, int64_t *runq_ns, int64_t *process_ns)
{
	(void)user; (void)tid;
	cpu_calls++;
	*thread_ns = cpu_thread_ns;
	*runq_ns = cpu_runq_ns;
	*process_ns = cpu_process_ns;
}

static bool fake_gc(void *user, int64_t out[4])
{
	(void)user;
	gc_calls++;
	memcpy(out, gc, sizeof gc);
	return gc_known;
}

static void block_setup(void)
{
	cfg.block_context = true;
	cfg.probe.cpu_ns = fake_cpu;
	cfg.probe.gc_stats = fake_gc;
	cpu_thread_ns = 1000000000;
	cpu_runq_ns = 50000000;
	cpu_process_ns = 3000000000;
	memset(gc, 0, sizeof gc);
	gc_known = true;
	cpu_calls = gc_calls = 0;
}

/* a message of ms whose start the watchdog samples (tc_ctx_poll, as the
 * clock thread's first tick), using cpu_ms of the main thread's CPU and
 * running n_gc collections of gc_ms each */
static void sampled_message_q(uint64_t ms, int64_t cpu_ms, int64_t runq_ms, int64_t n_gc, int64_t gc_ms)
{
	tc_dispatch_begin(ctx);
	tc_ctx_poll(ctx);
	rec_in(ctx, 100);
	fake_advance_ms(&f, ms);
	cpu_thread_ns += cpu_ms * 1000000;
	cpu_runq_ns += runq_ms * 1000000;
	cpu_process_ns += 2 * cpu_ms * 1000000;
	gc[0] += n_gc;
	gc[1] += n_gc * gc_ms;
	gc[2] += n_gc;
	gc[3] += n_gc * gc_ms;
	rec_out(ctx, 100);
	tc_dispatch_end(ctx);
}

static void sampled_message(uint64_t ms, int64_t cpu_ms, int64_t n_gc, int64_t gc_ms)
{
	sampled_message_q(ms, cpu_ms, 0, n_gc, gc_ms);
}

Test(tracer_evil, block_context_says_blocked_with_matrix_usage)
{
	block_setup();
	start();
	sampled_message(800, 100, 2, 15);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json,
	                 "\"stackKey\":\"100|\",\"usage\":\"12.50%\",\"blockContext\":{\"why\":\"ran 12% of the time: "
	                 "blocked; 2 GC, 30 ms\",\"cause\":\"blocked\",\"sampledMs\":800,\"threadCpuMs\":100,"
	                 "\"runQueueMs\":0,\"processCpuMs\":200,\"gcCount\":2,\"gcTimeMs\":30,\"blockingGcCount\":2,"
	                 "\"blockingGcTimeMs\":30,\"viewPhases\":{\"source\":\"unknown\",\"frames\":\"unknown\","
	                 "\"inputMs\":\"unknown\",\"animationMs\":\"unknown\",\"measureLayoutMs\":\"unknown\","
	                 "\"drawMs\":\"unknown\",\"traversalMs\":\"unknown\"}},\"tag\""),
	          "%s", f.reports[0].json);
	cr_assert(strstr(f.logs, "|* [Block]\n|*\t\tran 12% of the time: blocked; 2 GC, 30 ms\n"
	                         "|*\t\tCPU: 12.50% (main thread 100 ms of 800 ms, 0 ms waiting for a CPU; process 200 ms)\n"
	                         "|*\t\tGC: 2 (30 ms), blocking 2 (30 ms)\n"
	                         "|*\t\tView: unknown (no frame source: the Android glue gives one)\n"), "%s", f.logs);
}

Test(tracer_evil, block_context_busy_gc_and_unknown)
{
	block_setup();
	start();
	sampled_message(800, 790, 0, 0);
	cr_assert(strstr(f.reports[0].json, "\"usage\":\"98.75%\""), "%s", f.reports[0].json);
	cr_assert(strstr(f.reports[0].json, "\"cause\":\"busy\""));
	sampled_message(800, 100, 1, 500);
	cr_assert(strstr(f.reports[1].json, "\"cause\":\"gc\""), "%s", f.reports[1].json);
	/* runnable but not running most of the time: the cores were taken */
	sampled_message_q(800, 200, 500, 0, 0);
	cr_assert(strstr(f.reports[2].json, "\"why\":\"ran 25% of the time: starved; waited 62% for a CPU\""),
	          "%s", f.reports[2].json);
	/* before API 23: no GC counters; the report says so */
	gc_known = false;
	sampled_message(800, 0, 0, 0);
	cr_assert(strstr(f.reports[3].json, "\"usage\":\"0%\""), "%s", f.reports[3].json);
	cr_assert(strstr(f.reports[3].json, "\"gcCount\":\"unknown\",\"gcTimeMs\":\"unknown\""));
	cr_assert(strstr(f.reports[3].json, "GC unknown"));
	/* a message the watchdog never saw: nothing known, no usage */
	message(800);
	cr_assert(!strstr(f.reports[4].json, "\"usage\""), "%s", f.reports[4].json);
	cr_assert(strstr(f.reports[4].json, "\"cause\":\"unknown\",\"sampledMs\":\"unknown\""));
}

Test(tracer_evil, block_context_reads_nothing_for_fast_messages_or_when_off)
{
	block_setup();
	start();
	sampled_message(10, 1, 0, 0);
	sampled_message(10, 1, 0, 0);
	/* one start sample per message on the watchdog, no end sample */
	cr_assert_eq(cpu_calls, 2);
	cr_assert_eq(gc_calls, 2);
	cr_assert_eq(f.n_reports, 0);
	tc_ctx_free(ctx);
	ctx = NULL;
	cfg.block_context = false;
	start();
	cpu_calls = gc_calls = 0;
	sampled_message(800, 100, 0, 0);
	cr_assert_eq(cpu_calls + gc_calls, 0);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(!strstr(f.reports[0].json, "usage"));
}

/* ---- view phases (block context): the frames drawn in a slow message ---- */

/* Choreographer (before API 26): the queue heads mark where each phase begins,
 * inside the message; the traversal ends with it; measure, layout and draw are
 * one phase there, and the report says they are unknown. */
Test(tracer_evil, view_phases_from_choreographer)
{
	block_setup();
	start();
	tc_set_view_source(ctx, TC_VIEW_CHOREOGRAPHER);
	/* a fast frame before: its marks stay with its message */
	tc_dispatch_begin(ctx);
	tc_view_phase(ctx, TC_VIEW_INPUT);
	fake_advance_ms(&f, 3);
	tc_dispatch_end(ctx);
	tc_dispatch_begin(ctx);
	tc_ctx_poll(ctx);
	rec_in(ctx, 100);
	fake_advance_ms(&f, 1);
	tc_view_phase(ctx, TC_VIEW_INPUT);
	fake_advance_ms(&f, 5);
	tc_view_phase(ctx, TC_VIEW_ANIMATION);
	fake_advance_ms(&f, 100);
	tc_view_phase(ctx, TC_VIEW_TRAVERSAL);
	fake_advance_ms(&f, 700);
	rec_out(ctx, 100);
	tc_dispatch_end(ctx);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"viewPhases\":{\"source\":\"Choreographer\",\"frames\":1,\"inputMs\":5,"
	                                    "\"animationMs\":100,\"measureLayoutMs\":\"unknown\",\"drawMs\":\"unknown\","
	                                    "\"traversalMs\":700}"),
	          "%s", f.reports[0].json);
	cr_assert(strstr(f.reports[0].json, "; 1 frame, traversal 700 ms\""), "%s", f.reports[0].json);
	cr_assert(strstr(f.logs, "|*\t\tView: 1 frame (Choreographer): input 5 ms, animation 100 ms, traversal 700 ms "
	                         "(measure, layout and draw not told apart)\n"), "%s", f.logs);
	/* a slow message that draws nothing */
	sampled_message(800, 100, 0, 0);
	cr_assert(strstr(f.reports[1].json, "\"viewPhases\":{\"source\":\"Choreographer\",\"frames\":0,\"inputMs\":0,"
	                                    "\"animationMs\":0,\"measureLayoutMs\":\"unknown\",\"drawMs\":\"unknown\","
	                                    "\"traversalMs\":0}"),
	          "%s", f.reports[1].json);
	cr_assert(!strstr(f.reports[1].json, "frame,"), "%s", f.reports[1].json);
}

/* FrameMetrics durations in TC_FM_* order, for a frame whose phases are given in ms */
static void metrics_frame(uint64_t vsync_ns, int64_t delay_ms, int64_t input_ms, int64_t anim_ms, int64_t layout_ms,
                          int64_t draw_ms)
{
	int64_t ns[TC_FM_COUNT] = { 0 };
	ns[TC_FM_UNKNOWN_DELAY] = delay_ms * 1000000;
	ns[TC_FM_INPUT_HANDLING] = input_ms * 1000000;
	ns[TC_FM_ANIMATION] = anim_ms * 1000000;
	ns[TC_FM_LAYOUT_MEASURE] = layout_ms * 1000000;
	ns[TC_FM_DRAW] = draw_ms * 1000000;
	ns[TC_FM_TOTAL] = (delay_ms + input_ms + anim_ms + layout_ms + draw_ms + 3) * 1000000;
	ns[TC_FM_GPU] = -1;
	tc_frame_metrics_at(ctx, ns, (int64_t)vsync_ns);
}

/* FrameMetrics (API 26+): a frame's phases arrive after it was rendered, on
 * another thread; the report waits for them, and places each frame by where its
 * input phase began (intended vsync + unknown delay). */
Test(tracer_evil, view_phases_from_frame_metrics_wait_for_the_frame)
{
	block_setup();
	start();
	tc_set_view_source(ctx, TC_VIEW_FRAME_METRICS);
	uint64_t before = f.now_ns;
	fake_advance_ms(&f, 20);
	uint64_t begin = f.now_ns;
	/* the frame's vsync came 1 ms before its message began, which ran 2 ms late */
	sampled_message(800, 700, 0, 0);
	uint64_t end = f.now_ns;
	cr_assert_eq(f.n_reports, 0, "the report waits for the frame's metrics");
	metrics_frame(before, 1, 1, 1, 1, 1); /* an earlier frame: not this message's */
	metrics_frame(begin - 1000000, 3, 4, 10, 600, 150);
	/* the same frame in a second window: one frame, its longer phases */
	metrics_frame(begin - 1000000, 3, 4, 12, 500, 150);
	fake_advance_ms(&f, VP_POLL_MS);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 0, "a later frame of the message may still come");
	metrics_frame(end + 5000000, 0, 1, 1, 1, 1); /* one after the message: all of its frames came */
	fake_advance_ms(&f, VP_POLL_MS);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"viewPhases\":{\"source\":\"FrameMetrics\",\"frames\":1,\"inputMs\":4,"
	                                    "\"animationMs\":12,\"measureLayoutMs\":600,\"drawMs\":150,"
	                                    "\"traversalMs\":750}"),
	          "%s", f.reports[0].json);
	cr_assert(strstr(f.reports[0].json, "; 1 frame, measure+layout 600 ms\""), "%s", f.reports[0].json);
	cr_assert(strstr(f.logs, "|*\t\tView: 1 frame (FrameMetrics): input 4 ms, animation 12 ms, "
	                         "measure+layout 600 ms, draw 150 ms\n"), "%s", f.logs);
	cr_assert(strstr(f.reports[0].json, "\"stackKey\":\"100|\""), "the events moved with the waiting job");
}

/* No frame comes (the message drew none, the app went idle): the report waits
 * VP_SETTLE_MS, then says no frame. A frame source set while the block context
 * is off records nothing. */
Test(tracer_evil, view_phases_from_frame_metrics_settle)
{
	block_setup();
	start();
	tc_set_view_source(ctx, TC_VIEW_FRAME_METRICS);
	sampled_message(800, 700, 0, 0);
	for (int k = 0; k < 15; k++) {
		fake_advance_ms(&f, VP_POLL_MS);
		tc_ctx_poll(ctx);
	}
	cr_assert_eq(f.n_reports, 0, "waits up to %d ms", VP_SETTLE_MS);
	fake_advance_ms(&f, VP_SETTLE_MS - 15 * VP_POLL_MS + VP_POLL_MS); /* the next look after it */
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"viewPhases\":{\"source\":\"FrameMetrics\",\"frames\":0,\"inputMs\":0,"),
	          "%s", f.reports[0].json);
	cr_assert(strstr(f.logs, "|*\t\tView: 0 frames (FrameMetrics)\n"), "%s", f.logs);
}

static atomic_bool delivering;

/* tc-frames: FrameMetrics of frames that began long after every message, so that
 * each report, once it looks, has all of its frames */
static void *deliver_frames(void *arg)
{
	uint64_t far = *(const uint64_t *)arg;
	for (uint64_t k = 0; atomic_load(&delivering); k++)
		metrics_frame(far + k * 16000000, 1, 1, 1, 1, 1);
	return NULL;
}

/* The listener's thread adds frames while the reports collect theirs (built with
 * ThreadSanitizer too: rt_tracer_evil_tsan). */
Test(tracer_evil, view_phases_frames_from_another_thread)
{
	block_setup();
	cfg.tracers = TC_TRACER_EVIL; /* no frame tracer: the listener's path reads no clock */
	start();
	tc_set_view_source(ctx, TC_VIEW_FRAME_METRICS);
	uint64_t far = f.now_ns + UINT64_C(3600) * 1000000000;
	atomic_store(&delivering, true);
	pthread_t th;
	cr_assert_eq(pthread_create(&th, NULL, deliver_frames, &far), 0);
	for (int k = 0; k < 20; k++) {
		sampled_message(800, 700, 0, 0);
		fake_advance_ms(&f, VP_POLL_MS);
		tc_ctx_poll(ctx);
	}
	atomic_store(&delivering, false);
	pthread_join(th, NULL);
	fake_advance_ms(&f, VP_SETTLE_MS + VP_POLL_MS);
	tc_ctx_poll(ctx);
	cr_assert_eq(f.n_reports, 20);
	for (int k = 0; k < 20; k++)
		cr_assert(strstr(f.reports[k].json, "\"viewPhases\":{\"source\":\"FrameMetrics\",\"frames\":0,"), "%s",
		          f.reports[k].json);
}

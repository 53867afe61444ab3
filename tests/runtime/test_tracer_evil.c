/* EvilMethodTracer with an injected clock. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

static fake f;
static tc_ctx *ctx;
static tc_config cfg;

static void setup(void)
{
	fake_config(&cfg, &f);
}

static void start(void)
{
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_OK);
	cr_assert_eq(tc_start(ctx, NULL), TC_OK);
}

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
	fake_free(&f);
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
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_OK); /* READY, not started */
	message(800);
	cr_assert_eq(f.n_reports, 0);
}

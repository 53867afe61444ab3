/* LooperAnrTracer with an injected clock: tasks run at tc_ctx_poll. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

static fake f;
static tc_ctx *ctx;
static tc_config cfg;

static void setup(void)
{
	fake_config(&cfg, &f);
	cfg.tracers = TC_TRACER_ANR;
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
}

static void teardown(void)
{
	fake_end(&ctx, &f);
}

TestSuite(tracer_anr, .init = setup, .fini = teardown);

static void at(uint64_t ms_since_begin, uint64_t *clock_ms)
{
	fake_advance_ms(&f, ms_since_begin - *clock_ms);
	*clock_ms = ms_since_begin;
	tc_ctx_poll(ctx);
}

Test(tracer_anr, lag_at_2_s_then_anr_at_5_s)
{
	uint64_t t = 0;
	tc_dispatch_begin(ctx);
	rec_in(ctx, 200);
	at(1999, &t);
	cr_assert_eq(f.n_reports, 0);
	at(2000, &t);
	cr_assert_eq(f.n_reports, 1);
	cr_assert_str_eq(f.reports[0].json,
	                 "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,"
	                 "\"detail\":\"LAG\",\"scene\":\"default\",\"threadStack\":\"at Main.run(Main.java:1)\\n\","
	                 "\"isProcessForeground\":true,"
	                 "\"tag\":\"Trace_EvilMethod\",\"process\":\"com.example.app\",\"time\":1700000000000}");
	at(4999, &t);
	cr_assert_eq(f.n_reports, 1);
	at(5000, &t);
	cr_assert_eq(f.n_reports, 2);
	cr_assert_str_eq(f.reports[1].json,
	                 "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,"
	                 "\"detail\":\"ANR\",\"cost\":5000,\"stackKey\":\"200|\",\"scene\":\"default\","
	                 "\"stack\":\"0,1048574,1,5000\\n1,200,1,5000\\n\","
	                 "\"threadStack\":\" \\n|*\\t\\tat Main:run(1)\\n\",\"processPriority\":10,\"processNice\":-10,"
	                 "\"isProcessForeground\":true,"
	                 "\"memory\":{\"dalvik_heap\":2048,\"native_heap\":4096,\"vm_size\":8192},"
	                 "\"tag\":\"Trace_EvilMethod\",\"process\":\"com.example.app\",\"time\":1700000000000}");
	cr_assert(strstr(f.logs, "maybe happens ANR(5000 ms)!"));
	cr_assert(strstr(f.logs, "|*\t\tDalvikHeap: 2048kb\n"));
	tc_dispatch_end(ctx);
	at(9000, &t);
	cr_assert_eq(f.n_reports, 2);
}

Test(tracer_anr, a_message_that_ends_in_time_cancels_both)
{
	uint64_t t = 0;
	tc_dispatch_begin(ctx);
	at(1500, &t);
	tc_dispatch_end(ctx);
	at(10000, &t);
	cr_assert_eq(f.n_reports, 0);
}

Test(tracer_anr, a_message_that_ends_between_gives_only_lag)
{
	uint64_t t = 0;
	tc_dispatch_begin(ctx);
	at(3000, &t);
	tc_dispatch_end(ctx);
	at(10000, &t);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"detail\":\"LAG\""));
}

Test(tracer_anr, a_late_check_is_dropped)
{
	uint64_t t = 0;
	tc_dispatch_begin(ctx);
	rec_in(ctx, 200);
	at(6000, &t); /* the process was frozen: both checks run now */
	cr_assert_eq(f.n_reports, 1, "the lag report stays, the ANR goes");
	cr_assert(strstr(f.reports[0].json, "\"detail\":\"LAG\""));
	cr_assert(strstr(f.logs, "ANR check ran 6000 ms after the message began: dropped"));
}

Test(tracer_anr, a_check_just_under_the_limit_is_reported)
{
	uint64_t t = 0;
	tc_dispatch_begin(ctx);
	at(5999, &t);
	cr_assert_eq(f.n_reports, 2);
	cr_assert(strstr(f.reports[1].json, "\"cost\":5999"), "%s", f.reports[1].json);
}

/* Matrix's ANR Issue.key was always "0": the token was never assigned. */
Test(tracer_anr, quirk_fixed_anr_key_is_the_message_token)
{
	uint64_t t = 0;
	tc_dispatch_begin(ctx);
	tc_dispatch_end(ctx);
	tc_dispatch_begin(ctx);
	at(5000, &t);
	cr_assert_eq(f.n_reports, 2);
	cr_assert_str_eq(f.reports[1].key, "2");
	cr_assert_str_eq(f.reports[0].key, "", "lag reports carry no key");
}

Test(tracer_anr, background_and_scene_are_reported)
{
	uint64_t t = 0;
	tc_set_foreground(ctx, false);
	tc_set_scene(ctx, "Settings");
	tc_dispatch_begin(ctx);
	at(5000, &t);
	cr_assert(strstr(f.reports[1].json, "\"scene\":\"Settings\""));
	cr_assert(strstr(f.reports[1].json, "\"isProcessForeground\":false"));
}

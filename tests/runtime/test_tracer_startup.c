/* StartupTracer with an injected clock. The fake clock starts at 1 s; the
 * context's time 0 is its creation. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

static fake f;
static tc_ctx *ctx;
static tc_config cfg;

static void setup(void)
{
	fake_config(&cfg, &f);
	cfg.tracers = TC_TRACER_STARTUP;
	cfg.expire_ms = 0;
}

static void start(void)
{
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
}

static void teardown(void)
{
	fake_end(&ctx, &f);
}

TestSuite(tracer_startup, .init = setup, .fini = teardown);

#define LAUNCH_ACTIVITY 100
#define CREATE_SERVICE 114

/* application create of app_ms with method 10 running through it, then
 * LAUNCH_ACTIVITY */
static void app_create(uint64_t app_ms)
{
	tc_app_create_begin(ctx);
	rec_in(ctx, 10);
	fake_advance_ms(&f, app_ms);
	rec_out(ctx, 10);
	tc_app_create_end(ctx, LAUNCH_ACTIVITY, true);
}

Test(tracer_startup, cold_start_report)
{
	start();
	app_create(500);
	tc_activity_created(ctx, "Main", 1);
	fake_advance_ms(&f, 400);
	tc_activity_focus(ctx, "Main", 1, true);
	cr_assert_eq(f.n_reports, 1);
	cr_assert_str_eq(f.reports[0].tag, "Trace_StartUp");
	cr_assert_str_eq(f.reports[0].json,
	                 "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,"
	                 "\"application_create\":500,\"application_create_scene\":100,\"first_activity_create\":900,"
	                 "\"startup_duration\":900,\"is_warm_start_up\":false,"
	                 "\"tag\":\"Trace_StartUp\",\"process\":\"com.example.app\",\"time\":1700000000000}");
}

Test(tracer_startup, slow_cold_start_adds_the_stack_since_application_create)
{
	start();
	app_create(9000);
	tc_activity_created(ctx, "Main", 1);
	rec_in(ctx, 11);
	fake_advance_ms(&f, 1500);
	rec_out(ctx, 11);
	tc_activity_focus(ctx, "Main", 1, true);
	cr_assert_eq(f.n_reports, 2);
	cr_assert(strstr(f.reports[0].json, "\"startup_duration\":10500"), "%s", f.reports[0].json);
	cr_assert_str_eq(f.reports[1].tag, "Trace_EvilMethod");
	cr_assert(strstr(f.reports[1].json, "\"detail\":\"STARTUP\",\"cost\":10500,"
	                                    "\"stack\":\"0,10,1,9000\\n0,11,1,1500\\n\",\"stackKey\":\"10|\",\"subType\":1"),
	          "%s", f.reports[1].json);
}

Test(tracer_startup, cold_threshold_is_strict_for_the_second_report)
{
	start();
	app_create(10000);
	tc_activity_created(ctx, "Main", 1);
	tc_activity_focus(ctx, "Main", 1, true);
	cr_assert_eq(f.n_reports, 1, "10,000 ms is not above the 10,000 ms threshold");
}

Test(tracer_startup, splash_activity_waits_for_the_next)
{
	cfg.splash_activities = "Other;Splash";
	start();
	app_create(100);
	tc_activity_created(ctx, "Splash", 1);
	fake_advance_ms(&f, 200);
	tc_activity_focus(ctx, "Splash", 1, true);
	cr_assert_eq(f.n_reports, 0);
	tc_activity_created(ctx, "Main", 2);
	fake_advance_ms(&f, 700);
	tc_activity_focus(ctx, "Main", 2, true);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"application_create\":100,\"application_create_scene\":100,"
	                                    "\"first_activity_create\":300,\"startup_duration\":1000"),
	          "%s", f.reports[0].json);
}

Test(tracer_startup, started_by_a_service_counts_application_create)
{
	start();
	tc_app_create_begin(ctx);
	fake_advance_ms(&f, 300);
	tc_app_create_end(ctx, CREATE_SERVICE, false);
	fake_advance_ms(&f, 5000);
	tc_activity_created(ctx, "Main", 1);
	tc_activity_focus(ctx, "Main", 1, true);
	cr_assert(strstr(f.reports[0].json, "\"application_create\":300,\"application_create_scene\":114,"
	                                    "\"first_activity_create\":0,\"startup_duration\":300"),
	          "%s", f.reports[0].json);
}

Test(tracer_startup, thirty_second_guard)
{
	start();
	app_create(100);
	tc_activity_created(ctx, "Main", 1);
	fake_advance_ms(&f, 30000);
	tc_activity_focus(ctx, "Main", 1, true);
	cr_assert_eq(f.n_reports, 0);
	cr_assert(strstr(f.logs, "Main took 30000 ms from create to focus: no startup report"));
}

Test(tracer_startup, focus_counts_once_per_class_until_lost)
{
	start();
	app_create(100);
	tc_activity_created(ctx, "Main", 1);
	tc_activity_focus(ctx, "Main", 1, true);
	tc_activity_focus(ctx, "Main", 1, true);
	cr_assert_eq(f.n_reports, 1);
}

/* Matrix stopped updating sLastLaunchActivityMethodIndex in 2020, so warm
 * start reports carried no stack. */
Test(tracer_startup, quirk_fixed_warm_start_has_stack)
{
	start();
	app_create(100);
	tc_activity_created(ctx, "Main", 1);
	tc_activity_focus(ctx, "Main", 1, true);
	tc_activity_focus(ctx, "Main", 1, false);
	tc_activity_destroyed(ctx, "Main", 1);
	fake_advance_ms(&f, 60000);
	tc_activity_created(ctx, "Main", 2); /* no activity alive: a warm start */
	rec_in(ctx, 20);
	fake_advance_ms(&f, 4200);
	rec_out(ctx, 20);
	tc_activity_focus(ctx, "Main", 2, true);
	cr_assert_eq(f.n_reports, 3);
	cr_assert(strstr(f.reports[1].json, "\"application_create\":0,\"application_create_scene\":100,"
	                                    "\"first_activity_create\":0,\"startup_duration\":4200,"
	                                    "\"is_warm_start_up\":true"),
	          "%s", f.reports[1].json);
	cr_assert(strstr(f.reports[2].json, "\"detail\":\"STARTUP\",\"cost\":4200,\"stack\":\"0,20,1,4200\\n\","
	                                    "\"stackKey\":\"20|\",\"subType\":2"),
	          "%s", f.reports[2].json);
}

Test(tracer_startup, an_activity_created_while_another_lives_is_no_warm_start)
{
	start();
	app_create(100);
	tc_activity_created(ctx, "Main", 1);
	tc_activity_focus(ctx, "Main", 1, true);
	tc_activity_created(ctx, "Detail", 2);
	tc_activity_focus(ctx, "Detail", 2, true);
	cr_assert_eq(f.n_reports, 1);
}

Test(tracer_startup, without_activities_reports_at_application_create_end)
{
	cfg.has_activity = false;
	start();
	app_create(250);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"application_create\":250,\"application_create_scene\":100,"
	                                    "\"first_activity_create\":0,\"startup_duration\":250"),
	          "%s", f.reports[0].json);
}

Test(tracer_startup, unknown_start_or_not_started_reports_nothing)
{
	start();
	tc_activity_created(ctx, "Main", 1);
	tc_activity_focus(ctx, "Main", 1, true); /* no application-create end yet */
	cr_assert_eq(f.n_reports, 0);
	tc_ctx_free(ctx);
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_RT_OK); /* READY only */
	app_create(100);
	tc_activity_created(ctx, "Main", 1);
	tc_activity_focus(ctx, "Main", 1, true);
	cr_assert_eq(f.n_reports, 0);
}

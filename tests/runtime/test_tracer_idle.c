/* IdleHandlerLagTracer with an injected clock: tasks run at tc_ctx_poll. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static fake f;
static tc_ctx *ctx;
static tc_config cfg;

static void setup(void)
{
	fake_config(&cfg, &f);
	cfg.tracers = TC_TRACER_IDLE | TC_TRACER_ANR;
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
}

static void teardown(void)
{
	fake_end(&ctx, &f);
}

TestSuite(tracer_idle, .init = setup, .fini = teardown);

static void advance(uint64_t ms)
{
	fake_advance_ms(&f, ms);
	tc_ctx_poll(ctx);
}

Test(tracer_idle, a_handler_at_2_s_is_reported_once_with_the_main_stack)
{
	tc_idle_begin(ctx);
	advance(1999);
	cr_assert_eq(f.n_reports, 0);
	advance(1);
	cr_assert_eq(f.n_reports, 1);
	cr_assert_str_eq(f.reports[0].json,
	                 "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,"
	                 "\"detail\":\"LAG_IDLE_HANDLER\",\"scene\":\"default\","
	                 "\"threadStack\":\"at Main.run(Main.java:1)\\n\",\"isProcessForeground\":true,"
	                 "\"tag\":\"Trace_EvilMethod\",\"process\":\"com.example.app\",\"time\":1700000000000}");
	cr_assert(strstr(f.logs, "an idle handler ran 2000 ms or more"));
	advance(10000);
	cr_assert_eq(f.n_reports, 1, "one report per run, and no ANR: a handler is not a message");
	tc_idle_end(ctx);
	tc_idle_begin(ctx);
	advance(2500);
	tc_idle_end(ctx);
	cr_assert_eq(f.n_reports, 2, "the next slow run is reported too");
}

Test(tracer_idle, a_handler_that_ends_in_time_is_not_reported)
{
	tc_idle_begin(ctx);
	advance(1999);
	tc_idle_end(ctx);
	advance(5000);
	cr_assert_eq(f.n_reports, 0);
}

Test(tracer_idle, inside_a_message_it_is_not_an_idle_handler)
{
	tc_dispatch_begin(ctx);
	tc_idle_begin(ctx);
	advance(1000);
	tc_idle_end(ctx);
	tc_dispatch_end(ctx);
	cr_assert_eq(f.n_reports, 0);
	tc_idle_begin(ctx);
	advance(2000);
	cr_assert_eq(f.n_reports, 1);
	tc_idle_end(ctx);
}

Test(tracer_idle, off_without_the_tracer_bit)
{
	tc_ctx_free(ctx);
	fake_free(&f);
	fake_config(&cfg, &f);
	cfg.tracers = TC_TRACER_ALL;
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
	tc_idle_begin(ctx);
	advance(5000);
	tc_idle_end(ctx);
	cr_assert_eq(f.n_reports, 0);
}

/* Events inside a handler get the time they happen, not the end of the
 * message before (Matrix: the clock stopped with the message). */
Test(tracer_idle, events_in_a_handler_have_their_own_time)
{
	tc_dispatch_begin(ctx);
	rec_in(ctx, 5);
	advance(10);
	rec_out(ctx, 5);
	tc_dispatch_end(ctx);
	uint64_t end = tc_now_ms(ctx);
	tc_idle_begin(ctx);
	advance(300);
	rec_in(ctx, 6);
	advance(200);
	rec_out(ctx, 6);
	tc_idle_end(ctx);
	uint64_t *ev;
	size_t n;
	cr_assert_eq(tc_copy_since(ctx, (tc_index){ 0 }, &ev, &n, NULL), TC_RT_OK);
	cr_assert_eq(n, 6);
	cr_assert_eq(tc_event_id(ev[4]), 6);
	cr_assert_eq(tc_event_time(ev[4]), end + 300);
	cr_assert_eq(tc_event_time(ev[5]), end + 500);
	free(ev);
}

/* Status, the recording filters and guard, message markers, the clock
 * thread, reconfiguration and the JSON-lines report file. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

static fake f;
static tc_ctx *ctx;
static tc_config cfg;

static void setup(void)
{
	fake_config(&cfg, &f);
}

static void open_ctx(void)
{
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, &err), TC_RT_OK, "%s", err.message);
}

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
	fake_free(&f);
}

TestSuite(context, .init = setup, .fini = teardown);

static uint64_t *copy_all(size_t *n)
{
	uint64_t *ev = NULL;
	cr_assert_eq(tc_copy_since(ctx, (tc_index){ 0 }, &ev, n, NULL), TC_RT_OK);
	return ev;
}

Test(context, status_transitions)
{
	open_ctx();
	cr_assert_eq(tc_status(ctx), TC_STATUS_READY);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	cr_assert_eq(tc_status(ctx), TC_STATUS_STARTED);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK, "starting twice is harmless");
	tc_stop(ctx);
	cr_assert_eq(tc_status(ctx), TC_STATUS_STOPPED);
	tc_stop(ctx);
	cr_assert(strstr(f.logs, "stop in status -1 ignored"));
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK, "STOPPED -> STARTED");
}

/* Matrix's isAlive() was status >= STARTED, true for DEFAULT too. */
Test(context, quirk_fixed_not_alive_before_start)
{
	open_ctx();
	cr_assert_not(tc_is_alive(ctx));
	tc_start(ctx, NULL);
	cr_assert(tc_is_alive(ctx));
}

Test(context, not_started_within_expiry_stops_recording)
{
	open_ctx();
	rec_in(ctx, 1);
	fake_advance_ms(&f, 9999);
	tc_ctx_poll(ctx);
	cr_assert_eq(tc_status(ctx), TC_STATUS_READY);
	fake_advance_ms(&f, 1);
	tc_ctx_poll(ctx);
	cr_assert_eq(tc_status(ctx), TC_STATUS_EXPIRED_START);
	rec_in(ctx, 2);
	cr_assert_eq(tc_written(ctx), 1, "no recording once expired");
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK, "EXPIRED_START -> STARTED");
	rec_in(ctx, 3);
	cr_assert_eq(tc_written(ctx), 2);
}

Test(context, started_in_time_does_not_expire)
{
	open_ctx();
	tc_start(ctx, NULL);
	fake_advance_ms(&f, 20000);
	tc_ctx_poll(ctx);
	cr_assert_eq(tc_status(ctx), TC_STATUS_STARTED);
}

Test(context, records_id_direction_and_time)
{
	open_ctx();
	fake_advance_ms(&f, 7);
	rec_in(ctx, 42);
	fake_advance_ms(&f, 3);
	rec_out(ctx, 42);
	size_t n;
	uint64_t *ev = copy_all(&n);
	cr_assert_eq(n, 2);
	cr_assert_eq(ev[0], tc_event_encode(true, 42, 7));
	cr_assert_eq(ev[1], tc_event_encode(false, 42, 10));
	free(ev);
}

Test(context, ids_at_or_above_max_are_ignored)
{
	open_ctx();
	rec_in(ctx, TC_ID_MAX);
	rec_in(ctx, TC_ID_MAX + 5);
	rec_in(ctx, TC_ID_MAX - 1);
	cr_assert_eq(tc_written(ctx), 1);
}

Test(context, stopped_records_nothing)
{
	open_ctx();
	tc_start(ctx, NULL);
	tc_stop(ctx);
	rec_in(ctx, 1);
	cr_assert_eq(tc_written(ctx), 0);
}

static void *other_thread(void *arg)
{
	rec_in(arg, 5);
	tc_dispatch_begin(arg); /* not the recording thread: no marker either */
	return NULL;
}

Test(context, only_the_recording_thread_records)
{
	open_ctx();
	pthread_t t;
	pthread_create(&t, NULL, other_thread, ctx);
	pthread_join(t, NULL);
	cr_assert_eq(tc_written(ctx), 0);
	rec_in(ctx, 5);
	cr_assert_eq(tc_written(ctx), 1);
}

static void reenter(void *user, uint32_t id)
{
	(void)id;
	tc_record(user, 77, true); /* traced code run by the listener */
}

Test(context, reentrant_record_is_ignored)
{
	open_ctx();
	tc_config c2 = cfg;
	c2.on_method_enter = reenter; /* it records into ctx from inside tc_record */
	c2.enter_user = ctx;
	cr_assert_eq(tc_reconfigure(ctx, &c2, NULL), TC_RT_OK);
	rec_in(ctx, 1);
	size_t n;
	uint64_t *ev = copy_all(&n);
	cr_assert_eq(n, 1, "the nested event was not recorded");
	cr_assert_eq(tc_event_id(ev[0]), 1);
	free(ev);
}

Test(context, method_enter_listener_sees_ins)
{
	open_ctx();
	rec_in(ctx, 3);
	rec_out(ctx, 3);
	rec_in(ctx, 4);
	cr_assert_eq(f.n_entered, 2);
	cr_assert_eq(f.entered[0], 3);
	cr_assert_eq(f.entered[1], 4);
}

/* Matrix wrote DISPATCH markers only from UIThreadMonitor, which runs below
 * Android 7; on newer systems strict stacks came out empty. */
Test(context, quirk_fixed_dispatch_markers_always_written)
{
	open_ctx();
	fake_advance_ms(&f, 5);
	tc_dispatch_begin(ctx);
	rec_in(ctx, 1);
	fake_advance_ms(&f, 4);
	rec_out(ctx, 1);
	tc_dispatch_end(ctx);
	size_t n;
	uint64_t *ev = copy_all(&n);
	cr_assert_eq(n, 4);
	cr_assert_eq(ev[0], tc_event_encode(true, TC_ID_DISPATCH, 5));
	cr_assert_eq(ev[3], tc_event_encode(false, TC_ID_DISPATCH, 9));
	free(ev);
}

Test(context, nested_dispatch_begin_is_ignored)
{
	open_ctx();
	tc_dispatch_begin(ctx);
	tc_dispatch_begin(ctx);
	tc_dispatch_end(ctx);
	tc_dispatch_end(ctx);
	cr_assert_eq(tc_written(ctx), 2);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* With threads, the recorded time comes from the clock thread, which ticks
 * only inside messages. Matrix's clock stopped at the end of a message, and
 * traced code outside one (idle handlers, input events, code before the
 * first message) got the time that message ended; here such an event reads
 * the clock itself. Tolerant bounds: this runs on a loaded CI machine. */
Test(context, quirk_fixed_events_outside_a_message_get_their_own_time)
{
	tc_config_init(&cfg);
	cfg.capacity = 64;
	open_ctx();
	tc_dispatch_begin(ctx);
	sleep_ms(40);
	await_word_at_least(ctx, 20, 2000); /* the clock thread ticks in a message */
	rec_in(ctx, 1);
	tc_dispatch_end(ctx);
	uint64_t end = tc_now_ms(ctx);
	sleep_ms(40);
	rec_out(ctx, 1);
	size_t n;
	uint64_t *ev = copy_all(&n);
	cr_assert_eq(n, 4);
	uint64_t t_in = tc_event_time(ev[1]);
	cr_assert_geq(t_in, 20, "clock advanced inside the message (%llu)", (unsigned long long)t_in);
	cr_assert_geq(tc_event_time(ev[2]), t_in, "DISPATCH out is exact and not earlier");
	cr_assert_geq(tc_event_time(ev[3]), end + 40, "the event after the message has its own time (%llu, end %llu)",
	              (unsigned long long)tc_event_time(ev[3]), (unsigned long long)end);
	free(ev);
}

Test(context, reconfigure_only_while_not_started)
{
	open_ctx();
	tc_config c2 = cfg;
	c2.evil_threshold_ms = 10;
	cr_assert_eq(tc_reconfigure(ctx, &c2, NULL), TC_RT_OK);
	tc_start(ctx, NULL);
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_reconfigure(ctx, &c2, &err), TC_RT_ESTATE);
	cr_assert(strstr(err.message, "started"));
}

Test(context, a_clock_tick_past_a_second_is_refused)
{
	tc_config c;
	fake_config(&c, &f);
	c.clock_resolution_ms = (uint32_t)-1; /* a negative Java int */
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &c, &err), TC_RT_EINVAL);
	cr_assert(strstr(err.message, "clock_resolution_ms"), "%s", err.message);
	c.clock_resolution_ms = 1000;
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
}

Test(context, bad_drop_thresholds_are_refused)
{
	cfg.drop_middle = 50;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, &err), TC_RT_EINVAL);
	cr_assert(strstr(err.message, "ascend"));
}

Test(context, buffer_file_error_names_the_path)
{
	cfg.buffer_path = "/nonexistent/dir/ring";
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, &err), TC_RT_EIO);
	cr_assert(strstr(err.message, "/nonexistent/dir/ring"), "%s", err.message);
}

Test(context, reports_are_appended_as_json_lines)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/tc-reports-%d.jsonl", (int)getpid());
	unlink(path);
	cfg.report_path = path;
	cfg.evil_threshold_ms = 10;
	open_ctx();
	tc_start(ctx, NULL);
	for (int i = 0; i < 2; i++) {
		tc_dispatch_begin(ctx);
		fake_advance_ms(&f, 20);
		tc_dispatch_end(ctx);
	}
	cr_assert_eq(f.n_reports, 2);
	FILE *fp = fopen(path, "r");
	cr_assert_not_null(fp);
	char line[4096];
	for (int i = 0; i < 2; i++) {
		cr_assert_not_null(fgets(line, sizeof line, fp));
		line[strcspn(line, "\n")] = '\0';
		cr_assert_str_eq(line, f.reports[i].json);
	}
	cr_assert_null(fgets(line, sizeof line, fp));
	fclose(fp);
	unlink(path);
}

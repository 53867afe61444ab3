/* FrameTracer (FPSCollector) with an injected clock. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

#define FRAME 16666667u

static fake f;
static tc_ctx *ctx;
static tc_config cfg;

static void setup(void)
{
	fake_config(&cfg, &f);
	cfg.tracers = TC_TRACER_FRAME;
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
	tc_set_scene(ctx, "Main");
}

static void teardown(void)
{
	fake_end(&ctx, &f);
}

TestSuite(tracer_frame, .init = setup, .fini = teardown);

/* a frame that dropped d frames */
static void frame(uint64_t d)
{
	uint64_t vsync = 5000000000u;
	tc_frame(ctx, vsync, vsync + d * FRAME + FRAME / 2);
}

/* Matrix summed (d + 1) * 16.666667f into a long of ms, truncating each
 * frame to 16 ms: a 10 s window took 625 perfect frames and read 62.5 FPS
 * before the cap. Summing nanoseconds, 600 frames make 10 s. */
Test(tracer_frame, quirk_fixed_frame_time_not_truncated)
{
	for (int i = 0; i < 599; i++)
		frame(0);
	cr_assert_eq(f.n_reports, 0);
	frame(0);
	cr_assert_eq(f.n_reports, 1);
	cr_assert_str_eq(f.reports[0].tag, "Trace_FPS");
	cr_assert_str_eq(f.reports[0].json,
	                 "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,\"scene\":\"Main\","
	                 "\"dropLevel\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,"
	                 "\"DROPPED_BEST\":600},"
	                 "\"dropSum\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,"
	                 "\"DROPPED_BEST\":0},\"fps\":59.9999988,"
	                 "\"tag\":\"Trace_FPS\",\"process\":\"com.example.app\",\"time\":1700000000000}");
}

Test(tracer_frame, drops_fall_into_matrix_buckets)
{
	/* 3/9/24/42: each bucket's edges */
	uint64_t drops[] = { 0, 2, 3, 8, 9, 23, 24, 41, 42 };
	for (size_t i = 0; i < sizeof drops / sizeof drops[0]; i++)
		frame(drops[i]);
	frame(600); /* closes the window: 10 s of frames */
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json,
	                 "\"dropLevel\":{\"DROPPED_FROZEN\":2,\"DROPPED_HIGH\":2,\"DROPPED_MIDDLE\":2,"
	                 "\"DROPPED_NORMAL\":2,\"DROPPED_BEST\":2},"
	                 "\"dropSum\":{\"DROPPED_FROZEN\":642,\"DROPPED_HIGH\":65,\"DROPPED_MIDDLE\":32,"
	                 "\"DROPPED_NORMAL\":11,\"DROPPED_BEST\":2}"),
	          "%s", f.reports[0].json);
	/* 10 frames over 9+2+3+8+9+23+24+41+42+600 + 10 intervals */
	cr_assert(strstr(f.reports[0].json, "\"fps\":0.7874015591"), "%s", f.reports[0].json);
}

Test(tracer_frame, scenes_have_their_own_windows)
{
	for (int i = 0; i < 300; i++) {
		tc_set_scene(ctx, "A");
		frame(0);
		tc_set_scene(ctx, "B");
		frame(1);
	}
	cr_assert_eq(f.n_reports, 1, "B reached 10 s first (2 intervals a frame)");
	cr_assert(strstr(f.reports[0].json, "\"scene\":\"B\""));
	cr_assert(strstr(f.reports[0].json, "\"fps\":29.9999994"), "%s", f.reports[0].json);
	for (int i = 0; i < 300; i++) {
		tc_set_scene(ctx, "A");
		frame(0);
	}
	cr_assert_eq(f.n_reports, 2);
	cr_assert(strstr(f.reports[1].json, "\"scene\":\"A\""));
}

Test(tracer_frame, background_frames_do_not_count)
{
	tc_set_foreground(ctx, false);
	for (int i = 0; i < 700; i++)
		frame(0);
	cr_assert_eq(f.n_reports, 0);
}

Test(tracer_frame, a_vsync_message_is_a_frame_ending_with_the_message)
{
	tc_dispatch_begin(ctx);
	tc_vsync(ctx, f.now_ns - 2 * FRAME); /* the message started two frames late */
	fake_advance_ms(&f, 10000);
	tc_dispatch_end(ctx);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"DROPPED_FROZEN\":601"), "%s", f.reports[0].json);
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 10000);
	tc_dispatch_end(ctx);
	cr_assert_eq(f.n_reports, 1, "a message without vsync is no frame");
}

Test(tracer_frame, refresh_rate_caps_fps_and_sets_the_interval)
{
	tc_set_frame_interval(ctx, 8333333); /* 120 Hz */
	for (int i = 0; i < 1200; i++) /* 1200 * 8333333 ns is just under 10 s */
		tc_frame(ctx, 0, 1000);
	cr_assert_eq(f.n_reports, 0);
	tc_frame(ctx, 0, 1000);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"fps\":120.0000048"), "%s", f.reports[0].json);
}

/* ---- FrameMetrics (API 24+) ---- */

/* one FrameMetrics frame with this total, at the fake clock's time; gpu -1: before API 31 */
static void metrics(int64_t total_ns, int64_t gpu_ns)
{
	int64_t ns[TC_FM_COUNT] = { 1000000, 500000, 2000000, 3000000, 1000000, 500000, 1000000, 500000,
	                            total_ns, gpu_ns };
	tc_frame_metrics(ctx, ns);
}

/* Matrix HEAD's FrameTracer: a fractional drop count per frame, from the total
 * duration and the display's interval; a window of 10 s (here 400 ms) after its
 * first frame, reported with more than 20 frames; the old keys, then the
 * average of each duration, DROP_COUNT and REFRESH_RATE. */
Test(tracer_frame, frame_metrics_window_gives_matrix_keys)
{
	tc_ctx_free(ctx);
	cfg.fps_slice_ms = 400;
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_RT_OK);
	tc_start(ctx, NULL);
	tc_set_scene(ctx, "Main");
	for (int k = 0; k < 20; k++) {
		/* three frames take 80 ms: (80 - 16.67) / 16.67 = 3.8, 4 dropped (NORMAL) */
		metrics(k % 5 == 4 && k < 15 ? 80000000 : 10000000, -1);
		cr_assert_eq(f.n_reports, 0);
		fake_advance_ms(&f, 20);
	}
	metrics(10000000, -1); /* the 21st, 400 ms after the first: the window closes */
	cr_assert_eq(f.n_reports, 1);
	cr_assert_str_eq(f.reports[0].json,
	                 "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,\"scene\":\"Main\","
	                 "\"dropLevel\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":3,"
	                 "\"DROPPED_BEST\":18},"
	                 "\"dropSum\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":12,"
	                 "\"DROPPED_BEST\":0},\"fps\":38.88888846,"
	                 "\"UNKNOWN_DELAY_DURATION\":1000000,\"INPUT_HANDLING_DURATION\":500000,"
	                 "\"ANIMATION_DURATION\":2000000,\"LAYOUT_MEASURE_DURATION\":3000000,\"DRAW_DURATION\":1000000,"
	                 "\"SYNC_DURATION\":500000,\"COMMAND_ISSUE_DURATION\":1000000,\"SWAP_BUFFERS_DURATION\":500000,"
	                 "\"TOTAL_DURATION\":20000000,\"DROP_COUNT\":1,\"REFRESH_RATE\":60,"
	                 "\"tag\":\"Trace_FPS\",\"process\":\"com.example.app\",\"time\":1700000000000}");
}

/* FrameMetrics the platform dropped (dropCountSinceLastInvocation, when the
 * listener fell behind): frames of unknown duration, said as such, in no
 * bucket and not in fps; the window's key is there only when some were. */
Test(tracer_frame, frames_whose_metrics_were_dropped_count_as_of_unknown_duration)
{
	tc_ctx_free(ctx);
	cfg.fps_slice_ms = 400;
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_RT_OK);
	tc_start(ctx, NULL);
	tc_set_scene(ctx, "Main");
	for (int k = 0; k < 21; k++) {
		if (k == 3 || k == 10)
			tc_frame_metrics_dropped(ctx, 4);
		metrics(10000000, -1);
		fake_advance_ms(&f, 20);
	}
	cr_assert_eq(f.n_reports, 1);
	const char *j = f.reports[0].json;
	cr_assert(strstr(j, "\"REFRESH_RATE\":60,\"FRAMES_UNKNOWN_DURATION\":8,\"tag\""), "%s", j);
	cr_assert(strstr(j, "\"DROPPED_BEST\":21}"), "the 21 frames with metrics only: %s", j);
	for (int k = 0; k < 21; k++) {
		metrics(10000000, -1);
		fake_advance_ms(&f, 20);
	}
	cr_assert_eq(f.n_reports, 2);
	cr_assert_null(strstr(f.reports[1].json, "FRAMES_UNKNOWN_DURATION"), "none dropped: Matrix's keys only");
}

Test(tracer_frame, frame_metrics_window_of_20_frames_is_not_reported)
{
	tc_ctx_free(ctx);
	cfg.fps_slice_ms = 400;
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_RT_OK);
	tc_start(ctx, NULL);
	tc_set_scene(ctx, "Main");
	for (int k = 0; k < 19; k++) {
		metrics(10000000, -1);
		fake_advance_ms(&f, 22); /* the 19th frame is at 396 ms */
	}
	metrics(10000000, -1); /* the 20th, at 418 ms, closes it */
	cr_assert_eq(f.n_reports, 0, "Matrix reports a window only with more than 20 frames");
}

/* The display runs at 90 Hz: frames are judged against 11.1 ms, not the 60 Hz
 * default; API 31's GPU duration is averaged too. */
Test(tracer_frame, frame_metrics_follow_the_refresh_rate)
{
	tc_ctx_free(ctx);
	cfg.fps_slice_ms = 100;
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_RT_OK);
	tc_start(ctx, NULL);
	tc_set_scene(ctx, "Main");
	tc_set_frame_interval(ctx, 11111111);
	for (int k = 0; k <= 25; k++) {
		metrics(k == 0 ? 45000000 : 10000000, 2000000); /* (45 - 11.1) / 11.1 = 3.05: NORMAL */
		fake_advance_ms(&f, 4);
	}
	cr_assert_eq(f.n_reports, 1);
	const char *j = f.reports[0].json;
	cr_assert(strstr(j, "\"DROPPED_NORMAL\":1,\"DROPPED_BEST\":25}"), "%s", j);
	cr_assert(strstr(j, "\"GPU_DURATION\":2000000,\"DROP_COUNT\":0,\"REFRESH_RATE\":90,"), "%s", j);
}

/* Choreographer frames are judged against the display's interval too */
Test(tracer_frame, choreographer_frames_follow_the_refresh_rate)
{
	tc_set_frame_interval(ctx, 11111111);
	uint64_t vsync = 5000000000u;
	for (int k = 0; k < 901; k++) /* 10 s at 90 Hz, on time */
		tc_frame(ctx, vsync, vsync + 5000000);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"DROPPED_BEST\":901}"), "%s", f.reports[0].json);
	cr_assert(strstr(f.reports[0].json, "\"fps\":90.0000009,"), "%s", f.reports[0].json);
}

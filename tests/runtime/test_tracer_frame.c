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
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_OK);
	cr_assert_eq(tc_start(ctx, NULL), TC_OK);
	tc_set_scene(ctx, "Main");
}

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
	fake_free(&f);
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

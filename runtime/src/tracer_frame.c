/* tracer_frame.c: FrameTracer. Frames are grouped by scene; each scene's
 * window gives a Trace_FPS report with the dropped-frame buckets and the FPS.
 * Frames come from one of two sources, as in Matrix:
 *
 * - Choreographer (before API 24; Matrix's FPSCollector, whose report shape
 *   this keeps): a frame's cost is its end - its vsync; it dropped
 *   (int)(cost / interval) frames and counts for (dropped + 1) intervals; the
 *   window closes when its frames add up to fps_slice_ms (10 s) of frame
 *   time. Matrix added each frame's time to a long as a float of
 *   milliseconds, truncating every add (16.67 ms counted as 16, so windows ran
 *   4% long and the FPS read high); we sum nanoseconds (test
 *   tracer_frame/quirk_fixed_frame_time_not_truncated).
 * - FrameMetrics (API 24+; Matrix HEAD's SceneFrameCollectItem): a frame
 *   dropped max(0, (total - interval) / interval) frames, a fraction; the
 *   window closes fps_slice_ms after its first frame, and is reported if it
 *   has more than 20 frames, with Matrix's FrameMetrics keys added: the
 *   average of each duration, DROP_COUNT and REFRESH_RATE; and, not Matrix's,
 *   FRAMES_UNKNOWN_DURATION: the frames whose metrics the platform dropped
 *   (dropCountSinceLastInvocation; Matrix ignored it, and they were usually
 *   the slow ones).
 *
 * The interval is the display's (tc_set_frame_interval, which the Android
 * glue keeps up with the display's refresh rate). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "json.h"

#define MAX_SCENES 64
#define METRICS_MIN_FRAMES 20 /* Matrix's tryCallBackAndReset: "count > 20" */

/* bucket indexes; the report lists them Matrix's [old] way, frozen first */
enum { BEST, NORMAL, MIDDLE, HIGH, FROZEN };
static const char *const bucket_name[DROP_BUCKETS] = {
	"DROPPED_BEST", "DROPPED_NORMAL", "DROPPED_MIDDLE", "DROPPED_HIGH", "DROPPED_FROZEN",
};
/* FrameMetrics' durations, as Matrix's FrameDuration names them */
static const char *const duration_name[TC_FM_COUNT] = {
	"UNKNOWN_DELAY_DURATION", "INPUT_HANDLING_DURATION", "ANIMATION_DURATION", "LAYOUT_MEASURE_DURATION",
	"DRAW_DURATION", "SYNC_DURATION", "COMMAND_ISSUE_DURATION", "SWAP_BUFFERS_DURATION", "TOTAL_DURATION",
	"GPU_DURATION",
};

/* rounds a non-negative value to the nearest integer, as Math.round */
static int64_t round_up_half(double v)
{
	return (int64_t)(v + 0.5);
}

typedef struct fps_job {
	frame_scene item;
	uint64_t interval_ns;
} fps_job;

static void report(tc_ctx *ctx, void *arg)
{
	fps_job *job = arg;
	frame_scene *f = &job->item;
	double fps;
	if (f->metrics) {
		/* Matrix: 1e9 / the average of max(total, interval) */
		fps = f->paced_ns ? 1e9 * (double)f->sum_frames / (double)f->paced_ns : 0;
	} else {
		/* frames per second of frame time, capped at the refresh rate */
		double refresh = 1e9 / (double)job->interval_ns;
		fps = f->sum_cost_ns ? (double)f->sum_frames * 1e9 / (double)f->sum_cost_ns : 0;
		if (fps > refresh)
			fps = refresh;
	}
	json j;
	json_init(&j);
	report_begin(ctx, &j);
	json_kv_string(&j, "scene", f->scene);
	json_key(&j, "dropLevel");
	json_begin_object(&j);
	for (int b = FROZEN; b >= BEST; b--)
		json_kv_int(&j, bucket_name[b], f->drop_level[b]);
	json_end_object(&j);
	json_key(&j, "dropSum");
	json_begin_object(&j);
	for (int b = FROZEN; b >= BEST; b--)
		json_kv_int(&j, bucket_name[b], f->drop_sum[b]);
	json_end_object(&j);
	json_kv_double(&j, "fps", fps);
	if (f->metrics) {
		for (int d = 0; d < TC_FM_GPU; d++)
			json_kv_int(&j, duration_name[d], f->durations[d] / f->sum_frames);
		if (f->gpu_frames)
			json_kv_int(&j, duration_name[TC_FM_GPU], f->durations[TC_FM_GPU] / f->gpu_frames);
		json_kv_int(&j, "DROP_COUNT", round_up_half(f->dropped / (double)f->sum_frames));
		json_kv_int(&j, "REFRESH_RATE", round_up_half(f->refresh_hz / (double)f->sum_frames));
		/* not Matrix's: frames whose metrics never came (left out when none,
		 * so that such a report is Matrix's exactly) */
		if (f->unknown_frames)
			json_kv_int(&j, "FRAMES_UNKNOWN_DURATION", f->unknown_frames);
	}
	report_send(ctx, &j, "Trace_FPS", "");
}

static int bucket(const tc_config *c, int64_t d)
{
	if (d >= c->drop_frozen)
		return FROZEN;
	if (d >= c->drop_high)
		return HIGH;
	if (d >= c->drop_middle)
		return MIDDLE;
	if (d >= c->drop_normal)
		return NORMAL;
	return BEST;
}

/* The current scene's window of this kind, made if need be; under fr->mu. */
static frame_scene *scene_item(tc_ctx *ctx, bool metrics)
{
	frames *fr = &ctx->frames;
	ctx_scene_cached(ctx, fr->scene, &fr->scene_gen); /* no lock or copy unless it changed */
	if (!fr->scene[0])
		return NULL;
	for (size_t i = 0; i < fr->n; i++)
		if (fr->items[i].metrics == metrics && strcmp(fr->items[i].scene, fr->scene) == 0)
			return &fr->items[i];
	if (!fr->items) {
		fr->items = calloc(MAX_SCENES, sizeof *fr->items);
		if (!fr->items)
			return NULL;
	}
	if (fr->n == MAX_SCENES)
		return NULL; /* a window per scene; past 64 live scenes, drop frames */
	frame_scene *f = &fr->items[fr->n++];
	memset(f, 0, sizeof *f);
	memcpy(f->scene, fr->scene, sizeof f->scene);
	f->metrics = metrics;
	return f;
}

static void count(tc_ctx *ctx, frame_scene *f, int64_t dropped)
{
	int b = bucket(&ctx->cfg, dropped);
	f->drop_level[b]++;
	f->drop_sum[b] += dropped;
	f->sum_frames++;
}

/* Closes the window: hands it to the tracer thread if report, and removes the
 * scene (Matrix removed the item). Under fr->mu. */
static void close_window(tc_ctx *ctx, frame_scene *f, uint64_t interval, bool report_it)
{
	frames *fr = &ctx->frames;
	fps_job *job = report_it ? malloc(sizeof *job) : NULL;
	if (job) {
		job->item = *f;
		job->interval_ns = interval;
		task_queue_post(&ctx->tasks, 0, 0, report, free, job);
	}
	*f = fr->items[--fr->n];
}

static bool counting(tc_ctx *ctx)
{
	return (ctx->cfg.tracers & TC_TRACER_FRAME) && atomic_load(&ctx->foreground);
}

static void frame_add(tc_ctx *ctx, uint64_t intended_ns, uint64_t end_ns)
{
	if (!counting(ctx))
		return;
	uint64_t interval = atomic_load(&ctx->frame_interval_ns);
	uint64_t jitter = end_ns > intended_ns ? end_ns - intended_ns : 0;
	int64_t dropped = (int64_t)(jitter / interval);
	pthread_mutex_lock(&ctx->frames.mu);
	frame_scene *f = scene_item(ctx, false);
	if (f) {
		f->sum_cost_ns += (uint64_t)(dropped + 1) * interval;
		count(ctx, f, dropped);
		if (f->sum_cost_ns >= (uint64_t)ctx->cfg.fps_slice_ms * 1000000u)
			close_window(ctx, f, interval, true);
	}
	pthread_mutex_unlock(&ctx->frames.mu);
}

void tc_frame_metrics(tc_ctx *ctx, const int64_t ns[TC_FM_COUNT])
{
	tc_frame_metrics_at(ctx, ns, -1);
}

void tc_frame_metrics_at(tc_ctx *ctx, const int64_t ns[TC_FM_COUNT], int64_t intended_vsync_ns)
{
	if (!ctx_started(ctx))
		return;
	vp_metrics(ctx, ns, intended_vsync_ns);
	if (!counting(ctx))
		return;
	/* Matrix drops frames with a metric out of range (negative, or absurd) */
	for (int d = 0; d <= TC_FM_TOTAL; d++)
		if (ns[d] < 0 || ns[d] >= INT64_MAX / 2)
			return;
	uint64_t now = ctx_clock_ns(ctx);
	uint64_t interval = atomic_load(&ctx->frame_interval_ns);
	double dropped = (double)(ns[TC_FM_TOTAL] - (int64_t)interval) / (double)interval;
	if (dropped < 0)
		dropped = 0;
	pthread_mutex_lock(&ctx->frames.mu);
	frame_scene *f = scene_item(ctx, true);
	if (f) {
		if (!f->sum_frames)
			f->begin_ns = now;
		for (int d = 0; d < TC_FM_GPU; d++)
			f->durations[d] += ns[d];
		if (ns[TC_FM_GPU] >= 0) {
			f->durations[TC_FM_GPU] += ns[TC_FM_GPU];
			f->gpu_frames++;
		}
		f->dropped += dropped;
		f->refresh_hz += 1e9 / (double)interval;
		f->paced_ns += (uint64_t)ns[TC_FM_TOTAL] > interval ? (uint64_t)ns[TC_FM_TOTAL] : interval;
		count(ctx, f, round_up_half(dropped));
		if (now - f->begin_ns >= (uint64_t)ctx->cfg.fps_slice_ms * 1000000u)
			close_window(ctx, f, interval, f->sum_frames > METRICS_MIN_FRAMES);
	}
	pthread_mutex_unlock(&ctx->frames.mu);
}

void tc_frame_metrics_dropped(tc_ctx *ctx, uint32_t n)
{
	if (!n || !ctx_started(ctx) || !counting(ctx))
		return;
	pthread_mutex_lock(&ctx->frames.mu);
	frame_scene *f = scene_item(ctx, true);
	if (f) {
		if (!f->sum_frames && !f->unknown_frames)
			f->begin_ns = ctx_clock_ns(ctx);
		f->unknown_frames += n;
	}
	pthread_mutex_unlock(&ctx->frames.mu);
}

static void frame_free(tc_ctx *ctx)
{
	free(ctx->frames.items);
	ctx->frames.items = NULL;
	ctx->frames.n = 0;
}

const tracer_ops tracer_frame = { .tag = "Matrix.FrameTracer", .frame = frame_add, .free = frame_free };

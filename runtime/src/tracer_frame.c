/* tracer_frame.c: FrameTracer as Matrix's FPSCollector (the Choreographer
 * path): frames are grouped by scene; a scene's window closes when its
 * frames add up to fps_slice_ms (10 s) of frame time, and gives a Trace_FPS
 * report with the dropped-frame buckets and the FPS.
 *
 * A frame's cost is end - intended vsync; it dropped (int)(cost / interval)
 * frames and counts for (dropped + 1) intervals. Matrix added each frame's
 * time to a long as a float of milliseconds, truncating every add (16.67 ms
 * counted as 16, so windows ran 4% long and the FPS read high); we sum
 * nanoseconds (test tracer_frame/quirk_fixed_frame_time_not_truncated). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "json.h"

#define MAX_SCENES 64

/* bucket indexes; the report lists them Matrix's [old] way, frozen first */
enum { BEST, NORMAL, MIDDLE, HIGH, FROZEN };
static const char *const bucket_name[DROP_BUCKETS] = {
	"DROPPED_BEST", "DROPPED_NORMAL", "DROPPED_MIDDLE", "DROPPED_HIGH", "DROPPED_FROZEN",
};

typedef struct fps_job {
	frame_scene item;
	uint64_t interval_ns;
} fps_job;

static void report(tc_ctx *ctx, void *arg)
{
	fps_job *job = arg;
	frame_scene *f = &job->item;
	/* frames per second of frame time, capped at the refresh rate */
	double refresh = 1e9 / (double)job->interval_ns;
	double fps = f->sum_cost_ns ? (double)f->sum_frames * 1e9 / (double)f->sum_cost_ns : 0;
	if (fps > refresh)
		fps = refresh;
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

static frame_scene *scene_item(tc_ctx *ctx, const char *scene)
{
	for (size_t i = 0; i < ctx->n_frames; i++)
		if (strcmp(ctx->frames[i].scene, scene) == 0)
			return &ctx->frames[i];
	if (!ctx->frames) {
		ctx->frames = calloc(MAX_SCENES, sizeof *ctx->frames);
		if (!ctx->frames)
			return NULL;
	}
	if (ctx->n_frames == MAX_SCENES)
		return NULL; /* a window per scene; past 64 live scenes, drop frames */
	frame_scene *f = &ctx->frames[ctx->n_frames++];
	memset(f, 0, sizeof *f);
	snprintf(f->scene, sizeof f->scene, "%s", scene);
	return f;
}

void frame_add(tc_ctx *ctx, uint64_t intended_ns, uint64_t end_ns)
{
	if (!(ctx->cfg.tracers & TC_TRACER_FRAME) || !atomic_load(&ctx->foreground))
		return;
	/* every frame: no lock or copy unless the scene changed */
	ctx_scene_cached(ctx, ctx->frame_scene, &ctx->frame_scene_gen);
	if (!ctx->frame_scene[0])
		return;
	uint64_t interval = atomic_load(&ctx->frame_interval_ns);
	uint64_t jitter = end_ns > intended_ns ? end_ns - intended_ns : 0;
	int64_t dropped = (int64_t)(jitter / interval);
	frame_scene *f = scene_item(ctx, ctx->frame_scene);
	if (!f)
		return;
	f->sum_cost_ns += (uint64_t)(dropped + 1) * interval;
	f->sum_dropped += dropped;
	f->sum_frames++;
	int b = bucket(&ctx->cfg, dropped);
	f->drop_level[b]++;
	f->drop_sum[b] += dropped;
	if (f->sum_cost_ns < (uint64_t)ctx->cfg.fps_slice_ms * 1000000u)
		return;
	fps_job *job = malloc(sizeof *job);
	if (job) {
		job->item = *f;
		job->interval_ns = interval;
		worker_post(&ctx->worker, 0, 0, report, free, job);
	}
	/* the window is closed: remove the scene (Matrix removed the item) */
	*f = ctx->frames[--ctx->n_frames];
}

void frame_free(tc_ctx *ctx)
{
	free(ctx->frames);
	ctx->frames = NULL;
	ctx->n_frames = 0;
}

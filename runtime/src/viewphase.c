/* viewphase.c: the view phases of a slow message's frames (viewphase.h). */
#include "viewphase.h"

#include <pthread.h>
#include <string.h>

#include "context.h"
#include "json.h"

static const char *const key[VP_N] = { "inputMs", "animationMs", "measureLayoutMs", "drawMs", "traversalMs" };
static const char *const name[VP_N] = { "input", "animation", "measure+layout", "draw", "traversal" };
/* the Choreographer queues' phases, by TC_VIEW_INPUT.. */
static const int choreo_phase[3] = { VP_INPUT, VP_ANIMATION, VP_TRAVERSAL };

static void unknown(vp_result *out, int source)
{
	out->source = source;
	out->frames = -1;
	for (int k = 0; k < VP_N; k++)
		out->ms[k] = -1;
}

void vp_mark(tc_ctx *ctx, int phase, uint64_t now_ns)
{
	view_phases *v = &ctx->vp;
	if (!ctx->cfg.block_context || phase < TC_VIEW_INPUT || phase > TC_VIEW_TRAVERSAL || !ctx->in_dispatch)
		return;
	if (v->token != ctx->message_token) { /* the first mark in this message */
		v->token = ctx->message_token;
		v->open = -1;
		v->frames = 0;
		memset(v->sum, 0, sizeof v->sum);
	}
	if (v->open >= 0 && now_ns > v->open_ns)
		v->sum[v->open] += now_ns - v->open_ns;
	if (phase == TC_VIEW_INPUT)
		v->frames++;
	v->open = phase;
	v->open_ns = now_ns;
}

void vp_end(tc_ctx *ctx, uint64_t token, uint64_t end_ns, vp_result *out)
{
	view_phases *v = &ctx->vp;
	int source = atomic_load_explicit(&v->source, memory_order_relaxed);
	unknown(out, source);
	if (source != TC_VIEW_CHOREOGRAPHER)
		return; /* FrameMetrics: collected by the tracer thread, when they came */
	out->frames = 0;
	for (int k = 0; k < 3; k++)
		out->ms[choreo_phase[k]] = 0;
	if (v->token != token || !v->frames)
		return;
	uint64_t sum[3];
	memcpy(sum, v->sum, sizeof sum);
	if (v->open >= 0 && end_ns > v->open_ns) /* the last phase ends with the message */
		sum[v->open] += end_ns - v->open_ns;
	out->frames = v->frames;
	for (int k = 0; k < 3; k++)
		out->ms[choreo_phase[k]] = (int64_t)(sum[k] / 1000000u);
}

void vp_metrics(tc_ctx *ctx, const int64_t *ns, int64_t intended_vsync_ns)
{
	view_phases *v = &ctx->vp;
	if (!ctx->cfg.block_context || intended_vsync_ns <= 0 ||
	    atomic_load_explicit(&v->source, memory_order_relaxed) != TC_VIEW_FRAME_METRICS)
		return;
	for (int d = TC_FM_UNKNOWN_DELAY; d <= TC_FM_DRAW; d++)
		if (ns[d] < 0 || ns[d] >= INT64_MAX / 8)
			return;
	uint64_t vsync = (uint64_t)intended_vsync_ns;
	uint64_t start = vsync + (uint64_t)ns[TC_FM_UNKNOWN_DELAY];
	pthread_mutex_lock(&ctx->frames.mu);
	vp_frame *last = v->n ? &v->ring[(v->next + VP_RING - 1) % VP_RING] : NULL;
	if (last && last->vsync_ns == vsync) {
		/* another window drawn in the same frame: one frame, its longer phases */
		for (int k = 0; k < VP_TRAVERSAL; k++)
			if (ns[TC_FM_INPUT_HANDLING + k] > last->ns[k])
				last->ns[k] = ns[TC_FM_INPUT_HANDLING + k];
	} else {
		vp_frame *f = &v->ring[v->next];
		v->next = (v->next + 1) % VP_RING;
		if (v->n < VP_RING)
			v->n++;
		f->vsync_ns = vsync;
		f->start_ns = start;
		for (int k = 0; k < VP_TRAVERSAL; k++)
			f->ns[k] = ns[TC_FM_INPUT_HANDLING + k];
	}
	if (start > v->latest_ns)
		v->latest_ns = start;
	pthread_mutex_unlock(&ctx->frames.mu);
}

bool vp_collect(tc_ctx *ctx, uint64_t begin_ns, uint64_t end_ns, bool final, vp_result *out)
{
	view_phases *v = &ctx->vp;
	pthread_mutex_lock(&ctx->frames.mu);
	/* frames arrive in order: one that began after the message means its own came */
	bool done = final || v->latest_ns >= end_ns;
	if (done) {
		int64_t sum[VP_TRAVERSAL] = { 0 };
		out->frames = 0;
		for (unsigned i = 0; i < v->n; i++) {
			const vp_frame *f = &v->ring[i];
			if (f->start_ns < begin_ns || f->start_ns >= end_ns)
				continue;
			out->frames++;
			for (int k = 0; k < VP_TRAVERSAL; k++)
				sum[k] += f->ns[k];
		}
		for (int k = 0; k < VP_TRAVERSAL; k++)
			out->ms[k] = sum[k] / 1000000;
		out->ms[VP_TRAVERSAL] = (sum[VP_MEASURE_LAYOUT] + sum[VP_DRAW]) / 1000000;
	}
	pthread_mutex_unlock(&ctx->frames.mu);
	return done;
}

static const char *source_name(int source)
{
	return source == TC_VIEW_FRAME_METRICS ? "FrameMetrics" : source == TC_VIEW_CHOREOGRAPHER ? "Choreographer" : "unknown";
}

void vp_json(json *j, const vp_result *v)
{
	json_key(j, "viewPhases");
	json_begin_object(j);
	json_kv_string(j, "source", source_name(v->source));
	block_kv_known(j, "frames", v->frames);
	for (int k = 0; k < VP_N; k++)
		block_kv_known(j, key[k], v->frames < 0 ? -1 : v->ms[k]);
	json_end_object(j);
}

/* The heaviest phase known; with FrameMetrics the traversal is its parts. */
static int heaviest(const vp_result *v)
{
	int best = -1;
	for (int k = 0; k < VP_N; k++) {
		if (k == VP_TRAVERSAL && v->ms[VP_MEASURE_LAYOUT] >= 0)
			continue;
		if (v->ms[k] >= 0 && (best < 0 || v->ms[k] > v->ms[best]))
			best = k;
	}
	return best;
}

void vp_why(tc_buf *sb, const vp_result *v)
{
	int k = v->frames > 0 ? heaviest(v) : -1;
	if (k >= 0)
		buf_printf(sb, "; %lld frame%s, %s %lld ms", (long long)v->frames, v->frames == 1 ? "" : "s", name[k],
		           (long long)v->ms[k]);
}

void vp_text(tc_buf *sb, const vp_result *v)
{
	if (v->frames < 0) {
		buf_printf(sb, "|*\t\tView: unknown (%s)\n",
		           v->source == TC_VIEW_NONE ? "no frame source: the Android glue gives one" : "frames not seen");
		return;
	}
	buf_printf(sb, "|*\t\tView: %lld frame%s (%s)", (long long)v->frames, v->frames == 1 ? "" : "s",
	           source_name(v->source));
	if (v->frames) {
		const char *sep = ": ";
		for (int k = 0; k < VP_N; k++) {
			if (v->ms[k] < 0 || (k == VP_TRAVERSAL && v->ms[VP_MEASURE_LAYOUT] >= 0))
				continue;
			buf_printf(sb, "%s%s %lld ms", sep, name[k], (long long)v->ms[k]);
			sep = ", ";
		}
		if (v->ms[VP_MEASURE_LAYOUT] < 0)
			buf_puts(sb, " (measure, layout and draw not told apart)");
	}
	buf_putc(sb, '\n');
}

/* tracer_evil.c: EvilMethodTracer. A main-looper message that takes at
 * least evil_threshold_ms (700) is reported with the call stack recorded
 * during it.
 *
 * Matrix HEAD passed System.nanoTime() as the end time for methods still
 * open, giving them absurd durations; we pass the message end in the events'
 * time base (test tracer_evil/quirk_fixed_open_method_gets_no_nanotime_duration).
 *
 * With the block context, the report says what the frames drawn in the
 * message spent their time on (viewphase.h). From FrameMetrics they arrive
 * after the frame is rendered: the job waits for them on the tracer thread,
 * looking every VP_POLL_MS, at most VP_SETTLE_MS after the message's end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "json.h"

typedef struct evil_job {
	uint64_t *events;
	size_t n;
	int64_t cost_ms;
	uint64_t end_ms;
	uint64_t begin_ns, end_ns;
	char *scene;
	bool foreground;
	block_ctx blk;          /* cfg.block_context */
	vp_result vp;           /* frames -1: FrameMetrics not collected yet */
} evil_job;

static void drop_job(void *arg)
{
	evil_job *job = arg;
	free(job->events);
	free(job->scene);
	free(job);
}

static void analyse(tc_ctx *ctx, void *arg);

/* The job again in VP_POLL_MS, while the message's FrameMetrics may still
 * come; false when it has them all (or waited long enough). */
static bool wait_for_frames(tc_ctx *ctx, evil_job *job)
{
	if (!ctx->cfg.block_context || job->vp.source != TC_VIEW_FRAME_METRICS || job->vp.frames >= 0)
		return false;
	bool last = ctx_clock_ns(ctx) >= job->end_ns + VP_SETTLE_MS * UINT64_C(1000000);
	if (vp_collect(ctx, job->begin_ns, job->end_ns, last, &job->vp))
		return false;
	evil_job *again = malloc(sizeof *again);
	if (!again) {
		vp_collect(ctx, job->begin_ns, job->end_ns, true, &job->vp);
		return false;
	}
	*again = *job; /* the events and the scene move to it */
	job->events = NULL;
	job->scene = NULL;
	task_queue_post(&ctx->tasks, VP_POLL_MS, 0, analyse, drop_job, again);
	return true;
}

static void analyse(tc_ctx *ctx, void *arg)
{
	evil_job *job = arg;
	if (wait_for_frames(ctx, job))
		return;
	tc_process_stat ps;
	procinfo_process_stat(ctx, &ps);
	tc_stack st = { 0 };
	if (job->n && ctx_analyse_events(&st, job->events, job->n, true, job->end_ms) != TC_RT_OK)
		st.len = 0;
	char *stack = NULL, *logcat = NULL;
	int64_t max = tc_stack_format(&st, &stack, &logcat);
	int64_t cost = max > job->cost_ms ? max : job->cost_ms;
	char key[32];
	tc_stack_key(&st, cost, key, sizeof key);

	tc_buf b;
	buf_init(&b);
	buf_printf(&b, "-\n>>>>>>>>>>>>>>>>>>>>> maybe happens Jankiness!(%lldms) <<<<<<<<<<<<<<<<<<<<<\n",
	          (long long)cost);
	buf_printf(&b, "|* [Status]\n|*\t\tScene: %s\n|*\t\tForeground: %s\n|*\t\tPriority: %lld\tNice: %lld\n"
	          "|*\t\tis64BitRuntime: %s\n",
	          job->scene ? job->scene : "", job->foreground ? "true" : "false", (long long)ps.priority,
	          (long long)ps.nice, sizeof(void *) == 8 ? "true" : "false");
	if (ctx->cfg.block_context)
		block_text(&b, &job->blk, &job->vp);
	if (st.len)
		buf_printf(&b, "|*\t\tStackKey: %s\n%s", key, logcat ? logcat : "");
	else
		buf_puts(&b, "AppMethodBeat is close[true].\n");
	buf_puts(&b, "=========================================================================");
	char *block = buf_take_str(&b);
	if (block)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.EvilMethodTracer", "%s", block);
	free(block);

	json j;
	json_init(&j);
	report_begin(ctx, &j);
	json_kv_string(&j, "detail", "NORMAL");
	json_kv_int(&j, "cost", cost);
	json_kv_string(&j, "scene", job->scene ? job->scene : "");
	json_kv_string(&j, "stack", stack ? stack : "");
	json_kv_string(&j, "stackKey", key);
	if (ctx->cfg.block_context)
		block_json(&j, &job->blk, &job->vp);
	report_send(ctx, &j, "Trace_EvilMethod", "");
	free(stack);
	free(logcat);
	tc_stack_dispose(&st);
}

static void evil_begin(tc_ctx *ctx)
{
	if (ctx->cfg.tracers & TC_TRACER_EVIL)
		ctx->evil_mark = tc_mark(ctx);
}

static void evil_end(tc_ctx *ctx, uint64_t begin_ns, uint64_t end_ns)
{
	if (!(ctx->cfg.tracers & TC_TRACER_EVIL))
		return;
	int64_t cost_ms = (int64_t)((end_ns - begin_ns) / 1000000u);
	if (cost_ms < (int64_t)ctx->cfg.evil_threshold_ms)
		return;
	evil_job *job = calloc(1, sizeof *job);
	if (!job)
		return;
	tc_rt_error err;
	if (tc_copy_since(ctx, ctx->evil_mark, &job->events, &job->n, &err) != TC_RT_OK)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.EvilMethodTracer", "no stack: %s", err.message);
	job->cost_ms = cost_ms;
	job->end_ms = ctx_ms(ctx, end_ns);
	job->begin_ns = begin_ns;
	job->end_ns = end_ns;
	job->scene = ctx_scene(ctx);
	job->foreground = atomic_load(&ctx->foreground);
	/* the end values now, before the next message runs: only for a slow one */
	block_end(ctx, ctx->message_token, end_ns, &job->blk);
	if (ctx->cfg.block_context)
		vp_end(ctx, ctx->message_token, end_ns, &job->vp);
	task_queue_post(&ctx->tasks, 0, 0, analyse, drop_job, job);
}

const tracer_ops tracer_evil = {
	.tag = "Matrix.EvilMethodTracer", .message_begin = evil_begin, .message_end = evil_end,
};

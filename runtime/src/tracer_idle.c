/* tracer_idle.c: IdleHandlerLagTracer. The main queue runs its idle
 * handlers outside any message; one whose queueIdle() runs idle_lag_ms
 * (Matrix: 2 s) or longer gives a report with the main thread's stack
 * (Trace_EvilMethod, detail LAG_IDLE_HANDLER).
 *
 * tc_idle_begin/end bracket each handler's run (the Java glue wraps the
 * queue's handlers). As for a message, the watchdog on the clock thread,
 * which ticks while a handler runs, reads the handler's state from stores
 * the recording thread makes (a seqlock with one writer), and takes the
 * stack at the threshold; the tracer thread builds and delivers the report.
 * Events inside a handler read the clock themselves, as every event outside
 * a message does (context.c, write_main), so they get their own time. */
#include <stdlib.h>

#include "context.h"
#include "json.h"

typedef struct idle_job {
	int64_t ran_ms;
	bool foreground;
	char *scene, *thread_stack;
} idle_job;

static void drop_job(void *arg)
{
	idle_job *j = arg;
	free(j->scene);
	free(j->thread_stack);
	free(j);
}

static void report(tc_ctx *ctx, void *arg)
{
	idle_job *jb = arg;
	ctx_log(ctx, TC_LOG_WARN, "Matrix.IdleHandlerLagTracer", "an idle handler ran %lld ms or more:\n%s",
	        (long long)jb->ran_ms, jb->thread_stack ? jb->thread_stack : "");
	json j;
	json_init(&j);
	report_begin(ctx, &j);
	json_kv_string(&j, "detail", "LAG_IDLE_HANDLER");
	json_kv_string(&j, "scene", jb->scene ? jb->scene : "");
	json_kv_string(&j, "threadStack", jb->thread_stack ? jb->thread_stack : "");
	json_kv_bool(&j, "isProcessForeground", jb->foreground);
	report_send(ctx, &j, "Trace_EvilMethod", "");
}

static void idle_watch(tc_ctx *ctx, uint64_t now_ns)
{
	if (!(ctx->cfg.tracers & TC_TRACER_IDLE) || !ctx_started(ctx))
		return;
	uint64_t state = atomic_load_explicit(&ctx->idle_state, memory_order_acquire);
	if (!(state & 1))
		return;
	uint64_t begin_ns = atomic_load_explicit(&ctx->idle_begin_ns, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&ctx->idle_state, memory_order_relaxed) != state)
		return;
	uint64_t token = state >> 1;
	int64_t ran_ms = now_ns > begin_ns ? (int64_t)((now_ns - begin_ns) / 1000000u) : 0;
	if (ran_ms < (int64_t)ctx->cfg.idle_lag_ms || ctx->idle_checked == token)
		return;
	ctx->idle_checked = token;
	idle_job *jb = calloc(1, sizeof *jb);
	if (!jb)
		return;
	jb->ran_ms = ran_ms;
	jb->foreground = atomic_load(&ctx->foreground);
	jb->scene = ctx_scene(ctx);
	jb->thread_stack = procinfo_thread_stack(ctx, 2); /* Matrix: the stack's toString lines */
	task_queue_post(&ctx->tasks, 0, 0, report, drop_job, jb);
}

void tc_idle_begin(tc_ctx *ctx)
{
	if (ctx->in_dispatch || ctx->in_idle)
		return; /* a handler runs outside messages; nested runs are one */
	ctx->in_idle = true;
	ctx->idle_token++;
	atomic_store_explicit(&ctx->idle_begin_ns, ctx_clock_ns(ctx), memory_order_relaxed);
	atomic_store_explicit(&ctx->idle_state, 2 * ctx->idle_token + 1, memory_order_release);
	if (ctx->cfg.tracers & TC_TRACER_IDLE)
		clock_set_busy(&ctx->clock, true); /* the watchdog ticks while it runs */
}

void tc_idle_end(tc_ctx *ctx)
{
	if (!ctx->in_idle)
		return;
	ctx->in_idle = false;
	atomic_store_explicit(&ctx->idle_state, 2 * ctx->idle_token, memory_order_release);
	if (ctx->cfg.tracers & TC_TRACER_IDLE)
		clock_set_busy(&ctx->clock, false);
}

const tracer_ops tracer_idle = { .tag = "Matrix.IdleHandlerLagTracer", .tick = idle_watch };

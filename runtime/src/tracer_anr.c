/* tracer_anr.c: LooperAnrTracer. A message still running lag_ms (2 s)
 * after it began gives a lag report with the thread stack; after anr_ms
 * (5 s), an ANR report with the recorded call stack, scene, priority and
 * memory. An ANR check that runs anr_invalid_ms (6 s) or more after the
 * message began is dropped: the process was throttled and the stack would
 * describe the throttling, not the message.
 *
 * The watchdog runs on the clock thread, which ticks while a message runs:
 * a message costs it nothing but the stores tc_dispatch_begin/end make
 * (Matrix posted two delayed tasks per message). When a check is due it
 * takes what must be taken then (the time, the thread stack, the events
 * recorded since the message began, the process state) and hands them to
 * the tracer thread, which builds, logs and delivers the report: an app
 * listener or report file that blocks delays reports, never the checks.
 *
 * Matrix's Issue.key for an ANR was always "0" (the token was never
 * assigned); ours is the message token (test tracer_anr/quirk_fixed_anr_key). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "json.h"

typedef struct anr_job {
	bool lag;               /* a lag report; else an ANR report */
	uint64_t token;
	int64_t ran_ms;         /* how long the message had run at the check */
	bool foreground;
	char *scene, *thread_stack;
	/* ANR only */
	tc_process_stat ps;
	uint64_t cur_ms;        /* the check's time, in the events' time base */
	uint64_t *events;
	size_t n;
	tc_rt_error copy_err;      /* why events is empty, if it is */
	block_ctx blk;          /* cfg.block_context: from the start sample to the check */
} anr_job;

static void drop_job(void *arg)
{
	anr_job *job = arg;
	free(job->scene);
	free(job->thread_stack);
	free(job->events);
	free(job);
}

static void lag_report(tc_ctx *ctx, anr_job *job)
{
	json j;
	json_init(&j);
	report_begin(ctx, &j);
	json_kv_string(&j, "detail", "LAG");
	json_kv_string(&j, "scene", job->scene ? job->scene : "");
	json_kv_string(&j, "threadStack", job->thread_stack ? job->thread_stack : "");
	json_kv_bool(&j, "isProcessForeground", job->foreground);
	if (ctx->cfg.block_context)
		block_json(&j, &job->blk, NULL);
	report_send(ctx, &j, "Trace_EvilMethod", "");
}

static void anr_report(tc_ctx *ctx, anr_job *job)
{
	if (job->copy_err.code)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AnrTracer", "no stack: %s", job->copy_err.message);
	tc_stack st = { 0 };
	if (job->n && ctx_analyse_events(&st, job->events, job->n, true, job->cur_ms) != TC_RT_OK)
		st.len = 0;
	char *stack = NULL, *logcat = NULL;
	int64_t cost = tc_stack_format(&st, &stack, &logcat);
	/* Matrix: max(5000, longest item). The longest item is the open message,
	 * so this is how long the message had run when the check ran; we also
	 * take that time directly, so a check is judged late even when the
	 * ring had nothing for it. */
	if (cost < (int64_t)ctx->cfg.anr_ms)
		cost = ctx->cfg.anr_ms;
	if (job->ran_ms > cost)
		cost = job->ran_ms;
	char key[32];
	tc_stack_key(&st, cost, key, sizeof key);
	const char *scene = job->scene ? job->scene : "";
	const char *thread_stack = job->thread_stack ? job->thread_stack : "";
	const tc_process_stat *ps = &job->ps;

	if (cost >= (int64_t)ctx->cfg.anr_invalid_ms) {
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AnrTracer", "ANR check ran %lld ms after the message began: dropped",
		        (long long)cost);
	} else {
		tc_buf b;
		buf_init(&b);
		buf_printf(&b, "\n>>>>>>>>>>>>>>>>>>>>>>> maybe happens ANR(%lld ms)! <<<<<<<<<<<<<<<<<<<<<<<\n",
		          (long long)cost);
		buf_printf(&b, "|* [Status]\n|*\t\tScene: %s\n|*\t\tForeground: %s\n|*\t\tPriority: %lld\tNice: %lld\n",
		          scene, job->foreground ? "true" : "false", (long long)ps->priority, (long long)ps->nice);
		buf_printf(&b, "|* [Memory]\n|*\t\tDalvikHeap: %lldkb\n|*\t\tNativeHeap: %lldkb\n|*\t\tVmSize: %lldkb\n",
		          (long long)ps->dalvik_heap_kb, (long long)ps->native_heap_kb, (long long)ps->vm_size_kb);
		if (ctx->cfg.block_context)
			block_text(&b, &job->blk, NULL);
		buf_printf(&b, "|* [Thread]\n|*\t\tStack: %s\n|* [Trace]\n", thread_stack);
		if (st.len)
			buf_printf(&b, "|*\t\tStackKey: %s\n%s", key, logcat ? logcat : "");
		buf_puts(&b, "=========================================================================");
		char *block = buf_take_str(&b);
		if (block)
			ctx_log(ctx, TC_LOG_WARN, "Matrix.AnrTracer", "%s", block);
		free(block);

		char token[24];
		snprintf(token, sizeof token, "%" PRIu64, job->token);
		json j;
		json_init(&j);
		report_begin(ctx, &j);
		json_kv_string(&j, "detail", "ANR");
		json_kv_int(&j, "cost", cost);
		json_kv_string(&j, "stackKey", key);
		json_kv_string(&j, "scene", scene);
		json_kv_string(&j, "stack", stack ? stack : "");
		json_kv_string(&j, "threadStack", thread_stack);
		json_kv_int(&j, "processPriority", ps->priority);
		json_kv_int(&j, "processNice", ps->nice);
		json_kv_bool(&j, "isProcessForeground", job->foreground);
		json_key(&j, "memory");
		json_begin_object(&j);
		json_kv_int(&j, "dalvik_heap", ps->dalvik_heap_kb);
		json_kv_int(&j, "native_heap", ps->native_heap_kb);
		json_kv_int(&j, "vm_size", ps->vm_size_kb);
		json_end_object(&j);
		if (ctx->cfg.block_context)
			block_json(&j, &job->blk, NULL);
		report_send(ctx, &j, "Trace_EvilMethod", token);
	}
	free(stack);
	free(logcat);
	tc_stack_dispose(&st);
}

static void report(tc_ctx *ctx, void *arg)
{
	anr_job *job = arg;
	if (job->lag)
		lag_report(ctx, job);
	else
		anr_report(ctx, job);
}

/* Takes, on the watchdog, what the report must say about the moment of the
 * check, and hands it to the tracer thread. */
static void check(tc_ctx *ctx, bool lag, uint64_t token, uint64_t mark, int64_t ran_ms, uint64_t now_ns)
{
	anr_job *job = calloc(1, sizeof *job);
	if (!job)
		return;
	job->lag = lag;
	job->token = token;
	job->ran_ms = ran_ms;
	job->foreground = atomic_load(&ctx->foreground);
	job->scene = ctx_scene(ctx);
	/* Matrix's simple style (0) cut frames 0-2 and everything past 11 and
	 * the last 3: meant for a thread's own getStackTrace, whose top frames
	 * are the stack walk's; read from this thread, frames 0-2 are where the
	 * main thread is stuck. The ANR report carries the whole stack (test
	 * rt_e2e_anr: quirk_fixed_anr_thread_stack_whole) */
	int style = lag ? 2 : ctx->cfg.stack_style == 0 ? 1 : ctx->cfg.stack_style;
	job->thread_stack = procinfo_thread_stack(ctx, style);
	block_end(ctx, token, now_ns, &job->blk);
	if (!lag) {
		job->cur_ms = ctx_ms(ctx, now_ns);
		procinfo_process_stat(ctx, &job->ps);
		tc_copy_since(ctx, (tc_index){ mark }, &job->events, &job->n, &job->copy_err);
	}
	task_queue_post(&ctx->tasks, 0, 0, report, drop_job, job);
}

static void anr_watch(tc_ctx *ctx, uint64_t now_ns)
{
	if (!(ctx->cfg.tracers & TC_TRACER_ANR) || !ctx_started(ctx))
		return;
	uint64_t state = atomic_load_explicit(&ctx->msg_state, memory_order_acquire);
	if (!(state & 1))
		return; /* no message running */
	uint64_t begin_ns = atomic_load_explicit(&ctx->msg_begin_ns, memory_order_relaxed);
	uint64_t mark = atomic_load_explicit(&ctx->msg_mark, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&ctx->msg_state, memory_order_relaxed) != state)
		return; /* it ended, or another began, while we read */
	uint64_t token = state >> 1;
	int64_t ran_ms = now_ns > begin_ns ? (int64_t)((now_ns - begin_ns) / 1000000u) : 0;
	if (ran_ms >= (int64_t)ctx->cfg.lag_ms && ctx->lag_checked != token) {
		ctx->lag_checked = token;
		check(ctx, true, token, mark, ran_ms, now_ns);
	}
	if (ran_ms >= (int64_t)ctx->cfg.anr_ms && ctx->anr_checked != token) {
		ctx->anr_checked = token;
		check(ctx, false, token, mark, ran_ms, now_ns);
	}
}

/* the lag and ANR watchdog, on the clock thread at every tick */
const tracer_ops tracer_anr = { .tag = "Matrix.AnrTracer", .tick = anr_watch };

/* tracer_anr.c: LooperAnrTracer. A message still running lag_ms (2 s)
 * after it began gives a lag report with the thread stack; after anr_ms
 * (5 s), an ANR report with the recorded call stack, scene, priority and
 * memory. An ANR check that runs anr_invalid_ms (6 s) or more after the
 * message began is dropped: the process was throttled and the stack would
 * describe the throttling, not the message.
 *
 * Matrix's Issue.key for an ANR was always "0" (the token was never
 * assigned); ours is the message token (test tracer_anr/quirk_fixed_anr_key). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "json.h"

typedef struct anr_job {
	tc_index mark;
	uint64_t begin_ms;
	uint64_t token;
} anr_job;

static void drop_job(void *arg)
{
	free(arg);
}

static void lag(tc_ctx *ctx, void *arg)
{
	(void)arg;
	char *stack = probe_thread_stack(ctx, 2);
	char *scene = ctx_scene(ctx);
	json j;
	json_init(&j);
	report_begin(ctx, &j);
	json_kv_string(&j, "detail", "LAG");
	json_kv_string(&j, "scene", scene ? scene : "");
	json_kv_string(&j, "threadStack", stack ? stack : "");
	json_kv_bool(&j, "isProcessForeground", atomic_load(&ctx->foreground));
	report_send(ctx, &j, "Trace_EvilMethod", "");
	free(stack);
	free(scene);
}

static void anr(tc_ctx *ctx, void *arg)
{
	anr_job *job = arg;
	uint64_t cur_ms = ctx_ms(ctx, ctx_clock_ns(ctx));
	bool fg = atomic_load(&ctx->foreground);
	tc_process_stat ps;
	probe_process_stat(ctx, &ps);
	uint64_t *ev = NULL;
	size_t n = 0;
	tc_error err;
	if (tc_copy_since(ctx, job->mark, &ev, &n, &err) != TC_OK)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AnrTracer", "no stack: %s", err.message);
	char *scene = ctx_scene(ctx);
	char *thread_stack = probe_thread_stack(ctx, ctx->cfg.stack_style);

	tc_stack st = { 0 };
	if (n && analyse_events(&st, ev, n, true, cur_ms) != TC_OK)
		st.len = 0;
	free(ev);
	char *stack = NULL, *logcat = NULL;
	int64_t cost = tc_stack_format(&st, &stack, &logcat);
	/* Matrix: max(5000, longest item). The longest item is the open message,
	 * so this is how long the message had run when the check ran; we also
	 * take that time directly, so a check is judged late even when the
	 * ring had nothing for it. */
	if (cost < (int64_t)ctx->cfg.anr_ms)
		cost = ctx->cfg.anr_ms;
	if (cur_ms > job->begin_ms && (int64_t)(cur_ms - job->begin_ms) > cost)
		cost = (int64_t)(cur_ms - job->begin_ms);
	char key[32];
	tc_stack_key(&st, cost, key, sizeof key);

	strbuf b;
	sb_init(&b);
	sb_printf(&b, "\n>>>>>>>>>>>>>>>>>>>>>>> maybe happens ANR(%lld ms)! <<<<<<<<<<<<<<<<<<<<<<<\n", (long long)cost);
	sb_printf(&b, "|* [Status]\n|*\t\tScene: %s\n|*\t\tForeground: %s\n|*\t\tPriority: %lld\tNice: %lld\n",
	          scene ? scene : "", fg ? "true" : "false", (long long)ps.priority, (long long)ps.nice);
	sb_printf(&b, "|* [Memory]\n|*\t\tDalvikHeap: %lldkb\n|*\t\tNativeHeap: %lldkb\n|*\t\tVmSize: %lldkb\n",
	          (long long)ps.dalvik_heap_kb, (long long)ps.native_heap_kb, (long long)ps.vm_size_kb);
	sb_printf(&b, "|* [Thread]\n|*\t\tStack: %s\n|* [Trace]\n", thread_stack ? thread_stack : "");
	if (st.len)
		sb_printf(&b, "|*\t\tStackKey: %s\n%s", key, logcat ? logcat : "");
	sb_puts(&b, "=========================================================================");
	char *block = sb_take(&b);

	if (cost >= (int64_t)ctx->cfg.anr_invalid_ms) {
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AnrTracer", "ANR check ran %lld ms after the message began: dropped",
		        (long long)cost);
	} else {
		if (block)
			ctx_log(ctx, TC_LOG_WARN, "Matrix.AnrTracer", "%s", block);
		char token[24];
		snprintf(token, sizeof token, "%" PRIu64, job->token);
		json j;
		json_init(&j);
		report_begin(ctx, &j);
		json_kv_string(&j, "detail", "ANR");
		json_kv_int(&j, "cost", cost);
		json_kv_string(&j, "stackKey", key);
		json_kv_string(&j, "scene", scene ? scene : "");
		json_kv_string(&j, "stack", stack ? stack : "");
		json_kv_string(&j, "threadStack", thread_stack ? thread_stack : "");
		json_kv_int(&j, "processPriority", ps.priority);
		json_kv_int(&j, "processNice", ps.nice);
		json_kv_bool(&j, "isProcessForeground", fg);
		json_key(&j, "memory");
		json_begin_object(&j);
		json_kv_int(&j, "dalvik_heap", ps.dalvik_heap_kb);
		json_kv_int(&j, "native_heap", ps.native_heap_kb);
		json_kv_int(&j, "vm_size", ps.vm_size_kb);
		json_end_object(&j);
		report_send(ctx, &j, "Trace_EvilMethod", token);
	}
	free(block);
	free(stack);
	free(logcat);
	free(scene);
	free(thread_stack);
	tc_stack_dispose(&st);
}

void anr_begin(tc_ctx *ctx)
{
	if (!(ctx->cfg.tracers & TC_TRACER_ANR))
		return;
	uint64_t token = MSG_TOKEN(ctx->message_token);
	uint64_t begin_ms = ctx_ms(ctx, ctx->dispatch_begin_ns);
	anr_job *a = malloc(sizeof *a);
	if (a) {
		*a = (anr_job){ tc_mark(ctx), begin_ms, ctx->message_token };
		worker_post(&ctx->worker, ctx->cfg.anr_ms, token, anr, drop_job, a);
	}
	worker_post(&ctx->worker, ctx->cfg.lag_ms, token, lag, NULL, NULL);
}

void anr_end(tc_ctx *ctx)
{
	if (ctx->cfg.tracers & TC_TRACER_ANR)
		worker_cancel(&ctx->worker, MSG_TOKEN(ctx->message_token));
}

/* tracer_startup.c: StartupTracer. Application create runs from
 * tc_app_create_begin (Matrix: the first traced method) to the first
 * launch-activity, service or receiver message (tc_app_create_end). The
 * first focused activity gives the first-screen and cold-start costs,
 * skipping configured splash activities; an activity created with none
 * alive after a cold start begins a warm start, which ends when it gets
 * focus. Every start gives a Trace_StartUp report; one slower than its
 * threshold (10 s cold, 4 s warm) also gives a Trace_EvilMethod STARTUP report
 * with the stack since the start began.
 *
 * Matrix never updated the mark for warm starts after 2020, so warm reports
 * had empty stacks; we mark the ring at the warm start's activity create
 * (test tracer_startup/quirk_fixed_warm_start_has_stack). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "json.h"

typedef struct startup_job {
	int64_t app_cost, first_screen, all_cost;
	int app_scene;
	bool warm;
	uint32_t threshold;
	uint64_t *events;
	size_t n;
} startup_job;

static void drop_job(void *arg)
{
	startup_job *job = arg;
	free(job->events);
	free(job);
}

static uint64_t now_ms(tc_ctx *ctx)
{
	return ctx_ms(ctx, ctx_clock_ns(ctx));
}

static bool enabled(tc_ctx *ctx)
{
	return (ctx->cfg.tracers & TC_TRACER_STARTUP) && ctx_started(ctx);
}

static void report(tc_ctx *ctx, void *arg)
{
	startup_job *job = arg;
	tc_stack st = { 0 };
	if (job->n && ctx_analyse_events(&st, job->events, job->n, false, TC_NO_END_TIME) != TC_RT_OK)
		st.len = 0;
	char *stack = NULL;
	int64_t max = tc_stack_format(&st, &stack, NULL);
	int64_t cost = max > job->all_cost ? max : job->all_cost;
	char key[32];
	tc_stack_key(&st, cost, key, sizeof key);

	json j;
	json_init(&j);
	report_begin(ctx, &j);
	json_kv_int(&j, "application_create", job->app_cost);
	json_kv_int(&j, "application_create_scene", job->app_scene);
	json_kv_int(&j, "first_activity_create", job->first_screen);
	json_kv_int(&j, "startup_duration", cost);
	json_kv_bool(&j, "is_warm_start_up", job->warm);
	report_send(ctx, &j, "Trace_StartUp", "");

	if (cost > (int64_t)job->threshold) {
		ctx_log(ctx, TC_LOG_WARN, "Matrix.StartupTracer", "slow %s start: %lld ms",
		        job->warm ? "warm" : "cold", (long long)cost);
		json_init(&j);
		report_begin(ctx, &j);
		json_kv_string(&j, "detail", "STARTUP");
		json_kv_int(&j, "cost", cost);
		json_kv_string(&j, "stack", stack ? stack : "");
		json_kv_string(&j, "stackKey", key);
		json_kv_int(&j, "subType", job->warm ? 2 : 1);
		report_send(ctx, &j, "Trace_EvilMethod", "");
	}
	free(stack);
	tc_stack_dispose(&st);
}

static void analyse(tc_ctx *ctx, int64_t app_cost, int64_t first_screen, int64_t all_cost, bool warm)
{
	startup_job *job = calloc(1, sizeof *job);
	if (!job)
		return;
	*job = (startup_job){ app_cost, first_screen, all_cost, ctx->st.app_scene, warm,
	                      warm ? ctx->cfg.warm_threshold_ms : ctx->cfg.cold_threshold_ms, NULL, 0 };
	if (all_cost >= (int64_t)job->threshold) {
		tc_rt_error err;
		if (tc_copy_since(ctx, warm ? ctx->st.warm_mark : ctx->st.app_mark, &job->events, &job->n, &err))
			ctx_log(ctx, TC_LOG_WARN, "Matrix.StartupTracer", "no stack: %s", err.message);
	}
	task_queue_post(&ctx->tasks, 0, 0, report, drop_job, job);
}

void tc_app_create_begin(tc_ctx *ctx)
{
	if (ctx->st.app_begun)
		return;
	ctx->st.app_begun = true;
	ctx->st.app_begin_ms = now_ms(ctx);
	ctx->st.app_mark = tc_mark(ctx);
}

void tc_app_create_end(tc_ctx *ctx, int what, bool by_launch_activity)
{
	if (ctx->st.app_scene != INT32_MIN)
		return; /* only the first such message ends application create */
	if (!ctx->st.app_begun) {
		/* no begin seen: application create began with the recording */
		ctx->st.app_begun = true;
		ctx->st.app_begin_ms = 0;
		ctx->st.app_mark = ctx->first_mark;
	}
	ctx->st.app_end_ms = now_ms(ctx);
	ctx->st.app_scene = what;
	ctx->st.by_launch_activity = by_launch_activity;
	int64_t app_cost = (int64_t)(ctx->st.app_end_ms - ctx->st.app_begin_ms);
	if (!ctx->cfg.has_activity && enabled(ctx))
		analyse(ctx, app_cost, 0, app_cost, false);
}

static char *activity_key(const char *cls, uint32_t identity)
{
	size_t n = strlen(cls) + 12;
	char *k = malloc(n);
	if (k)
		snprintf(k, n, "%s@%x", cls, (unsigned)identity);
	return k;
}

static bool is_splash(tc_ctx *ctx, const char *cls)
{
	const char *p = ctx->splash;
	size_t n = strlen(cls);
	while (p && *p) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && len && memcmp(p, cls, n) == 0)
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

void tc_activity_created(tc_ctx *ctx, const char *cls, uint32_t identity)
{
	uint64_t now = now_ms(ctx);
	if (ctx->st.active == 0 && ctx->st.cold_ms > 0) {
		ctx->st.warm_create_ms = now;
		ctx->st.warm = true;
		ctx->st.warm_mark = tc_mark(ctx);
	}
	ctx->st.active++;
	tc_set_scene(ctx, cls);
	char *key = activity_key(cls, identity);
	if (!key)
		return;
	for (size_t i = 0; i < ctx->st.n_acts; i++) {
		if (strcmp(ctx->st.acts[i].key, key) == 0) {
			ctx->st.acts[i].created_ms = now;
			free(key);
			return;
		}
	}
	activity_entry *a = realloc(ctx->st.acts, (ctx->st.n_acts + 1) * sizeof *a);
	if (!a) {
		free(key);
		return;
	}
	ctx->st.acts = a;
	a[ctx->st.n_acts++] = (activity_entry){ key, now };
}

void tc_activity_destroyed(tc_ctx *ctx, const char *cls, uint32_t identity)
{
	if (ctx->st.active > 0)
		ctx->st.active--;
	char *key = activity_key(cls, identity);
	if (!key)
		return;
	for (size_t i = 0; i < ctx->st.n_acts; i++) {
		if (strcmp(ctx->st.acts[i].key, key) == 0) {
			free(ctx->st.acts[i].key);
			ctx->st.acts[i] = ctx->st.acts[--ctx->st.n_acts];
			break;
		}
	}
	free(key);
}

static uint64_t created_at(tc_ctx *ctx, const char *cls, uint32_t identity)
{
	char *key = activity_key(cls, identity);
	uint64_t t = 0;
	for (size_t i = 0; key && i < ctx->st.n_acts; i++)
		if (strcmp(ctx->st.acts[i].key, key) == 0)
			t = ctx->st.acts[i].created_ms;
	free(key);
	return t;
}

static void focused(tc_ctx *ctx, const char *cls, uint32_t identity)
{
	if (ctx->st.app_scene == INT32_MIN)
		return; /* application create end not seen: unknown start */
	uint64_t now = now_ms(ctx);
	int64_t app_cost = (int64_t)(ctx->st.app_end_ms - ctx->st.app_begin_ms);
	if (ctx->st.cold_ms == 0) {
		uint64_t create_to_focus = now - created_at(ctx, cls, identity);
		if (ctx->st.first_screen_ms == 0)
			ctx->st.first_screen_ms = (int64_t)(now - ctx->st.app_begin_ms);
		if (ctx->st.splash_shown) {
			ctx->st.cold_ms = (int64_t)(now - ctx->st.app_begin_ms);
		} else if (is_splash(ctx, cls)) {
			ctx->st.splash_shown = true; /* the start ends at the next activity */
		} else if (ctx->st.by_launch_activity) {
			ctx->st.cold_ms = ctx->st.first_screen_ms;
		} else {
			/* started for a service or receiver: the activity came later */
			ctx->st.first_screen_ms = 0;
			ctx->st.cold_ms = app_cost;
		}
		if (ctx->st.cold_ms > 0) {
			/* An activity that took 30 s from create to focus was not a
			 * start the user waited for (a debugger, a locked screen). */
			if (create_to_focus >= ctx->cfg.startup_guard_ms) {
				ctx_log(ctx, TC_LOG_WARN, "Matrix.StartupTracer",
				        "%s took %llu ms from create to focus: no startup report", cls,
				        (unsigned long long)create_to_focus);
				return;
			}
			if (enabled(ctx))
				analyse(ctx, app_cost, ctx->st.first_screen_ms, ctx->st.cold_ms, false);
		}
	} else if (ctx->st.warm) {
		ctx->st.warm = false;
		int64_t warm_cost = (int64_t)(now - ctx->st.warm_create_ms);
		if (warm_cost > 0 && enabled(ctx))
			analyse(ctx, 0, 0, warm_cost, true);
	}
}

void tc_activity_focus(tc_ctx *ctx, const char *cls, uint32_t identity, bool has_focus)
{
	/* AppMethodBeat.at: the first focus per class until it loses focus */
	for (size_t i = 0; i < ctx->st.n_focused; i++) {
		if (strcmp(ctx->st.focused[i], cls) == 0) {
			if (!has_focus) {
				free(ctx->st.focused[i]);
				ctx->st.focused[i] = ctx->st.focused[--ctx->st.n_focused];
			}
			return;
		}
	}
	if (!has_focus)
		return;
	char **f = realloc(ctx->st.focused, (ctx->st.n_focused + 1) * sizeof *f);
	char *copy = strdup(cls);
	if (f)
		ctx->st.focused = f;
	if (!f || !copy) {
		free(copy);
		return;
	}
	f[ctx->st.n_focused++] = copy;
	tc_set_scene(ctx, cls);
	focused(ctx, cls, identity);
}

static void startup_free(tc_ctx *ctx)
{
	for (size_t i = 0; i < ctx->st.n_acts; i++)
		free(ctx->st.acts[i].key);
	free(ctx->st.acts);
	for (size_t i = 0; i < ctx->st.n_focused; i++)
		free(ctx->st.focused[i]);
	free(ctx->st.focused);
	memset(&ctx->st, 0, sizeof ctx->st);
}

const tracer_ops tracer_startup = { .tag = "Matrix.StartupTracer", .free = startup_free };

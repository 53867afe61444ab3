/* tracer_priority.c: ThreadPriorityTracer (Matrix's ThreadTracer). Someone
 * lowering the main thread's priority makes every message slower without any
 * method being slow; the report names who did it.
 *
 * PLT hooks (tc_plthook.h) of the calls that change a thread's scheduling, in
 * the libraries priority_libs names (Matrix: every ".so"):
 *   - setpriority(PRIO_PROCESS, who, nice): Linux applies it to the one
 *     thread whose id is who (0: the caller), so it targets the recording
 *     thread when who is its id, or 0 on it (Matrix: who == 0 on the thread
 *     whose id is the pid, or who == pid: the same on Android, where the main
 *     thread's id is the pid; on a JVM the main thread's is not);
 *   - sched_setscheduler(pid, policy, param): the same targeting (not in
 *     Matrix; Process.setThreadScheduler and the platform's cgroup code call it);
 *   - prctl(PR_SET_TIMERSLACK, ns) on the recording thread with ns > 50,000
 *     (Matrix's bound; the default slack is 50 us).
 * A call is reported when it succeeded and changed something (Matrix reported
 * every call, before making it): Trace_EvilMethod with detail
 * PRIORITY_MODIFIED or TIMERSLACK_MODIFIED and `threadStack`, the Java stack
 * of the thread that made the call (probe TC_STACK_CALLER), taken in the hook
 * on that thread before it returns, as Matrix's upcall did.
 *
 * The hooked path: an atomic counter, two loads, a thread id; a call that
 * does not target the recording thread does nothing else. A reported change
 * (rare: a few per process life) takes the stack, which allocates, and posts
 * the report to the tracer thread. errno is the real call's. */
#define _GNU_SOURCE 1 /* sched_setscheduler's policies, prctl */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/resource.h>
#endif

#include "context.h"
#include "try.h"
#include "hookset.h"
#include "json.h"
#include "tc_plthook.h"
#include "os_thread.h"

#define TIMERSLACK_REPORT_NS 50000ul /* Matrix: above the default slack */

/* Never hooked: ART itself. Thread.setPriority reaches setpriority in
 * libart.so (older) or libartpalette-system.so (PaletteSchedSetPriority)
 * with the thread Runnable and thread_list_lock_ held (ART's
 * java_lang_Thread.cc, Thread_setPriority0): a JNI upcall for the stack
 * there breaks ART's rules and may deadlock (Matrix hooks every .so and
 * does it). Those changes are not seen. */
#define PRIORITY_IGNORE "libart.so;libartpalette*.so"


enum { KIND_NICE, KIND_POLICY, KIND_SLACK };

typedef struct prio_job {
	int kind;
	long before, after;   /* nice values, policies, or slack (after only) */
	int sched_priority;   /* KIND_POLICY */
	uint32_t tid;         /* the thread that made the call */
	char *stack;
} prio_job;

/* One context at a time (GOTs are process-wide); see hookset.h. */
static hookset g_hooks = HOOKSET_INIT;

static _Atomic(tc_plthook_fn) orig_setpriority, orig_sched, orig_prctl;

static tc_ctx *enter(void)
{
	return hookset_enter(&g_hooks);
}

static void leave(void)
{
	hookset_leave(&g_hooks);
}

/* the thread a call names (0: the caller) is the recording thread */
static bool targets_main(tc_ctx *ctx, long who, uint32_t *self)
{
	uint32_t main = atomic_load_explicit(&ctx->record_tid, memory_order_relaxed);
	*self = os_thread_id();
	return main && (who == 0 ? *self == main : (uint64_t)who == main);
}

static void drop_job(void *arg)
{
	prio_job *jb = arg;
	free(jb->stack);
	free(jb);
}

static const char *policy_name(long p)
{
	switch (p) {
	case SCHED_OTHER: return "SCHED_OTHER";
	case SCHED_FIFO: return "SCHED_FIFO";
	case SCHED_RR: return "SCHED_RR";
#ifdef SCHED_BATCH
	case SCHED_BATCH: return "SCHED_BATCH";
#endif
#ifdef SCHED_IDLE
	case SCHED_IDLE: return "SCHED_IDLE";
#endif
	default: return "unknown";
	}
}

static void report(tc_ctx *ctx, void *arg)
{
	prio_job *jb = arg;
	const char *stack = jb->stack ? jb->stack : "";
	if (jb->kind == KIND_SLACK)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.ThreadPriorityTracer",
		        "main thread's timer slack set to %ld ns by thread %u:\n%s", jb->after, (unsigned)jb->tid, stack);
	else if (jb->kind == KIND_POLICY)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.ThreadPriorityTracer",
		        "main thread's scheduling policy changed from %s to %s by thread %u:\n%s",
		        policy_name(jb->before), policy_name(jb->after), (unsigned)jb->tid, stack);
	else
		ctx_log(ctx, TC_LOG_WARN, "Matrix.ThreadPriorityTracer",
		        "main thread's priority changed from %ld to %ld by thread %u:\n%s", jb->before, jb->after,
		        (unsigned)jb->tid, stack);
	json j;
	json_init(&j);
	report_begin(ctx, &j);
	json_kv_string(&j, "detail", jb->kind == KIND_SLACK ? "TIMERSLACK_MODIFIED" : "PRIORITY_MODIFIED");
	json_kv_string(&j, "threadStack", stack);
	switch (jb->kind) {
	case KIND_NICE:
		json_kv_int(&j, "processPriority", jb->after);
		json_kv_int(&j, "priorityBefore", jb->before);
		break;
	case KIND_POLICY:
		json_kv_string(&j, "schedPolicy", policy_name(jb->after));
		json_kv_string(&j, "schedPolicyBefore", policy_name(jb->before));
		json_kv_int(&j, "schedPriority", jb->sched_priority);
		break;
	default:
		json_kv_int(&j, "processTimerSlack", jb->after);
		break;
	}
	json_kv_int(&j, "changerTid", jb->tid);
	report_send(ctx, &j, "Trace_EvilMethod", "");
}

/* On the thread that made the call, after it: its stack, then the report
 * to the tracer thread. */
static void note(tc_ctx *ctx, int kind, long before, long after, int sched_priority, uint32_t tid)
{
	if (!ctx_started(ctx))
		return;
	prio_job *jb = calloc(1, sizeof *jb);
	if (!jb)
		return;
	jb->kind = kind;
	jb->before = before;
	jb->after = after;
	jb->sched_priority = sched_priority;
	jb->tid = tid;
	jb->stack = procinfo_thread_stack(ctx, TC_STACK_CALLER);
	task_queue_post(&ctx->tasks, 0, 0, report, drop_job, jb);
}

static int my_setpriority(int which, id_t who, int prio)
{
	int (*real)(int, id_t, int) = (int (*)(int, id_t, int))tc_plthook_orig(&orig_setpriority);
	tc_ctx *ctx = enter();
	if (!ctx)
		return real(which, who, prio);
	uint32_t self;
	bool watch = which == PRIO_PROCESS && targets_main(ctx, (long)who, &self);
	int before = 0;
	if (watch) {
		errno = 0;
		before = getpriority(PRIO_PROCESS, atomic_load_explicit(&ctx->record_tid, memory_order_relaxed));
		watch = errno == 0; /* -1 is a nice value too */
	}
	int rc = real(which, who, prio);
	int saved = errno;
	if (watch && rc == 0) {
		/* the kernel clamps to [-20, 19]: read what was set */
		int after = getpriority(PRIO_PROCESS, atomic_load_explicit(&ctx->record_tid, memory_order_relaxed));
		if (after != before)
			note(ctx, KIND_NICE, before, after, 0, self);
	}
	leave();
	errno = saved;
	return rc;
}

static int my_sched_setscheduler(pid_t pid, int policy, const struct sched_param *param)
{
	int (*real)(pid_t, int, const struct sched_param *) =
	    (int (*)(pid_t, int, const struct sched_param *))tc_plthook_orig(&orig_sched);
	tc_ctx *ctx = enter();
	if (!ctx)
		return real(pid, policy, param);
	uint32_t self;
	bool watch = targets_main(ctx, (long)pid, &self);
	int before = watch ? sched_getscheduler((pid_t)atomic_load_explicit(&ctx->record_tid, memory_order_relaxed)) : -1;
	int rc = real(pid, policy, param);
	int saved = errno;
	/* the reset-on-fork flag rides in the policy */
#ifdef SCHED_RESET_ON_FORK
	int plain = policy & ~SCHED_RESET_ON_FORK;
	if (before >= 0)
		before &= ~SCHED_RESET_ON_FORK;
#else
	int plain = policy;
#endif
	if (watch && before >= 0 && rc == 0 && plain != before)
		note(ctx, KIND_POLICY, before, plain, param ? param->sched_priority : 0, self);
	leave();
	errno = saved;
	return rc;
}

/* prctl is variadic: the replacement is too, and passes on the four words
 * the kernel's prctl takes (as libc's own wrapper reads them). */
static int my_prctl(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long a2 = va_arg(ap, unsigned long), a3 = va_arg(ap, unsigned long),
	              a4 = va_arg(ap, unsigned long), a5 = va_arg(ap, unsigned long);
	va_end(ap);
	int (*real)(int, ...) = (int (*)(int, ...))tc_plthook_orig(&orig_prctl);
	if (option != PR_SET_TIMERSLACK)
		return real(option, a2, a3, a4, a5);
	tc_ctx *ctx = enter();
	if (!ctx)
		return real(option, a2, a3, a4, a5);
	uint32_t self;
	bool watch = a2 > TIMERSLACK_REPORT_NS && targets_main(ctx, 0, &self);
	int rc = real(option, a2, a3, a4, a5);
	int saved = errno;
	if (watch && rc == 0)
		note(ctx, KIND_SLACK, 0, (long)a2, 0, self);
	leave();
	errno = saved;
	return rc;
}

static int priority_install(tc_ctx *ctx, const tc_config *cfg, tc_rt_error *err)
{
	tc_ctx *cur;
	TRY(hookset_lock(&g_hooks, ctx, &cur, "thread priority", err));
	const char *libs = cfg->priority_libs ? cfg->priority_libs : "*.so";
	const tc_plthook_spec specs[3] = {
		{ .libs = libs, .ignore = PRIORITY_IGNORE, .symbol = "setpriority",
		  .replacement = (tc_plthook_fn)my_setpriority, .orig = &orig_setpriority },
		{ .libs = libs, .ignore = PRIORITY_IGNORE, .symbol = "sched_setscheduler",
		  .replacement = (tc_plthook_fn)my_sched_setscheduler, .orig = &orig_sched },
		{ .libs = libs, .ignore = PRIORITY_IGNORE, .symbol = "prctl",
		  .replacement = (tc_plthook_fn)my_prctl, .orig = &orig_prctl },
	};
	return hookset_install(&g_hooks, ctx, specs, 3, "Matrix.ThreadPriorityTracer",
	                       "setpriority, sched_setscheduler or prctl", err);
}

static void priority_uninstall(tc_ctx *ctx)
{
	hookset_uninstall(&g_hooks, ctx);
}

/* PLT hooks: process-wide, one context at a time (another holding them is a warning) */
const tracer_ops tracer_priority = {
	.tag = "Matrix.ThreadPriorityTracer", .what = "thread priority", .bit = TC_TRACER_PRIORITY,
	.busy_is_warning = true, .start = priority_install, .stop = priority_uninstall,
};

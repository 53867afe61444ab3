/* tracer_touch.c: TouchEventLagTracer. An input event reaches the app over
 * its window's input channel, a socket pair that libinput.so's
 * InputConsumer reads with recvfrom (bionic's recv is recvfrom; fortified,
 * __recvfrom_chk), and the app answers each event it has handled with a
 * "finished" message sent with sendto (__sendto_chk). The time between the
 * two is how long the user waited for the app to take the touch.
 *
 * PLT hooks of those four in the libraries touch_libs names (Matrix:
 * libinput.so; Matrix hooks __sendto_chk with sendto's signature, which
 * shifts its arguments: each here has its own). Per channel (socket), an
 * event begins at the first message received after the last finished signal
 * (a read of more than 50 bytes, Matrix's bound: the channel's small control
 * messages are not events) and ends at the next successful send; a read of 0
 * (the peer closed) forgets it. An event that took touch_lag_ms (2 s) or
 * longer is reported at its end, at most once per 2 x touch_lag_ms (Matrix:
 * 4 s), with the events the main thread recorded meanwhile made into
 * Matrix's stack (Trace_EvilMethod, detail LAG_TOUCH, `cost`, `scene`,
 * `stack`, `stackKey`, `isProcessForeground`). Matrix's `threadStack`, a Java
 * stack taken by a thread polling for a late event, is not given: the ring's
 * stack says what ran during the event.
 *
 * The hooked path allocates nothing and takes no lock of ours: a table of
 * channels claimed by compare-and-swap, the clock, and a mark of the ring
 * (tc_mark) at an event's start. Only a reported event (one per 4 s at
 * most) allocates its job, as a slow message does; the events are copied
 * and analysed on the tracer thread. */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "context.h"
#include "try.h"
#include "hookset.h"
#include "json.h"
#include "tc_plthook.h"

#define TOUCH_MIN_EVENT 50 /* bytes: Matrix's VALIDATE_RET */
#define CHANNELS 16        /* windows with an input channel at once */

/* A channel: fd is -1 while free. An event is pending while begin_ns != 0.
 * Each channel is read and answered by the one thread whose looper watches
 * it, so its fields have one writer; they are atomic for a thread that
 * takes over a slot (relaxed: nothing else is published through them). */
typedef struct channel {
	_Atomic int fd;
	_Atomic uint64_t begin_ns;
	_Atomic uint64_t mark;
} channel;

typedef struct touch_job {
	tc_index mark;
	uint64_t begin_ns, end_ns;
	int fd;
	bool foreground;
	char *scene;
} touch_job;

/* One context at a time (GOTs are process-wide); see hookset.h. */
static hookset g_hooks = HOOKSET_INIT;
static _Atomic uint32_t g_lag_ms;
static _Atomic uint64_t g_last_report_ns;
static channel g_ch[CHANNELS];

static _Atomic(tc_plthook_fn) orig_recvfrom, orig_recvfrom_chk, orig_sendto, orig_sendto_chk;

static tc_ctx *enter(void)
{
	return hookset_enter(&g_hooks);
}

static void leave(void)
{
	hookset_leave(&g_hooks);
}

static channel *find(int fd, bool claim)
{
	for (size_t i = 0; i < CHANNELS; i++)
		if (atomic_load_explicit(&g_ch[i].fd, memory_order_relaxed) == fd)
			return &g_ch[i];
	if (!claim)
		return NULL;
	for (size_t i = 0; i < CHANNELS; i++) {
		int free_fd = -1;
		if (atomic_compare_exchange_strong(&g_ch[i].fd, &free_fd, fd)) {
			atomic_store_explicit(&g_ch[i].begin_ns, 0, memory_order_relaxed);
			return &g_ch[i];
		}
	}
	return NULL; /* more channels than slots: that one is not timed */
}

static void drop_job(void *arg)
{
	touch_job *jb = arg;
	free(jb->scene);
	free(jb);
}

static void report(tc_ctx *ctx, void *arg)
{
	touch_job *jb = arg;
	uint64_t *ev = NULL;
	size_t n = 0;
	tc_rt_error err;
	if (tc_copy_since(ctx, jb->mark, &ev, &n, &err) != TC_RT_OK)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.TouchEventLagTracer", "no stack: %s", err.message);
	tc_stack st = { 0 };
	/* not strict: an input event runs from the native looper's fd callback,
	 * outside any message, so no dispatch marker brackets it */
	if (n && ctx_analyse_events(&st, ev, n, false, ctx_ms(ctx, jb->end_ns)) != TC_RT_OK)
		st.len = 0;
	free(ev);
	char *stack = NULL, *logcat = NULL;
	int64_t cost = (int64_t)((jb->end_ns - jb->begin_ns) / 1000000u);
	int64_t max = tc_stack_format(&st, &stack, &logcat);
	char key[32];
	tc_stack_key(&st, max > cost ? max : cost, key, sizeof key);
	ctx_log(ctx, TC_LOG_WARN, "Matrix.TouchEventLagTracer",
	        "input event on channel %d finished after %lld ms\n|*\t\tStackKey: %s\n%s", jb->fd, (long long)cost,
	        key, logcat ? logcat : "");
	json j;
	json_init(&j);
	report_begin(ctx, &j);
	json_kv_string(&j, "detail", "LAG_TOUCH");
	json_kv_int(&j, "cost", cost);
	json_kv_string(&j, "scene", jb->scene ? jb->scene : "");
	json_kv_string(&j, "stack", stack ? stack : "");
	json_kv_string(&j, "stackKey", key);
	json_kv_bool(&j, "isProcessForeground", jb->foreground);
	report_send(ctx, &j, "Trace_EvilMethod", "");
	free(stack);
	free(logcat);
	tc_stack_dispose(&st);
}

static void received(tc_ctx *ctx, int fd, ssize_t got)
{
	if (got == 0) { /* the window's channel closed */
		channel *c = find(fd, false);
		if (c) {
			atomic_store_explicit(&c->begin_ns, 0, memory_order_relaxed);
			atomic_store_explicit(&c->fd, -1, memory_order_release);
		}
		return;
	}
	if (got <= TOUCH_MIN_EVENT || !ctx_started(ctx))
		return;
	channel *c = find(fd, true);
	if (!c || atomic_load_explicit(&c->begin_ns, memory_order_relaxed))
		return; /* an event is pending: the first one's wait is the longest */
	atomic_store_explicit(&c->mark, tc_mark(ctx).seq, memory_order_relaxed);
	uint64_t now = ctx_clock_ns(ctx);
	atomic_store_explicit(&c->begin_ns, now ? now : 1, memory_order_relaxed);
}

static void finished(tc_ctx *ctx, int fd)
{
	channel *c = find(fd, false);
	if (!c)
		return;
	uint64_t begin = atomic_exchange_explicit(&c->begin_ns, 0, memory_order_relaxed);
	if (!begin)
		return;
	uint64_t end = ctx_clock_ns(ctx);
	uint64_t lag_ns = (uint64_t)atomic_load_explicit(&g_lag_ms, memory_order_relaxed) * 1000000u;
	if (end < begin || end - begin < lag_ns || !ctx_started(ctx))
		return;
	uint64_t last = atomic_load_explicit(&g_last_report_ns, memory_order_relaxed);
	if (last && end - last < 2 * lag_ns)
		return; /* Matrix: one report per 2 x the threshold */
	if (!atomic_compare_exchange_strong(&g_last_report_ns, &last, end))
		return;
	touch_job *jb = calloc(1, sizeof *jb);
	if (!jb)
		return;
	jb->mark.seq = atomic_load_explicit(&c->mark, memory_order_relaxed);
	jb->begin_ns = begin;
	jb->end_ns = end;
	jb->fd = fd;
	jb->foreground = atomic_load(&ctx->foreground);
	jb->scene = ctx_scene(ctx);
	task_queue_post(&ctx->tasks, 0, 0, report, drop_job, jb);
}

/* After the real call, the same for all four: a read begins the channel's event, a send
 * finishes it (when the call succeeded); errno stays as the call left it. */
static ssize_t noted(int fd, ssize_t rc, bool send)
{
	int saved = errno;
	tc_ctx *ctx = enter();
	if (ctx) {
		if (rc >= 0 && send)
			finished(ctx, fd);
		else if (rc >= 0)
			received(ctx, fd, rc);
		leave();
	}
	errno = saved;
	return rc;
}

static ssize_t my_recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *src, socklen_t *srclen)
{
	ssize_t (*real)(int, void *, size_t, int, struct sockaddr *, socklen_t *) =
	    (ssize_t (*)(int, void *, size_t, int, struct sockaddr *, socklen_t *))tc_plthook_orig(&orig_recvfrom);
	return noted(fd, real(fd, buf, len, flags, src, srclen), false);
}

/* bionic's fortified recvfrom: buflen is the buffer's size as the compiler knew it */
static ssize_t my_recvfrom_chk(int fd, void *buf, size_t len, size_t buflen, int flags, struct sockaddr *src,
                               socklen_t *srclen)
{
	ssize_t (*real)(int, void *, size_t, size_t, int, struct sockaddr *, socklen_t *) =
	    (ssize_t (*)(int, void *, size_t, size_t, int, struct sockaddr *, socklen_t *))tc_plthook_orig(
	        &orig_recvfrom_chk);
	return noted(fd, real(fd, buf, len, buflen, flags, src, srclen), false);
}

static ssize_t my_sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *dst, socklen_t dstlen)
{
	ssize_t (*real)(int, const void *, size_t, int, const struct sockaddr *, socklen_t) =
	    (ssize_t (*)(int, const void *, size_t, int, const struct sockaddr *, socklen_t))tc_plthook_orig(
	        &orig_sendto);
	return noted(fd, real(fd, buf, len, flags, dst, dstlen), true);
}

static ssize_t my_sendto_chk(int fd, const void *buf, size_t len, size_t buflen, int flags,
                             const struct sockaddr *dst, socklen_t dstlen)
{
	ssize_t (*real)(int, const void *, size_t, size_t, int, const struct sockaddr *, socklen_t) =
	    (ssize_t (*)(int, const void *, size_t, size_t, int, const struct sockaddr *, socklen_t))tc_plthook_orig(
	        &orig_sendto_chk);
	return noted(fd, real(fd, buf, len, buflen, flags, dst, dstlen), true);
}

static int touch_install(tc_ctx *ctx, const tc_config *cfg, tc_rt_error *err)
{
	tc_ctx *cur;
	TRY(hookset_lock(&g_hooks, ctx, &cur, "touch events", err));
	if (cur != ctx) { /* a new owner: no channel known yet */
		for (size_t i = 0; i < CHANNELS; i++) {
			atomic_store(&g_ch[i].fd, -1);
			atomic_store(&g_ch[i].begin_ns, 0);
		}
		atomic_store(&g_last_report_ns, 0);
	}
	atomic_store(&g_lag_ms, cfg->touch_lag_ms);
	const char *libs = cfg->touch_libs ? cfg->touch_libs : "libinput.so";
	const tc_plthook_spec specs[4] = {
		{ .libs = libs, .symbol = "recvfrom", .replacement = (tc_plthook_fn)my_recvfrom, .orig = &orig_recvfrom },
		{ .libs = libs, .symbol = "__recvfrom_chk", .replacement = (tc_plthook_fn)my_recvfrom_chk,
		  .orig = &orig_recvfrom_chk },
		{ .libs = libs, .symbol = "sendto", .replacement = (tc_plthook_fn)my_sendto, .orig = &orig_sendto },
		{ .libs = libs, .symbol = "__sendto_chk", .replacement = (tc_plthook_fn)my_sendto_chk,
		  .orig = &orig_sendto_chk },
	};
	return hookset_install(&g_hooks, ctx, specs, 4, "Matrix.TouchEventLagTracer", "recvfrom or sendto", err);
}

static void touch_uninstall(tc_ctx *ctx)
{
	hookset_uninstall(&g_hooks, ctx);
}

const tracer_ops tracer_touch = {
	.tag = "Matrix.TouchEventLagTracer", .what = "touch lag", .bit = TC_TRACER_TOUCH, .busy_is_warning = true,
	.start = touch_install, .stop = touch_uninstall,
};

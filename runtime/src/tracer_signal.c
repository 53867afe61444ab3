/* tracer_signal.c: SignalAnrTracer. When the system decides a process is
 * not responding it sends it SIGQUIT for a thread dump; so does anyone who
 * wants one. We catch it, confirm an ANR as Matrix does, and report the main
 * thread's recorded stack and its Java stack (Trace_EvilMethod, detail
 * SIGNAL_ANR).
 *
 * The handler (process-wide, one context at a time) does only what is
 * async-signal-safe: one write(2) of a byte into a pipe, then it chains to
 * the handler that was there before, so the platform's own dump (HotSpot's
 * "Signal Dispatcher") still happens. A watcher thread blocked in read(2)
 * on that pipe (no timer: no wake-ups while nothing happens) does the rest
 * on a normal thread:
 *   - confirm: the main thread is blocked if the message it runs, or the
 *     main queue's head (probe.queue_head_late_ms, Matrix's
 *     `when - uptime`), is late by the threshold (2 s in the foreground,
 *     10 s in the background); else the process's error state is polled
 *     (probe.error_state, Matrix's getProcessesInErrorState: 40 times every
 *     500 ms), and another process not responding ends the check;
 *   - take the Java stack, the events since the running message began and
 *     the scene, and hand the report to the tracer thread.
 *
 * Android: ART blocks SIGQUIT in every thread and its "Signal Catcher"
 * thread takes it with sigwait; the disposition stays SIG_DFL. So a handler
 * runs only where SIGQUIT is unblocked (the installing thread unblocks it,
 * as Matrix's does), and chaining to SIG_DFL there would kill the app
 * before ART writes its traces. When SIGQUIT was blocked at install and
 * there is no handler to chain to, the handler chains to nothing; the
 * watcher re-sends each SIGQUIT to the thread named "Signal Catcher"
 * (tgkill: only that thread, where sigwait takes it) before its check, as
 * Matrix does. With no such thread the signal ends there: never the
 * default action, which would end the process.
 *
 * Two ways that default action could still be reached are closed:
 *   - ART may skip app signal handlers (debug.ignoreappsignalhandler:
 *     sigchain's sigaction then returns 0 and installs nothing, and fills
 *     nothing in). So the disposition is read back after installing, and
 *     unless it is ours SIGQUIT is not unblocked (the tracer is off, with a
 *     warning): unblocked with SIG_DFL in place, a SIGQUIT would end the app.
 *   - threads started while SIGQUIT was unblocked here inherit that mask. In
 *     resend mode the handler therefore stays for the life of the process:
 *     once no context has it, it sends each SIGQUIT on to the catcher itself
 *     (tgkill is async-signal-safe) instead of restoring SIG_DFL. */
/* sigaltstack, SA_ONSTACK: XSI; syscall(): not POSIX, in every Linux libc */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include "context.h"
#include "rt_error.h"
#include "json.h"
#include "os_thread.h"

struct signal_anr {
	tc_ctx *ctx;
	int rfd, wfd;
	pthread_t thread;
	bool running;
	_Atomic bool stopping;      /* the stop byte may not fit a full pipe */
	_Atomic uint64_t handled;   /* SIGQUITs the watcher has finished with */
	uint64_t unsent;            /* re-sends with no catcher (logged once) */
};

/* The process's one handler: its pipe and the handler before it. g_old and
 * g_resend are written before the handler is installed and not changed
 * while it is. */
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int g_wfd = -1;
static _Atomic int g_in_handler;
static struct sigaction g_old;
static bool g_installed;
static bool g_resend;             /* the platform takes SIGQUIT with sigwait */
static pthread_t g_installer;     /* where resend mode unblocked SIGQUIT */
/* the thread last re-sent to: should it run the handler (SIGQUIT not
 * blocked there), re-sending again would loop. With no watcher (no
 * context has the handler) the handler itself sends to it. */
static _Atomic uint32_t g_catcher;
/* for threads that have no alternate stack of their own (SA_ONSTACK) */
static char g_altstack[32768];

/* the handler before ours: the platform's dump must still happen */
static void chain(int sig, siginfo_t *si, void *uc)
{
	if (g_old.sa_flags & SA_SIGINFO) {
		if (g_old.sa_sigaction)
			g_old.sa_sigaction(sig, si, uc);
	} else if (g_old.sa_handler == SIG_DFL) {
		/* the default action (core dump): restore it and let the signal,
		 * blocked while we run, be taken when we return */
		struct sigaction dfl;
		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		sigaction(sig, &dfl, NULL);
		raise(sig);
	} else if (g_old.sa_handler != SIG_IGN) {
		g_old.sa_handler(sig);
	}
}

/* Resend mode with no watcher: the handler sends the signal on itself
 * (getpid and a raw tgkill are async-signal-safe). */
static void forward(uint32_t catcher)
{
#if defined(__linux__) && defined(SYS_tgkill)
	syscall(SYS_tgkill, (long)getpid(), (long)catcher, (long)SIGQUIT);
#else
	(void)catcher;
#endif
}

static void on_sigquit(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	atomic_fetch_add(&g_in_handler, 1);
	int fd = atomic_load(&g_wfd);
	uint32_t catcher = atomic_load(&g_catcher);
	bool on_catcher = g_resend && catcher && os_thread_id() == catcher;
	if (fd >= 0 && !on_catcher) {
		char b = 1;
		ssize_t r = write(fd, &b, 1); /* full pipe: a check is pending anyway */
		(void)r;
	} else if (fd < 0 && g_resend && catcher && !on_catcher) {
		forward(catcher);
	}
	atomic_fetch_sub(&g_in_handler, 1);
	/* in resend mode the watcher sends the signal on: SIG_DFL here would
	 * end the process before the platform's dump */
	if (!g_resend)
		chain(sig, si, uc);
	errno = saved;
}

typedef struct job {
	bool from_error_state;
	bool foreground;
	int64_t ran_ms, late_ms;  /* the running message's time; the queue head's lateness */
	uint64_t token, cur_ms;
	char *scene, *thread_stack;
	uint64_t *events;
	size_t n;
	block_ctx blk;            /* cfg.block_context */
} job;

static void drop_job(void *arg)
{
	job *j = arg;
	free(j->scene);
	free(j->thread_stack);
	free(j->events);
	free(j);
}

static void report(tc_ctx *ctx, void *arg)
{
	job *jb = arg;
	tc_stack st = { 0 };
	if (jb->n && ctx_analyse_events(&st, jb->events, jb->n, true, jb->cur_ms) != TC_RT_OK)
		st.len = 0;
	char *stack = NULL, *logcat = NULL;
	int64_t cost = tc_stack_format(&st, &stack, &logcat);
	if (jb->ran_ms > cost)
		cost = jb->ran_ms;
	char key[32];
	tc_stack_key(&st, cost, key, sizeof key);
	tc_buf blk;
	buf_init(&blk);
	if (ctx->cfg.block_context)
		block_text(&blk, &jb->blk, NULL);
	ctx_log(ctx, TC_LOG_WARN, "Matrix.SignalAnrTracer",
	        "SIGQUIT: ANR confirmed (%s): message ran %lld ms, queue head late %lld ms\n%s%s",
	        jb->from_error_state ? "process error state" : "main thread blocked", (long long)jb->ran_ms,
	        (long long)jb->late_ms, blk.str ? blk.str : "", jb->thread_stack ? jb->thread_stack : "");
	buf_free(&blk);
	json j;
	json_init(&j);
	report_begin(ctx, &j);
	json_kv_string(&j, "detail", "SIGNAL_ANR");
	json_kv_int(&j, "cost", cost);
	json_kv_string(&j, "stackKey", key);
	json_kv_string(&j, "scene", jb->scene ? jb->scene : "");
	json_kv_string(&j, "stack", stack ? stack : "");
	json_kv_string(&j, "threadStack", jb->thread_stack ? jb->thread_stack : "");
	json_kv_int(&j, "anrMessageLateMs", jb->late_ms);
	json_kv_bool(&j, "fromProcessErrorState", jb->from_error_state);
	json_kv_bool(&j, "isProcessForeground", jb->foreground);
	if (ctx->cfg.block_context)
		block_json(&j, &jb->blk, NULL);
	char token[24];
	snprintf(token, sizeof token, "%" PRIu64, jb->token);
	report_send(ctx, &j, "Trace_EvilMethod", jb->token ? token : "");
	free(stack);
	free(logcat);
	tc_stack_dispose(&st);
}

/* The thread named "Signal Catcher" (ART's), 0 if none. */
static uint32_t find_catcher(void)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return 0;
	uint32_t tid = 0;
	struct dirent *e;
	while (!tid && (e = readdir(d)) != NULL) {
		char path[sizeof "/proc/self/task//comm" + sizeof e->d_name], name[32];
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue; /* the thread ended */
		ssize_t n = read(fd, name, sizeof name - 1);
		close(fd);
		if (n <= 0)
			continue;
		name[n] = '\0';
		name[strcspn(name, "\n")] = '\0';
		if (strcmp(name, "Signal Catcher") == 0)
			tid = (uint32_t)strtoul(e->d_name, NULL, 10);
	}
	closedir(d);
	return tid;
}

/* Resend mode: one SIGQUIT the handler took goes on to the platform's
 * catcher, before the check, so its dump is not delayed by ours. */
static void resend(signal_anr *s)
{
	if (!g_resend)
		return;
#if defined(__linux__) && defined(SYS_tgkill)
	uint32_t tid = find_catcher();
	atomic_store(&g_catcher, tid);
	if (tid && syscall(SYS_tgkill, (long)getpid(), (long)tid, (long)SIGQUIT) == 0)
		return;
#endif
	if (s->unsent++ == 0)
		ctx_log(s->ctx, TC_LOG_WARN, "Matrix.SignalAnrTracer",
		        "SIGQUIT: no \"Signal Catcher\" thread to re-send it to: the platform's dump is not written");
}

/* Waits up to ms for the pipe: -1 told to stop (a 0 byte or EOF), 1 a
 * SIGQUIT came (it joins the check under way), 0 the time passed. */
static int wait_pipe(signal_anr *s, int ms)
{
	struct pollfd p = { .fd = s->rfd, .events = POLLIN };
	int r = poll(&p, 1, ms);
	if (r <= 0)
		return 0;
	char b;
	ssize_t got = read(s->rfd, &b, 1);
	if (got != 1 || b == 0 || atomic_load(&s->stopping))
		return -1;
	resend(s);
	return 1;
}

/* The check of one SIGQUIT; false once told to stop. The main thread is
 * judged at the SIGQUIT; while the error state is polled (Matrix), only a
 * new SIGQUIT has it judged again: a thread that blocks later, with no
 * signal, is not this SIGQUIT's ANR. */
static bool check(signal_anr *s)
{
	tc_ctx *ctx = s->ctx;
	if (!ctx_started(ctx)) {
		ctx_log(ctx, TC_LOG_INFO, "Matrix.SignalAnrTracer", "SIGQUIT while not started: not checked");
		return true;
	}
	const tc_probe *pr = &ctx->cfg.probe;
	uint32_t steps = pr->error_state && ctx->cfg.signal_anr_checks ? ctx->cfg.signal_anr_checks : 1;
	bool fg = false, running = false, blocked = false, from_err = false;
	int64_t threshold = 0, ran_ms = 0, late_ms = INT64_MIN;
	uint64_t now_ns = 0, state = 0, mark = 0;
	bool look = true;
	for (uint32_t k = 0; k < steps; k++) {
		if (k > 0) {
			int w = wait_pipe(s, (int)ctx->cfg.signal_anr_check_ms);
			if (w < 0)
				return false;
			look = w > 0;
		}
		if (look) {
			fg = atomic_load(&ctx->foreground);
			threshold = fg ? ctx->cfg.signal_anr_fg_ms : ctx->cfg.signal_anr_bg_ms;
			now_ns = ctx_clock_ns(ctx);
			/* the running message, as the ANR watchdog reads it (context.h: a seqlock) */
			state = atomic_load_explicit(&ctx->msg_state, memory_order_acquire);
			uint64_t begin_ns = atomic_load_explicit(&ctx->msg_begin_ns, memory_order_relaxed);
			mark = atomic_load_explicit(&ctx->msg_mark, memory_order_relaxed);
			atomic_thread_fence(memory_order_acquire);
			running = (state & 1) && atomic_load_explicit(&ctx->msg_state, memory_order_relaxed) == state;
			ran_ms = running && now_ns > begin_ns ? (int64_t)((now_ns - begin_ns) / 1000000u) : 0;
			late_ms = pr->queue_head_late_ms ? pr->queue_head_late_ms(pr->user) : INT64_MIN;
			blocked = ran_ms >= threshold || (late_ms != INT64_MIN && late_ms >= threshold);
			if (blocked || !pr->error_state)
				break;
		}
		int e = pr->error_state(pr->user);
		if (e > 0) {
			from_err = true;
			break;
		}
		if (e < 0) {
			ctx_log(ctx, TC_LOG_INFO, "Matrix.SignalAnrTracer", "SIGQUIT: another process is not responding");
			return true;
		}
	}
	if (!blocked && !from_err) {
		ctx_log(ctx, TC_LOG_INFO, "Matrix.SignalAnrTracer",
		        "SIGQUIT: the main thread is not blocked (message %lld ms, queue head %lld ms late; %s: %lld ms): "
		        "no ANR",
		        (long long)ran_ms, late_ms == INT64_MIN ? -1LL : (long long)late_ms,
		        fg ? "foreground" : "background", (long long)threshold);
		return true;
	}
	job *jb = calloc(1, sizeof *jb);
	if (!jb)
		return true;
	jb->from_error_state = from_err;
	jb->foreground = fg;
	jb->ran_ms = ran_ms;
	jb->late_ms = late_ms == INT64_MIN ? 0 : late_ms;
	jb->token = running ? state >> 1 : 0;
	jb->cur_ms = ctx_ms(ctx, now_ns);
	jb->scene = ctx_scene(ctx);
	jb->thread_stack = procinfo_thread_stack(ctx, 1);
	/* why the main thread is stuck: its CPU and GC since the message began */
	block_end(ctx, jb->token, now_ns, &jb->blk);
	if (running) {
		tc_rt_error err = { 0 };
		if (tc_copy_since(ctx, (tc_index){ mark }, &jb->events, &jb->n, &err) != TC_RT_OK)
			ctx_log(ctx, TC_LOG_WARN, "Matrix.SignalAnrTracer", "no recorded stack: %s", err.message);
	}
	task_queue_post(&ctx->tasks, 0, 0, report, drop_job, jb);
	return true;
}

static void *watch(void *arg)
{
	signal_anr *s = arg;
	os_thread_identify("tc-signal-anr", 0);
	for (;;) {
		char b;
		ssize_t r = read(s->rfd, &b, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1 || b == 0 || atomic_load(&s->stopping))
			break;
		resend(s);
		/* several SIGQUITs at once make one check (each is re-sent) */
		while (poll(&(struct pollfd){ .fd = s->rfd, .events = POLLIN }, 1, 0) == 1) {
			if (read(s->rfd, &b, 1) != 1 || b == 0)
				return NULL;
			resend(s);
		}
		bool go_on = check(s);
		atomic_fetch_add_explicit(&s->handled, 1, memory_order_release);
		if (!go_on)
			break;
	}
	return NULL;
}

/* Whether SIGQUIT's disposition is our handler, as read back. */
static bool handler_in_place(void)
{
	struct sigaction cur;
	memset(&cur, 0, sizeof cur); /* a sigaction that fills nothing in reads as SIG_DFL */
	return sigaction(SIGQUIT, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sigquit;
}

static void close_pipe(signal_anr *s)
{
	if (s->rfd >= 0)
		close(s->rfd);
	if (s->wfd >= 0)
		close(s->wfd);
	s->rfd = s->wfd = -1;
}

static int signal_install(tc_ctx *ctx, tc_rt_error *err)
{
	signal_anr *s = calloc(1, sizeof *s);
	if (!s)
		return tc_rt_set(err, TC_RT_ENOMEM, "signal ANR");
	s->ctx = ctx;
	s->rfd = s->wfd = -1;
	int fds[2];
	if (pipe(fds) != 0) {
		free(s);
		return tc_rt_set(err, TC_RT_EIO, "signal ANR: pipe: %s", strerror(errno));
	}
	s->rfd = fds[0];
	s->wfd = fds[1];
	/* the handler must never block: a full pipe already has a check coming */
	if (fcntl(s->wfd, F_SETFL, O_NONBLOCK) != 0 || fcntl(s->rfd, F_SETFD, FD_CLOEXEC) != 0 ||
	    fcntl(s->wfd, F_SETFD, FD_CLOEXEC) != 0) {
		close_pipe(s);
		free(s);
		return tc_rt_set(err, TC_RT_EIO, "signal ANR: fcntl: %s", strerror(errno));
	}
	pthread_mutex_lock(&g_mu);
	int rc = TC_RT_OK;
	bool ignored = false;
	if (atomic_load(&g_wfd) >= 0) {
		rc = tc_rt_set(err, TC_RT_ESTATE, "signal ANR: another context has the SIGQUIT handler");
	} else if (!g_installed) {
		/* this thread's alternate stack, unless it has one */
		stack_t cur;
		if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
			stack_t ss = { .ss_sp = g_altstack, .ss_size = sizeof g_altstack, .ss_flags = 0 };
			sigaltstack(&ss, NULL);
		}
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_sigquit;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		/* blocked here with no handler to chain to: the platform waits for
		 * it with sigwait (ART), and its default would end the process. A
		 * sigaction that fills nothing in (sigchain ignoring app handlers)
		 * leaves the zeros: SIG_DFL. */
		struct sigaction old;
		memset(&old, 0, sizeof old);
		sigset_t mask;
		if (sigaction(SIGQUIT, NULL, &old) == 0 && pthread_sigmask(SIG_BLOCK, NULL, &mask) == 0)
			g_resend = !(old.sa_flags & SA_SIGINFO) &&
			           (old.sa_handler == SIG_DFL || old.sa_handler == SIG_IGN) &&
			           sigismember(&mask, SIGQUIT) == 1;
		g_old = old;
		g_installer = pthread_self();
		if (sigaction(SIGQUIT, &sa, NULL) != 0)
			rc = tc_rt_set(err, TC_RT_EIO, "signal ANR: sigaction: %s", strerror(errno));
		else if (!handler_in_place())
			ignored = true;
		else
			g_installed = true;
	}
	if (ignored) {
		/* nothing to unblock SIGQUIT for, nor to watch */
		pthread_mutex_unlock(&g_mu);
		close_pipe(s);
		free(s);
		ctx_log(ctx, TC_LOG_WARN, "Matrix.SignalAnrTracer",
		        "the SIGQUIT handler was not installed (sigaction succeeded, but the disposition is not ours: the "
		        "platform ignores app signal handlers, e.g. debug.ignoreappsignalhandler): signal ANR off");
		return TC_RT_OK;
	}
	if (rc == TC_RT_OK && pthread_create(&s->thread, NULL, watch, s) != 0)
		rc = tc_rt_set(err, TC_RT_ETHREAD, "signal ANR: watcher thread");
	if (rc == TC_RT_OK) {
		s->running = true;
		atomic_store(&g_wfd, s->wfd);
		/* and where it is blocked, this thread takes it (as Matrix's does) */
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGQUIT);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	}
	pthread_mutex_unlock(&g_mu);
	if (rc != TC_RT_OK) {
		close_pipe(s);
		free(s);
		return rc;
	}
	ctx->sig = s;
	return TC_RT_OK;
}

static void signal_uninstall(tc_ctx *ctx)
{
	signal_anr *s = ctx->sig;
	if (!s)
		return;
	pthread_mutex_lock(&g_mu);
	atomic_store(&g_wfd, -1);
	/* a handler that read the old descriptor finishes with it first */
	while (atomic_load(&g_in_handler) != 0)
		sched_yield();
	/* The handler stays if another was installed over it (it chains to
	 * us): it then only chains. In resend mode it stays for good: every
	 * thread started while SIGQUIT was unblocked on the installing thread
	 * has it unblocked too, and the old SIG_DFL would end the process on
	 * any of them. It then sends each SIGQUIT on to the catcher itself.
	 * The installing thread, if this is it, blocks SIGQUIT again. */
	if (g_installed && g_resend) {
		uint32_t tid = find_catcher();
		if (tid)
			atomic_store(&g_catcher, tid);
		if (pthread_equal(g_installer, pthread_self())) {
			sigset_t quit;
			sigemptyset(&quit);
			sigaddset(&quit, SIGQUIT);
			pthread_sigmask(SIG_BLOCK, &quit, NULL);
		}
	} else if (g_installed && handler_in_place() && sigaction(SIGQUIT, &g_old, NULL) == 0) {
		g_installed = false;
	}
	pthread_mutex_unlock(&g_mu);
	atomic_store(&s->stopping, true);
	char stop = 0;
	while (write(s->wfd, &stop, 1) < 0 && errno == EINTR)
		; /* EAGAIN: the pipe is full, so the watcher wakes and sees stopping */
	if (s->running)
		pthread_join(s->thread, NULL);
	close_pipe(s);
	free(s);
	ctx->sig = NULL;
}

uint64_t tc_signal_anr_handled(const tc_ctx *ctx)
{
	return ctx->sig ? atomic_load_explicit(&ctx->sig->handled, memory_order_acquire) : 0;
}

/* installed once per context: tc_reconfigure keeps a handler in place */
static int signal_start(tc_ctx *ctx, const tc_config *cfg, tc_rt_error *err)
{
	(void)cfg;
	return ctx->sig ? TC_RT_OK : signal_install(ctx, err);
}

const tracer_ops tracer_signal = {
	.tag = "Matrix.SignalAnrTracer", .what = "signal ANR", .bit = TC_TRACER_SIGNAL_ANR,
	.start = signal_start, .stop = signal_uninstall,
};

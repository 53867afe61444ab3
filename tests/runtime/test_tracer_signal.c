/* SignalAnrTracer: real SIGQUITs (raise), the injected clock and probes.
 * The handler must chain to the one before it (here, the test's); on ART
 * (simulated: SIGQUIT blocked, a "Signal Catcher" thread in sigwait) it
 * re-sends the signal to that thread instead. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

/* Linked with --wrap=sigaction (meson.build): every sigaction of the runtime
 * and of this file comes here. With ignore_app_handlers set it does what
 * ART's sigchain does under debug.ignoreappsignalhandler: returns 0,
 * installs nothing and fills nothing in. */
int __real_sigaction(int sig, const struct sigaction *sa, struct sigaction *old);
int __wrap_sigaction(int sig, const struct sigaction *sa, struct sigaction *old);
static _Atomic bool ignore_app_handlers;

int __wrap_sigaction(int sig, const struct sigaction *sa, struct sigaction *old)
{
	if (atomic_load(&ignore_app_handlers))
		return 0;
	return __real_sigaction(sig, sa, old);
}

static fake f;
static tc_ctx *ctx;
static tc_config cfg;
static volatile sig_atomic_t chained;
static int64_t late = INT64_MIN;
static int states[8], n_states;
static _Atomic int state_calls;
static struct sigaction before;

static void previous_handler(int sig)
{
	(void)sig;
	chained++;
}

static int64_t head_late(void *user)
{
	(void)user;
	return late;
}

static int error_state(void *user)
{
	(void)user;
	int k = state_calls++;
	return k < n_states ? states[k] : 0;
}

static void setup(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = previous_handler;
	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGQUIT, &sa, &before), 0);
	fake_config(&cfg, &f);
	cfg.tracers = TC_TRACER_SIGNAL_ANR;
	cfg.signal_anr_checks = 3;
	cfg.signal_anr_check_ms = 1;
}

static void start(void)
{
	cr_assert_eq(fake_start(&ctx, &cfg), TC_RT_OK);
}

static void teardown(void)
{
	fake_end(&ctx, &f);
	sigaction(SIGQUIT, &before, NULL);
}

TestSuite(tracer_signal, .init = setup, .fini = teardown);

/* raises SIGQUIT and waits (10 s at most) for the watcher to finish its check */
static void sigquit(void)
{
	uint64_t had = tc_signal_anr_handled(ctx);
	cr_assert_eq(raise(SIGQUIT), 0);
	for (int k = 0; k < 10000 && tc_signal_anr_handled(ctx) == had; k++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	cr_assert_eq(tc_signal_anr_handled(ctx), had + 1, "the watcher did not check the SIGQUIT");
}

Test(tracer_signal, a_blocked_main_thread_gives_the_report_and_the_old_handler_still_runs)
{
	start();
	tc_dispatch_begin(ctx);
	rec_in(ctx, 200);
	fake_advance_ms(&f, 2500);
	sigquit();
	cr_assert_eq(chained, 1, "the previous handler must run");
	cr_assert_eq(f.n_reports, 1);
	cr_assert_str_eq(f.reports[0].tag, "Trace_EvilMethod");
	cr_assert_str_eq(f.reports[0].key, "1");
	cr_assert_str_eq(f.reports[0].json,
	                 "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"mem_free\":1024,"
	                 "\"detail\":\"SIGNAL_ANR\",\"cost\":2500,\"stackKey\":\"200|\",\"scene\":\"default\","
	                 "\"stack\":\"0,1048574,1,2500\\n1,200,1,2500\\n\","
	                 "\"threadStack\":\" \\n|*\\t\\tat Main:run(1)\\n\",\"anrMessageLateMs\":0,"
	                 "\"fromProcessErrorState\":false,\"isProcessForeground\":true,"
	                 "\"tag\":\"Trace_EvilMethod\",\"process\":\"com.example.app\",\"time\":1700000000000}");
	cr_assert(strstr(f.logs, "ANR confirmed (main thread blocked): message ran 2500 ms"));
	tc_dispatch_end(ctx);
}

static void fake_cpu(void *user, uint32_t tid, int64_t *thread_ns, int64_t *runq_ns, int64_t *process_ns)
{
	(void)user; (void)tid;
	static int64_t calls;
	/* the end sample: 100 ms of CPU since the start, no wait */
	*thread_ns = calls++ ? 100000000 : 0;
	*runq_ns = 0;
	*process_ns = 0;
}

/* With the block context, the signal ANR's report says why the main thread is
 * stuck, as the watchdog's ANR report does: here, it computed 100 ms of 2.5 s. */
Test(tracer_signal, the_report_has_the_block_context)
{
	cfg.block_context = true;
	cfg.probe.cpu_ns = fake_cpu;
	start();
	tc_dispatch_begin(ctx);
	tc_ctx_poll(ctx); /* the clock thread's first tick samples the message's start */
	rec_in(ctx, 200);
	fake_advance_ms(&f, 2500);
	sigquit();
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"isProcessForeground\":true,\"usage\":\"4.00%\",\"blockContext\":{"
	                                    "\"why\":\"ran 4% of the time: blocked; GC unknown\",\"cause\":\"blocked\","
	                                    "\"sampledMs\":2500,\"threadCpuMs\":100,"),
	          "%s", f.reports[0].json);
	cr_assert(!strstr(f.reports[0].json, "viewPhases"), "no view phases while the message runs");
	cr_assert(strstr(f.logs, "|* [Block]\n|*\t\tran 4% of the time: blocked; GC unknown\n"), "%s", f.logs);
	tc_dispatch_end(ctx);
}

Test(tracer_signal, a_healthy_main_thread_gives_no_report)
{
	start();
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 1999);
	sigquit();
	tc_dispatch_end(ctx);
	fake_advance_ms(&f, 60000); /* idle, not blocked: a message that is not running */
	sigquit();
	cr_assert_eq(chained, 2);
	cr_assert_eq(f.n_reports, 0);
	cr_assert(strstr(f.logs, "the main thread is not blocked (message 1999 ms"));
	cr_assert(strstr(f.logs, "the main thread is not blocked (message 0 ms"));
}

Test(tracer_signal, in_the_background_the_threshold_is_10_s)
{
	start();
	tc_set_foreground(ctx, false);
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 9999);
	sigquit();
	cr_assert_eq(f.n_reports, 0);
	fake_advance_ms(&f, 1);
	sigquit();
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"cost\":10000,"));
	cr_assert(strstr(f.reports[0].json, "\"isProcessForeground\":false"));
	tc_dispatch_end(ctx);
}

Test(tracer_signal, a_late_queue_head_is_a_blocked_main_thread)
{
	cfg.probe.queue_head_late_ms = head_late;
	start();
	late = 1999;
	sigquit();
	cr_assert_eq(f.n_reports, 0);
	late = 3000;
	sigquit();
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"anrMessageLateMs\":3000,\"fromProcessErrorState\":false"));
	cr_assert_str_eq(f.reports[0].key, "", "no message runs: no token");
}

Test(tracer_signal, the_error_state_confirms_when_the_thread_is_not_blocked)
{
	cfg.probe.error_state = error_state;
	start();
	states[0] = 0;
	states[1] = 1;
	n_states = 2;
	sigquit();
	cr_assert_eq(state_calls, 2);
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"fromProcessErrorState\":true"));
}

Test(tracer_signal, another_process_not_responding_ends_the_check)
{
	cfg.probe.error_state = error_state;
	start();
	states[0] = -1;
	n_states = 1;
	sigquit();
	cr_assert_eq(state_calls, 1);
	cr_assert_eq(f.n_reports, 0);
	cr_assert(strstr(f.logs, "another process is not responding"));
}

Test(tracer_signal, the_error_state_is_polled_a_bounded_number_of_times)
{
	cfg.probe.error_state = error_state;
	start();
	sigquit();
	cr_assert_eq(state_calls, 3);
	cr_assert_eq(f.n_reports, 0);
}

Test(tracer_signal, not_started_is_not_checked)
{
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_RT_OK);
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 5000);
	sigquit();
	cr_assert_eq(f.n_reports, 0);
	cr_assert_eq(chained, 1);
	tc_dispatch_end(ctx);
}

Test(tracer_signal, one_context_at_a_time_and_the_old_handler_is_put_back)
{
	start();
	tc_ctx *other = NULL;
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&other, &cfg, &err), TC_RT_ESTATE);
	cr_assert(strstr(err.message, "another context has the SIGQUIT handler"));
	cr_assert_null(other);
	tc_ctx_free(ctx);
	ctx = NULL;
	struct sigaction cur;
	cr_assert_eq(sigaction(SIGQUIT, NULL, &cur), 0);
	cr_assert(!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == previous_handler);
	raise(SIGQUIT);
	cr_assert_eq(chained, 1);
	/* and a new context can have it again */
	start();
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 2000);
	sigquit();
	cr_assert_eq(f.n_reports, 1);
	cr_assert_eq(chained, 2);
	tc_dispatch_end(ctx);
}

Test(tracer_signal, reconfigure_installs_and_removes_it)
{
	cfg.tracers = TC_TRACER_ANR;
	start();
	struct sigaction cur;
	cr_assert_eq(sigaction(SIGQUIT, NULL, &cur), 0);
	cr_assert(cur.sa_handler == previous_handler, "not installed without the bit");
	tc_stop(ctx);
	cfg.tracers = TC_TRACER_SIGNAL_ANR;
	cr_assert_eq(tc_reconfigure(ctx, &cfg, NULL), TC_RT_OK);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 2000);
	sigquit();
	cr_assert_eq(f.n_reports, 1);
	cr_assert_eq(chained, 1);
	tc_dispatch_end(ctx);
	tc_stop(ctx);
	cfg.tracers = 0;
	cr_assert_eq(tc_reconfigure(ctx, &cfg, NULL), TC_RT_OK);
	cr_assert_eq(sigaction(SIGQUIT, NULL, &cur), 0);
	cr_assert(!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == previous_handler, "removed");
}

/* A SIGQUIT while the error state is being polled makes the check look at
 * the main thread again at once: now blocked, one report, one check. */
Test(tracer_signal, a_thread_that_blocks_after_a_healthy_sigquit_is_not_its_anr)
{
	cfg.probe.error_state = error_state;
	cfg.signal_anr_checks = 30;
	cfg.signal_anr_check_ms = 5;
	start();
	uint64_t had = tc_signal_anr_handled(ctx);
	cr_assert_eq(raise(SIGQUIT), 0);
	for (int k = 0; k < 10000 && atomic_load(&state_calls) == 0; k++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 3000);
	for (int k = 0; k < 10000 && tc_signal_anr_handled(ctx) == had; k++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	cr_assert_eq(tc_signal_anr_handled(ctx), had + 1);
	cr_assert_eq(atomic_load(&state_calls), 30, "polled to the end");
	cr_assert_eq(f.n_reports, 0);
	tc_dispatch_end(ctx);
}

Test(tracer_signal, a_sigquit_during_the_polling_looks_again)
{
	cfg.probe.error_state = error_state;
	cfg.signal_anr_checks = 1000;
	cfg.signal_anr_check_ms = 20;
	start();
	uint64_t had = tc_signal_anr_handled(ctx);
	cr_assert_eq(raise(SIGQUIT), 0);
	for (int k = 0; k < 10000 && atomic_load(&state_calls) == 0; k++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	cr_assert_geq(atomic_load(&state_calls), 1, "polling the error state");
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 3000);
	sigquit();
	cr_assert_eq(tc_signal_anr_handled(ctx), had + 1, "the second SIGQUIT joined the first check");
	cr_assert_eq(f.n_reports, 1);
	cr_assert(strstr(f.reports[0].json, "\"cost\":3000,"));
	cr_assert(strstr(f.reports[0].json, "\"fromProcessErrorState\":false"));
	nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	cr_assert_eq(tc_signal_anr_handled(ctx), had + 1, "and no other check");
	tc_dispatch_end(ctx);
}

/* ART, on Linux: SIGQUIT blocked in every thread (here, before any is
 * made), the disposition left SIG_DFL, and a thread named "Signal Catcher"
 * taking it with sigwait. The default action would end the test's process. */
static pthread_t catcher;
static bool has_catcher;
static _Atomic int caught;
static _Atomic bool named;
static sigset_t mask_before;

static void *signal_catcher(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "Signal Catcher", 0, 0, 0);
	atomic_store(&named, true);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGUSR1); /* the end of the test */
	int sig;
	while (sigwait(&set, &sig) == 0 && sig == SIGQUIT)
		caught++;
	return NULL;
}

static void art_setup(void)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	cr_assert_eq(sigaction(SIGQUIT, &dfl, &before), 0);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGUSR1);
	cr_assert_eq(pthread_sigmask(SIG_BLOCK, &set, &mask_before), 0);
	fake_config(&cfg, &f);
	cfg.tracers = TC_TRACER_SIGNAL_ANR;
	cfg.signal_anr_checks = 3;
	cfg.signal_anr_check_ms = 1;
}

static void start_catcher(void)
{
	cr_assert_eq(pthread_create(&catcher, NULL, signal_catcher, NULL), 0);
	has_catcher = true;
	for (int k = 0; k < 10000 && !atomic_load(&named); k++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
}

static void art_teardown(void)
{
	fake_end(&ctx, &f);
	if (has_catcher) {
		pthread_kill(catcher, SIGUSR1);
		pthread_join(catcher, NULL);
	}
	pthread_sigmask(SIG_SETMASK, &mask_before, NULL);
	sigaction(SIGQUIT, &before, NULL);
}

TestSuite(tracer_signal_art, .init = art_setup, .fini = art_teardown);

/* kill (to the process, as the system and kill -3 send it) and waits, 10 s
 * at most, for the watcher's check and for the catcher to have n in all */
static void kill_quit(int n)
{
	uint64_t had = tc_signal_anr_handled(ctx);
	cr_assert_eq(kill(getpid(), SIGQUIT), 0);
	for (int k = 0; k < 10000 && (tc_signal_anr_handled(ctx) == had || (has_catcher && caught < n)); k++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	cr_assert_eq(tc_signal_anr_handled(ctx), had + 1, "the watcher did not check the SIGQUIT");
	nanosleep(&(struct timespec){ 0, 20000000 }, NULL); /* room for a second one, which must not come */
	cr_assert_eq(caught, n, "the catcher takes each SIGQUIT once");
}

Test(tracer_signal_art, a_sigquit_goes_on_to_the_signal_catcher_and_is_still_checked)
{
	start_catcher();
	start();
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 1999);
	kill_quit(1);
	tc_dispatch_end(ctx);
	kill_quit(2);
	cr_assert_eq(f.n_reports, 0);
	cr_assert(strstr(f.logs, "the main thread is not blocked (message 1999 ms"));
	/* freed on the thread that unblocked it: blocked again; the handler
	 * stays (threads started meanwhile have SIGQUIT unblocked), never SIG_DFL */
	tc_ctx_free(ctx);
	ctx = NULL;
	sigset_t cur;
	cr_assert_eq(pthread_sigmask(SIG_BLOCK, NULL, &cur), 0);
	cr_assert_eq(sigismember(&cur, SIGQUIT), 1);
	struct sigaction sa;
	cr_assert_eq(sigaction(SIGQUIT, NULL, &sa), 0);
	cr_assert(sa.sa_handler != SIG_DFL, "the default action (the end of the process) is not put back");
	cr_assert_eq(kill(getpid(), SIGQUIT), 0);
	for (int k = 0; k < 10000 && caught < 3; k++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	cr_assert_eq(caught, 3, "the catcher takes it, once");
}

/* debug.ignoreappsignalhandler: sigaction "succeeds" and nothing is
 * installed. SIGQUIT must stay blocked on the installing thread, or a
 * SIGQUIT would find SIG_DFL there and end the process. */
Test(tracer_signal_art, a_platform_that_ignores_app_handlers_leaves_sigquit_blocked)
{
	start_catcher();
	atomic_store(&ignore_app_handlers, true);
	cr_assert_eq(tc_ctx_new(&ctx, &cfg, NULL), TC_RT_OK, "the runtime still starts, without signal ANR");
	atomic_store(&ignore_app_handlers, false);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	sigset_t cur;
	cr_assert_eq(pthread_sigmask(SIG_BLOCK, NULL, &cur), 0);
	cr_assert_eq(sigismember(&cur, SIGQUIT), 1, "SIGQUIT still blocked: nothing would take it but SIG_DFL");
	cr_assert(strstr(f.logs, "the SIGQUIT handler was not installed"), "a warning says so: %s", f.logs);
	struct sigaction sa;
	cr_assert_eq(sigaction(SIGQUIT, NULL, &sa), 0);
	cr_assert(!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL, "and nothing was installed");
	cr_assert_eq(kill(getpid(), SIGQUIT), 0);
	for (int k = 0; k < 10000 && caught < 1; k++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	cr_assert_eq(caught, 1, "the process lives and the catcher has the SIGQUIT");
	cr_assert_eq(tc_signal_anr_handled(ctx), 0);
}

static int thread_pipe[2];

/* a thread of the app: it waits, with the signal mask it was born with */
static void *app_thread(void *arg)
{
	(void)arg;
	char b;
	while (read(thread_pipe[0], &b, 1) < 0)
		;
	return NULL;
}

/* A thread started while the handler was installed inherits SIGQUIT
 * unblocked from the installing thread. After tc_ctx_free a SIGQUIT sent
 * to it must still reach the catcher, not SIG_DFL (the end of the process). */
Test(tracer_signal_art, a_thread_started_while_installed_survives_a_sigquit_after_free)
{
	start_catcher();
	start();
	cr_assert_eq(pipe(thread_pipe), 0);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, app_thread, NULL), 0);
	tc_ctx_free(ctx);
	ctx = NULL;
	cr_assert_eq(pthread_kill(t, SIGQUIT), 0);
	for (int k = 0; k < 10000 && caught < 1; k++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	cr_assert_eq(caught, 1, "the handler sent it on to the catcher");
	/* and a new context takes the handler over again */
	start();
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 2500);
	kill_quit(2);
	cr_assert_eq(f.n_reports, 1);
	tc_dispatch_end(ctx);
	cr_assert_eq(write(thread_pipe[1], "x", 1), 1);
	pthread_join(t, NULL);
	close(thread_pipe[0]);
	close(thread_pipe[1]);
}

Test(tracer_signal_art, a_blocked_main_thread_gives_the_report_and_the_catcher_its_sigquit)
{
	start_catcher();
	start();
	tc_dispatch_begin(ctx);
	rec_in(ctx, 200);
	fake_advance_ms(&f, 2500);
	kill_quit(1);
	cr_assert_eq(f.n_reports, 1);
	cr_assert_str_eq(f.reports[0].tag, "Trace_EvilMethod");
	cr_assert(strstr(f.reports[0].json, "\"detail\":\"SIGNAL_ANR\",\"cost\":2500,\"stackKey\":\"200|\""));
	cr_assert(strstr(f.logs, "ANR confirmed (main thread blocked): message ran 2500 ms"));
	tc_dispatch_end(ctx);
}

Test(tracer_signal_art, with_no_signal_catcher_a_sigquit_does_not_end_the_process)
{
	start();
	tc_dispatch_begin(ctx);
	fake_advance_ms(&f, 3000);
	kill_quit(0);
	kill_quit(0);
	cr_assert_eq(f.n_reports, 2, "still checked");
	const char *said = strstr(f.logs, "no \"Signal Catcher\" thread to re-send it to");
	cr_assert(said);
	cr_assert_null(strstr(said + 1, "no \"Signal Catcher\""), "said once");
	tc_dispatch_end(ctx);
}

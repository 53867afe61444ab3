/* The runtime's own threads, with threads on and the real clock: their names
 * and priorities, what they cost while the app is idle and while it is busy
 * (counted as context switches, each a wake-up), and that a report file or
 * listener that blocks holds up neither the recording thread nor the
 * watchdog. Linux only: it reads /proc/self/task. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "helpers.h"

static tc_ctx *ctx;

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
}

TestSuite(threads, .fini = teardown);

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void spin_ms(long ms)
{
	uint64_t end = mono_ms() + (uint64_t)ms;
	while (mono_ms() < end)
		;
}

typedef struct task_info {
	int tid;
	long nice;
	char state;
	long switches; /* voluntary + involuntary: each one ends a run, so a wake-up follows */
} task_info;

/* The thread of this process named name (comm), or tid 0. */
static task_info task_named(const char *name)
{
	task_info t = { 0 };
	DIR *d = opendir("/proc/self/task");
	cr_assert_not_null(d, "/proc/self/task: %s", strerror(errno));
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[300], buf[1024];
		snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		char *ok = fgets(buf, sizeof buf, f);
		fclose(f);
		if (!ok || strncmp(buf, name, strlen(name)) != 0 || buf[strlen(name)] != '\n')
			continue;
		t.tid = atoi(e->d_name);
		snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
		if ((f = fopen(path, "r"))) {
			if (fgets(buf, sizeof buf, f)) {
				/* proc(5): state is field 3, nice field 19 (16 after the state) */
				char *p = strrchr(buf, ')');
				long v[17] = { 0 };
				char *save = NULL, *tok = strtok_r(p + 2, " ", &save);
				t.state = tok ? tok[0] : '?';
				for (int i = 0; i < 17 && (tok = strtok_r(NULL, " ", &save)); i++)
					v[i] = strtol(tok, NULL, 10);
				t.nice = v[15];
			}
			fclose(f);
		}
		snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
		if ((f = fopen(path, "r"))) {
			while (fgets(buf, sizeof buf, f)) {
				long n;
				if (sscanf(buf, "voluntary_ctxt_switches: %ld", &n) == 1 ||
				    sscanf(buf, "nonvoluntary_ctxt_switches: %ld", &n) == 1)
					t.switches += n;
			}
			fclose(f);
		}
		break;
	}
	closedir(d);
	return t;
}

/* Both runtime threads exist and have gone to sleep for good: asleep, and
 * not woken for 5 ms (the clock thread may still be in the sleep between two
 * ticks, which ends in a last tick that finds the message over). */
static void await_parked(void)
{
	task_info c0 = { 0 }, t0 = { 0 };
	for (int i = 0; i < 400; i++) {
		task_info c = task_named("tc-clock"), t = task_named("tc-tracer");
		if (c.tid && t.tid && c.state == 'S' && t.state == 'S' && c.switches == c0.switches &&
		    t.switches == t0.switches)
			return;
		c0 = c;
		t0 = t;
		sleep_ms(5);
	}
	cr_assert(0, "the runtime threads did not start and go to sleep");
}

static void open_threaded(tc_config *c)
{
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_ctx_new(&ctx, c, &err), TC_RT_OK, "%s", err.message);
	await_parked();
}

static void quiet_config(tc_config *c)
{
	tc_config_init(c);
	c->capacity = 4096;
}

Test(threads, named_and_not_above_ordinary_priority)
{
	/* a boosted main thread, as Android's UI thread can be; unprivileged, the
	 * test runs at the niceness it has */
	errno = 0;
	int main_nice = getpriority(PRIO_PROCESS, 0);
	setpriority(PRIO_PROCESS, 0, -5);
	int boosted = getpriority(PRIO_PROCESS, 0);
	tc_config c;
	quiet_config(&c);
	open_threaded(&c);
	setpriority(PRIO_PROCESS, 0, main_nice);
	task_info clk = task_named("tc-clock"), trc = task_named("tc-tracer");
	cr_assert_neq(clk.tid, 0, "the clock thread is named tc-clock");
	cr_assert_neq(trc.tid, 0, "the tracer thread is named tc-tracer");
	cr_log_info("creator nice %d; tc-clock nice %ld, tc-tracer nice %ld", boosted, clk.nice, trc.nice);
	cr_assert_geq(clk.nice, 0, "the clock thread does not keep the creator's boost (%ld)", clk.nice);
	cr_assert_geq(clk.nice, boosted);
	cr_assert_geq(trc.nice, 10, "the tracer thread runs in the background (%ld)", trc.nice);
}

/* Before the first message and after the last, nothing ticks: Matrix's clock
 * ticked from the first traced call until the first message ended, which
 * without install() was forever (1 kHz here). */
Test(threads, idle_costs_no_wake_up)
{
	tc_config c;
	quiet_config(&c);
	open_threaded(&c);
	tc_record(ctx, 1, true); /* a traced call before any message */
	task_info c0 = task_named("tc-clock"), t0 = task_named("tc-tracer");
	sleep_ms(300);
	task_info c1 = task_named("tc-clock"), t1 = task_named("tc-tracer");
	cr_log_info("idle before the start, 300 ms: tc-clock %ld, tc-tracer %ld wake-ups", c1.switches - c0.switches,
	            t1.switches - t0.switches);
	cr_assert_eq(c1.switches, c0.switches, "the clock thread woke up while nothing ran");
	cr_assert_eq(t1.switches, t0.switches, "the tracer thread woke up while nothing ran");

	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	tc_dispatch_begin(ctx);
	spin_ms(5);
	tc_dispatch_end(ctx);
	await_parked();
	c0 = task_named("tc-clock");
	t0 = task_named("tc-tracer");
	sleep_ms(300);
	c1 = task_named("tc-clock");
	t1 = task_named("tc-tracer");
	cr_log_info("idle after a message, 300 ms: tc-clock %ld, tc-tracer %ld wake-ups", c1.switches - c0.switches,
	            t1.switches - t0.switches);
	cr_assert_eq(c1.switches, c0.switches, "the clock thread woke up while the app was idle");
	cr_assert_eq(t1.switches, t0.switches, "the tracer thread woke up while the app was idle");
}

/* What a busy main thread costs: the clock ticks while a message runs (every
 * clock_resolution_ms) and wakes once at its begin; the tracer thread is left
 * alone (Matrix posted two tasks per message, 2 mallocs and a wake-up). */
Test(threads, messages_wake_only_the_clock)
{
	tc_config c;
	quiet_config(&c);
	open_threaded(&c);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	const int n = 200;
	task_info c0 = task_named("tc-clock"), t0 = task_named("tc-tracer");
	uint64_t start = mono_ms();
	for (int i = 0; i < n; i++) { /* empty messages, back to back */
		tc_dispatch_begin(ctx);
		tc_record(ctx, 1, true);
		tc_record(ctx, 1, false);
		tc_dispatch_end(ctx);
	}
	uint64_t empty_ms = mono_ms() - start;
	await_parked();
	task_info c1 = task_named("tc-clock"), t1 = task_named("tc-tracer");
	long empty_clock = c1.switches - c0.switches;
	cr_assert_eq(t1.switches, t0.switches, "%d empty messages woke the tracer thread", n);
	cr_assert_leq(empty_clock, 2 * n + 2, "at most two clock wake-ups per empty message");

	const int busy_n = 100, busy_ms = 10; /* messages of 10 ms, 1 ms apart */
	c0 = c1;
	t0 = t1;
	start = mono_ms();
	for (int i = 0; i < busy_n; i++) {
		tc_dispatch_begin(ctx);
		spin_ms(busy_ms);
		tc_dispatch_end(ctx);
		sleep_ms(1);
	}
	uint64_t elapsed = mono_ms() - start;
	await_parked();
	c1 = task_named("tc-clock");
	t1 = task_named("tc-tracer");
	long busy_clock = c1.switches - c0.switches;
	cr_log_info("%d empty messages in %llu ms: tc-clock %ld wake-ups, tc-tracer %ld", n,
	            (unsigned long long)empty_ms, empty_clock, t1.switches - t0.switches);
	cr_log_info("busy, %d messages of %d ms in %llu ms: tc-clock %ld wake-ups (%.0f/s), tc-tracer %ld", busy_n,
	            busy_ms, (unsigned long long)elapsed, busy_clock, busy_clock * 1000.0 / (double)elapsed,
	            t1.switches - t0.switches);
	cr_assert_eq(t1.switches, t0.switches, "busy messages woke the tracer thread");
	/* a tick per clock_resolution_ms of message (5 by default: 2 per message of
	 * 10 ms), the wake at each begin, the one after each end */
	cr_assert_eq(c.clock_resolution_ms, 5, "the default tick");
	cr_assert_leq(busy_clock, busy_n * (busy_ms / (long)c.clock_resolution_ms + 2) + 2);
}

/* A staged writer (the Java writer) outside messages: its first event
 * finds the clock word stale and kicks the clock thread, which ticks while
 * events keep coming (keeping the time) and then sleeps: an
 * app that stopped writing costs no wake-up. */
static _Atomic uint64_t staged_count;
static _Atomic uint64_t staged_slots[64];

static uint64_t staged_read_count(void *u)
{
	(void)u;
	return atomic_load_explicit(&staged_count, memory_order_acquire);
}

static void staged_copy(void *u, uint64_t first, size_t n, uint64_t *out)
{
	(void)u;
	for (size_t i = 0; i < n; i++)
		out[i] = atomic_load_explicit(&staged_slots[(first + i) & 63], memory_order_relaxed);
}

static void staged_store(void *u, uint64_t first, size_t n, const uint64_t *in)
{
	(void)u;
	for (size_t i = 0; i < n; i++)
		atomic_store_explicit(&staged_slots[(first + i) & 63], in[i], memory_order_relaxed);
}

static void staged_reset(void *u, uint64_t c)
{
	(void)u;
	atomic_store_explicit(&staged_count, c, memory_order_relaxed);
}

Test(threads, a_staged_writer_outside_messages_wakes_the_clock_only_while_it_writes)
{
	tc_config c;
	quiet_config(&c);
	c.capacity = 64; /* the writer's memory is the ring: as large as the ring */
	open_threaded(&c);
	tc_feed fd = { staged_read_count, staged_copy, staged_store, staged_reset, NULL, NULL, 64, NULL };
	cr_assert_eq(tc_feed_attach(ctx, &fd, NULL, NULL, NULL), TC_RT_OK);
	task_info c0 = task_named("tc-clock");
	int kicks = 0;
	int64_t first = -1, last = -1;
	uint64_t start = mono_ms(), n = 0;
	/* 50 ms of events, and on until the word has moved: a writer preempted for the
	 * whole 50 ms (qemu on a loaded machine) has seen one time only */
	while (mono_ms() - start < 50 || (last == first && mono_ms() - start < 5000)) {
		int64_t w = tc_clock_word(ctx);
		if (w < 0) {
			w = tc_clock_kick(ctx);
			kicks++;
		}
		cr_assert_geq(w, last, "the time an event reads never goes back");
		if (first < 0)
			first = w;
		last = w;
		uint64_t k = atomic_load_explicit(&staged_count, memory_order_relaxed);
		atomic_store_explicit(&staged_slots[k & 63], tc_event_encode(true, 1, (uint64_t)w), memory_order_relaxed);
		atomic_store_explicit(&staged_count, k + 1, memory_order_release);
		n++;
	}
	uint64_t wrote_ms = mono_ms() - start;
	await_parked();
	task_info c1 = task_named("tc-clock");
	cr_assert_eq(tc_clock_word(ctx), TC_CLOCK_STALE, "events stopped: the clock thread sleeps");
	cr_assert_eq(tc_written(ctx), n);
	sleep_ms(300);
	task_info c2 = task_named("tc-clock");
	cr_log_info("%llu ms of events outside messages: %d kicks, tc-clock %ld wake-ups; then 300 ms idle: %ld",
	            (unsigned long long)wrote_ms, kicks, c1.switches - c0.switches, c2.switches - c1.switches);
	cr_assert_geq(c1.switches - c0.switches, 3, "it ticked while events came");
	/* the clock word moved with the time while events came (how far depends
	 * on how often this loaded machine let the clock thread run: printed),
	 * and a kick came only after the word went stale (the first event, and a
	 * preempted writer that saw the thread go to sleep) */
	cr_log_info("the events' times: %lld to %lld ms", (long long)first, (long long)last);
	cr_assert_gt(last, first, "the clock thread kept the time after the kick");
	/* the word goes stale only after a tick found no new event: a writer
	 * that kept writing kicks at most once per tick of silence */
	cr_assert_leq(kicks, 2 + (int)wrote_ms / (int)c.clock_resolution_ms, "%d kicks for %llu ms of events", kicks,
	              (unsigned long long)wrote_ms);
	cr_assert_eq(c2.switches, c1.switches, "the clock thread woke up after the events stopped");
}

/* Durations read from the clock word are right on average: every stamp of
 * a message is the clock thread's grid time (multiples of the tick since the
 * time base), the one read fresh at the begin too, so each is stale by
 * [0, tick) whenever it is read. Before, the begin's stamp was exact and the
 * ticks came a tick after the begin: a method entered at the begin came out
 * half a tick short on average (Catalog.load 1.8 ms short per 40 ms call in
 * sample-compare). Asserted: the words are grid times and the begin's
 * stamp is half a tick stale on average (neither depends on the machine's
 * load); logged: the error of 40 ms sleeps measured through the word, and
 * how stale the word was after them, which adds the clock thread's delay in
 * being scheduled. */
static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

Test(threads, stamps_in_a_message_are_as_stale_at_the_begin_as_after_it)
{
	tc_config c;
	quiet_config(&c);
	open_threaded(&c);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	const int64_t tick = 5;
	cr_assert_eq(c.clock_resolution_ms, tick, "the default tick");
	uint64_t base = ctx->base_ns;
	const int n = 40;
	double stale_in = 0, stale_out = 0, err = 0;
	int n_in = 0; /* the begins not preempted: read within 1 ms */
	for (int i = 0; i < n; i++) {
		/* begins at every phase of the tick */
		struct timespec phase = { 0, (long)((unsigned)i * 7919u % 23u) * 250000L };
		nanosleep(&phase, NULL);
		uint64_t t0 = mono_ns();
		tc_dispatch_begin(ctx);
		int64_t in = tc_clock_word(ctx);
		uint64_t t_in = mono_ns();
		sleep_ms(40);
		int64_t out = tc_clock_word(ctx);
		uint64_t t_out = mono_ns();
		tc_dispatch_end(ctx);
		cr_assert(in >= 0 && out >= in, "the word in a message is the time: %lld then %lld", (long long)in,
		          (long long)out);
		cr_assert_eq(in % tick, 0, "the begin's stamp is a grid time: %lld", (long long)in);
		cr_assert_eq(out % tick, 0, "a tick's stamp is a grid time: %lld", (long long)out);
		/* a begin this thread lost the processor in (qemu beside other suites in
		 * CI) says when it was scheduled, not how stale the stamp is */
		if (t_in - t0 < 1000000u) {
			stale_in += (double)((t0 + t_in) / 2 - base) / 1e6 - (double)in;
			n_in++;
		}
		stale_out += (double)(t_out - base) / 1e6 - (double)out;
		err += (double)(out - in) - (double)(t_out - t_in) / 1e6;
	}
	cr_assert_geq(n_in, n / 2, "%d of %d begins read within 1 ms", n_in, n);
	stale_in /= n_in;
	stale_out /= n;
	err /= n;
	cr_log_info("40 ms sleeps from a message begin, word - clock: %+.2f ms; the word stale by %.2f ms at "
	            "the begin, %.2f ms after (tick %lld ms)", err, stale_in, stale_out, (long long)tick);
	/* the mean of [0, tick): 2.5 ms; an exact stamp is stale by its
	 * millisecond's fraction, 0.5 ms */
	cr_assert(stale_in > tick / 2.0 - 1 && stale_in < tick / 2.0 + 1, "the begin's stamp stale by %.2f ms",
	          stale_in);
}

/* ---- a report file or listener that blocks ---- */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static char *reports[8];
static int n_reports;
static atomic_bool rescued;

static void on_report(void *user, const tc_report *r)
{
	(void)user;
	pthread_mutex_lock(&mu);
	if (n_reports < 8)
		reports[n_reports++] = strdup(r->json);
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

/* Waits (up to 10 s) for n reports. */
static bool await_reports(int n)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	pthread_mutex_lock(&mu);
	while (n_reports < n && pthread_cond_timedwait(&cv, &mu, &ts) == 0)
		;
	bool ok = n_reports >= n;
	pthread_mutex_unlock(&mu);
	return ok;
}

static const char *fifo;
static bool work_done;

/* The FIFO's reader. It opens the FIFO once the recording thread's work is
 * done, or after 10 s if that work is stuck behind the blocked file (and
 * then says so), and reads until it sees byte 1. Opened for reading and
 * writing, the FIFO never gives it an end of file between two reports. */
static void *reader(void *arg)
{
	(void)arg;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	pthread_mutex_lock(&mu);
	while (!work_done && pthread_cond_timedwait(&cv, &mu, &ts) == 0)
		;
	if (!work_done)
		atomic_store(&rescued, true);
	pthread_mutex_unlock(&mu);
	int fd = open(fifo, O_RDWR);
	char buf[4096];
	ssize_t n;
	while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0 && !memchr(buf, 1, (size_t)n))
		;
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* The report file is a FIFO nobody reads: opening it for writing blocks the
 * tracer thread. Matrix-like delivery held the context lock across that open,
 * which the recording thread takes at every frame, and the ANR check ran on
 * the tracer thread, so it ran late and was dropped. The FIFO is read only
 * after the message has ended, so an ANR report at all says the check ran
 * while the message ran; its cost says when. anr_invalid_ms is far past the
 * message's end: a watchdog delayed by a loaded machine (CI runs this under
 * qemu beside other suites; the check once came more than 200 ms past its
 * due time there) is not taken for one held up by the file. */
Test(threads, a_blocked_report_file_holds_up_neither_the_recording_thread_nor_the_watchdog)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/tc-fifo-%d", (int)getpid());
	unlink(path);
	cr_assert_eq(mkfifo(path, 0600), 0, "mkfifo: %s", strerror(errno));
	fifo = path;
	tc_config c;
	quiet_config(&c);
	c.report_path = path;
	c.on_report = on_report;
	c.evil_threshold_ms = 10;
	c.lag_ms = 100;
	c.anr_ms = 200;
	c.anr_invalid_ms = 60000;
	c.tracers = TC_TRACER_ALL;
	open_threaded(&c);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	pthread_t rd;
	pthread_create(&rd, NULL, reader, NULL);

	tc_set_scene(ctx, "Main");
	tc_dispatch_begin(ctx); /* a slow message: its report blocks the tracer thread */
	spin_ms(20);
	tc_dispatch_end(ctx);
	uint64_t begin = mono_ms();
	tc_dispatch_begin(ctx); /* a lag, then an ANR, while it is blocked */
	tc_record(ctx, 7, true);
	for (int i = 0; i < 20; i++) { /* frames and scene changes: the recording thread's own work */
		tc_vsync(ctx, 0);
		tc_set_scene(ctx, i % 2 ? "Main" : "Detail");
		spin_ms(20);
	}
	tc_record(ctx, 7, false);
	tc_dispatch_end(ctx);
	long ran = (long)(mono_ms() - begin);
	for (int i = 0; i < 50; i++) {
		tc_dispatch_begin(ctx);
		tc_frame(ctx, 0, 1);
		tc_dispatch_end(ctx);
	}
	pthread_mutex_lock(&mu);
	work_done = true;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	cr_assert_not(atomic_load(&rescued), "the recording thread waited for the report file");

	cr_assert(await_reports(3), "the reports came once the file could be written (%d)", n_reports);
	int anr = -1;
	char details[256] = "";
	for (int i = 0; i < n_reports; i++) {
		const char *d = strstr(reports[i], "\"detail\":\"");
		d = d ? d + 10 : "?";
		snprintf(details + strlen(details), sizeof details - strlen(details), " %.*s", (int)strcspn(d, "\""), d);
		if (strstr(reports[i], "\"detail\":\"ANR\""))
			anr = i;
	}
	cr_assert_geq(anr, 0, "the ANR check ran while the message ran (reports:%s)", details);
	long cost = strtol(strstr(reports[anr], "\"cost\":") + 7, NULL, 10);
	/* the message's own stamps may be a tick staler than this thread's clock */
	cr_assert_leq(cost, ran + 10, "the ANR check ran %ld ms after the message began, which ran %ld ms",
	              cost, ran);
	cr_assert_geq(cost, 200, "the ANR check did not run early (%ld ms)", cost);
	tc_ctx_free(ctx);
	ctx = NULL;
	int fd = open(path, O_WRONLY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "\1", 1), 1);
	close(fd);
	pthread_join(rd, NULL);
	unlink(path);
	for (int i = 0; i < n_reports; i++)
		free(reports[i]);
}

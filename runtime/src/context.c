/* context.c: the context's life, status, recording and message fan-out.
 * At a message's end the tracers hear of it in a fixed order (slow message,
 * frames), and the ANR watchdog follows it from the clock thread; Matrix kept
 * its looper listeners in a HashMap, so its order was unspecified. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context.h"
#include "rt_error.h"
#include "try.h"
#include "tc_runtime.h"
#include "os_thread.h"

void tc_config_init(tc_config *c)
{
	memset(c, 0, sizeof *c);
	c->capacity = 1000000;
	/* Matrix's 5 ms: a quarter of the clock thread's wake-ups of 1 ms while the
	 * app is busy, with the same reports (bench/runtime/ticks.sh, README) */
	c->clock_resolution_ms = 5;
	c->threads = true;
	c->tracers = TC_TRACER_ALL;
	c->thread_capacity = 32768;
	c->max_threads = 32;
	c->expire_ms = 10000;
	c->evil_threshold_ms = 700;
	c->lag_ms = 2000;
	c->anr_ms = 5000;
	c->anr_invalid_ms = 6000;
	c->idle_lag_ms = 2000;
	c->signal_anr_fg_ms = 2000;
	c->signal_anr_bg_ms = 10000;
	c->signal_anr_checks = 40;
	c->signal_anr_check_ms = 500;
	c->touch_lag_ms = 2000;
	c->fps_slice_ms = 10000;
	c->frame_interval_ns = 16666667;
	c->drop_frozen = 42;
	c->drop_high = 24;
	c->drop_middle = 9;
	c->drop_normal = 3;
	c->cold_threshold_ms = 10000;
	c->warm_threshold_ms = 4000;
	c->startup_guard_ms = 30000;
	c->has_activity = true;
}

uint64_t ctx_clock_ns(const tc_ctx *ctx)
{
	return ctx->clk.now_ns(ctx->clk.user);
}

uint64_t ctx_ms(const tc_ctx *ctx, uint64_t ns)
{
	return ns > ctx->base_ns ? (ns - ctx->base_ns) / 1000000u : 0;
}

static int status_of(const tc_ctx *ctx)
{
	return atomic_load_explicit(&ctx->status, memory_order_acquire);
}

static thread_set *tset_of(const tc_ctx *ctx)
{
	return atomic_load_explicit(&((tc_ctx *)ctx)->tset, memory_order_acquire);
}

/* Threads other than the recording thread use the ring under ring_lock,
 * shared (context.h). The lock is not part of the context's value, so callers
 * holding a const context take it too. */
static void ring_share(const tc_ctx *ctx)
{
	pthread_rwlock_rdlock((pthread_rwlock_t *)&ctx->ring_lock);
}

static void ring_unshare(const tc_ctx *ctx)
{
	pthread_rwlock_unlock((pthread_rwlock_t *)&ctx->ring_lock);
}

#define STATUS_ANY INT32_MIN

/* Sets the status to `to` if it is `from` (or whatever it is, for
 * STATUS_ANY), and the ring header's copy with it. Returns the status it had. */
static int change_status(tc_ctx *ctx, int from, int to)
{
	pthread_mutex_lock(&ctx->mu);
	int was = atomic_load_explicit(&ctx->status, memory_order_relaxed);
	if (from == STATUS_ANY || was == from) {
		atomic_store_explicit(&ctx->status, to, memory_order_release);
		ring_share(ctx);
		atomic_store_explicit(&ctx->ring.hdr->status, to, memory_order_release);
		ring_unshare(ctx);
		thread_set *ts = tset_of(ctx);
		if (ts)
			thread_set_status(ts, to);
		clock_publish(&ctx->clock);
	}
	pthread_mutex_unlock(&ctx->mu);
	return was;
}

bool ctx_started(const tc_ctx *ctx)
{
	return status_of(ctx) == TC_STATUS_STARTED;
}

void ctx_log(tc_ctx *ctx, int level, const char *tag, const char *fmt, ...)
{
	if (!ctx->cfg.on_log)
		return;
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		ctx->cfg.on_log(ctx->cfg.log_user, level, tag, small);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big)
		return;
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	ctx->cfg.on_log(ctx->cfg.log_user, level, tag, big);
	free(big);
}

static int dup_opt(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return TC_RT_OK;
	*dst = strdup(src);
	return *dst ? TC_RT_OK : TC_RT_ENOMEM;
}

static int check_config(const tc_config *cfg, tc_rt_error *err);

/* This process's ring file for the configured path: PATH for a process named
 * "pkg", PATH.name for "pkg:name" (Android's android:process=":name"), so that
 * two processes of one app do not share one file. The name is kept to
 * [A-Za-z0-9._-]. NULL for no path, and when out of memory. */
static char *process_ring_path(tc_ctx *ctx, const char *path)
{
	if (!path)
		return NULL;
	char *name = procinfo_process_name(ctx);
	const char *suffix = name ? strchr(name, ':') : NULL;
	size_t len = strlen(path), n = len + (suffix ? strlen(suffix) : 0) + 1;
	char *out = malloc(n);
	if (out) {
		memcpy(out, path, len + 1);
		if (suffix) {
			out[len++] = '.';
			for (const char *c = suffix + 1; *c; c++)
				out[len++] = (isalnum((unsigned char)*c) || *c == '.' || *c == '_' || *c == '-') ? *c : '_';
			out[len] = '\0';
		}
	}
	free(name);
	return out;
}

/* path + suffix (malloc), or NULL for no path and when out of memory. The
 * ring an earlier run left at PATH is kept as PATH.prev, its thread file
 * PATH-threads as PATH.prev-threads: tc-trace --ring PATH.prev finds both. */
static char *with_suffix(const char *path, const char *suffix)
{
	if (!path)
		return NULL;
	size_t a = strlen(path), b = strlen(suffix);
	char *out = malloc(a + b + 1);
	if (out) {
		memcpy(out, path, a);
		memcpy(out + a, suffix, b + 1);
	}
	return out;
}

/* Opens the ring rp asks for (ring_publish gives a file ring its path). When
 * the file cannot have its room or another live process holds it, the ring is
 * in memory, with a warning: the app goes on, traced. */
static int open_ring(tc_ctx *ctx, ring *r, ring_params *rp, tc_rt_error *err)
{
	tc_rt_error why = { 0 };
	int rc = ring_open(r, rp, &why);
	if (rc == TC_RT_EBUSY || rc == TC_RT_ENOSPC) {
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AppMethodBeat", "ring file: %s: the ring is in memory instead",
		        why.message);
		rp->path = NULL;
		rc = ring_open(r, rp, &why);
	}
	if (rc != TC_RT_OK && err)
		*err = why;
	return rc;
}

/* The clock thread keeps the thread file's clock word too. */
static void clock_follow_threads(tc_ctx *ctx)
{
	thread_set *ts = tset_of(ctx);
	clock_mirror(&ctx->clock, ts ? &ts->hdr->now_ms : NULL);
}

/* Makes the other threads' rings (TC_THREADS_ALL) next to the ring file
 * buffer_path asks for (PATH-threads), or in memory with a warning when the
 * file cannot have its room or another live process holds it; publishes
 * them. Once per context (tc_ctx_new, tc_reconfigure). */
static int open_threads(tc_ctx *ctx, const tc_config *cfg, const char *buffer_path, tc_rt_error *err)
{
	char *ring_file = process_ring_path(ctx, buffer_path);
	char *file = with_suffix(ring_file, "-threads"), *prev = with_suffix(ring_file, ".prev-threads");
	free(ring_file);
	if (buffer_path && (!file || !prev)) {
		free(file);
		free(prev);
		return tc_rt_set(err, TC_RT_ENOMEM, "thread file path");
	}
	thread_set *ts = malloc(sizeof *ts);
	if (!ts) {
		free(file);
		free(prev);
		return tc_rt_set(err, TC_RT_ENOMEM, "thread set");
	}
	ring_params rp = {
		.time_base_ns = ctx->base_ns, .wall_base_ms = ctx->ring.hdr->wall_base_ms, .pid = (uint32_t)getpid(),
		.resolution_ms = ctx->ring.hdr->resolution_ms, .build_id = ctx->ring.hdr->build_id, .own_fd = -1,
		.prev_path = prev,
	};
	tc_rt_error why = { 0 };
	int rc = thread_set_open(ts, file, cfg->max_threads, cfg->thread_capacity, &rp, &why);
	if (rc == TC_RT_EBUSY || rc == TC_RT_ENOSPC) {
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AppMethodBeat", "thread file: %s: the threads' rings are in memory instead",
		        why.message);
		rc = thread_set_open(ts, NULL, cfg->max_threads, cfg->thread_capacity, &rp, &why);
	}
	if (rc == TC_RT_OK && (rc = thread_set_filter(ts, cfg->thread_names, cfg->thread_filter,
	                                            cfg->thread_filter_user, &why)) != TC_RT_OK)
		thread_set_close(ts);
	if (rc == TC_RT_OK && (rc = thread_set_publish(ts, &why)) != TC_RT_OK)
		thread_set_close(ts);
	free(file);
	free(prev);
	if (rc != TC_RT_OK) {
		free(ts);
		if (err)
			*err = why;
		return rc;
	}
	atomic_store_explicit(&ctx->tset, ts, memory_order_release);
	clock_follow_threads(ctx);
	return TC_RT_OK;
}

static void expire(tc_ctx *ctx, void *arg)
{
	(void)arg;
	/* Matrix's checkStartExpired and realRelease: never started, so stop
	 * recording and let the owner free the runtime. The memory stays until
	 * tc_ctx_free, on the recording thread: a Java writer may hold its address. */
	if (change_status(ctx, TC_STATUS_READY, TC_STATUS_EXPIRED_START) != TC_STATUS_READY)
		return;
	/* The one task that runs before the start, while tc_reconfigure may
	 * replace the settings (under mu): read them under mu too. */
	pthread_mutex_lock(&ctx->mu);
	tc_config c = ctx->cfg;
	pthread_mutex_unlock(&ctx->mu);
	if (c.on_log) {
		char text[64];
		snprintf(text, sizeof text, "not started within %u ms: recording stopped", c.expire_ms);
		c.on_log(c.log_user, TC_LOG_WARN, "Matrix.AppMethodBeat", text);
	}
	if (c.on_expire)
		c.on_expire(c.expire_user);
}

/* The recording thread's events. With a staged writer attached, its memory
 * is the ring of record (tc_feed): readers read there, the C writer writes
 * its markers there, and a ring file is a copy of it, made at each clock
 * tick, when tc_feed_pull asks and at tc_ctx_free, to outlive the process.
 * A ring in memory then holds only the header (its slots are not touched). */
static bool mirrored(const tc_ctx *ctx)
{
	return ctx->has_feed && ctx->ring.mem.kind == RING_REGION_FILE;
}

/* The events the staged writer's memory is read as: the ring's capacity, or
 * fewer while the writer's memory is smaller (after tc_reconfigure grew the
 * ring, until the writer attaches a larger one). */
static uint64_t record_capacity(const tc_ctx *ctx)
{
	return ctx->feed.capacity < ctx->ring.capacity ? ctx->feed.capacity : ctx->ring.capacity;
}

/* The count of the recording thread's events: under feed_mu, or on the
 * recording thread (the feed changes only there). */
static uint64_t record_count(const tc_ctx *ctx)
{
	return ctx->has_feed ? ctx->feed.count(ctx->feed.user) : ring_seq(&ctx->ring);
}

/* Under feed_mu (and ring_lock's shared side, off the recording thread):
 * copies the staged writer's new events into the ring file. */
static void pull_main(tc_ctx *ctx)
{
	if (!mirrored(ctx))
		return;
	uint64_t lost;
	ring_pull(&ctx->ring, &ctx->feed, &lost);
	if (lost)
		atomic_fetch_add_explicit(&ctx->lost, lost, memory_order_relaxed);
}

/* The recording thread's events for reading on any thread: the ring shared
 * against its replacement, the feed held against its. */
static void read_begin(const tc_ctx *ctx)
{
	ring_share(ctx);
	pthread_mutex_lock(&((tc_ctx *)ctx)->feed_mu);
}

static void read_end(const tc_ctx *ctx)
{
	pthread_mutex_unlock(&((tc_ctx *)ctx)->feed_mu);
	ring_unshare(ctx);
}

/* Events a copy into the ring file takes while it holds the feed lock: 128
 * KB, tens of microseconds, so that the recording thread (a marker) never
 * waits long behind the clock thread's copy. */
#define PULL_CHUNK 16384u

/* The staged writer's events into the ring file, a chunk per hold of the
 * lock (any thread). Returns the events copied. */
static uint64_t pull_main_chunks(tc_ctx *ctx)
{
	uint64_t total = 0;
	for (;;) {
		ring_share(ctx);
		pthread_mutex_lock(&ctx->feed_mu);
		uint64_t n = 0, lost = 0;
		if (mirrored(ctx))
			n = ring_pull_some(&ctx->ring, &ctx->feed, PULL_CHUNK, &lost);
		pthread_mutex_unlock(&ctx->feed_mu);
		ring_unshare(ctx);
		if (lost)
			atomic_fetch_add_explicit(&ctx->lost, lost, memory_order_relaxed);
		total += n;
		if (n < PULL_CHUNK)
			return total;
	}
}

/* Every staged writer's events into the ring files (clock thread). Says
 * whether any were written since the last call, not counting the markers
 * (the thread ticks on only while events come), and whether the recording
 * thread's writer is so far ahead of the ring file (a quarter of its memory)
 * that the next copy should come at once rather than a tick later. */
static enum clock_tick pull_all(tc_ctx *ctx)
{
	uint64_t main = pull_main_chunks(ctx);
	bool behind = false, active = false;
	pthread_mutex_lock(&ctx->feed_mu);
	if (ctx->has_feed) {
		uint64_t c = ctx->feed.count(ctx->feed.user);
		active = c != atomic_exchange_explicit(&ctx->count_seen, c, memory_order_relaxed);
		behind = main >= ctx->feed.capacity / 4;
	}
	pthread_mutex_unlock(&ctx->feed_mu);
	thread_set *ts = tset_of(ctx);
	if (ts) {
		uint64_t lost = 0;
		if (thread_set_pull_all(ts, &lost))
			active = true;
		if (lost)
			atomic_fetch_add_explicit(&ctx->lost, lost, memory_order_relaxed);
	}
	return behind ? CLOCK_BEHIND : active ? CLOCK_ACTIVE : CLOCK_QUIET;
}

/* The tracers (context.h, tracer_ops), in the order they hear of things: at
 * a message's end the slow-message report, then the frame; at a tick the
 * lag/ANR watchdog, then the idle handlers'; started, and stopped, signal
 * ANR, then the PLT-hook ones. */
static const tracer_ops *const tracers[] = {
	&tracer_evil, &tracer_anr, &tracer_frame, &tracer_startup, &tracer_idle,
	&tracer_signal, &tracer_priority, &tracer_touch,
};
#define N_TRACERS (sizeof tracers / sizeof tracers[0])

static void tracers_tick(tc_ctx *ctx, uint64_t now_ns)
{
	for (size_t k = 0; k < N_TRACERS; k++)
		if (tracers[k]->tick)
			tracers[k]->tick(ctx, now_ns);
}

static void tracers_frame(tc_ctx *ctx, uint64_t intended_ns, uint64_t end_ns)
{
	for (size_t k = 0; k < N_TRACERS; k++)
		if (tracers[k]->frame)
			tracers[k]->frame(ctx, intended_ns, end_ns);
}

static void tracers_stop(tc_ctx *ctx)
{
	for (size_t k = 0; k < N_TRACERS; k++)
		if (tracers[k]->stop)
			tracers[k]->stop(ctx);
}

/* tc_ctx_new's start of the tracers that cfg turns on: a failure fails it,
 * but for a tracer another context holds (busy_is_warning) */
static int tracers_start(tc_ctx *ctx, const tc_config *cfg, tc_rt_error *err)
{
	for (size_t k = 0; k < N_TRACERS; k++) {
		const tracer_ops *t = tracers[k];
		if (!t->start || !(cfg->tracers & t->bit))
			continue;
		tc_rt_error terr = { 0 };
		int rc = t->start(ctx, cfg, &terr);
		if (rc == TC_RT_EBUSY && t->busy_is_warning) {
			ctx_log(ctx, TC_LOG_WARN, t->tag, "%s off: %s", t->what, terr.message);
		} else if (rc != TC_RT_OK) {
			if (terr.code)
				tc_rt_set(err, rc, "%s", terr.message);
			return rc;
		}
	}
	return TC_RT_OK;
}

/* tc_reconfigure's: each tracer follows cfg (started again, so that it
 * applies what changed), a failure a warning */
static void tracers_follow(tc_ctx *ctx, const tc_config *cfg)
{
	for (size_t k = 0; k < N_TRACERS; k++) {
		const tracer_ops *t = tracers[k];
		if (!t->start)
			continue;
		tc_rt_error terr = { 0 };
		if (!(cfg->tracers & t->bit)) {
			if (t->stop)
				t->stop(ctx);
		} else if (t->start(ctx, cfg, &terr) != TC_RT_OK) {
			ctx_log(ctx, TC_LOG_WARN, t->tag, "%s off: %s", t->what, terr.message);
		}
	}
}

/* The clock thread's tick (tc_ctx_poll's, without threads). */
static enum clock_tick on_tick(void *user, uint64_t now_ns)
{
	tc_ctx *ctx = user;
	enum clock_tick found = pull_all(ctx);
	block_watch(ctx, now_ns);
	tracers_tick(ctx, now_ns);
	return found;
}

int tc_ctx_new(tc_ctx **out, const tc_config *cfg, tc_rt_error *err)
{
	*out = NULL;
	if (!cfg)
		return tc_rt_set(err, TC_RT_EINVAL, "no config");
	TRY(check_config(cfg, err));
	tc_ctx *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return tc_rt_set(err, TC_RT_ENOMEM, "context");
	/* first, so that tc_ctx_free can take any half-built context */
	if (pthread_mutex_init(&ctx->mu, NULL)) {
		free(ctx);
		return tc_rt_set(err, TC_RT_ETHREAD, "context mutex");
	}
	if (pthread_rwlock_init(&ctx->ring_lock, NULL)) {
		pthread_mutex_destroy(&ctx->mu);
		free(ctx);
		return tc_rt_set(err, TC_RT_ETHREAD, "ring lock");
	}
	if (pthread_mutex_init(&ctx->frames.mu, NULL)) {
		pthread_rwlock_destroy(&ctx->ring_lock);
		pthread_mutex_destroy(&ctx->mu);
		free(ctx);
		return tc_rt_set(err, TC_RT_ETHREAD, "frames mutex");
	}
	if (pthread_mutex_init(&ctx->feed_mu, NULL)) {
		pthread_mutex_destroy(&ctx->frames.mu);
		pthread_rwlock_destroy(&ctx->ring_lock);
		pthread_mutex_destroy(&ctx->mu);
		free(ctx);
		return tc_rt_set(err, TC_RT_ETHREAD, "feed mutex");
	}
	if (clock_init(&ctx->clock, &ctx->status, cfg->on_clock_word, cfg->clock_word_user, err) != TC_RT_OK) {
		pthread_mutex_destroy(&ctx->feed_mu);
		pthread_mutex_destroy(&ctx->frames.mu);
		pthread_rwlock_destroy(&ctx->ring_lock);
		pthread_mutex_destroy(&ctx->mu);
		free(ctx);
		return TC_RT_ETHREAD;
	}
	ctx->cfg = *cfg;
	ctx->cfg.priority_libs = ctx->cfg.touch_libs = NULL; /* used at install, not kept */
	if (!ctx->cfg.clock.now_ns) {
		ctx->cfg.clock.now_ns = clock_default_now_ns;
		ctx->cfg.clock.user = NULL;
	}
	ctx->clk = ctx->cfg.clock;
	if (dup_opt(&ctx->buffer_path, cfg->buffer_path) || dup_opt(&ctx->splash, cfg->splash_activities) ||
	    dup_opt(&ctx->report_path, cfg->report_path)) {
		tc_ctx_free(ctx);
		return tc_rt_set(err, TC_RT_ENOMEM, "config strings");
	}
	ctx->cfg.buffer_path = ctx->buffer_path;
	ctx->cfg.splash_activities = ctx->splash;
	ctx->cfg.report_path = ctx->report_path;
	strcpy(ctx->scene, "default");
	atomic_store(&ctx->scene_gen, 1);
	atomic_store(&ctx->foreground, true);
	atomic_store(&ctx->frame_interval_ns, cfg->frame_interval_ns);
	ctx->record_thread = pthread_self();
	atomic_store(&ctx->record_tid, os_thread_id());
	ctx->st.app_scene = INT32_MIN;
	ctx->base_ns = ctx_clock_ns(ctx);

	char *file = process_ring_path(ctx, ctx->buffer_path), *prev = with_suffix(file, ".prev");
	ring_params rp = {
		.capacity = cfg->capacity, .path = file, .time_base_ns = ctx->base_ns,
		.wall_base_ms = procinfo_wall_ms(ctx), .pid = (uint32_t)getpid(),
		.resolution_ms = cfg->clock_resolution_ms ? cfg->clock_resolution_ms : 1,
		.build_id = cfg->build_id, .own_fd = -1, .prev_path = prev,
	};
	int rc;
	if (ctx->buffer_path && (!file || !prev))
		rc = tc_rt_set(err, TC_RT_ENOMEM, "ring path");
	else if ((rc = open_ring(ctx, &ctx->ring, &rp, err)) == TC_RT_OK && (rc = ring_publish(&ctx->ring, err)) != TC_RT_OK)
		ring_close(&ctx->ring);
	free(file);
	free(prev);
	if (rc == TC_RT_OK) {
		atomic_store(&ctx->status, TC_STATUS_READY);
		char name[16];
		os_thread_name(name);
		ring_set_thread(&ctx->ring, os_thread_id(), name);
		rc = clock_start(&ctx->clock, &ctx->ring, ctx->cfg.clock, ctx->base_ns, rp.resolution_ms,
		                 on_tick, ctx, cfg->threads, err);
	}
	if (rc == TC_RT_OK && cfg->record_threads == TC_THREADS_ALL)
		rc = open_threads(ctx, cfg, ctx->buffer_path, err);
	if (rc == TC_RT_OK)
		rc = task_queue_start(&ctx->tasks, ctx, ctx->cfg.clock, cfg->threads, err);
	if (rc == TC_RT_OK && cfg->expire_ms)
		rc = task_queue_post(&ctx->tasks, cfg->expire_ms, EXPIRE_TOKEN, expire, NULL, NULL);
	if (rc == TC_RT_OK)
		rc = tracers_start(ctx, cfg, err);
	if (rc != TC_RT_OK) {
		if (rc == TC_RT_ENOMEM && (!err || err->code != TC_RT_ENOMEM))
			tc_rt_set(err, rc, "context");
		tc_ctx_free(ctx);
		return rc;
	}
	*out = ctx;
	return TC_RT_OK;
}

void tc_ctx_free(tc_ctx *ctx)
{
	if (!ctx)
		return;
	tracers_stop(ctx);
	if (ctx->ring.hdr)
		change_status(ctx, STATUS_ANY, TC_STATUS_RELEASED);
	clock_stop(&ctx->clock);
	task_queue_stop(&ctx->tasks);
	if (ctx->has_feed) {
		pull_main(ctx); /* the last events, into the file */
		ctx->has_feed = false;
		if (ctx->feed.release)
			ctx->feed.release(ctx->feed.user);
	}
	ring_close(&ctx->ring);
	thread_set *ts = tset_of(ctx);
	if (ts) {
		thread_set_close(ts);
		free(ts);
	}
	for (size_t k = 0; k < N_TRACERS; k++)
		if (tracers[k]->free)
			tracers[k]->free(ctx);
	clock_dispose(&ctx->clock);
	pthread_mutex_destroy(&ctx->feed_mu);
	pthread_mutex_destroy(&ctx->frames.mu);
	pthread_mutex_destroy(&ctx->mu);
	pthread_rwlock_destroy(&ctx->ring_lock);
	free(ctx->buffer_path);
	free(ctx->splash);
	free(ctx->report_path);
	for (size_t k = 0; k < ctx->n_first_notes; k++) {
		free(ctx->first_notes[k].key);
		free(ctx->first_notes[k].value);
	}
	free(ctx);
}

void tc_self_check(tc_ctx *ctx, uint32_t ps_per_event)
{
	/* the shared side: a ring swap copies the field under the other */
	pthread_rwlock_rdlock(&ctx->ring_lock);
	atomic_store_explicit(&ctx->ring.hdr->check_ps, ps_per_event ? ps_per_event : 1, memory_order_relaxed);
	pthread_rwlock_unlock(&ctx->ring_lock);
}

int tc_first_report_note(tc_ctx *ctx, const char *key, const char *value, tc_rt_error *err)
{
	if (!key || !*key || !value)
		return tc_rt_set(err, TC_RT_EINVAL, "a first-report note needs a key and a value");
	char *v = strdup(value), *k = strdup(key);
	if (!v || !k) {
		free(v);
		free(k);
		return tc_rt_set(err, TC_RT_ENOMEM, "first-report note %s", key);
	}
	int rc = TC_RT_OK;
	pthread_mutex_lock(&ctx->mu);
	size_t i = 0;
	while (i < ctx->n_first_notes && strcmp(ctx->first_notes[i].key, key) != 0)
		i++;
	if (i < ctx->n_first_notes) {
		free(ctx->first_notes[i].key);
		free(ctx->first_notes[i].value);
	} else if (i == TC_FIRST_NOTES_MAX) {
		rc = TC_RT_ENOSPC;
	} else {
		ctx->n_first_notes++;
	}
	if (rc == TC_RT_OK) {
		ctx->first_notes[i].key = k;
		ctx->first_notes[i].value = v;
	}
	pthread_mutex_unlock(&ctx->mu);
	if (rc != TC_RT_OK) {
		free(k);
		free(v);
		return tc_rt_set(err, rc, "first-report note %s: %d notes already", key, TC_FIRST_NOTES_MAX);
	}
	return TC_RT_OK;
}

void tc_ctx_bind_thread(tc_ctx *ctx)
{
	ctx->record_thread = pthread_self();
	atomic_store(&ctx->record_tid, os_thread_id());
	char name[16];
	os_thread_name(name);
	ring_set_thread(&ctx->ring, os_thread_id(), name);
}

static int check_config(const tc_config *cfg, tc_rt_error *err)
{
	/* a negative Java int arrives as a huge tick: the watchdog would never run */
	if (cfg->clock_resolution_ms > 1000)
		return tc_rt_set(err, TC_RT_EINVAL, "clock_resolution_ms %u not in [1, 1000] (0 is 1)", cfg->clock_resolution_ms);
	if (cfg->record_threads != TC_THREADS_MAIN && cfg->record_threads != TC_THREADS_ALL)
		return tc_rt_set(err, TC_RT_EINVAL, "record_threads is TC_THREADS_MAIN or TC_THREADS_ALL, not %u",
		               cfg->record_threads);
	if (cfg->frame_interval_ns == 0 || cfg->fps_slice_ms == 0)
		return tc_rt_set(err, TC_RT_EINVAL, "frame interval and fps slice must be positive");
	if (!(cfg->drop_normal <= cfg->drop_middle && cfg->drop_middle <= cfg->drop_high &&
	      cfg->drop_high <= cfg->drop_frozen))
		return tc_rt_set(err, TC_RT_EINVAL, "dropped-frame thresholds must ascend (normal <= middle <= high <= frozen)");
	return TC_RT_OK;
}

static bool on_record_thread(const tc_ctx *ctx)
{
	return pthread_equal(pthread_self(), ctx->record_thread);
}

static uint32_t resolution_of(const tc_config *c)
{
	return c->clock_resolution_ms ? c->clock_resolution_ms : 1;
}

static bool same_string(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static void rebase(tc_index *idx, uint64_t shift)
{
	idx->seq = ring_rebase(idx->seq, shift);
}

/* Replaces the ring by the one cfg asks for (capacity, file, clock
 * resolution), carrying over the newest events that fit, and rebases the
 * context's index records onto it. Takes path (cfg's buffer_path, copied).
 * Sets *kept to the events carried over and *shift to the events before
 * them that were not.
 *
 * Recording thread, never started: the caller is the only thread that
 * writes events, and no tracer task holds an index record. The old memory is
 * freed here, so no writer of the caller's (the Java hot path) may hold its
 * address; other threads use the ring under ring_lock. */
static int replace_ring(tc_ctx *ctx, const tc_config *cfg, char *path, uint64_t *kept, uint64_t *shift,
                        tc_rt_error *err)
{
	/* The new file takes its path only once the events are in it: the path
	 * may be the current ring's own file (ring_open, ring_publish). */
	char *file = process_ring_path(ctx, path), *prev = with_suffix(file, ".prev");
	if (path && (!file || !prev)) {
		free(file);
		free(prev);
		free(path);
		return tc_rt_set(err, TC_RT_ENOMEM, "ring path");
	}
	uint32_t res = resolution_of(cfg);
	ring_params rp = {
		.capacity = cfg->capacity, .path = file, .time_base_ns = ctx->base_ns,
		.wall_base_ms = ctx->ring.hdr->wall_base_ms, .pid = (uint32_t)getpid(), .resolution_ms = res,
		.build_id = ctx->cfg.build_id, .own_fd = ctx->ring.mem.fd, .prev_path = prev,
	};
	ring fresh;
	int rc = open_ring(ctx, &fresh, &rp, err);
	free(file);
	free(prev);
	if (rc == TC_RT_OK) {
		pthread_mutex_lock(&ctx->feed_mu);
		if (ctx->has_feed) {
			/* the events stay in the staged writer's memory, numbered as
			 * they are (it is this thread, in a call: it writes no more
			 * meanwhile); a new ring file gets a copy of the newest */
			uint64_t w = ctx->feed.count(ctx->feed.user), cap = record_capacity(ctx);
			*kept = w < cap ? w : cap;
			*kept = *kept < fresh.capacity ? *kept : fresh.capacity;
			*shift = 0;
			atomic_store_explicit(&fresh.hdr->seq, w - *kept, memory_order_relaxed);
			if (fresh.mem.kind == RING_REGION_FILE) {
				uint64_t lost;
				ring_pull(&fresh, &ctx->feed, &lost);
			} else {
				atomic_store_explicit(&fresh.hdr->seq, w, memory_order_relaxed);
			}
		} else {
			*shift = ring_refill(&fresh, &ctx->ring);
			*kept = ring_seq(&fresh);
		}
		pthread_mutex_unlock(&ctx->feed_mu);
		if ((rc = ring_publish(&fresh, err)) != TC_RT_OK)
			ring_close(&fresh);
	}
	if (rc != TC_RT_OK) {
		free(path);
		return rc;
	}

	/* The clock thread stores into the header: it stops across the swap
	 * and starts again on the new ring, at the new resolution; meanwhile
	 * other threads read the clock themselves. */
	bool busy = ctx->clock.busy;
	thread_set *ts = tset_of(ctx);
	if (ts)
		thread_set_ticking(ts, false);
	clock_stop(&ctx->clock);
	ring old = ctx->ring;
	pthread_rwlock_wrlock(&ctx->ring_lock);
	atomic_store(&fresh.hdr->status, status_of(ctx));
	atomic_store(&fresh.hdr->check_ps, atomic_load(&old.hdr->check_ps));
	/* section names are registered under the lock's shared side */
	memcpy(ring_name(&fresh, 0), ring_name(&old, 0), TC_RING_NAMES_SIZE);
	ctx->ring = fresh;
	pthread_rwlock_unlock(&ctx->ring_lock);
	ring_close(&old);

	free(ctx->buffer_path);
	ctx->buffer_path = path;
	ctx->cfg.buffer_path = path;
	ctx->cfg.capacity = cfg->capacity;
	ctx->cfg.clock_resolution_ms = res;
	rebase(&ctx->first_mark, *shift);
	rebase(&ctx->evil_mark, *shift);
	rebase(&ctx->st.app_mark, *shift);
	rebase(&ctx->st.warm_mark, *shift);

	rc = clock_start(&ctx->clock, &ctx->ring, ctx->cfg.clock, ctx->base_ns, res, on_tick, ctx,
	                 ctx->cfg.threads, err);
	clock_follow_threads(ctx);
	if (rc == TC_RT_OK && busy) {
		clock_set_busy(&ctx->clock, true);
		if (ts)
			thread_set_ticking(ts, true);
	}
	return rc;
}

int tc_reconfigure(tc_ctx *ctx, const tc_config *cfg, tc_rt_error *err)
{
	int s = status_of(ctx);
	if (s == TC_STATUS_STARTED)
		return tc_rt_set(err, TC_RT_ESTATE, "reconfigure while started");
	TRY(check_config(cfg, err));
	char *splash = NULL, *report = NULL, *buffer = NULL;
	if (dup_opt(&splash, cfg->splash_activities) || dup_opt(&report, cfg->report_path)) {
		free(splash);
		return tc_rt_set(err, TC_RT_ENOMEM, "config strings");
	}
	/* A different ring is made only before the first start (once started,
	 * tracer tasks hold index records) and on the recording thread (the
	 * only writer, so nothing is written during the move). */
	bool move = cfg->capacity != ctx->cfg.capacity || !same_string(cfg->buffer_path, ctx->buffer_path) ||
	            resolution_of(cfg) != resolution_of(&ctx->cfg);
	const char *refused = NULL;
	if (move && s != TC_STATUS_READY && s != TC_STATUS_EXPIRED_START)
		refused = "once started";
	else if (move && !on_record_thread(ctx))
		refused = "off the recording thread";
	uint64_t kept = 0, shift = 0;
	int rc = TC_RT_OK;
	/* The other threads' rings are made once (their writers keep their
	 * addresses), next to the ring the context will have. */
	thread_set *ts = tset_of(ctx);
	bool threads_kept = ts && (cfg->record_threads != TC_THREADS_ALL || cfg->thread_capacity != ts->capacity ||
	                           cfg->max_threads != ts->max);
	if (!ts && cfg->record_threads == TC_THREADS_ALL &&
	    (rc = open_threads(ctx, cfg, move && !refused ? cfg->buffer_path : ctx->buffer_path, err)) != TC_RT_OK) {
		free(splash);
		free(report);
		return rc;
	}
	if (move && !refused) {
		if (dup_opt(&buffer, cfg->buffer_path))
			rc = tc_rt_set(err, TC_RT_ENOMEM, "config strings");
		else
			rc = replace_ring(ctx, cfg, buffer, &kept, &shift, err);
		/* a failed clock restart leaves the new ring in place: go on */
		if (rc != TC_RT_OK && rc != TC_RT_ETHREAD) {
			free(splash);
			free(report);
			return rc;
		}
	}
	tc_config keep = ctx->cfg;
	pthread_mutex_lock(&ctx->mu);
	free(ctx->splash);
	free(ctx->report_path);
	ctx->splash = splash;
	ctx->report_path = report;
	ctx->cfg = *cfg;
	ctx->cfg.capacity = keep.capacity;
	ctx->cfg.buffer_path = ctx->buffer_path;
	ctx->cfg.clock_resolution_ms = keep.clock_resolution_ms;
	ctx->cfg.threads = keep.threads;
	ctx->cfg.clock = keep.clock;
	ctx->cfg.probe = keep.probe;
	ctx->cfg.build_id = keep.build_id; /* the ring's header holds it: one per context */
	ctx->cfg.splash_activities = splash;
	ctx->cfg.report_path = report;
	ctx->cfg.priority_libs = ctx->cfg.touch_libs = NULL;
	if (ts) {
		ctx->cfg.record_threads = TC_THREADS_ALL;
		ctx->cfg.thread_capacity = (uint32_t)ts->capacity;
		ctx->cfg.max_threads = ts->max;
	}
	pthread_mutex_unlock(&ctx->mu);
	atomic_store(&ctx->frame_interval_ns, cfg->frame_interval_ns);
	if (threads_kept)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AppMethodBeat",
		        "thread settings not applied (threads %s, %u events per thread, %u threads): every thread "
		        "records, as the rings made first say (%u events per thread, %u threads)",
		        cfg->record_threads == TC_THREADS_ALL ? "all" : "main", cfg->thread_capacity, cfg->max_threads,
		        (unsigned)ts->capacity, ts->max);
	if (refused)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AppMethodBeat",
		        "ring settings not applied %s (capacity %u, buffer file %s, clock %u ms): "
		        "the ring stays as it is (capacity %u, buffer file %s, clock %u ms)",
		        refused, cfg->capacity, cfg->buffer_path ? cfg->buffer_path : "none", resolution_of(cfg),
		        ctx->cfg.capacity, ctx->ring.mem.path ? ctx->ring.mem.path : "none", resolution_of(&ctx->cfg));
	else if (move && rc == TC_RT_OK)
		ctx_log(ctx, TC_LOG_INFO, "Matrix.AppMethodBeat",
		        "ring replaced (capacity %u, buffer file %s, clock %u ms): %llu events moved, "
		        "%llu before them dropped",
		        ctx->cfg.capacity, ctx->ring.mem.path ? ctx->ring.mem.path : "none", resolution_of(&ctx->cfg),
		        (unsigned long long)kept, (unsigned long long)shift);
	/* the SIGQUIT handler and the PLT-hook tracers follow the tracers (a
	 * context made by the first traced call gets its settings at start;
	 * the hooks' libraries may have changed) */
	tracers_follow(ctx, cfg);
	return rc;
}

int tc_start(tc_ctx *ctx, tc_rt_error *err)
{
	int s = status_of(ctx);
	if (s == TC_STATUS_STARTED)
		return TC_RT_OK;
	if (s != TC_STATUS_READY && s != TC_STATUS_STOPPED && s != TC_STATUS_EXPIRED_START)
		return tc_rt_set(err, TC_RT_ESTATE, "cannot start from status %d", s);
	task_queue_cancel(&ctx->tasks, EXPIRE_TOKEN);
	change_status(ctx, STATUS_ANY, TC_STATUS_STARTED);
	return TC_RT_OK;
}

void tc_stop(tc_ctx *ctx)
{
	int was = change_status(ctx, TC_STATUS_STARTED, TC_STATUS_STOPPED);
	if (was != TC_STATUS_STARTED)
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AppMethodBeat", "stop in status %d ignored", was);
}

int tc_status(const tc_ctx *ctx)
{
	return status_of(ctx);
}

bool tc_is_alive(const tc_ctx *ctx)
{
	return status_of(ctx) == TC_STATUS_STARTED;
}

/* The C writer's event, on the recording thread: into the ring, or with a
 * staged writer attached (the same thread, in a call it made) into its
 * memory, after its own events, and its count past it. A marker's own
 * change of the count is no reason for the clock thread to tick on. */
static void write_ring(tc_ctx *ctx, uint64_t ev)
{
	if (!ctx->has_feed) {
		ring_write(&ctx->ring, ev);
		return;
	}
	pthread_mutex_lock(&ctx->feed_mu);
	uint64_t s = ctx->feed.count(ctx->feed.user);
	ctx->feed.store(ctx->feed.user, s, 1, &ev);
	ctx->feed.reset(ctx->feed.user, s + 1);
	atomic_store_explicit(&ctx->count_seen, s + 1, memory_order_relaxed);
	pthread_mutex_unlock(&ctx->feed_mu);
}

/* An event on the recording thread. In a message the clock thread keeps
 * the time; outside one (idle handlers, input, code before the first
 * message) it sleeps, and the event reads the clock itself. */
static void write_main(tc_ctx *ctx, uint32_t id, bool in, bool method)
{
	if (status_of(ctx) < TC_STATUS_READY)
		return;
	/* A method-enter listener (or a signal handler) that runs traced code
	 * would record into the middle of this event. */
	if (ctx->in_record)
		return;
	ctx->in_record = true;
	if (method && in && ctx->cfg.on_method_enter)
		ctx->cfg.on_method_enter(ctx->cfg.enter_user, id);
	uint64_t now = ctx->in_dispatch && ctx->clock.running ? ring_now(&ctx->ring) : clock_refresh(&ctx->clock);
	write_ring(ctx, tc_event_encode(in, id, now));
	ctx->in_record = false;
}

/* The calling thread's ring when it is not the recording thread: its own,
 * handed out at its first event (TC_THREADS_ALL), else NULL. */
static thread_ring *other_ring(tc_ctx *ctx, thread_set **ts_out)
{
	thread_set *ts = tset_of(ctx);
	if (!ts)
		return NULL;
	bool filtered;
	thread_ring *tr = thread_set_here(ts, &ctx->status, NULL, &filtered);
	if (!tr) {
		if (!filtered) /* a thread the filter said no to does not record: nothing dropped */
			atomic_fetch_add_explicit(&ts->hdr->dropped, 1, memory_order_relaxed);
		return NULL;
	}
	*ts_out = ts;
	return tr;
}

/* An event on another thread's ring: the time is the clock thread's while
 * it ticks (a message runs; the acquire pairs with the store that turns the
 * ticking on after setting the time), else the clock's. */
static void write_other(tc_ctx *ctx, thread_set *ts, thread_ring *tr, uint32_t id, bool in)
{
	if (tr->in_record || atomic_load_explicit(&tr->ring.hdr->status, memory_order_relaxed) < TC_STATUS_READY)
		return;
	tr->in_record = true;
	uint64_t now = atomic_load_explicit(&ts->hdr->ticking, memory_order_acquire)
	                       ? atomic_load_explicit(&ts->hdr->now_ms, memory_order_relaxed)
	                       : clock_grid_ms(&ctx->clock, ctx_ms(ctx, ctx_clock_ns(ctx)));
	ring_write(&tr->ring, tc_event_encode(in, id, now));
	tr->in_record = false;
}

void tc_record(tc_ctx *ctx, uint32_t id, bool in)
{
	if (id >= TC_ID_MAX)
		return;
	/* the thread first: only the recording thread may use the ring unlocked */
	if (on_record_thread(ctx)) {
		write_main(ctx, id, in, true);
		return;
	}
	thread_set *ts;
	thread_ring *tr = other_ring(ctx, &ts);
	if (tr)
		write_other(ctx, ts, tr, id, in);
}

int tc_feed_attach(tc_ctx *ctx, const tc_feed *feed, const char *name, uint64_t *token, tc_rt_error *err)
{
	uint64_t tok = 0;
	if (token)
		*token = 0;
	if (on_record_thread(ctx)) {
		if (!feed->store)
			return tc_rt_set(err, TC_RT_EINVAL, "the recording thread's feed must store the runtime's events");
		pthread_mutex_lock(&ctx->feed_mu);
		tc_feed old = ctx->feed;
		bool had = ctx->has_feed;
		/* the newest events move into it, numbered as they are */
		if (had)
			ring_feed_fill(feed, NULL, &old, record_capacity(ctx));
		else
			ring_feed_fill(feed, &ctx->ring, NULL, 0);
		ctx->feed = *feed;
		ctx->has_feed = true;
		pthread_mutex_unlock(&ctx->feed_mu);
		if (had && old.release)
			old.release(old.user);
		if (name)
			ring_set_thread(&ctx->ring, ctx->ring.hdr->tid, name);
		return TC_RT_OK;
	}
	thread_set *ts = tset_of(ctx);
	if (!ts)
		return tc_rt_set(err, TC_RT_ESTATE, "only the recording thread records");
	if (!thread_set_attach(ts, &ctx->status, name, feed, &tok))
		return tc_rt_set(err, TC_RT_ENOSPC, "every one of the %u thread rings is in use", ts->max);
	if (token)
		*token = tok;
	return TC_RT_OK;
}

void tc_feed_ended(tc_ctx *ctx, uint64_t token)
{
	thread_set *ts = tset_of(ctx);
	if (ts)
		thread_set_ended(ts, token);
}

void tc_feed_pull(tc_ctx *ctx)
{
	if (on_record_thread(ctx)) {
		pull_main_chunks(ctx);
		return;
	}
	thread_set *ts = tset_of(ctx);
	if (ts)
		thread_set_pull_here(ts);
}

int64_t tc_clock_kick(tc_ctx *ctx)
{
	return clock_kick(&ctx->clock);
}

int64_t tc_clock_word(const tc_ctx *ctx)
{
	return atomic_load_explicit(&ctx->clock.word, memory_order_relaxed);
}

void *tc_threads_base(const tc_ctx *ctx, size_t *size)
{
	thread_set *ts = tset_of(ctx);
	if (ts && size)
		*size = ts->mem.size;
	return ts ? ts->hdr : NULL;
}

void tc_threads_dropped(tc_ctx *ctx, uint64_t events)
{
	thread_set *ts = tset_of(ctx);
	if (ts)
		atomic_fetch_add_explicit(&ts->hdr->dropped, events, memory_order_relaxed);
}

void tc_thread_name(tc_ctx *ctx, const char *name)
{
	if (!name)
		return;
	if (on_record_thread(ctx)) {
		ring_set_thread(&ctx->ring, ctx->ring.hdr->tid, name);
		return;
	}
	thread_set *ts = tset_of(ctx);
	if (ts)
		thread_set_here(ts, &ctx->status, name, NULL);
}

/* ---- sections ---- */

int tc_section_id(tc_ctx *ctx, const char *name, uint32_t *id, tc_rt_error *err)
{
	size_t len = name ? strlen(name) : 0;
	if (len == 0)
		return tc_rt_set(err, TC_RT_EINVAL, "a section needs a name");
	/* kept to 63 bytes, cut between UTF-8 characters */
	if (len >= TC_RING_NAME_SIZE) {
		len = TC_RING_NAME_SIZE - 1;
		while (len > 0 && ((unsigned char)name[len] & 0xC0) == 0x80)
			len--;
	}
	int rc = tc_rt_set(err, TC_RT_ENOSPC, "%u section names taken already: \"%.*s\" not recorded", TC_SECTION_MAX,
	                 (int)len, name);
	/* mu: one registration at a time; the ring lock, shared: the ring is
	 * not replaced meanwhile (replace_ring copies the names under it) */
	pthread_mutex_lock(&ctx->mu);
	ring_share(ctx);
	for (uint32_t n = 0; n < TC_SECTION_MAX; n++) {
		char *e = ring_name(&ctx->ring, n);
		if (!e[0]) {
			memcpy(e, name, len);
			e[len] = '\0';
		} else if (strlen(e) != len || memcmp(e, name, len) != 0) {
			continue;
		}
		*id = TC_ID_SECTION + n;
		rc = TC_RT_OK;
		if (err)
			err->code = 0;
		break;
	}
	ring_unshare(ctx);
	pthread_mutex_unlock(&ctx->mu);
	return rc;
}

/* The id to write for a section begun (pushed) or ended (popped), or 0 for
 * one too deep to record. */
static uint32_t section_push(section_stack *s, uint32_t id)
{
	if (s->n < TC_SECTION_DEPTH)
		s->id[s->n] = id;
	return s->n++ < TC_SECTION_DEPTH ? id : 0;
}

static uint32_t section_pop(section_stack *s)
{
	if (s->n == 0)
		return 0;
	return --s->n < TC_SECTION_DEPTH ? s->id[s->n] : 0;
}

/* Section events go where the thread's method events go, through the
 * same guard; they are not methods (no on_method_enter). */
static void section_event(tc_ctx *ctx, uint32_t id, bool begin)
{
	if (on_record_thread(ctx)) {
		id = begin ? section_push(&ctx->sections, id) : section_pop(&ctx->sections);
		if (id)
			write_main(ctx, id, begin, false);
		return;
	}
	thread_set *ts;
	thread_ring *tr = other_ring(ctx, &ts);
	if (!tr)
		return;
	id = begin ? section_push(&tr->sections, id) : section_pop(&tr->sections);
	if (id)
		write_other(ctx, ts, tr, id, begin);
}

int tc_section_begin(tc_ctx *ctx, const char *name, tc_rt_error *err)
{
	uint32_t id;
	TRY(tc_section_id(ctx, name, &id, err));
	section_event(ctx, id, true);
	return TC_RT_OK;
}

void tc_section_end(tc_ctx *ctx)
{
	section_event(ctx, 0, false);
}

tc_index tc_mark(const tc_ctx *ctx)
{
	read_begin(ctx);
	tc_index idx = { record_count(ctx) };
	read_end(ctx);
	return idx;
}

bool tc_index_valid(const tc_ctx *ctx, tc_index idx)
{
	read_begin(ctx);
	bool valid = ctx->has_feed ? ring_feed_index_valid(&ctx->feed, record_capacity(ctx), idx.seq)
	                           : ring_index_valid(&ctx->ring, idx.seq);
	read_end(ctx);
	return valid;
}

int tc_copy_since(const tc_ctx *ctx, tc_index idx, uint64_t **out, size_t *n, tc_rt_error *err)
{
	read_begin(ctx);
	int rc = ctx->has_feed ? ring_feed_copy_since(&ctx->feed, record_capacity(ctx), idx.seq, out, n, err)
	                       : ring_copy_since(&ctx->ring, idx.seq, out, n, err);
	read_end(ctx);
	return rc;
}

uint64_t tc_now_ms(const tc_ctx *ctx)
{
	ring_share(ctx);
	uint64_t ms = ring_now(&ctx->ring);
	ring_unshare(ctx);
	return ms;
}

uint64_t tc_written(const tc_ctx *ctx)
{
	read_begin(ctx);
	uint64_t w = record_count(ctx);
	read_end(ctx);
	return w;
}

void *tc_ring_base(const tc_ctx *ctx, size_t *size)
{
	ring_share(ctx);
	if (size)
		*size = ctx->ring.mem.size;
	void *base = ctx->ring.hdr;
	ring_unshare(ctx);
	return base;
}

/* The DISPATCH markers bypass tc_record's guard and id check (Matrix wrote
 * them whatever the listener state), not its thread check: the ring has one
 * writer. */
static void write_marker(tc_ctx *ctx, bool in, uint64_t ms)
{
	if (on_record_thread(ctx) && status_of(ctx) >= TC_STATUS_READY)
		write_ring(ctx, tc_event_encode(in, TC_ID_DISPATCH, ms));
}

/* A message costs no allocation and no wake-up of the tracer thread: the
 * watchdog (clock thread) reads the message's state from these stores. */
void tc_dispatch_begin(tc_ctx *ctx)
{
	if (ctx->in_dispatch) /* nested begin: Matrix's wrapper also ignored it */
		return;
	ctx->in_dispatch = true;
	ctx->vsync = false;
	ctx->message_token++;
	uint64_t now = ctx_clock_ns(ctx);
	ctx->dispatch_begin_ns = now;
	uint64_t ms = ring_raise_now(&ctx->ring, clock_grid_ms(&ctx->clock, ctx_ms(ctx, now)));
	write_marker(ctx, true, ms);
	/* the ANR copy starts at the DISPATCH-in marker, the event before the mark */
	atomic_store_explicit(&ctx->msg_begin_ns, now, memory_order_relaxed);
	atomic_store_explicit(&ctx->msg_mark, record_count(ctx), memory_order_relaxed);
	atomic_store_explicit(&ctx->msg_state, 2 * ctx->message_token + 1, memory_order_release);
	clock_set_busy(&ctx->clock, true);
	/* other threads take the clock thread's time now: the time first */
	thread_set *ts = tset_of(ctx);
	if (ts && ctx->clock.running) {
		thread_set_now(ts, ms);
		thread_set_ticking(ts, true);
	}
	if (ctx_started(ctx))
		for (size_t k = 0; k < N_TRACERS; k++)
			if (tracers[k]->message_begin)
				tracers[k]->message_begin(ctx);
}

void tc_dispatch_end(tc_ctx *ctx)
{
	if (!ctx->in_dispatch)
		return;
	ctx->in_dispatch = false;
	uint64_t end_ns = ctx_clock_ns(ctx);
	uint64_t ms = ring_raise_now(&ctx->ring, clock_grid_ms(&ctx->clock, ctx_ms(ctx, end_ns)));
	write_marker(ctx, false, ms);
	atomic_store_explicit(&ctx->msg_state, 2 * ctx->message_token, memory_order_release);
	thread_set *ts = tset_of(ctx);
	if (ts)
		thread_set_ticking(ts, false);
	clock_set_busy(&ctx->clock, false);
	bool vsync = ctx->vsync;
	ctx->vsync = false;
	if (!ctx_started(ctx))
		return;
	for (size_t k = 0; k < N_TRACERS; k++)
		if (tracers[k]->message_end)
			tracers[k]->message_end(ctx, ctx->dispatch_begin_ns, end_ns);
	if (vsync)
		tracers_frame(ctx, ctx->vsync_ns, end_ns);
}

void tc_vsync(tc_ctx *ctx, uint64_t vsync_ns)
{
	ctx->vsync = true;
	ctx->vsync_ns = vsync_ns;
}

void tc_set_view_source(tc_ctx *ctx, int source)
{
	if (source >= TC_VIEW_NONE && source <= TC_VIEW_FRAME_METRICS)
		atomic_store_explicit(&ctx->vp.source, source, memory_order_relaxed);
}

void tc_view_phase(tc_ctx *ctx, int phase)
{
	if (ctx_started(ctx))
		vp_mark(ctx, phase, ctx_clock_ns(ctx));
}

void tc_frame(tc_ctx *ctx, uint64_t intended_ns, uint64_t end_ns)
{
	if (ctx_started(ctx))
		tracers_frame(ctx, intended_ns, end_ns);
}

void tc_set_frame_interval(tc_ctx *ctx, uint64_t interval_ns)
{
	if (interval_ns)
		atomic_store(&ctx->frame_interval_ns, interval_ns);
}

void tc_set_scene(tc_ctx *ctx, const char *scene)
{
	if (!scene)
		return;
	pthread_mutex_lock(&ctx->mu);
	if (strncmp(ctx->scene, scene, sizeof ctx->scene - 1) != 0) {
		snprintf(ctx->scene, sizeof ctx->scene, "%s", scene);
		atomic_fetch_add_explicit(&ctx->scene_gen, 1, memory_order_release);
	}
	pthread_mutex_unlock(&ctx->mu);
}

char *ctx_scene(tc_ctx *ctx)
{
	pthread_mutex_lock(&ctx->mu);
	char *s = strdup(ctx->scene);
	pthread_mutex_unlock(&ctx->mu);
	return s;
}

void ctx_scene_cached(tc_ctx *ctx, char buf[SCENE_MAX], uint32_t *gen)
{
	if (atomic_load_explicit(&ctx->scene_gen, memory_order_acquire) == *gen)
		return;
	pthread_mutex_lock(&ctx->mu);
	memcpy(buf, ctx->scene, SCENE_MAX);
	*gen = atomic_load_explicit(&ctx->scene_gen, memory_order_relaxed);
	pthread_mutex_unlock(&ctx->mu);
}

void tc_set_foreground(tc_ctx *ctx, bool fg)
{
	atomic_store(&ctx->foreground, fg);
}

void tc_ctx_poll(tc_ctx *ctx)
{
	if (ctx->cfg.threads)
		return;
	block_watch(ctx, ctx_clock_ns(ctx));
	tracers_tick(ctx, ctx_clock_ns(ctx));
	task_queue_poll(&ctx->tasks);
}

int ctx_analyse_events(tc_stack *st, const uint64_t *ev, size_t n, bool strict, uint64_t end_ms)
{
	TRY(tc_stack_build(st, ev, n, strict, end_ms));
	tc_stack_trim(st, TC_TRIM_TARGET);
	return TC_RT_OK;
}

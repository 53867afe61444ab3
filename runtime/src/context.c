/* context.c: the context's life, status, recording and message fan-out.
 * Tracers hear of a message in a fixed order (ANR, slow message, frames);
 * Matrix kept its looper listeners in a HashMap, so its order was unspecified. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"
#include "error.h"

void tc_config_init(tc_config *c)
{
	memset(c, 0, sizeof *c);
	c->capacity = 1000000;
	c->clock_resolution_ms = 1;
	c->threads = true;
	c->tracers = TC_TRACER_ALL;
	c->expire_ms = 10000;
	c->evil_threshold_ms = 700;
	c->lag_ms = 2000;
	c->anr_ms = 5000;
	c->anr_invalid_ms = 6000;
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
	return ctx->cfg.clock.now_ns(ctx->cfg.clock.user);
}

uint64_t ctx_ms(const tc_ctx *ctx, uint64_t ns)
{
	return ns > ctx->base_ns ? (ns - ctx->base_ns) / 1000000u : 0;
}

static int status_of(const tc_ctx *ctx)
{
	return atomic_load_explicit(&ctx->ring.hdr->status, memory_order_acquire);
}

static void set_status(tc_ctx *ctx, int s)
{
	atomic_store_explicit(&ctx->ring.hdr->status, s, memory_order_release);
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
		return TC_OK;
	*dst = strdup(src);
	return *dst ? TC_OK : TC_ENOMEM;
}

static int check_config(const tc_config *cfg, tc_error *err);

static void expire(tc_ctx *ctx, void *arg)
{
	(void)arg;
	/* Matrix's checkStartExpired: never started, so stop recording. The
	 * memory stays until tc_ctx_free: a Java writer may hold its address. */
	int32_t ready = TC_STATUS_READY;
	if (atomic_compare_exchange_strong(&ctx->ring.hdr->status, &ready, TC_STATUS_EXPIRED_START))
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AppMethodBeat", "not started within %u ms: recording stopped",
		        ctx->cfg.expire_ms);
}

int tc_ctx_new(tc_ctx **out, const tc_config *cfg, tc_error *err)
{
	*out = NULL;
	if (!cfg)
		return tc_fail(err, TC_EINVAL, "no config");
	TRY(check_config(cfg, err));
	tc_ctx *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return tc_fail(err, TC_ENOMEM, "context");
	ctx->cfg = *cfg;
	if (!ctx->cfg.clock.now_ns) {
		ctx->cfg.clock.now_ns = clock_default_now_ns;
		ctx->cfg.clock.user = NULL;
	}
	if (dup_opt(&ctx->buffer_path, cfg->buffer_path) || dup_opt(&ctx->splash, cfg->splash_activities) ||
	    dup_opt(&ctx->report_path, cfg->report_path)) {
		tc_ctx_free(ctx);
		return tc_fail(err, TC_ENOMEM, "config strings");
	}
	ctx->cfg.buffer_path = ctx->buffer_path;
	ctx->cfg.splash_activities = ctx->splash;
	ctx->cfg.report_path = ctx->report_path;
	if (pthread_mutex_init(&ctx->mu, NULL)) {
		free(ctx->buffer_path); free(ctx->splash); free(ctx->report_path); free(ctx);
		return tc_fail(err, TC_ETHREAD, "context mutex");
	}
	strcpy(ctx->scene, "default");
	atomic_store(&ctx->foreground, true);
	atomic_store(&ctx->frame_interval_ns, cfg->frame_interval_ns);
	ctx->record_thread = pthread_self();
	ctx->st.app_scene = INT32_MIN;
	ctx->base_ns = ctx_clock_ns(ctx);

	ring_params rp = {
		.capacity = cfg->capacity, .path = ctx->buffer_path, .time_base_ns = ctx->base_ns,
		.wall_base_ms = probe_wall_ms(ctx), .pid = (uint32_t)getpid(),
		.resolution_ms = cfg->clock_resolution_ms ? cfg->clock_resolution_ms : 1,
	};
	int rc = ring_open(&ctx->ring, &rp, err);
	if (rc == TC_OK)
		rc = clock_start(&ctx->clock, &ctx->ring, ctx->cfg.clock, ctx->base_ns, rp.resolution_ms,
		                 cfg->threads, err);
	if (rc == TC_OK)
		rc = worker_start(&ctx->worker, ctx, ctx->cfg.clock, cfg->threads, err);
	if (rc == TC_OK && cfg->expire_ms)
		rc = worker_post(&ctx->worker, cfg->expire_ms, EXPIRE_TOKEN, expire, NULL, NULL);
	if (rc != TC_OK) {
		if (rc == TC_ENOMEM && (!err || err->code != TC_ENOMEM))
			tc_fail(err, rc, "context");
		tc_ctx_free(ctx);
		return rc;
	}
	*out = ctx;
	return TC_OK;
}

void tc_ctx_free(tc_ctx *ctx)
{
	if (!ctx)
		return;
	if (ctx->ring.hdr)
		set_status(ctx, TC_STATUS_RELEASED);
	clock_stop(&ctx->clock);
	worker_stop(&ctx->worker);
	ring_close(&ctx->ring);
	frame_free(ctx);
	startup_free(ctx);
	pthread_mutex_destroy(&ctx->mu);
	free(ctx->buffer_path);
	free(ctx->splash);
	free(ctx->report_path);
	free(ctx);
}

void tc_ctx_bind_thread(tc_ctx *ctx)
{
	ctx->record_thread = pthread_self();
}

static int check_config(const tc_config *cfg, tc_error *err)
{
	if (cfg->frame_interval_ns == 0 || cfg->fps_slice_ms == 0)
		return tc_fail(err, TC_EINVAL, "frame interval and fps slice must be positive");
	if (!(cfg->drop_normal <= cfg->drop_middle && cfg->drop_middle <= cfg->drop_high &&
	      cfg->drop_high <= cfg->drop_frozen))
		return tc_fail(err, TC_EINVAL, "dropped-frame thresholds must ascend (normal <= middle <= high <= frozen)");
	return TC_OK;
}

int tc_reconfigure(tc_ctx *ctx, const tc_config *cfg, tc_error *err)
{
	if (status_of(ctx) == TC_STATUS_STARTED)
		return tc_fail(err, TC_ESTATE, "reconfigure while started");
	TRY(check_config(cfg, err));
	char *splash = NULL, *report = NULL;
	if (dup_opt(&splash, cfg->splash_activities) || dup_opt(&report, cfg->report_path)) {
		free(splash);
		return tc_fail(err, TC_ENOMEM, "config strings");
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
	ctx->cfg.splash_activities = splash;
	ctx->cfg.report_path = report;
	pthread_mutex_unlock(&ctx->mu);
	atomic_store(&ctx->frame_interval_ns, cfg->frame_interval_ns);
	return TC_OK;
}

int tc_start(tc_ctx *ctx, tc_error *err)
{
	int s = status_of(ctx);
	if (s == TC_STATUS_STARTED)
		return TC_OK;
	if (s != TC_STATUS_READY && s != TC_STATUS_STOPPED && s != TC_STATUS_EXPIRED_START)
		return tc_fail(err, TC_ESTATE, "cannot start from status %d", s);
	worker_cancel(&ctx->worker, EXPIRE_TOKEN);
	set_status(ctx, TC_STATUS_STARTED);
	return TC_OK;
}

void tc_stop(tc_ctx *ctx)
{
	int32_t started = TC_STATUS_STARTED;
	if (!atomic_compare_exchange_strong(&ctx->ring.hdr->status, &started, TC_STATUS_STOPPED))
		ctx_log(ctx, TC_LOG_WARN, "Matrix.AppMethodBeat", "stop in status %d ignored", started);
}

int tc_status(const tc_ctx *ctx)
{
	return status_of(ctx);
}

bool tc_is_alive(const tc_ctx *ctx)
{
	return status_of(ctx) == TC_STATUS_STARTED;
}

static bool on_record_thread(const tc_ctx *ctx)
{
	return pthread_equal(pthread_self(), ctx->record_thread);
}

void tc_record(tc_ctx *ctx, uint32_t id, bool in)
{
	if (id >= TC_ID_MAX || status_of(ctx) < TC_STATUS_READY || !on_record_thread(ctx))
		return;
	/* A method-enter listener (or a signal handler) that runs traced code
	 * would record into the middle of this event. */
	if (ctx->in_record)
		return;
	ctx->in_record = true;
	if (in && ctx->cfg.on_method_enter)
		ctx->cfg.on_method_enter(ctx->cfg.enter_user, id);
	uint64_t now = ctx->clock.running ? ring_now(&ctx->ring) : clock_refresh(&ctx->clock);
	ring_write(&ctx->ring, tc_event_encode(in, id, now));
	ctx->in_record = false;
}

tc_index tc_mark(const tc_ctx *ctx)
{
	return (tc_index){ ring_seq(&ctx->ring) };
}

bool tc_index_valid(const tc_ctx *ctx, tc_index idx)
{
	return ring_index_valid(&ctx->ring, idx.seq);
}

int tc_copy_since(const tc_ctx *ctx, tc_index idx, uint64_t **out, size_t *n, tc_error *err)
{
	return ring_copy_since(&ctx->ring, idx.seq, out, n, err);
}

uint64_t tc_now_ms(const tc_ctx *ctx)
{
	return ring_now(&ctx->ring);
}

uint64_t tc_written(const tc_ctx *ctx)
{
	return ring_seq(&ctx->ring);
}

void *tc_ring_base(const tc_ctx *ctx, size_t *size)
{
	if (size)
		*size = ctx->ring.size;
	return ctx->ring.hdr;
}

/* The DISPATCH markers bypass tc_record's guard and id check (Matrix wrote
 * them whatever the listener state), not its thread check: the ring has one
 * writer. */
static void write_marker(tc_ctx *ctx, bool in, uint64_t ms)
{
	if (status_of(ctx) >= TC_STATUS_READY && on_record_thread(ctx))
		ring_write(&ctx->ring, tc_event_encode(in, TC_ID_DISPATCH, ms));
}

void tc_dispatch_begin(tc_ctx *ctx)
{
	if (ctx->in_dispatch) /* nested begin: Matrix's wrapper also ignored it */
		return;
	ctx->in_dispatch = true;
	ctx->vsync = false;
	ctx->message_token++;
	ctx->dispatch_begin_ns = ctx_clock_ns(ctx);
	uint64_t ms = clock_refresh(&ctx->clock);
	clock_set_busy(&ctx->clock, true);
	write_marker(ctx, true, ms);
	if (!ctx_started(ctx))
		return;
	anr_begin(ctx);
	evil_begin(ctx);
}

void tc_dispatch_end(tc_ctx *ctx)
{
	if (!ctx->in_dispatch)
		return;
	ctx->in_dispatch = false;
	uint64_t end_ns = ctx_clock_ns(ctx);
	uint64_t ms = clock_refresh(&ctx->clock);
	write_marker(ctx, false, ms);
	clock_set_busy(&ctx->clock, false);
	bool vsync = ctx->vsync;
	ctx->vsync = false;
	if (!ctx_started(ctx)) {
		worker_cancel(&ctx->worker, MSG_TOKEN(ctx->message_token));
		return;
	}
	anr_end(ctx);
	evil_end(ctx, ctx->dispatch_begin_ns, end_ns);
	if (vsync)
		frame_add(ctx, ctx->vsync_ns, end_ns);
}

void tc_vsync(tc_ctx *ctx, uint64_t frame_time_ns)
{
	ctx->vsync = true;
	ctx->vsync_ns = frame_time_ns;
}

void tc_frame(tc_ctx *ctx, uint64_t intended_ns, uint64_t end_ns)
{
	if (ctx_started(ctx))
		frame_add(ctx, intended_ns, end_ns);
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
	snprintf(ctx->scene, sizeof ctx->scene, "%s", scene);
	pthread_mutex_unlock(&ctx->mu);
}

char *ctx_scene(tc_ctx *ctx)
{
	pthread_mutex_lock(&ctx->mu);
	char *s = strdup(ctx->scene);
	pthread_mutex_unlock(&ctx->mu);
	return s;
}

void tc_set_foreground(tc_ctx *ctx, bool fg)
{
	atomic_store(&ctx->foreground, fg);
}

void tc_ctx_poll(tc_ctx *ctx)
{
	worker_poll(&ctx->worker);
}

int analyse_events(tc_stack *st, const uint64_t *ev, size_t n, bool strict, uint64_t end_ms)
{
	TRY(tc_stack_build(st, ev, n, strict, end_ms));
	tc_stack_trim(st, TC_TRIM_TARGET);
	return TC_OK;
}

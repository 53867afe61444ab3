/* block_context.c: the block context of a slow message (block_context.h). */
#include "block_context.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context.h"
#include "json.h"

/* utime + stime of a /proc stat file, in ns; -1 when it cannot be read.
 * proc(5): fields 14 and 15, counted in clock ticks (USER_HZ, 100 on
 * Android and Linux: a 10 ms resolution, fine against a 700 ms threshold). */
static int64_t stat_cpu_ns(const char *path)
{
	char buf[1024];
	char *f[16];
	/* after ")": state is field 0, utime 11, stime 12 */
	if (procinfo_read_small(path, buf, sizeof buf) < 0 || procinfo_stat_fields(buf, f, 16) < 13)
		return -1;
	long long v[2] = { -1, -1 };
	for (int k = 0; k < 2; k++) {
		char *end;
		long long x = strtoll(f[11 + k], &end, 10);
		v[k] = end == f[11 + k] ? -1 : x;
	}
	long hz = sysconf(_SC_CLK_TCK);
	if (v[0] < 0 || v[1] < 0 || hz <= 0)
		return -1;
	return (int64_t)(v[0] + v[1]) * (1000000000 / hz);
}

/* The second field of a schedstat file (the scheduler's run_delay: ns the
 * thread was runnable but not running, Documentation/scheduler/sched-stats),
 * or -1: the kernel may be built without CONFIG_SCHED_INFO. */
static int64_t schedstat_runq_ns(const char *path)
{
	char buf[128];
	if (procinfo_read_small(path, buf, sizeof buf) < 0)
		return -1;
	char *p = buf, *end;
	strtoull(p, &end, 10);
	if (end == p)
		return -1;
	p = end;
	unsigned long long v = strtoull(p, &end, 10);
	return end == p || v > INT64_MAX ? -1 : (int64_t)v;
}

static void default_cpu(uint32_t tid, int64_t *thread_ns, int64_t *runq_ns, int64_t *process_ns)
{
	char path[64];
	*thread_ns = *runq_ns = -1;
	if (tid) {
		snprintf(path, sizeof path, "/proc/self/task/%" PRIu32 "/stat", tid);
		*thread_ns = stat_cpu_ns(path);
		snprintf(path, sizeof path, "/proc/self/task/%" PRIu32 "/schedstat", tid);
		*runq_ns = schedstat_runq_ns(path);
	}
	*process_ns = stat_cpu_ns("/proc/self/stat");
}

static void take(tc_ctx *ctx, block_sample *s, uint64_t now_ns)
{
	s->at_ns = now_ns;
	uint32_t tid = ctx->ring.hdr ? ctx->ring.hdr->tid : 0;
	if (ctx->cfg.probe.cpu_ns)
		ctx->cfg.probe.cpu_ns(ctx->cfg.probe.user, tid, &s->thread_cpu_ns, &s->thread_runq_ns,
		                      &s->process_cpu_ns);
	else
		default_cpu(tid, &s->thread_cpu_ns, &s->thread_runq_ns, &s->process_cpu_ns);
	for (int k = 0; k < BLOCK_GC_N; k++)
		s->gc[k] = -1;
	/* the JVM's own counters: only the Java glue knows them (an upcall) */
	if (ctx->cfg.probe.gc_stats && !ctx->cfg.probe.gc_stats(ctx->cfg.probe.user, s->gc))
		for (int k = 0; k < BLOCK_GC_N; k++)
			s->gc[k] = -1;
}

void block_watch(tc_ctx *ctx, uint64_t now_ns)
{
	if (!ctx->cfg.block_context || !ctx_started(ctx))
		return;
	uint64_t state = atomic_load_explicit(&ctx->msg_state, memory_order_acquire);
	uint64_t token = state >> 1;
	if (!(state & 1) || token == ctx->block.seen)
		return; /* no message running, or this one is sampled */
	ctx->block.seen = token;
	block_state *b = &ctx->block;
	atomic_store_explicit(&b->token, 0, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	block_sample s;
	take(ctx, &s, now_ns);
	atomic_store_explicit(&b->at_ns, s.at_ns, memory_order_relaxed);
	atomic_store_explicit(&b->thread_cpu_ns, s.thread_cpu_ns, memory_order_relaxed);
	atomic_store_explicit(&b->thread_runq_ns, s.thread_runq_ns, memory_order_relaxed);
	atomic_store_explicit(&b->process_cpu_ns, s.process_cpu_ns, memory_order_relaxed);
	for (int k = 0; k < BLOCK_GC_N; k++)
		atomic_store_explicit(&b->gc[k], s.gc[k], memory_order_relaxed);
	/* still this message? A sample taken after it ended would describe the
	 * next one's start, which that one samples itself */
	if (atomic_load_explicit(&ctx->msg_state, memory_order_acquire) == state)
		atomic_store_explicit(&b->token, token, memory_order_release);
}

/* The start sample of message token, or false. */
static bool start_of(tc_ctx *ctx, uint64_t token, block_sample *s)
{
	block_state *b = &ctx->block;
	if (atomic_load_explicit(&b->token, memory_order_acquire) != token)
		return false;
	s->at_ns = atomic_load_explicit(&b->at_ns, memory_order_relaxed);
	s->thread_cpu_ns = atomic_load_explicit(&b->thread_cpu_ns, memory_order_relaxed);
	s->thread_runq_ns = atomic_load_explicit(&b->thread_runq_ns, memory_order_relaxed);
	s->process_cpu_ns = atomic_load_explicit(&b->process_cpu_ns, memory_order_relaxed);
	for (int k = 0; k < BLOCK_GC_N; k++)
		s->gc[k] = atomic_load_explicit(&b->gc[k], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&b->token, memory_order_relaxed) == token;
}

static int64_t diff_ms(int64_t a, int64_t b)
{
	return a < 0 || b < 0 || b < a ? -1 : (b - a) / 1000000;
}

void block_end(tc_ctx *ctx, uint64_t token, uint64_t end_ns, block_ctx *out)
{
	memset(out, 0, sizeof *out);
	out->thread_cpu_ms = out->runq_ms = out->process_cpu_ms = -1;
	for (int k = 0; k < BLOCK_GC_N; k++)
		out->gc[k] = -1;
	block_sample a, z;
	if (!ctx->cfg.block_context || !token || !start_of(ctx, token, &a)) /* 0: no message */
		return;
	take(ctx, &z, end_ns);
	out->known = true;
	out->wall_ms = end_ns > a.at_ns ? (int64_t)((end_ns - a.at_ns) / 1000000u) : 0;
	out->thread_cpu_ms = diff_ms(a.thread_cpu_ns, z.thread_cpu_ns);
	out->runq_ms = diff_ms(a.thread_runq_ns, z.thread_runq_ns);
	out->process_cpu_ms = diff_ms(a.process_cpu_ns, z.process_cpu_ns);
	for (int k = 0; k < BLOCK_GC_N; k++)
		out->gc[k] = a.gc[k] < 0 || z.gc[k] < a.gc[k] ? -1 : z.gc[k] - a.gc[k];
}

/* Matrix's Utils.calculateCpuUsage, but for a thread that used no CPU in a
 * message under a second, which Matrix called "100%" (its guess at a clock
 * that could not be read); ours is read, or the key is left out. */
void block_usage(char *buf, size_t cap, int64_t cpu_ms, int64_t wall_ms)
{
	if (cpu_ms <= 0)
		snprintf(buf, cap, "0%%");
	else if (cpu_ms >= wall_ms)
		snprintf(buf, cap, "100%%");
	else
		snprintf(buf, cap, "%.2f%%", 100.0 * (double)cpu_ms / (double)wall_ms);
}

/* Where the wall time went: blocking GC first when it took half of it;
 * else the largest of running (busy), waiting runnable for a CPU (starved:
 * other threads or processes had the cores; known where the kernel keeps
 * schedstat) and neither (blocked: a sleep, a lock, I/O, a binder call).
 * Without the run-queue time: blocked when it ran less than half the time. */
static const char *cause_of(const block_ctx *b)
{
	if (!b->known || b->thread_cpu_ms < 0)
		return "unknown";
	if (b->gc[BLOCK_GC_BLOCKING_TIME] > 0 && 2 * b->gc[BLOCK_GC_BLOCKING_TIME] >= b->wall_ms)
		return "gc";
	if (b->runq_ms < 0)
		return 2 * b->thread_cpu_ms < b->wall_ms ? "blocked" : "busy";
	int64_t other = b->wall_ms - b->thread_cpu_ms - b->runq_ms;
	if (b->thread_cpu_ms >= b->runq_ms && b->thread_cpu_ms >= other)
		return "busy";
	return b->runq_ms >= other ? "starved" : "blocked";
}

static int percent(const block_ctx *b, int64_t ms)
{
	if (b->wall_ms <= 0 || ms >= b->wall_ms)
		return 100;
	return (int)(100 * ms / b->wall_ms);
}

static void put_why(tc_buf *sb, const block_ctx *b, const vp_result *vp)
{
	if (!b->known) {
		buf_puts(sb, "unknown: the message was not sampled at its start");
		if (vp)
			vp_why(sb, vp);
		return;
	}
	if (b->thread_cpu_ms < 0)
		buf_puts(sb, "CPU time unknown");
	else
		buf_printf(sb, "ran %d%% of the time: %s", percent(b, b->thread_cpu_ms), cause_of(b));
	if (b->runq_ms > 0)
		buf_printf(sb, "; waited %d%% for a CPU", percent(b, b->runq_ms));
	if (b->gc[BLOCK_GC_COUNT] > 0)
		buf_printf(sb, "; %lld GC, %lld ms", (long long)b->gc[BLOCK_GC_COUNT], (long long)b->gc[BLOCK_GC_TIME]);
	else if (b->gc[BLOCK_GC_COUNT] < 0)
		buf_puts(sb, "; GC unknown");
	if (vp)
		vp_why(sb, vp);
}

void block_kv_known(json *j, const char *key, int64_t v)
{
	if (v < 0)
		json_kv_string(j, key, "unknown");
	else
		json_kv_int(j, key, v);
}

void block_json(json *j, const block_ctx *b, const vp_result *vp)
{
	if (b->known && b->thread_cpu_ms >= 0) {
		char usage[16];
		block_usage(usage, sizeof usage, b->thread_cpu_ms, b->wall_ms);
		json_kv_string(j, "usage", usage);
	}
	json_key(j, "blockContext");
	json_begin_object(j);
	tc_buf why;
	buf_init(&why);
	put_why(&why, b, vp);
	json_kv_string(j, "why", why.str ? why.str : "");
	buf_free(&why);
	json_kv_string(j, "cause", cause_of(b));
	block_kv_known(j, "sampledMs", b->known ? b->wall_ms : -1);
	block_kv_known(j, "threadCpuMs", b->thread_cpu_ms);
	block_kv_known(j, "runQueueMs", b->runq_ms);
	block_kv_known(j, "processCpuMs", b->process_cpu_ms);
	block_kv_known(j, "gcCount", b->gc[BLOCK_GC_COUNT]);
	block_kv_known(j, "gcTimeMs", b->gc[BLOCK_GC_TIME]);
	block_kv_known(j, "blockingGcCount", b->gc[BLOCK_GC_BLOCKING_COUNT]);
	block_kv_known(j, "blockingGcTimeMs", b->gc[BLOCK_GC_BLOCKING_TIME]);
	if (vp)
		vp_json(j, vp);
	json_end_object(j);
}

static void cpu_gc_text(tc_buf *sb, const block_ctx *b)
{
	char usage[16] = "unknown";
	if (b->thread_cpu_ms >= 0)
		block_usage(usage, sizeof usage, b->thread_cpu_ms, b->wall_ms);
	buf_printf(sb, "|*\t\tCPU: %s (main thread %lld ms of %lld ms, %lld ms waiting for a CPU; process %lld ms)\n",
	           usage, (long long)b->thread_cpu_ms, (long long)b->wall_ms, (long long)b->runq_ms,
	           (long long)b->process_cpu_ms);
	if (b->gc[BLOCK_GC_COUNT] < 0)
		buf_puts(sb, "|*\t\tGC: unknown\n");
	else
		buf_printf(sb, "|*\t\tGC: %lld (%lld ms), blocking %lld (%lld ms)\n", (long long)b->gc[BLOCK_GC_COUNT],
		           (long long)b->gc[BLOCK_GC_TIME], (long long)b->gc[BLOCK_GC_BLOCKING_COUNT],
		           (long long)b->gc[BLOCK_GC_BLOCKING_TIME]);
}

void block_text(tc_buf *sb, const block_ctx *b, const vp_result *vp)
{
	buf_puts(sb, "|* [Block]\n|*\t\t");
	put_why(sb, b, vp);
	buf_putc(sb, '\n');
	if (b->known)
		cpu_gc_text(sb, b);
	if (vp)
		vp_text(sb, vp);
}

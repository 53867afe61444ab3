/* procinfo.c: what reports say about the device and the process, read from
 * /proc unless the probe supplies it. Everything here tolerates a missing or
 * unreadable file (SELinux hides /proc/stat from apps on Android 8+): the
 * value is then 0 or -1, as Matrix's readers return on error. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* mallinfo is not POSIX: glibc and bionic have it; musl has a <malloc.h>
 * without it, so the header alone proves nothing. */
#if defined(__GLIBC__) || defined(__BIONIC__)
#include <malloc.h>
#define HAVE_MALLINFO 1
#endif

#include "context.h"

uint64_t procinfo_wall_ms(tc_ctx *ctx)
{
	if (ctx->cfg.probe.wall_ms)
		return ctx->cfg.probe.wall_ms(ctx->cfg.probe.user);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

long procinfo_read_small(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, cap - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (long)n;
}

static int64_t meminfo_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	if (!p)
		return -1;
	return strtoll(p + strlen(key), NULL, 10);
}

int procinfo_stat_fields(char *text, char **field, int max)
{
	char *p = strrchr(text, ')');
	if (!p)
		return 0;
	int n = 0;
	char *save = NULL;
	for (char *tok = strtok_r(p + 1, " \n", &save); tok && n < max; tok = strtok_r(NULL, " \n", &save))
		field[n++] = tok;
	return n;
}

static const char *level_of(int64_t mem_bytes, long cores)
{
	/* DeviceUtil.evaluateDevice */
	const int64_t gb = INT64_C(1024) * 1024 * 1024;
	if (mem_bytes < 0)
		return "UN_KNOW";
	if (mem_bytes >= 8 * gb)
		return "BEST";
	if (mem_bytes >= 6 * gb)
		return "HIGH";
	if (mem_bytes >= 4 * gb)
		return "MIDDLE";
	if (mem_bytes >= 2 * gb)
		return cores >= 4 ? "MIDDLE" : cores > 0 ? "LOW" : "UN_KNOW";
	return "BAD";
}

static double cpu_app(void)
{
	char buf[4096];
	char *f[64];
	if (procinfo_read_small("/proc/self/stat", buf, sizeof buf) < 0)
		return 0;
	/* after ")": state is field 0, utime field 11, stime field 12 */
	if (procinfo_stat_fields(buf, f, 64) < 13)
		return 0;
	double app = strtod(f[11], NULL) + strtod(f[12], NULL);
	if (procinfo_read_small("/proc/stat", buf, sizeof buf) < 0 || strncmp(buf, "cpu ", 4) != 0)
		return 0;
	double total = 0;
	char *p = buf + 4;
	for (int i = 0; i < 7; i++)
		total += strtod(p, &p);
	return total > 0 ? app / total * 100.0 : 0;
}

void procinfo_device_info(tc_ctx *ctx, tc_device_info *out)
{
	if (ctx->cfg.probe.device_info)
		ctx->cfg.probe.device_info(ctx->cfg.probe.user, out);
	else
		tc_default_device_info(out);
}

void tc_default_device_info(tc_device_info *out)
{
	char buf[4096];
	int64_t total = -1, avail = -1;
	if (procinfo_read_small("/proc/meminfo", buf, sizeof buf) >= 0) {
		total = meminfo_kb(buf, "MemTotal:");
		avail = meminfo_kb(buf, "MemAvailable:");
	}
	out->mem_bytes = total >= 0 ? total * 1024 : -1;
	out->mem_free_kb = avail;
	out->machine = level_of(out->mem_bytes, sysconf(_SC_NPROCESSORS_CONF));
	out->cpu_app = cpu_app();
}

void procinfo_process_stat(tc_ctx *ctx, tc_process_stat *out)
{
	/* the recording thread's priority: Matrix read the process's
	 * (/proc/PID/stat), which is the main thread's on Android only */
	tc_default_process_stat_of(out, atomic_load_explicit(&ctx->record_tid, memory_order_relaxed));
	if (ctx->cfg.probe.process_stat)
		ctx->cfg.probe.process_stat(ctx->cfg.probe.user, out);
}

void tc_default_process_stat(tc_process_stat *out)
{
	tc_default_process_stat_of(out, 0);
}

void tc_default_process_stat_of(tc_process_stat *out, uint32_t tid)
{
	char buf[4096], path[64];
	char *f[64];
	/* Matrix's defaults when /proc cannot be read */
	out->priority = INT32_MIN;
	out->nice = INT32_MAX;
	out->dalvik_heap_kb = -1;
	out->native_heap_kb = -1;
	out->vm_size_kb = -1;
	/* proc(5): priority and nice are fields 18 and 19, i.e. 15 and 16 after ")" */
	if (tid)
		snprintf(path, sizeof path, "/proc/self/task/%" PRIu32 "/stat", tid);
	else
		snprintf(path, sizeof path, "/proc/self/stat");
	if (procinfo_read_small(path, buf, sizeof buf) >= 0 && procinfo_stat_fields(buf, f, 64) >= 17) {
		out->priority = strtoll(f[15], NULL, 10);
		out->nice = strtoll(f[16], NULL, 10);
	}
	if (procinfo_read_small("/proc/self/status", buf, sizeof buf) >= 0)
		out->vm_size_kb = meminfo_kb(buf, "VmSize:");
#ifdef HAVE_MALLINFO
	/* Debug.getNativeHeapAllocatedSize is mallinfo().uordblks */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	out->native_heap_kb = (int64_t)(mallinfo2().uordblks / 1024);
#else
	out->native_heap_kb = (int64_t)((size_t)mallinfo().uordblks / 1024);
#endif
#endif
}

char *procinfo_thread_stack(tc_ctx *ctx, int style)
{
	if (ctx->cfg.probe.thread_stack)
		return ctx->cfg.probe.thread_stack(ctx->cfg.probe.user, style);
	return NULL;
}

char *procinfo_process_name(tc_ctx *ctx)
{
	if (ctx->cfg.probe.process_name)
		return ctx->cfg.probe.process_name(ctx->cfg.probe.user);
	char buf[512];
	if (procinfo_read_small("/proc/self/cmdline", buf, sizeof buf) <= 0)
		return NULL;
	return strdup(buf); /* arguments are NUL-separated: this is argv[0] */
}

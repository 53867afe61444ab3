/* ring-open DIR [CAPACITY [RUNS]]: what starting the runtime costs the thread that
 * starts it (the app's main thread): tc_ctx_new with a ring file of CAPACITY events
 * (default Matrix's 1,000,000: an 8 MB file, its blocks reserved) in DIR, and with
 * threads = all (32 rings of 32,768 events: 8 MB more), and a heap ring for scale.
 * Prints the median and the largest of RUNS (default 21) runs of each, in ms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tc_runtime.h"

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void measure(const char *what, const char *path, uint32_t capacity, bool all, int runs)
{
	double *ms = calloc((size_t)runs, sizeof *ms);
	if (!ms)
		exit(2);
	for (int i = 0; i < runs; i++) {
		tc_config c;
		tc_config_init(&c);
		c.capacity = capacity;
		c.buffer_path = path;
		c.tracers = 0;
		c.expire_ms = 0;
		c.record_threads = all ? TC_THREADS_ALL : TC_THREADS_MAIN;
		tc_ctx *ctx;
		tc_rt_error err = { 0 };
		double t = now_ms();
		if (tc_ctx_new(&ctx, &c, &err) != TC_RT_OK) {
			fprintf(stderr, "ring-open: %s\n", err.message);
			exit(1);
		}
		ms[i] = now_ms() - t;
		tc_ctx_free(ctx);
		if (path) {
			char threads[4200];
			snprintf(threads, sizeof threads, "%s-threads", path);
			unlink(path);
			unlink(threads);
		}
	}
	qsort(ms, (size_t)runs, sizeof *ms, cmp);
	printf("%-44s median %7.2f ms, max %7.2f ms\n", what, ms[runs / 2], ms[runs - 1]);
	free(ms);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: ring-open DIR [CAPACITY [RUNS]]\n", stderr);
		return 2;
	}
	uint32_t capacity = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1000000;
	int runs = argc > 3 ? atoi(argv[3]) : 21;
	char path[4096];
	snprintf(path, sizeof path, "%s/ring-open-%d", argv[1], (int)getpid());
	char what[80];
	snprintf(what, sizeof what, "heap ring, %u events", capacity);
	measure(what, NULL, capacity, false, runs);
	snprintf(what, sizeof what, "ring file, %u events", capacity);
	measure(what, path, capacity, false, runs);
	snprintf(what, sizeof what, "ring file, %u events, threads = all", capacity);
	measure(what, path, capacity, true, runs);
	return 0;
}

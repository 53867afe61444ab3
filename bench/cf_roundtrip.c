/* Parse + write round-trip throughput of the class-file library on a corpus held in
 * memory, single thread: the peer of bench/peers/AsmRoundtrip.java.
 *
 * usage: cf-roundtrip [--deep] DIR|JAR [iterations]
 * --deep also decodes and re-encodes every method body through the code editor.
 * Prints one line per iteration and the median, in the same format as AsmRoundtrip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classfile.h"
#include "code.h"
#include "containers/walk.h"

typedef struct corpus {
	uint8_t **data;
	size_t *len;
	size_t n, cap, bytes;
} corpus;

static int add(void *ctx, const char *label, const uint8_t *data, size_t len)
{
	(void)label;
	corpus *c = ctx;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->data = realloc(c->data, c->cap * sizeof *c->data);
		c->len = realloc(c->len, c->cap * sizeof *c->len);
		if (!c->data || !c->len)
			return 1;
	}
	if (!(c->data[c->n] = malloc(len)))
		return 1;
	memcpy(c->data[c->n], data, len);
	c->len[c->n++] = len;
	c->bytes += len;
	return 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	bool deep = argc > 1 && !strcmp(argv[1], "--deep");
	int first = deep ? 2 : 1;
	if (argc <= first) {
		fprintf(stderr, "usage: cf-roundtrip [--deep] DIR|JAR [iterations]\n");
		return 2;
	}
	int iters = argc > first + 1 ? atoi(argv[first + 1]) : 10;
	corpus c = {0};
	tc_error err;
	tc_error_clear(&err);
	if (walk_classes(argv[first], add, &c, &err) != TC_OK) {
		fprintf(stderr, "%s: %s\n", argv[first], err.message);
		return 1;
	}
	printf("corpus classes=%zu bytes=%zu mode=%s\n", c.n, c.bytes, deep ? "deep" : "shallow");
	arena a, scratch;
	arena_init(&a);
	arena_init(&scratch);
	tc_buf out;
	buf_init(&out);
	double *mbs = calloc((size_t)iters, sizeof *mbs);
	size_t failed = 0, sink = 0;
	for (int it = -3; it < iters; it++) { /* three warm-up rounds */
		double t0 = now();
		for (size_t i = 0; i < c.n; i++) {
			arena_reset(&a);
			cf_class cls;
			tc_error_clear(&err);
			if (cf_parse(&cls, &a, c.data[i], c.len[i], &err) != TC_OK) {
				failed++;
				continue;
			}
			for (uint32_t m = 0; deep && m < cls.nmethods; m++) {
				if (!cf_method_code(&cls, &cls.methods[m]))
					continue;
				arena_reset(&scratch);
				code_editor *ed;
				if (code_open(&ed, &cls, &cls.methods[m], &scratch, &err) == TC_OK)
					code_commit(ed, &err);
			}
			buf_clear(&out);
			cf_write(&cls, &out, &err);
			sink += out.len;
		}
		double dt = now() - t0;
		if (it >= 0) {
			mbs[it] = c.bytes / dt / 1e6;
			printf("iteration %d ns=%.0f MB/s=%.1f\n", it, dt * 1e9, mbs[it]);
		}
	}
	qsort(mbs, (size_t)iters, sizeof *mbs, cmp);
	printf("median MB/s=%.1f failed=%zu (checksum %zu)\n", mbs[iters / 2], failed / (size_t)(iters + 3), sink);
	return 0;
}

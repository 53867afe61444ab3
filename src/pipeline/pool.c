#include "pipeline/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct shared {
	pool_fn fn;
	void *ctx;
	size_t n;
	atomic_size_t next;
	atomic_int stop; /* first non-zero result */
} shared;

typedef struct arg {
	shared *s;
	int worker;
} arg;

static void *loop(void *p)
{
	arg *a = p;
	shared *s = a->s;
	for (;;) {
		if (atomic_load(&s->stop))
			break;
		size_t i = atomic_fetch_add(&s->next, 1);
		if (i >= s->n)
			break;
		int rc = s->fn(s->ctx, i, a->worker);
		if (rc) {
			int zero = 0;
			atomic_compare_exchange_strong(&s->stop, &zero, rc);
		}
	}
	return NULL;
}

int pool_run(int threads, size_t n, pool_fn fn, void *ctx)
{
	shared s = {.fn = fn, .ctx = ctx, .n = n};
	atomic_init(&s.next, 0);
	atomic_init(&s.stop, 0);
	if (threads < 1)
		threads = 1;
	if ((size_t)threads > n)
		threads = n ? (int)n : 1;
	pthread_t *tids = calloc((size_t)threads, sizeof *tids);
	arg *args = calloc((size_t)threads, sizeof *args);
	int started = 0;
	if (tids && args) {
		for (int t = 1; t < threads; t++) {
			args[t] = (arg){&s, t};
			if (pthread_create(&tids[t], NULL, loop, &args[t]) != 0)
				break;
			started = t;
		}
	}
	arg self = {&s, 0};
	loop(&self);
	for (int t = 1; t <= started; t++)
		pthread_join(tids[t], NULL);
	free(tids);
	free(args);
	return atomic_load(&s.stop);
}

int pool_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

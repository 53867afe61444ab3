#include "pipeline/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

struct pool_queue {
	pthread_mutex_t mu;
	pthread_cond_t cv;  /* an index pushed, or the last item done, or a stop */
	size_t *v, head, len, cap;
	size_t running;     /* items not done yet: they may push more */
};

typedef struct shared {
	pool_fn fn, qfn;
	pool_queue *q;
	void *ctx;
	size_t n;
	atomic_size_t next;
	atomic_int stop; /* first non-zero result */
} shared;

pool_queue *pool_queue_new(void)
{
	pool_queue *q = calloc(1, sizeof *q);
	if (q && (pthread_mutex_init(&q->mu, NULL) || pthread_cond_init(&q->cv, NULL))) {
		free(q);
		q = NULL;
	}
	return q;
}

void pool_queue_free(pool_queue *q)
{
	if (!q)
		return;
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->cv);
	free(q->v);
	free(q);
}

int pool_queue_push(pool_queue *q, size_t index)
{
	pthread_mutex_lock(&q->mu);
	int rc = 0;
	if (q->len == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64;
		size_t *v = realloc(q->v, cap * sizeof *v);
		if (v) {
			q->v = v;
			q->cap = cap;
		} else {
			rc = -1;
		}
	}
	if (!rc) {
		q->v[q->len++] = index;
		pthread_cond_signal(&q->cv);
	}
	pthread_mutex_unlock(&q->mu);
	return rc;
}

static void stop_with(shared *s, int rc)
{
	int zero = 0;
	atomic_compare_exchange_strong(&s->stop, &zero, rc);
	if (s->q) {
		pthread_mutex_lock(&s->q->mu);
		pthread_cond_broadcast(&s->q->cv);
		pthread_mutex_unlock(&s->q->mu);
	}
}

/* The queue's indices, until the items are done and it is empty (or a stop). */
static void drain(shared *s, int worker)
{
	pool_queue *q = s->q;
	pthread_mutex_lock(&q->mu);
	for (;;) {
		if (atomic_load(&s->stop))
			break;
		if (q->head < q->len) {
			size_t i = q->v[q->head++];
			pthread_mutex_unlock(&q->mu);
			int rc = s->qfn(s->ctx, i, worker);
			if (rc)
				stop_with(s, rc);
			pthread_mutex_lock(&q->mu);
			continue;
		}
		if (!q->running)
			break;
		pthread_cond_wait(&q->cv, &q->mu);
	}
	pthread_cond_broadcast(&q->cv); /* the others see the same end */
	pthread_mutex_unlock(&q->mu);
}

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
		if (s->q) {
			pthread_mutex_lock(&s->q->mu);
			if (!--s->q->running)
				pthread_cond_broadcast(&s->q->cv);
			pthread_mutex_unlock(&s->q->mu);
		}
		if (rc)
			stop_with(s, rc);
	}
	if (s->q)
		drain(s, a->worker);
	return NULL;
}

int pool_run(int threads, size_t n, pool_fn fn, void *ctx)
{
	return pool_run_queue(threads, n, fn, NULL, NULL, ctx);
}

int pool_run_queue(int threads, size_t n, pool_fn fn, pool_queue *q, pool_fn qfn, void *ctx)
{
	shared s = {.fn = fn, .qfn = qfn, .q = q, .ctx = ctx, .n = n};
	atomic_init(&s.next, 0);
	atomic_init(&s.stop, 0);
	if (q) {
		q->running = n;
		q->head = q->len = 0;
	}
	if (threads < 1)
		threads = 1;
	if (!q && (size_t)threads > n)
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

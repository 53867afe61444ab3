/* task_queue.c: see task_queue.h. */
#include "task_queue.h"
#include "rt_error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "tc_runtime.h"
#include "os_thread.h"

struct task {
	uint64_t due_ns, token;
	task_run_fn run;
	task_drop_fn drop;
	void *arg;
	task *next;
};

static void finish(task *t, tc_ctx *ctx, bool run)
{
	if (run)
		t->run(ctx, t->arg);
	if (t->drop)
		t->drop(t->arg);
	free(t);
}

/* Pops the first task due at now, or NULL. Caller holds mu. */
static task *pop_due(task_queue *q, uint64_t now)
{
	task *t = q->head;
	if (!t || t->due_ns > now)
		return NULL;
	q->head = t->next;
	return t;
}

static void *loop(void *arg)
{
	task_queue *q = arg;
	os_thread_identify("tc-tracer", THREAD_NICE_TRACER);
	pthread_mutex_lock(&q->mu);
	while (!q->stopping) {
		uint64_t now = q->clock.now_ns(q->clock.user);
		task *t = pop_due(q, now);
		if (t) {
			pthread_mutex_unlock(&q->mu);
			finish(t, q->ctx, true);
			pthread_mutex_lock(&q->mu);
			continue;
		}
		if (!q->head) {
			pthread_cond_wait(&q->cv, &q->mu);
			continue;
		}
		/* Sleep until the first task is due by the context clock: once, for
		 * CLOCK_MONOTONIC, which the condition waits on; an injected clock
		 * may drift from it, so then at most 100 ms at a time. */
		uint64_t wait = q->head->due_ns - now;
		if (q->clock.now_ns != clock_default_now_ns && wait > 100000000u)
			wait = 100000000u;
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		uint64_t ns = (uint64_t)ts.tv_nsec + wait;
		ts.tv_sec += (time_t)(ns / 1000000000u);
		ts.tv_nsec = (long)(ns % 1000000000u);
		pthread_cond_timedwait(&q->cv, &q->mu, &ts);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

int task_queue_start(task_queue *q, tc_ctx *ctx, tc_clock clock, bool threaded, tc_rt_error *err)
{
	memset(q, 0, sizeof *q);
	q->ctx = ctx;
	q->clock = clock;
	q->threaded = threaded;
	pthread_condattr_t ca;
	if (pthread_mutex_init(&q->mu, NULL))
		return tc_rt_set(err, TC_RT_ETHREAD, "worker mutex");
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(&q->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (rc) {
		pthread_mutex_destroy(&q->mu);
		return tc_rt_set(err, TC_RT_ETHREAD, "worker condition: %s", strerror(rc));
	}
	if (threaded) {
		rc = pthread_create(&q->thread, NULL, loop, q);
		if (rc) {
			pthread_cond_destroy(&q->cv);
			pthread_mutex_destroy(&q->mu);
			return tc_rt_set(err, TC_RT_ETHREAD, "tracer thread: %s", strerror(rc));
		}
		q->running = true;
	}
	return TC_RT_OK;
}

void task_queue_stop(task_queue *q)
{
	if (!q->ctx)
		return;
	pthread_mutex_lock(&q->mu);
	q->stopping = true;
	pthread_cond_broadcast(&q->cv);
	pthread_mutex_unlock(&q->mu);
	if (q->running)
		pthread_join(q->thread, NULL);
	while (q->head) {
		task *t = q->head;
		q->head = t->next;
		finish(t, q->ctx, false);
	}
	pthread_cond_destroy(&q->cv);
	pthread_mutex_destroy(&q->mu);
	q->ctx = NULL;
}

int task_queue_post(task_queue *q, uint64_t delay_ms, uint64_t token, task_run_fn run, task_drop_fn drop, void *arg)
{
	task *t = malloc(sizeof *t);
	if (!t) {
		if (drop)
			drop(arg);
		return TC_RT_ENOMEM;
	}
	*t = (task){ q->clock.now_ns(q->clock.user) + delay_ms * 1000000u, token, run, drop, arg, NULL };
	if (!q->threaded && delay_ms == 0) {
		finish(t, q->ctx, true);
		return TC_RT_OK;
	}
	pthread_mutex_lock(&q->mu);
	if (q->stopping) {
		pthread_mutex_unlock(&q->mu);
		finish(t, q->ctx, false);
		return TC_RT_OK;
	}
	task **p = &q->head;
	while (*p && (*p)->due_ns <= t->due_ns)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
	pthread_cond_signal(&q->cv);
	pthread_mutex_unlock(&q->mu);
	return TC_RT_OK;
}

void task_queue_cancel(task_queue *q, uint64_t token)
{
	task *dropped = NULL;
	pthread_mutex_lock(&q->mu);
	for (task **p = &q->head; *p;) {
		task *t = *p;
		if (t->token == token) {
			*p = t->next;
			t->next = dropped;
			dropped = t;
		} else {
			p = &t->next;
		}
	}
	pthread_mutex_unlock(&q->mu);
	while (dropped) {
		task *t = dropped;
		dropped = t->next;
		finish(t, q->ctx, false);
	}
}

void task_queue_poll(task_queue *q)
{
	if (q->threaded)
		return;
	for (;;) {
		pthread_mutex_lock(&q->mu);
		task *t = pop_due(q, q->clock.now_ns(q->clock.user));
		pthread_mutex_unlock(&q->mu);
		if (!t)
			return;
		finish(t, q->ctx, true);
	}
}

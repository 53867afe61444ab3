/* task_queue.c: see task_queue.h. */
#include "task_queue.h"

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
static task *pop_due(task_queue *w, uint64_t now)
{
	task *t = w->head;
	if (!t || t->due_ns > now)
		return NULL;
	w->head = t->next;
	return t;
}

static void *loop(void *arg)
{
	task_queue *w = arg;
	os_thread_identify("tc-tracer", THREAD_NICE_TRACER);
	pthread_mutex_lock(&w->mu);
	while (!w->stopping) {
		uint64_t now = w->clock.now_ns(w->clock.user);
		task *t = pop_due(w, now);
		if (t) {
			pthread_mutex_unlock(&w->mu);
			finish(t, w->ctx, true);
			pthread_mutex_lock(&w->mu);
			continue;
		}
		if (!w->head) {
			pthread_cond_wait(&w->cv, &w->mu);
			continue;
		}
		/* Sleep until the first task is due by the context clock: once, for
		 * CLOCK_MONOTONIC, which the condition waits on; an injected clock
		 * may drift from it, so then at most 100 ms at a time. */
		uint64_t wait = w->head->due_ns - now;
		if (w->clock.now_ns != clock_default_now_ns && wait > 100000000u)
			wait = 100000000u;
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		uint64_t ns = (uint64_t)ts.tv_nsec + wait;
		ts.tv_sec += (time_t)(ns / 1000000000u);
		ts.tv_nsec = (long)(ns % 1000000000u);
		pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int task_queue_start(task_queue *w, tc_ctx *ctx, tc_clock clock, bool threaded, tc_error *err)
{
	memset(w, 0, sizeof *w);
	w->ctx = ctx;
	w->clock = clock;
	w->threaded = threaded;
	pthread_condattr_t ca;
	if (pthread_mutex_init(&w->mu, NULL))
		return tc_set(err, TC_ETHREAD, "worker mutex");
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (rc) {
		pthread_mutex_destroy(&w->mu);
		return tc_set(err, TC_ETHREAD, "worker condition: %s", strerror(rc));
	}
	if (threaded) {
		rc = pthread_create(&w->thread, NULL, loop, w);
		if (rc) {
			pthread_cond_destroy(&w->cv);
			pthread_mutex_destroy(&w->mu);
			return tc_set(err, TC_ETHREAD, "tracer thread: %s", strerror(rc));
		}
		w->running = true;
	}
	return TC_OK;
}

void task_queue_stop(task_queue *w)
{
	if (!w->ctx)
		return;
	pthread_mutex_lock(&w->mu);
	w->stopping = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	if (w->running)
		pthread_join(w->thread, NULL);
	while (w->head) {
		task *t = w->head;
		w->head = t->next;
		finish(t, w->ctx, false);
	}
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	w->ctx = NULL;
}

int task_queue_post(task_queue *w, uint64_t delay_ms, uint64_t token, task_run_fn run, task_drop_fn drop, void *arg)
{
	task *t = malloc(sizeof *t);
	if (!t) {
		if (drop)
			drop(arg);
		return TC_ENOMEM;
	}
	*t = (task){ w->clock.now_ns(w->clock.user) + delay_ms * 1000000u, token, run, drop, arg, NULL };
	if (!w->threaded && delay_ms == 0) {
		finish(t, w->ctx, true);
		return TC_OK;
	}
	pthread_mutex_lock(&w->mu);
	if (w->stopping) {
		pthread_mutex_unlock(&w->mu);
		finish(t, w->ctx, false);
		return TC_OK;
	}
	task **p = &w->head;
	while (*p && (*p)->due_ns <= t->due_ns)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return TC_OK;
}

void task_queue_cancel(task_queue *w, uint64_t token)
{
	task *dropped = NULL;
	pthread_mutex_lock(&w->mu);
	for (task **p = &w->head; *p;) {
		task *t = *p;
		if (t->token == token) {
			*p = t->next;
			t->next = dropped;
			dropped = t;
		} else {
			p = &t->next;
		}
	}
	pthread_mutex_unlock(&w->mu);
	while (dropped) {
		task *t = dropped;
		dropped = t->next;
		finish(t, w->ctx, false);
	}
}

void task_queue_poll(task_queue *w)
{
	if (w->threaded)
		return;
	for (;;) {
		pthread_mutex_lock(&w->mu);
		task *t = pop_due(w, w->clock.now_ns(w->clock.user));
		pthread_mutex_unlock(&w->mu);
		if (!t)
			return;
		finish(t, w->ctx, true);
	}
}

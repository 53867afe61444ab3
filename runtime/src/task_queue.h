/* task_queue.h: the tracer thread, a queue of tasks due at a time (Matrix's
 * "default_matrix_thread" Handler with postDelayed): the analysis, logging
 * and delivery of reports (the app's listener, the report file), which may
 * take long or block; neither the recording thread nor the watchdog (the
 * clock thread) ever waits for it. It sleeps while it has nothing to do.
 * Times come from the context's clock, so tests drive it with an injected
 * clock: unthreaded, a task due now runs inline and later ones run at
 * task_queue_poll. */
#ifndef TC_TASK_QUEUE_H
#define TC_TASK_QUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "tc_runtime.h"

typedef void (*task_run_fn)(tc_ctx *ctx, void *arg);
typedef void (*task_drop_fn)(void *arg);

typedef struct task task;

typedef struct task_queue {
	tc_ctx *ctx;
	tc_clock clock;
	bool threaded;
	bool running;       /* thread started */
	bool stopping;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	task *head;         /* sorted by due time, then posting order */
} task_queue;

int task_queue_start(task_queue *q, tc_ctx *ctx, tc_clock clock, bool threaded, tc_rt_error *err);
/* Joins the thread and drops the tasks not run (their drop function frees arg). */
void task_queue_stop(task_queue *q);
/* Runs run(ctx, arg) after delay_ms, then drop(arg). token (non-zero) lets
 * task_queue_cancel remove it. On failure drop(arg) is called and TC_RT_ENOMEM returned. */
int task_queue_post(task_queue *q, uint64_t delay_ms, uint64_t token, task_run_fn run, task_drop_fn drop, void *arg);
void task_queue_cancel(task_queue *q, uint64_t token);
void task_queue_poll(task_queue *q);

#endif

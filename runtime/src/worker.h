/* worker.h: the tracer thread, a queue of tasks due at a time (Matrix's
 * "default_matrix_thread" Handler with postDelayed): the analysis, logging
 * and delivery of reports (the app's listener, the report file), which may
 * take long or block; neither the recording thread nor the watchdog (the
 * clock thread) ever waits for it. It sleeps while it has nothing to do.
 * Times come from the context's clock, so tests drive it with an injected
 * clock: unthreaded, a task due now runs inline and later ones run at
 * worker_poll. */
#ifndef TC_WORKER_H
#define TC_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "tc_runtime.h"

typedef void (*task_run_fn)(tc_ctx *ctx, void *arg);
typedef void (*task_drop_fn)(void *arg);

typedef struct task task;

typedef struct worker {
	tc_ctx *ctx;
	tc_clock clock;
	bool threaded;
	bool running;       /* thread started */
	bool stopping;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	task *head;         /* sorted by due time, then posting order */
} worker;

int worker_start(worker *w, tc_ctx *ctx, tc_clock clock, bool threaded, tc_error *err);
/* Joins the thread and drops the tasks not run (their drop function frees arg). */
void worker_stop(worker *w);
/* Runs run(ctx, arg) after delay_ms, then drop(arg). token (non-zero) lets
 * worker_cancel remove it. On failure drop(arg) is called and TC_ENOMEM returned. */
int worker_post(worker *w, uint64_t delay_ms, uint64_t token, task_run_fn run, task_drop_fn drop, void *arg);
void worker_cancel(worker *w, uint64_t token);
void worker_poll(worker *w);

#endif

#include "clock.h"

#include <string.h>
#include <time.h>

#include "error.h"
#include "thread.h"

uint64_t clock_default_now_ns(void *user)
{
	(void)user;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t refresh_at(clock_thread *c, uint64_t now)
{
	uint64_t ms = now > c->base_ns ? (now - c->base_ns) / 1000000u : 0;
	ring_set_now(c->ring, ms);
	_Atomic uint64_t *m = atomic_load_explicit(&c->mirror, memory_order_acquire);
	if (m)
		atomic_store_explicit(m, ms, memory_order_relaxed);
	return ms;
}

void clock_mirror(clock_thread *c, _Atomic uint64_t *word)
{
	atomic_store_explicit(&c->mirror, word, memory_order_release);
}

uint64_t clock_refresh(clock_thread *c)
{
	return refresh_at(c, c->clock.now_ns(c->clock.user));
}

static void *tick(void *arg)
{
	clock_thread *c = arg;
	thread_identify("tc-clock", THREAD_NICE_CLOCK);
	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->busy && !c->stopping)
			pthread_cond_wait(&c->cv, &c->mu);
		if (c->stopping)
			break;
		pthread_mutex_unlock(&c->mu);
		uint64_t now = c->clock.now_ns(c->clock.user);
		refresh_at(c, now);
		c->on_tick(c->tick_user, now);
		struct timespec ts = { (time_t)(c->resolution_ms / 1000), (long)(c->resolution_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&c->mu);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

int clock_start(clock_thread *c, ring *r, tc_clock clock, uint64_t base_ns, uint32_t resolution_ms,
                clock_tick_fn on_tick, void *tick_user, bool threaded, tc_error *err)
{
	memset(c, 0, sizeof *c);
	c->ring = r;
	c->clock = clock;
	c->base_ns = base_ns;
	c->resolution_ms = resolution_ms ? resolution_ms : 1;
	c->on_tick = on_tick;
	c->tick_user = tick_user;
	clock_refresh(c);
	if (!threaded)
		return TC_OK;
	if (pthread_mutex_init(&c->mu, NULL))
		return tc_fail(err, TC_ETHREAD, "clock mutex");
	if (pthread_cond_init(&c->cv, NULL)) {
		pthread_mutex_destroy(&c->mu);
		return tc_fail(err, TC_ETHREAD, "clock condition");
	}
	int rc = pthread_create(&c->thread, NULL, tick, c);
	if (rc) {
		pthread_cond_destroy(&c->cv);
		pthread_mutex_destroy(&c->mu);
		return tc_fail(err, TC_ETHREAD, "clock thread: %s", strerror(rc));
	}
	c->running = true;
	return TC_OK;
}

void clock_stop(clock_thread *c)
{
	if (!c->running)
		return;
	pthread_mutex_lock(&c->mu);
	c->stopping = true;
	pthread_cond_signal(&c->cv);
	pthread_mutex_unlock(&c->mu);
	pthread_join(c->thread, NULL);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	c->running = false;
}

void clock_set_busy(clock_thread *c, bool busy)
{
	if (!c->running) {
		c->busy = busy;
		return;
	}
	pthread_mutex_lock(&c->mu);
	c->busy = busy;
	/* a begin wakes the thread if it sleeps; an end lets it notice at its next tick */
	if (busy)
		pthread_cond_signal(&c->cv);
	pthread_mutex_unlock(&c->mu);
}

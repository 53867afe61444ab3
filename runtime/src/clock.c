#include "clock.h"
#include "rt_error.h"

#include <string.h>
#include <time.h>

#include "tc_runtime.h"
#include "os_thread.h"

uint64_t clock_default_now_ns(void *user)
{
	(void)user;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t ms_of(const clock_thread *c, uint64_t now)
{
	return now > c->base_ns ? (now - c->base_ns) / 1000000u : 0;
}

uint64_t clock_grid_ms(const clock_thread *c, uint64_t ms)
{
	return c->running ? ms - ms % c->resolution_ms : ms;
}

static uint64_t refresh_at(clock_thread *c, uint64_t now)
{
	uint64_t ms = ring_raise_now(c->ring, clock_grid_ms(c, ms_of(c, now)));
	_Atomic uint64_t *m = atomic_load_explicit(&c->mirror, memory_order_acquire);
	if (m)
		atomic_store_explicit(m, ms, memory_order_relaxed);
	return ms;
}

/* Under mu. */
static int64_t word_of(const clock_thread *c)
{
	if (atomic_load_explicit(c->status, memory_order_acquire) < TC_STATUS_READY)
		return TC_CLOCK_OFF;
	if (!c->running || (!c->busy && (!c->linger || c->settling)))
		return TC_CLOCK_STALE;
	return (int64_t)ring_now(c->ring);
}

/* Under mu, so that publications keep the order of the changes. */
static void publish(clock_thread *c)
{
	int64_t w = word_of(c);
	if (w == atomic_load_explicit(&c->word, memory_order_relaxed))
		return;
	atomic_store_explicit(&c->word, w, memory_order_relaxed);
	if (c->on_word)
		c->on_word(c->word_user, w);
}

void clock_mirror(clock_thread *c, _Atomic uint64_t *word)
{
	atomic_store_explicit(&c->mirror, word, memory_order_release);
}

uint64_t clock_refresh(clock_thread *c)
{
	return refresh_at(c, c->clock.now_ns(c->clock.user));
}

/* Until the next multiple of the tick since the base, not a tick from now:
 * the grid does not move with the begins of messages (a begin wakes the
 * thread) nor with the time a tick takes, so a stamp read at any moment is as
 * stale, on average, as one read at a begin (clock_grid_ms). */
static void sleep_tick(const clock_thread *c)
{
	uint64_t period = (uint64_t)c->resolution_ms * 1000000u;
	uint64_t now = c->clock.now_ns(c->clock.user);
	uint64_t since = now > c->base_ns ? now - c->base_ns : 0;
	uint64_t next = c->base_ns + (since / period + 1) * period;
	if (c->clock.now_ns == clock_default_now_ns) {
		struct timespec at = { (time_t)(next / 1000000000u), (long)(next % 1000000000u) };
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
		return;
	}
	/* an injected clock: its time, slept as a delay */
	uint64_t d = next - now;
	struct timespec ts = { (time_t)(d / 1000000000u), (long)(d % 1000000000u) };
	nanosleep(&ts, NULL);
}

static void *tick(void *arg)
{
	clock_thread *c = arg;
	os_thread_identify("tc-clock", THREAD_NICE_CLOCK);
	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->busy && !c->linger && !c->stopping)
			pthread_cond_wait(&c->cv, &c->mu);
		if (c->stopping)
			break;
		pthread_mutex_unlock(&c->mu);
		uint64_t now = c->clock.now_ns(c->clock.user);
		enum clock_tick found = c->on_tick(c->tick_user, now);
		pthread_mutex_lock(&c->mu);
		if (!c->busy && found == CLOCK_QUIET && !c->kicked) {
			/* nothing runs and nothing was written since the last tick */
			if (c->settling) {
				/* and nothing since the word said stale: every later
				 * event reads it and kicks, so sleep until a message or
				 * a kick (no idle wake-ups) */
				c->settling = false;
				c->linger = false;
				publish(c);
				continue;
			}
			/* the word says stale first, and one more tick copies what
			 * a writer stored after this one looked but before it could
			 * read "stale" (else those events could wait in its memory,
			 * not in the file, until the next message) */
			c->settling = true;
		} else {
			c->settling = false;
			/* the time after on_tick (the copies), not before it */
			refresh_at(c, c->clock.now_ns(c->clock.user));
		}
		c->kicked = false;
		publish(c);
		pthread_mutex_unlock(&c->mu);
		if (found != CLOCK_BEHIND)
			sleep_tick(c);
		pthread_mutex_lock(&c->mu);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

int clock_init(clock_thread *c, const _Atomic int *status, clock_word_fn on_word, void *word_user,
               tc_rt_error *err)
{
	memset(c, 0, sizeof *c);
	c->status = status;
	c->on_word = on_word;
	c->word_user = word_user;
	atomic_store(&c->word, TC_CLOCK_OFF);
	if (pthread_mutex_init(&c->mu, NULL))
		return tc_rt_set(err, TC_RT_ETHREAD, "clock mutex");
	if (pthread_cond_init(&c->cv, NULL)) {
		pthread_mutex_destroy(&c->mu);
		return tc_rt_set(err, TC_RT_ETHREAD, "clock condition");
	}
	return TC_RT_OK;
}

void clock_dispose(clock_thread *c)
{
	if (!c->status)
		return; /* never initialized */
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	c->status = NULL;
}

int clock_start(clock_thread *c, ring *r, tc_clock clock, uint64_t base_ns, uint32_t resolution_ms,
                clock_tick_fn on_tick, void *tick_user, bool threaded, tc_rt_error *err)
{
	pthread_mutex_lock(&c->mu);
	c->ring = r;
	c->clock = clock;
	c->base_ns = base_ns;
	c->resolution_ms = resolution_ms ? resolution_ms : 1;
	c->on_tick = on_tick;
	c->tick_user = tick_user;
	c->busy = c->linger = c->kicked = c->settling = c->stopping = false;
	clock_refresh(c);
	int rc = threaded ? pthread_create(&c->thread, NULL, tick, c) : 0;
	c->running = threaded && rc == 0;
	publish(c);
	pthread_mutex_unlock(&c->mu);
	return rc ? tc_rt_set(err, TC_RT_ETHREAD, "clock thread: %s", strerror(rc)) : TC_RT_OK;
}

void clock_stop(clock_thread *c)
{
	pthread_mutex_lock(&c->mu);
	bool running = c->running;
	c->stopping = true;
	pthread_cond_signal(&c->cv);
	pthread_mutex_unlock(&c->mu);
	if (running)
		pthread_join(c->thread, NULL);
	pthread_mutex_lock(&c->mu);
	c->running = false;
	c->busy = c->linger = c->settling = false;
	publish(c);
	/* the ring may go now: a kick until the next start reads the clock alone */
	c->ring = NULL;
	pthread_mutex_unlock(&c->mu);
}

void clock_set_busy(clock_thread *c, bool busy)
{
	pthread_mutex_lock(&c->mu);
	c->busy = busy;
	c->settling = false;
	if (busy) {
		/* a begin wakes the thread if it sleeps */
		pthread_cond_signal(&c->cv);
	} else {
		/* an end lets it tick on until a tick finds no new event */
		c->linger = true;
	}
	publish(c);
	pthread_mutex_unlock(&c->mu);
}

int64_t clock_kick(clock_thread *c)
{
	pthread_mutex_lock(&c->mu);
	int64_t ms = TC_CLOCK_OFF;
	if (atomic_load_explicit(c->status, memory_order_acquire) >= TC_STATUS_READY) {
		uint64_t now = c->clock.now_ns(c->clock.user);
		ms = (int64_t)(c->ring ? refresh_at(c, now) : ms_of(c, now));
		if (c->running) {
			if (!c->busy && !c->linger)
				pthread_cond_signal(&c->cv);
			c->linger = true;
			c->settling = false;
			/* the writer stores its event after this returns: the next tick
			 * may not see it yet, so it must not stop the thread */
			c->kicked = true;
		}
		publish(c);
	}
	pthread_mutex_unlock(&c->mu);
	return ms;
}

void clock_publish(clock_thread *c)
{
	if (!c->status)
		return;
	pthread_mutex_lock(&c->mu);
	publish(c);
	pthread_mutex_unlock(&c->mu);
}

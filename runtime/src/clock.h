/* clock.h: the recording clock, and the watch over the running message.
 * Events carry "ms since the time base", read from ring->now_ms, which a
 * thread refreshes every resolution_ms while the recording thread is busy in
 * a message (Matrix's matrix_time_update_thread) and sleeps otherwise: an
 * idle app costs no wake-up. A dispatch begin or end refreshes it directly,
 * so message markers are exact, and events outside messages read the clock
 * themselves. At every tick the thread also calls on_tick, the lag and ANR
 * watchdog: a message that runs long keeps it ticking, and it never waits for
 * the tracer thread, where reports are built and delivered. */
#ifndef TC_CLOCK_H
#define TC_CLOCK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ring.h"
#include "tc_runtime.h"

typedef void (*clock_tick_fn)(void *user, uint64_t now_ns);

typedef struct clock_thread {
	ring *ring;
	tc_clock clock;
	uint64_t base_ns;
	uint32_t resolution_ms;
	clock_tick_fn on_tick;
	void *tick_user;
	_Atomic(_Atomic uint64_t *) mirror; /* a second clock word (the thread file's), or NULL */
	bool running, busy, stopping;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
} clock_thread;

uint64_t clock_default_now_ns(void *user);

/* threaded false: no thread; clock_refresh is the only update and the
 * caller runs the watchdog (tc_ctx_poll). The thread starts idle. */
int clock_start(clock_thread *c, ring *r, tc_clock clock, uint64_t base_ns, uint32_t resolution_ms,
                clock_tick_fn on_tick, void *tick_user, bool threaded, tc_error *err);
void clock_stop(clock_thread *c);
/* Keeps word up to date with the ring's now_ms too (NULL: stop). */
void clock_mirror(clock_thread *c, _Atomic uint64_t *word);
/* Sets now_ms from the clock and returns it. */
uint64_t clock_refresh(clock_thread *c);
/* Start or stop ticking (message begin and end). */
void clock_set_busy(clock_thread *c, bool busy);

#endif

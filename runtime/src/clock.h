/* clock.h: the recording clock, the clock word, and the watch over the
 * running message.
 *
 * Events carry "ms since the time base", read from ring->now_ms, which a
 * thread refreshes every resolution_ms while it ticks (Matrix's
 * matrix_time_update_thread) and sleeps otherwise: an idle app costs no
 * wake-up. It ticks while the recording thread is busy (a message or an idle
 * handler runs) and, after that or after a kick, until a tick finds no new
 * event (on_tick says); a tick that finds a writer far ahead of the copies
 * is followed by the next at once, so that the copying stays on this thread. A dispatch begin or end refreshes the time directly,
 * as does a kick. While the thread runs it ticks on the grid of
 * resolution_ms since the time base, and every time it keeps (fresh reads
 * too) is rounded down to that grid (clock_grid_ms), so that durations are
 * right on average. At every tick the thread also calls
 * on_tick: the lag and ANR watchdog and the copying of staged writers'
 * events; a message that runs long keeps it ticking, and it never waits for
 * the tracer thread, where reports are built and delivered.
 *
 * The clock word (tc_runtime.h, TC_CLOCK_*) tells staged writers, which
 * cannot read the clock cheaply (the Java writer: a native call on ART),
 * what to stamp: the time while the thread ticks, TC_CLOCK_STALE while it
 * sleeps (such a writer kicks it: clock_kick), TC_CLOCK_OFF below status
 * READY. Every change is published through on_word under the clock's mutex,
 * so publications never cross: a status change and a tick racing end with
 * the word the later state says. */
#ifndef TC_CLOCK_H
#define TC_CLOCK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ring.h"
#include "tc_runtime.h"

/* What a tick found (on_tick's answer). */
enum clock_tick {
	CLOCK_QUIET,   /* staged writers wrote nothing since the last tick */
	CLOCK_ACTIVE,  /* they did */
	CLOCK_BEHIND,  /* a writer is far ahead of the copies: tick again without sleeping */
};
typedef enum clock_tick (*clock_tick_fn)(void *user, uint64_t now_ns);
typedef void (*clock_word_fn)(void *user, int64_t word);

typedef struct clock_thread {
	/* set once (clock_init) */
	const _Atomic int *status;     /* the context's */
	clock_word_fn on_word;
	void *word_user;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* set by clock_start */
	ring *ring;
	tc_clock clock;
	uint64_t base_ns;
	uint32_t resolution_ms;
	clock_tick_fn on_tick;
	void *tick_user;
	_Atomic(_Atomic uint64_t *) mirror; /* a second clock word (the thread file's), or NULL */
	pthread_t thread;
	/* under mu */
	bool running, stopping;
	bool busy;       /* a message or an idle handler runs */
	bool linger;     /* not busy, but tick on until a tick finds no new event */
	bool kicked;     /* a writer kicked since the last tick: that tick cannot judge */
	bool settling;   /* a tick found nothing: the word says stale, one more tick
	                  * copies what was stored meanwhile, then it sleeps */
	_Atomic int64_t word; /* as last published (read without mu) */
} clock_thread;

uint64_t clock_default_now_ns(void *user);

/* The parts that live as long as the context: the mutex and the word. */
int clock_init(clock_thread *c, const _Atomic int *status, clock_word_fn on_word, void *word_user,
               tc_rt_error *err);
void clock_dispose(clock_thread *c);

/* threaded false: no thread; clock_refresh is the only update, the word
 * stays TC_CLOCK_STALE (or OFF) and the caller runs the watchdog
 * (tc_ctx_poll). The thread starts idle. */
int clock_start(clock_thread *c, ring *r, tc_clock clock, uint64_t base_ns, uint32_t resolution_ms,
                clock_tick_fn on_tick, void *tick_user, bool threaded, tc_rt_error *err);
/* Ends the thread; the word turns TC_CLOCK_STALE until it starts again. */
void clock_stop(clock_thread *c);
/* Keeps word up to date with the ring's now_ms too (NULL: stop). */
void clock_mirror(clock_thread *c, _Atomic uint64_t *word);
/* ms (since the base) as the clock thread stamps it while it runs: down to
 * a multiple of the tick, the grid it ticks on, so that every stamp, read
 * fresh at a begin or a kick or read from the word a tick ago, is stale by
 * [0, tick) and a duration is right on average (a stamp exact at a begin and
 * the next ones a tick stale made a method entered at the begin half a tick
 * short). ms as it is while no thread ticks: every event reads the clock. */
uint64_t clock_grid_ms(const clock_thread *c, uint64_t ms);
/* Sets now_ms from the clock (clock_grid_ms; never back) and returns it. */
uint64_t clock_refresh(clock_thread *c);
/* Start or stop ticking (message or idle handler begin and end). At the
 * end the thread lingers until a tick finds no new event; then the word says
 * stale, and it sleeps after one more tick that finds none. */
void clock_set_busy(clock_thread *c, bool busy);
/* A staged writer found the word stale: refresh the time, tick until a tick
 * finds no new event. Returns the time, or TC_CLOCK_OFF below READY. */
int64_t clock_kick(clock_thread *c);
/* The status changed: publish the word it gives. */
void clock_publish(clock_thread *c);

#endif

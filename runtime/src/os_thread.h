/* os_thread.h: the calling thread as the system sees it: its name and niceness (what
 * the runtime's own threads set first), and its id. */
#ifndef TC_OS_THREAD_H
#define TC_OS_THREAD_H

#include <stdint.h>

/* Niceness of the runtime's threads, never more favourable than what the
 * thread inherited from its creator (the app's main thread, which Android may
 * boost): the clock thread keeps time and watches for lags and ANRs while the
 * main thread runs, so it is not starved below ordinary threads
 * (THREAD_PRIORITY_DEFAULT); the tracer thread analyses and delivers reports,
 * which can wait (THREAD_PRIORITY_BACKGROUND). */
#define THREAD_NICE_CLOCK 0
#define THREAD_NICE_TRACER 10

/* Names the calling thread (as ps, top, systrace and /proc show it) and sets
 * its niceness to nice unless it already is lower in priority. Linux and
 * Android only; elsewhere it does nothing. */
void os_thread_identify(const char *name, int nice);

/* The calling thread's name (16 bytes with the NUL), "" where unknown. */
void os_thread_name(char out[16]);

/* The calling thread's id (gettid), 0 where unknown. */
uint32_t os_thread_id(void);

#endif

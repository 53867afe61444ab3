/* chrome_check.h: checks a Chrome Trace Event JSON text the way the
 * viewers need it: {"traceEvents":[...]}; every event has ph, pid, tid and
 * (but metadata) a numeric ts; per (pid, tid) the B/E events form a
 * well-parenthesized sequence with non-decreasing ts, and X events nest by
 * [ts, ts+dur]; a thread_name metadata event exists. */
#ifndef CHROME_CHECK_H
#define CHROME_CHECK_H

#include <stddef.h>

typedef struct chrome_stats {
	size_t begins, ends, completes, instants, metadata, thread_names;
	size_t max_depth;
} chrome_stats;

/* 0 if the text passes; else -1 with the reason in why. */
int chrome_check(const char *text, size_t n, chrome_stats *st, char *why, size_t cap);

#endif

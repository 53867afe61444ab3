/* helpers.h: building event arrays by hand for the tc-trace tests. */
#ifndef TRACE_TEST_HELPERS_H
#define TRACE_TEST_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "tc_event.h"

#define I(id, ms) tc_event_encode(true, (id), (ms))
#define O(id, ms) tc_event_encode(false, (id), (ms))
#define D TC_ID_DISPATCH
#define N(a) (sizeof(a) / sizeof((a)[0]))

#endif

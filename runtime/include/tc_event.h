/* tc_event.h: Matrix's 64-bit method event encoding (AppMethodBeat.mergeData).
 *
 *   bit 63      1 = method in (i), 0 = method out (o)
 *   bits 62..43 method id (20 bits)
 *   bits 42..0  time: milliseconds since the recording's time base (43 bits)
 *
 * The value 0 is an empty slot; the parser skips it. Header-only so that the
 * decoder, the tools and the tests share one definition with the writer.
 *
 * Pseudo-methods the runtime writes itself: TC_ID_DISPATCH brackets a
 * main-looper message; ids TC_ID_SECTION .. TC_ID_SECTION + TC_SECTION_MAX - 1
 * bracket a named interval (TraceCanary.beginSection / tc_section_begin),
 * section n named by entry n of the main ring's name table (tc_ringfile.h).
 * Sections are not methods: the stack analysis skips them, and they need not
 * nest with the methods around them. tc-instrument assigns method ids from 1
 * up; an app would need over a million traced methods to reach them. */
#ifndef TC_EVENT_H
#define TC_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#define TC_ID_MAX      0xFFFFFu  /* i()/o() ignore ids at or above this */
#define TC_ID_DISPATCH 0xFFFFEu  /* pseudo-method bracketing one main-looper message */
#define TC_ID_SECTION  0xFFF00u  /* first section id */
#define TC_SECTION_MAX 128u      /* section names per recording */
#define TC_TIME_MASK   UINT64_C(0x7FFFFFFFFFF)

static inline uint64_t tc_event_encode(bool in, uint32_t id, uint64_t time_ms)
{
	return (in ? UINT64_C(1) << 63 : 0) | ((uint64_t)(id & 0xFFFFFu) << 43) | (time_ms & TC_TIME_MASK);
}

static inline bool tc_event_is_in(uint64_t v) { return (v >> 63) & 1u; }
static inline uint32_t tc_event_id(uint64_t v) { return (uint32_t)((v >> 43) & 0xFFFFFu); }
static inline uint64_t tc_event_time(uint64_t v) { return v & TC_TIME_MASK; }
static inline bool tc_id_is_section(uint32_t id) { return id - TC_ID_SECTION < TC_SECTION_MAX; }

#endif

/* tc_ringfile.h: the layout of the event ring, in memory and on disk, and
 * its decoder.
 *
 * The ring is one region: a 256-byte header, then `capacity` 8-byte event
 * slots (tc_event.h). With tc_config.buffer_path the region is a file mapped
 * MAP_SHARED, so what the process wrote is in the file even if it is killed
 * (kill -9, an ANR kill, a native crash): the kernel keeps the page cache.
 * All fields are in the writer's byte order; byte_order tells which.
 *
 *   off size field
 *     0    8 magic        "TCRING\0\1"
 *     8    4 version      1
 *    12    4 header_size  256 (slots start here)
 *    16    4 byte_order   0x01020304 as written by the writer
 *    20    4 event_size   8
 *    24    8 capacity     number of slots
 *    32    8 time_base_ns the clock (CLOCK_MONOTONIC) at time 0 of the events
 *    40    8 wall_base_ms wall clock (ms since 1970) at time 0
 *    48    4 pid
 *    52    4 resolution   clock tick in ms
 *    56    4 status       TC_STATUS_*; writers record while >= 1
 *    60    4 reserved
 *    64    8 seq          events ever written; the next goes to slot seq % capacity
 *   128    8 now_ms       the clock thread's current time, read by writers
 *   256      slots
 *
 * seq and now_ms sit on cache lines of their own: the recording thread
 * writes seq at every event, the clock thread writes now_ms every tick.
 *
 * Writers and readers. One thread writes (the recording thread: the Java
 * writer in AppMethodBeat and the C writer for the message markers, never at
 * once); any thread may read while it writes. A writer stores the event in
 * slot seq % capacity, then seq + 1, and the seq store has release semantics:
 * the C writer uses a release store, the Java writer a store fence
 * (Unsafe.storeFence, or a volatile write and read on VMs without it) between
 * the two stores. What a reader may rely on, on any CPU, if it loads seq with
 * acquire semantics (or a load followed by an acquire fence):
 *   - every event below the seq it read is in its slot, unless overwritten;
 *   - the writer may have stored events seq and seq + 1 already (the Java
 *     writer fences once per event, so the next event's slot store may become
 *     visible before the count that precedes it): the events from
 *     seq + 2 - capacity on are safe to read, older slots may hold newer
 *     events. A copier that reads slots and then seq again (acquire) cuts
 *     from its copy whatever that second value says may have been overwritten;
 *   - now_ms is a relaxed value: a time, not a publication.
 * A process killed between the two stores leaves one complete event that seq
 * does not count; the decoder recovers it when it can tell (see
 * tc_ring_image.recovered). */
#ifndef TC_RINGFILE_H
#define TC_RINGFILE_H

#include <stddef.h>
#include <stdint.h>

#include "tc_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC_RING_MAGIC "TCRING\0\1"
#define TC_RING_VERSION 1u
#define TC_RING_HEADER_SIZE 256u
#define TC_RING_BYTE_ORDER 0x01020304u

/* Byte offsets, shared with the Java writer (AppMethodBeat). */
#define TC_RING_OFF_CAPACITY 24u
#define TC_RING_OFF_TIME_BASE 32u
#define TC_RING_OFF_STATUS 56u
#define TC_RING_OFF_SEQ 64u
#define TC_RING_OFF_NOW 128u

typedef struct tc_ring_image {
	uint32_t version;
	uint64_t capacity;
	uint64_t seq;            /* events ever written, as stored */
	uint64_t time_base_ns;
	uint64_t wall_base_ms;
	uint32_t pid;
	uint32_t resolution_ms;
	int32_t status;
	uint64_t *events;        /* the surviving events, oldest first (owned) */
	size_t count;
	uint64_t first_seq;      /* sequence number of events[0] */
	int recovered;           /* 1 if the newest event was written after the last seq store */
} tc_ring_image;

/* Decodes a ring from memory (a copy of the file or of a live region).
 * Every field is checked against size before it is used. The image owns its
 * events; free them with tc_ring_image_dispose. */
int tc_ring_decode(tc_ring_image *out, const void *data, size_t size, tc_error *err);
/* Reads the file at path and decodes it. */
int tc_ring_load(tc_ring_image *out, const char *path, tc_error *err);
void tc_ring_image_dispose(tc_ring_image *img);

#ifdef __cplusplus
}
#endif
#endif

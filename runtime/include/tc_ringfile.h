/* tc_ringfile.h: the layout of the event rings, in memory and on disk, and
 * their decoders.
 *
 * The ring is one region: a header, then `capacity` 8-byte event slots
 * (tc_event.h). With tc_config.buffer_path the region is a file mapped
 * MAP_SHARED, so what the process wrote is in the file even if it is killed
 * (kill -9, an ANR kill, a native crash): the kernel keeps the page cache.
 * All fields are in the writer's byte order; byte_order tells which.
 *
 *   off size field
 *     0    8 magic        "TCRING\0\1"
 *     8    4 version      1
 *    12    4 header_size  where the slots start: 8448 for a context's ring
 *                         (the fields below and the section names), 256 for
 *                         a thread's ring in a thread file (no names)
 *    16    4 byte_order   0x01020304 as written by the writer
 *    20    4 event_size   8
 *    24    8 capacity     number of slots
 *    32    8 time_base_ns the clock (CLOCK_MONOTONIC) at time 0 of the events
 *    40    8 wall_base_ms wall clock (ms since 1970) at time 0
 *    48    4 pid
 *    52    4 resolution   clock tick in ms
 *    56    4 status       TC_STATUS_*; writers record while >= 1
 *    60    4 tid          the writing thread's id (gettid), 0 if unknown
 *    64    8 seq          events ever written; the next goes to slot seq % capacity
 *    72   16 thread_name  the writing thread's name, UTF-8, NUL-padded
 *   128    8 now_ms       the clock thread's current time, read by writers
 *   256 8192 names        a context's ring only: TC_SECTION_MAX entries of 64
 *                         bytes, entry n the name of section id TC_ID_SECTION + n
 *                         (UTF-8, NUL-padded; empty: unused)
 *   header_size  slots
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
 * tc_ring_image.recovered).
 *
 * The thread file (threads = all). The context's ring holds the recording
 * thread's events; every other thread that records gets a ring of its own in
 * a second region, made once and never moved (its writers keep its address),
 * a file next to the ring file (PATH-threads) when there is one:
 *
 *   off size field
 *     0    8 magic        "TCTHRDS\1"
 *     8    4 version      1
 *    12    4 header_size  256 (the rings start here)
 *    16    4 byte_order   0x01020304
 *    20    4 max_threads  rings in the region
 *    24    8 ring_size    bytes per ring (256 + 8 * its capacity)
 *    32    8 time_base_ns as the context's ring: one time base for all
 *    40    8 wall_base_ms
 *    48    4 pid
 *    52    4 used         rings handed out; ring k (k < used) is at
 *                         header_size + k * ring_size, in the ring layout above
 *    56    8 refused      threads that found every ring taken: not recorded
 *    64    8 dropped      their events, counted instead
 *   128    8 now_ms       the clock for other threads' events (refreshed with
 *                         the context ring's while the clock thread ticks)
 *   136    4 ticking      1 while it ticks (a main-looper message runs): then
 *                         now_ms is current, else writers read the clock
 *
 * A ring is handed out whole (its header written, then `used` stored with
 * release semantics) to one thread, its only writer for the life of the
 * process; the rules above hold for each ring. */
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
#define TC_RING_HEADER_SIZE 256u   /* the fields; a context's ring adds the names */
#define TC_RING_NAME_SIZE 64u      /* one section name entry */
#define TC_RING_NAMES_SIZE (TC_SECTION_MAX * TC_RING_NAME_SIZE)
#define TC_RING_MAIN_HEADER_SIZE (TC_RING_HEADER_SIZE + TC_RING_NAMES_SIZE)
#define TC_RING_BYTE_ORDER 0x01020304u

/* Byte offsets, shared with the Java writer (AppMethodBeat). */
#define TC_RING_OFF_CAPACITY 24u
#define TC_RING_OFF_TIME_BASE 32u
#define TC_RING_OFF_STATUS 56u
#define TC_RING_OFF_SEQ 64u
#define TC_RING_OFF_NOW 128u
#define TC_RING_OFF_TID 60u
#define TC_RING_OFF_THREAD_NAME 72u
#define TC_RING_OFF_NAMES 256u

#define TC_THREADS_MAGIC "TCTHRDS\1"
#define TC_THREADS_VERSION 1u
#define TC_THREADS_HEADER_SIZE 256u
#define TC_THREADS_OFF_MAX 20u
#define TC_THREADS_OFF_RING_SIZE 24u
#define TC_THREADS_OFF_USED 52u
#define TC_THREADS_OFF_REFUSED 56u
#define TC_THREADS_OFF_DROPPED 64u
#define TC_THREADS_OFF_NOW 128u
#define TC_THREADS_OFF_TICKING 136u

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
	uint32_t tid;            /* the writing thread, 0 if unknown */
	char thread_name[17];
	/* section names by section number (names[n] is id TC_ID_SECTION + n),
	 * "" where unused; NULL for a thread's ring, which has none (owned) */
	char (*names)[TC_RING_NAME_SIZE];
} tc_ring_image;

/* Decodes a ring from memory (a copy of the file or of a live region).
 * Every field is checked against size before it is used. The image owns its
 * events; free them with tc_ring_image_dispose. */
int tc_ring_decode(tc_ring_image *out, const void *data, size_t size, tc_error *err);
/* Reads the file at path and decodes it. */
int tc_ring_load(tc_ring_image *out, const char *path, tc_error *err);
void tc_ring_image_dispose(tc_ring_image *img);

/* A decoded thread file: every thread's ring, in the order they were handed out. */
typedef struct tc_threads_image {
	uint32_t max_threads;
	uint64_t ring_size;
	uint64_t time_base_ns, wall_base_ms;
	uint32_t pid;
	uint64_t refused, dropped;
	tc_ring_image *rings;    /* owned */
	size_t count;
} tc_threads_image;

/* Decodes a thread file (from memory, or the file at path); each ring as
 * tc_ring_decode does, its errors placed at their byte in the file. */
int tc_threads_decode(tc_threads_image *out, const void *data, size_t size, tc_error *err);
int tc_threads_load(tc_threads_image *out, const char *path, tc_error *err);
void tc_threads_image_dispose(tc_threads_image *img);

#ifdef __cplusplus
}
#endif
#endif

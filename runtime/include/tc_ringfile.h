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
 *     8    4 version      3 (1 and 2 are read too: 1 has the fields at 88
 *                         and 96 0, 1 and 2 have no build id, the field at 104)
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
 *    88    4 generation   a thread's ring: which hand-out of the thread file
 *                         it is (1 up: a ring given to a later thread gets
 *                         the next); 0 for a context's ring
 *    96    8 ended_ns     a thread's ring: when its thread ended (CLOCK_MONOTONIC
 *                         ns), 0 while it runs
 *   104    8 build_id     the build the recording's method ids belong to
 *                         (tc_config.build_id: tc-instrument's hash of its
 *                         methodMapping.txt, mapfile/method_mapping.h); 0:
 *                         unknown (an app without the marker class)
 *   112    8 lost         events of a staged writer the copy into this ring
 *                         dropped (empty slots) because the writer had
 *                         overwritten them, or may have, before or while
 *                         they were copied (ring_pull_some); 0 in files
 *                         written before it was kept
 *   120    4 check_ps     a context's ring: what one event of the Java
 *                         writers cost in the start's self-check
 *                         (tc_self_check), in picoseconds; 0: not measured
 *                         (yet, or off, or a file written before it was kept)
 *   128    8 now_ms       the clock thread's current time, read by C writers
 *   256 8192 names        a context's ring only: TC_SECTION_MAX entries of 64
 *                         bytes, entry n the name of section id TC_ID_SECTION + n
 *                         (UTF-8, NUL-padded; empty: unused)
 *   header_size  slots
 *
 * seq and now_ms sit on cache lines of their own: writers store seq at every
 * event, the clock thread stores now_ms every tick.
 *
 * Writers. Two write the slots, never at once:
 *   - the C writer (tc_record, and the message markers), on the ring's
 *     thread: a release fence, the event into slot seq % capacity, then
 *     seq + 1 with a release store: one event in flight;
 *   - the copy of a staged writer (below; ring_pull): it stores the events
 *     seq .. w - 1 into their slots (whole 64-bit words: a 64-bit CPU's
 *     aligned stores, one 64-bit atomic store each on 32-bit CPUs, so that no
 *     half event is ever left), then seq = w with one release store, and
 *     holds the context's feed lock (a thread's ring: the thread set's lock)
 *     meanwhile.
 *
 * Staged writers (the Java writers, AppMethodBeat and ThreadRing; tc_feed).
 * On ART a store into memory C owns costs a JNI call (the raw-address Unsafe
 * accessors are not intrinsics there), so the Java writers store into a
 * staging ring on the Java heap, a long[]: element 0 the count of events
 * written, element 1 the count the runtime copied (it stores it there), event
 * e in element 8 + (e & (slots - 1)), slots a power of two. Per event the
 * writer stores the event (Unsafe.putLong(Object, long, long)), then the
 * count with release semantics (Unsafe.putOrderedLong): both ART intrinsics
 * since Android 5.0, and HotSpot's. A reader (JNI: GetLongArrayRegion) reads
 * the count, then an acquire fence, then the events below it. On 32-bit ARM
 * neither store need be whole: an event's is a plain strd (two halves
 * without LPAE), which only the count's release store publishes, and so may
 * be the count's (putOrderedLong is an ordered, not a volatile, store: API
 * 21-22's Quick compiler emits a strd, and the interpreter's Unsafe native
 * stores the field as a plain 64-bit value, two str/strd halves), and a JNI
 * copy may read in halves too. So there the reader reads the count until
 * two reads agree: that drops any read that overlapped a store. Two reads
 * can still agree on a half-stored count if the writer was stopped between
 * its halves; such a value differs from a real count only where the low
 * half carries into the high one, once every 2^32 events of one writer:
 * 2^32 below the real count (nothing is copied that time) or 2^32 - 1
 * above it, which the copy refuses (a count 2^31 or more past its own:
 * RING_COUNT_TORN, ring.c) and the next copy reads whole; a tracer's copy
 * of a slow message's events that reads it finds its index overwritten
 * (that report has no stack). The events of the slots a writer may be
 * storing are cut as below.
 *   - The recording thread's staging ring holds as many events as the ring
 *     or more, and it is the ring of record: the runtime reads the events
 *     there (tc_copy_since, tc_mark...; a reader keeps the margin below), its
 *     C writer stores the message markers there (on the recording thread,
 *     during its call) and sets the count past them, and when the ring or the
 *     writer changes the events keep their numbers. A ring in memory then
 *     holds only the header. A ring file is a copy, made at every tick of the
 *     clock thread (which ticks on after a message ends), when
 *     tc_feed_pull asks and at tc_ctx_free: what a killed process leaves.
 *   - Another thread's staging ring holds as many events as its ring in the
 *     thread file (rounded up to a power of two) and is its ring of record
 *     too: in a thread file (PATH-threads) its ring is a copy, made at every
 *     clock tick (the clock thread ticks on while any writer's count moves)
 *     and a last time once its thread ended; a thread set in memory keeps no
 *     copy (nothing in the process reads it). The writer never waits for a
 *     copy: where the copier fell a whole array behind, or the writer
 *     overwrote slots while they were copied, the file shows the events it
 *     missed as empty slots, and the header's lost counts them.
 *
 * What a reader may rely on:
 *   - through the runtime: every event the writers published (their counts)
 *     before the read began, in order with the C writer's markers;
 *   - reading a ring (the region, or a staged writer's memory), loading its
 *     count with acquire semantics (or a load followed by an acquire fence):
 *     every event below the count is in its slot, unless overwritten; a
 *     writer may be storing events count and count + 1 (a staged writer
 *     publishes once per event, between the slot and the count, so its next
 *     slot store may become visible before the count that precedes it):
 *     the events from count + 2 - capacity on are safe to read, older slots
 *     may hold newer events (RING_WRITER_AHEAD). A copier that reads slots
 *     and then the count again (acquire) cuts from its copy whatever that
 *     second value says may have been overwritten;
 *   - a killed process's file: every event below its seq. Lost are the
 *     events published after the last copy: those of one clock tick
 *     (clock_resolution_ms, and the clock thread's delay in being scheduled)
 *     while the clock thread ticks (a message or an idle handler runs, or
 *     events come outside them: it ticks until a tick finds none, sets the
 *     clock word stale, and copies once more a tick later, so that an event
 *     whose writer read the word before it was stale is copied too, unless
 *     the writer was stopped for that whole tick between reading the word and
 *     storing its count: at most that one event per writer then waits for
 *     the next copy); if the clock thread could not run while the writer
 *     wrote a whole staging ring, the file shows the events it missed as
 *     empty slots. Past seq the file
 *     may hold part of a copy; the decoder recovers the first of those events
 *     (tc_ring_image.recovered) when it can tell it from the older event in
 *     its slot, and never half an event (version 1 files may hold halves:
 *     they recover nothing past the wrap);
 *   - now_ms is a relaxed value: a time, not a publication. Staged writers
 *     read the clock word instead (tc_runtime.h, TC_CLOCK_*), which the
 *     runtime stores into the writer's memory (AppMethodBeat.sNow).
 *
 * The thread file (threads = all). The context's ring holds the recording
 * thread's events; every other thread that records gets a ring of its own in
 * a second region, made once and never moved, a file next to the ring file
 * (PATH-threads) when there is one:
 *
 *   off size field
 *     0    8 magic        "TCTHRDS\1"
 *     8    4 version      2 (1 is read too: handed is then used)
 *    12    4 header_size  256 (the rings start here)
 *    16    4 byte_order   0x01020304
 *    20    4 max_threads  rings in the region
 *    24    8 ring_size    bytes per ring (256 + 8 * its capacity)
 *    32    8 time_base_ns as the context's ring: one time base for all
 *    40    8 wall_base_ms
 *    48    4 pid
 *    52    4 used         rings handed out at least once; ring k (k < used)
 *                         is at header_size + k * ring_size, in the ring
 *                         layout above
 *    56    8 refused      threads that found every ring in use: not recorded
 *    64    8 dropped      their events, counted instead
 *    72    8 handed       rings handed out, again ones included: the last
 *                         generation
 *   128    8 now_ms       the clock for C writers of other threads (refreshed
 *                         with the context ring's while the clock thread ticks)
 *   136    4 ticking      1 while it ticks (a main-looper message runs): then
 *                         now_ms is current, else C writers read the clock
 *
 * A ring is handed out whole (its header written, then `used` stored with
 * release semantics) to one thread, its only writer while that thread lives;
 * the rules above hold for each ring. When the thread ends (a TLS destructor
 * sees it, or its staged writer says so first: tc_feed_ended), ended_ns is
 * set; a thread that finds no never-used ring takes the one whose thread
 * ended longest ago: its last staged events are copied, its slots emptied
 * and its header rewritten for the new thread, with generation = ++handed.
 * The ended thread's events are gone then; a thread id the kernel gave again
 * is another generation, another thread. */
#ifndef TC_RINGFILE_H
#define TC_RINGFILE_H

#include <stddef.h>
#include <stdint.h>

#include "tc_event.h"
#include "tc_rt_error.h" /* the error record and codes alone: a reader of the format needs no context */

#ifdef __cplusplus
extern "C" {
#endif

#define TC_RING_MAGIC "TCRING\0\1"
#define TC_RING_VERSION 3u      /* 1, 2 are read too: generation and ended 0 in 1, build id 0 in both */
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
#define TC_RING_OFF_GENERATION 88u
#define TC_RING_OFF_ENDED 96u
#define TC_RING_OFF_BUILD_ID 104u
#define TC_RING_OFF_LOST 112u
#define TC_RING_OFF_CHECK 120u
#define TC_RING_OFF_NAMES 256u

#define TC_THREADS_MAGIC "TCTHRDS\1"
#define TC_THREADS_VERSION 2u   /* 1 is read too: handed = used */
#define TC_THREADS_HEADER_SIZE 256u
#define TC_THREADS_OFF_MAX 20u
#define TC_THREADS_OFF_RING_SIZE 24u
#define TC_THREADS_OFF_USED 52u
#define TC_THREADS_OFF_REFUSED 56u
#define TC_THREADS_OFF_DROPPED 64u
#define TC_THREADS_OFF_HANDED 72u
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
	uint32_t generation;     /* a thread's ring: which hand-out of the thread file (1 up); 0 for a context's */
	uint64_t ended_ns;       /* a thread's ring: when its thread ended (the clock's ns), 0 while it ran */
	uint64_t build_id;       /* 0: none recorded (version < 3, or the app had no build id) */
	uint64_t lost;           /* events the copier dropped because a staged writer lapped it (0 before it was kept) */
	uint32_t check_ps;       /* the start's self-check: ps per event of the Java writers, 0 if not measured */
	/* section names by section number (names[n] is id TC_ID_SECTION + n),
	 * "" where unused; NULL for a thread's ring, which has none (owned) */
	char (*names)[TC_RING_NAME_SIZE];
} tc_ring_image;

/* Decodes a ring from memory (a copy of the file or of a live region).
 * Every field is checked against size before it is used. The image owns its
 * events; free them with tc_ring_image_dispose. */
int tc_ring_decode(tc_ring_image *out, const void *data, size_t size, tc_rt_error *err);
/* Reads the file at path and decodes it; every error names the file ("PATH: cannot
 * open: ...", "PATH: ring at byte N: ..."). */
int tc_ring_load(tc_ring_image *out, const char *path, tc_rt_error *err);
void tc_ring_image_dispose(tc_ring_image *img);

/* A decoded thread file: every thread's ring, in the order they were handed out. */
typedef struct tc_threads_image {
	uint32_t max_threads;
	uint64_t ring_size;
	uint64_t time_base_ns, wall_base_ms;
	uint32_t pid;
	uint64_t refused, dropped;
	uint64_t handed;         /* rings handed out, again after a thread ended included */
	tc_ring_image *rings;    /* owned */
	size_t count;
} tc_threads_image;

/* Decodes a thread file (from memory, or the file at path); each ring as
 * tc_ring_decode does, its errors placed at their byte in the file; the _load one names
 * the file in its errors, as tc_ring_load does. */
int tc_threads_decode(tc_threads_image *out, const void *data, size_t size, tc_rt_error *err);
int tc_threads_load(tc_threads_image *out, const char *path, tc_rt_error *err);
void tc_threads_image_dispose(tc_threads_image *img);

#ifdef __cplusplus
}
#endif
#endif

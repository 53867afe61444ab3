/* tc_runtime.h: the tracecanary runtime's C API.
 *
 * One context (tc_ctx) owns everything: the event ring (heap or a mapped
 * file), the clock thread, the tracer thread and the tracers' state. What is
 * process-wide, because the process has one of each: the JNI glue's context
 * and Java references (jni_glue.c's g_*), the PLT hooks (plthook.c: one GOT per
 * loaded library), the SIGQUIT handler (tracer_signal.c: one handler per
 * signal) and the thread-priority hooks (tracer_priority.c); everything else
 * lives in a context.
 *
 * Threads. The context is bound to one recording thread (the thread that
 * created it, normally the app's main thread; tc_ctx_bind_thread moves it).
 * Its events go into the context's ring, which the tracers read, and the
 * calls marked "recording thread" below must come from it. By default only
 * that thread records; with record_threads = TC_THREADS_ALL every other
 * thread records too, each into a ring of its own (tc_ringfile.h, the thread
 * file). Reports are built and delivered on the context's tracer thread (or
 * inline, when tc_config.threads is false).
 *
 * Errors: a fallible function returns TC_RT_OK (0) or a negative TC_RT_E*
 * code and, if err is not NULL, fills it with the code and a one-line
 * message (tc_rt_error.h: the runtime's own record and codes). */
#ifndef TC_RUNTIME_H
#define TC_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc_rt_error.h"
#include "tc_event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status, as Matrix's AppMethodBeat (values kept; DEFAULT only exists in
 * the Java layer, before a context is created). Events are recorded while
 * status >= TC_STATUS_READY. */
enum {
	TC_STATUS_RELEASED = -3,
	TC_STATUS_EXPIRED_START = -2,
	TC_STATUS_STOPPED = -1,
	TC_STATUS_READY = 1,
	TC_STATUS_STARTED = 2,
};

/* Which tracers run once the context is started (tc_config.tracers). */
enum {
	TC_TRACER_EVIL = 1u << 0,     /* slow main-looper message */
	TC_TRACER_ANR = 1u << 1,      /* lag at 2 s, ANR at 5 s */
	TC_TRACER_FRAME = 1u << 2,    /* per-scene FPS, dropped frames (and FrameMetrics) over 10 s windows */
	TC_TRACER_STARTUP = 1u << 3,  /* application create, first screen, cold/warm */
	TC_TRACER_ALL = 0xFu,         /* the default: every tracer above */
	/* SIGQUIT (the system's ANR dump): a process-wide handler, one context at a
	 * time, chained to the one before; installed by tc_ctx_new or
	 * tc_reconfigure, removed by tc_reconfigure or tc_ctx_free (a refusal
	 * there is a warning). Not in TC_TRACER_ALL. */
	TC_TRACER_SIGNAL_ANR = 1u << 4,
	/* an idle handler (tc_idle_begin/end) running idle_lag_ms or longer; not in
	 * TC_TRACER_ALL (the Java glue wraps the handlers by reflection) */
	TC_TRACER_IDLE = 1u << 5,
	/* the recording thread's priority, scheduling policy or timer slack set
	 * by a call in one of priority_libs (PLT hooks of setpriority,
	 * sched_setscheduler, prctl); process-wide, one context at a time; not in
	 * TC_TRACER_ALL */
	TC_TRACER_PRIORITY = 1u << 6,
	/* an input event taking touch_lag_ms or longer from its arrival on the
	 * input channel to its finished signal (PLT hooks of recvfrom, sendto in
	 * touch_libs); process-wide, one context at a time; not in TC_TRACER_ALL */
	TC_TRACER_TOUCH = 1u << 7,
};

/* Which threads record (tc_config.record_threads). */
enum {
	TC_THREADS_MAIN = 0, /* the recording thread only, as Matrix */
	TC_THREADS_ALL = 1,  /* every thread: the others each into a ring of its own */
};

/* A monotonic clock in nanoseconds. The default is CLOCK_MONOTONIC (Android's
 * uptimeMillis base). Tests inject their own. */
typedef struct tc_clock {
	uint64_t (*now_ns)(void *user);
	void *user;
} tc_clock;

/* The clock word: what a writer that stores its own events (the Java writer)
 * reads at each event instead of the clock, which may be a native call there.
 * ms since the time base (>= 0) while the clock thread keeps it current (a
 * message or an idle handler runs, or events keep coming: see tc_clock_kick),
 * else one of these. */
#define TC_CLOCK_STALE INT64_C(-1) /* no thread keeps the time: call tc_clock_kick */
#define TC_CLOCK_OFF INT64_C(-2)   /* not recording (status < TC_STATUS_READY) */

/* A writer that keeps a thread's events in memory of its own (the Java
 * writer: a long[] on the Java heap, which C cannot address; tc_ringfile.h,
 * "Staged writers"). The recording thread's writer holds the ring of record:
 * the runtime reads the events there, writes its own (the message markers)
 * there, and copies them into a ring file, if there is one, to outlive the
 * process. Another thread's writer is copied into that thread's ring. Event e
 * of the writer is event e of the ring. */
typedef struct tc_feed {
	/* the events written so far, read with acquire semantics: every event
	 * below it is in the writer's memory */
	uint64_t (*count)(void *user);
	/* copies events [first, first + n) into out */
	void (*copy)(void *user, uint64_t first, size_t n, uint64_t *out);
	/* stores events [first, first + n) from in (the runtime's own, or events
	 * moved from another feed); on the writer's thread, during a call it made
	 * (so that it is not writing); NULL for a feed of another thread */
	void (*store)(void *user, uint64_t first, size_t n, const uint64_t *in);
	/* sets the count (every event below it is in the ring: copied too); on
	 * the writer's thread, during a call it made */
	void (*reset)(void *user, uint64_t count);
	/* the runtime is done with it (called once; any thread) */
	void (*release)(void *user);
	/* the events below count are in the ring now (any thread; NULL for
	 * none). No writer need wait for it: what a writer overwrites before
	 * or while it is copied is dropped and counted lost (tc_ringfile.h) */
	void (*copied)(void *user, uint64_t count);
	/* events it holds (a power of two). The recording thread's: as many as
	 * the ring's capacity or more (fewer are read as the ring's capacity).
	 * Another thread's: as many as its ring in the thread file or more;
	 * it is copied at every clock tick and need not wait for copies (one a
	 * whole array behind leaves empty slots in the file) */
	uint32_t capacity;
	void *user;
} tc_feed;

typedef struct tc_device_info {
	const char *machine;  /* static string: BEST HIGH MIDDLE LOW BAD UN_KNOW */
	double cpu_app;       /* % of all CPU time used by this process */
	int64_t mem_bytes;    /* total RAM */
	int64_t mem_free_kb;  /* available RAM */
} tc_device_info;

typedef struct tc_process_stat {
	int64_t priority, nice;                 /* the recording thread's: its /proc stat fields 18 and 19 */
	int64_t dalvik_heap_kb, native_heap_kb; /* -1 when unknown */
	int64_t vm_size_kb;                     /* /proc/self/status VmSize */
} tc_process_stat;

/* tc_config.thread_filter: may the thread tid, named name, record? */
typedef bool (*tc_thread_filter)(void *user, uint32_t tid, const char *name);

/* Facts about the process that reports include. Each NULL member falls back
 * to the default (reading /proc, the real clocks); tests inject fakes and the
 * JNI glue supplies the Java-only ones (thread stack, Java heap). Called on
 * the tracer thread. */
typedef struct tc_probe {
	void *user;
	uint64_t (*wall_ms)(void *user);
	void (*device_info)(void *user, tc_device_info *out);
	/* out holds the defaults when it is called (tc_default_process_stat_of
	 * the recording thread): it overwrites what it knows */
	void (*process_stat)(void *user, tc_process_stat *out);
	/* the recording thread's current stack, malloc'd (the caller frees), or NULL.
	 * style: 0 simple (frames 3..11, "|*\t\tat ..."), 1 whole, 2 raw lines;
	 * TC_STACK_CALLER: the calling thread's own stack, raw lines (on any
	 * thread; NULL for a thread the VM does not know) */
	char *(*thread_stack)(void *user, int style);
	/* the process name, malloc'd, or NULL */
	char *(*process_name)(void *user);
	/* signal ANR, on its watcher thread: how late the main queue's head
	 * message is (uptime - when, ms; Matrix's -anrMessageWhen), INT64_MIN if
	 * the queue is empty or unknown; NULL: only the running message counts */
	int64_t (*queue_head_late_ms)(void *user);
	/* 1 this process is NOT_RESPONDING (ActivityManager's error state), -1
	 * another process is, 0 neither; NULL: not polled */
	int (*error_state)(void *user);
	/* block context (tc_config.block_context), on the clock thread at a
	 * message's start and when it turns out slow: the CPU time (ns) of thread
	 * tid (the recording thread), the time it waited runnable for a CPU, and
	 * the process's CPU time, -1 unknown; NULL reads /proc/self/task/TID/stat,
	 * .../schedstat and /proc/self/stat */
	void (*cpu_ns)(void *user, uint32_t tid, int64_t *thread_ns, int64_t *runq_ns, int64_t *process_ns);
	/* the runtime's GC since it started: count, time ms, blocking count,
	 * blocking time ms (ART's art.gc.*); false, or NULL, when unknown */
	bool (*gc_stats)(void *user, int64_t out[4]);
} tc_probe;

#define TC_STACK_CALLER 3

/* The defaults the probe falls back to, for probes that add to them. */
void tc_default_device_info(tc_device_info *out);
void tc_default_process_stat(tc_process_stat *out);
/* The same, with the priority and nice of thread tid of this process (0: of
 * its first thread, /proc/self/stat, which Matrix reads: on Android the main
 * thread, but not on HotSpot, whose Java main thread is another). */
void tc_default_process_stat_of(tc_process_stat *out, uint32_t tid);

typedef struct tc_report {
	const char *tag;   /* Trace_EvilMethod, Trace_FPS, Trace_StartUp */
	const char *key;   /* Issue.key: the message token for ANR, else "" */
	const char *json;  /* the content object, one line, with tag/process/time */
} tc_report;

typedef void (*tc_report_fn)(void *user, const tc_report *report);

enum { TC_LOG_DEBUG = 3, TC_LOG_INFO = 4, TC_LOG_WARN = 5, TC_LOG_ERROR = 6 };
typedef void (*tc_log_fn)(void *user, int level, const char *tag, const char *text);

typedef struct tc_config {
	uint32_t capacity;            /* ring events, default 1,000,000 */
	/* NULL: anonymous memory; else a mapped file (tc_ringfile.h), its space
	 * reserved when it is made. One file per process: a process whose name has a
	 * ":name" suffix (Android's android:process=":name") uses PATH.name; a file
	 * that another live process holds is left alone. Either that or no room for
	 * the file gives an anonymous ring, and a warning (on_log). */
	const char *buffer_path;
	uint32_t clock_resolution_ms; /* clock thread tick while a message runs, and so the
	                                 resolution of events' times in messages: 1 to 1000,
	                                 0 is 1; default 5, as Matrix (README, "Battery") */
	bool threads;                 /* start the clock and tracer threads (default true);
	                                 false: time is read from the clock at every event and
	                                 tasks run inline or at tc_ctx_poll (tests) */
	uint32_t tracers;             /* TC_TRACER_* bits, default TC_TRACER_ALL */
	/* TC_THREADS_MAIN (default) or TC_THREADS_ALL: then the other threads' rings
	 * are made once, in memory or, with buffer_path, in the file PATH-threads
	 * (PATH as the ring's, with its process suffix), reserved up front; their
	 * settings cannot change afterwards (tc_reconfigure keeps them) */
	uint32_t record_threads;
	uint32_t thread_capacity;     /* events per other thread's ring, default 32,768 */
	uint32_t max_threads;         /* other threads given a ring, default 32; later ones are
	                                 counted in the thread file, not recorded */
	/* TC_THREADS_ALL, the C writer (tc_record on other threads; the Java writer
	 * has Config.threadNames and TraceCanary.setThreadInterceptor): which threads
	 * record, decided once per thread at its first event, never per event.
	 * thread_names: ';'-separated globs ('*' any run, '?' one character) on the
	 * thread's system name (at most 15 bytes: ART keeps the last 15 characters
	 * of a longer Java name with a dot and no '@', else the first 15); then
	 * thread_filter, if set, under the runtime's lock (keep it short). A thread
	 * said no to records nothing and is not counted as refused or dropped.
	 * NULL: every thread. Kept by tc_reconfigure with the threads' rings. */
	const char *thread_names;
	tc_thread_filter thread_filter;
	void *thread_filter_user;
	uint32_t expire_ms;           /* not started after this long: stop recording (10,000; 0 = never) */
	/* the build the method ids belong to (tc-instrument's build id, which the Java
	 * side reads from the marker class), recorded in the ring header and in every
	 * report ("buildId"); 0: unknown. Kept by tc_reconfigure like the time base. */
	uint64_t build_id;

	uint32_t evil_threshold_ms;   /* 700 */
	uint32_t lag_ms;              /* 2,000 */
	uint32_t anr_ms;              /* 5,000 */
	uint32_t anr_invalid_ms;      /* 6,000: an ANR check this late is dropped */
	int stack_style;              /* ANR threadStack style, 0 simple */
	uint32_t idle_lag_ms;         /* 2,000: an idle handler this long is reported */
	uint32_t signal_anr_fg_ms;    /* 2,000: blocked this long in the foreground is an ANR */
	uint32_t signal_anr_bg_ms;    /* 10,000 in the background */
	uint32_t signal_anr_checks;   /* 40 error-state checks ... */
	uint32_t signal_anr_check_ms; /* ... 500 ms apart */
	/* TC_TRACER_PRIORITY, TC_TRACER_TOUCH: the libraries whose calls are
	 * hooked (';'-separated fnmatch patterns, tc_plthook.h; copied) */
	const char *priority_libs;    /* "*.so", as Matrix (xhook's ".*\\.so$") */
	const char *touch_libs;       /* "libinput.so" */
	uint32_t touch_lag_ms;        /* 2,000: an input event this slow is reported */

	uint32_t fps_slice_ms;        /* 10,000: frame time per window (FrameMetrics: time since its first frame) */
	uint64_t frame_interval_ns;   /* 16,666,667 until tc_set_frame_interval */
	int drop_frozen, drop_high, drop_middle, drop_normal; /* 42 24 9 3 */

	uint32_t cold_threshold_ms;   /* 10,000 */
	uint32_t warm_threshold_ms;   /* 4,000 */
	uint32_t startup_guard_ms;    /* 30,000: create-to-focus longer than this is not reported */
	const char *splash_activities;/* ';'-separated class names, or NULL */
	bool has_activity;            /* true; false reports startup at application-create end */

	const char *report_path;      /* append each report's JSON as one line, or NULL */
	tc_report_fn on_report;
	void *report_user;
	tc_log_fn on_log;             /* logcat blocks and warnings, or NULL */
	void *log_user;
	/* called on the tracer thread when the context was not started within
	 * expire_ms and stopped recording: its owner may now free it (on the
	 * recording thread, tc_ctx_free); NULL for none */
	void (*on_expire)(void *user);
	void *expire_user;
	/* called on every method-in, on the recording thread, before the event
	 * is written (Matrix's MethodEnterListener); NULL for none */
	void (*on_method_enter)(void *user, uint32_t id);
	void *enter_user;
	/* the clock word changed (TC_CLOCK_*): any thread, one call at a time, in
	 * the order of the changes; NULL for none. The JNI glue stores it where
	 * the Java writer reads it. */
	void (*on_clock_word)(void *user, int64_t word);
	void *clock_word_user;

	tc_clock clock;
	tc_probe probe;
	/* slow-message, lag and ANR reports say why the main thread was slow:
	 * Matrix's `usage`, CPU and GC during the message (README, "Block
	 * context"); false by default: it costs the clock thread a /proc read and
	 * a probe call per message */
	bool block_context;
} tc_config;

typedef struct tc_ctx tc_ctx;

/* A position in the ring (Matrix's IndexRecord): the number of events that had
 * been written when it was taken. A value, owned by whoever holds it; nothing
 * to release. It stays valid until the ring has wrapped over the event before
 * it, whatever other records exist. A record belongs to the ring it was taken
 * in: when tc_reconfigure replaces the ring, the context's own records are
 * moved onto the new one (or become invalid if the event before them was not
 * carried over); a caller's records must be taken again. */
typedef struct tc_index {
	uint64_t seq;
} tc_index;

void tc_config_init(tc_config *cfg);

/* Creates a context in status READY (recording). The config's strings are
 * copied. The calling thread becomes the recording thread. */
int tc_ctx_new(tc_ctx **out, const tc_config *cfg, tc_rt_error *err);
/* Stops the threads, delivers nothing more, unmaps the ring. NULL is fine.
 * Must not race with a writer: call it on the recording thread, or after it
 * has stopped writing. */
void tc_ctx_free(tc_ctx *ctx);
void tc_ctx_bind_thread(tc_ctx *ctx);

/* Replaces the tracer settings (thresholds, tracers, splash activities,
 * report path and callbacks; not the clock, threads or probe). Only while not
 * STARTED (TC_RT_ESTATE): the recording and tracer threads read them unlocked.
 *
 * The ring (capacity, buffer_path, clock_resolution_ms) changes too if cfg
 * asks for a different one before the first start (status READY or
 * EXPIRED_START), called on the recording thread: a new ring is made (a file
 * is built under a temporary name, then renamed to buffer_path), the newest
 * events that fit are moved into it in order, the context's index records
 * follow them (with a staged writer attached, its memory keeps the events
 * and their numbers, and a new ring file gets a copy of the newest), the
 * clock thread restarts at the new resolution, and the old ring is freed. A
 * larger ring is read as large as the staged writer's memory until it
 * attaches a larger one. After a start, or on another thread, the ring stays as it is and a
 * warning is logged. An unchanged ring is kept as it is. Errors leave the
 * context as it was, but for TC_RT_ETHREAD: the new ring and the settings are in
 * place, without a clock thread. Not concurrently with itself, tc_start or
 * tc_ctx_free. */
int tc_reconfigure(tc_ctx *ctx, const tc_config *cfg, tc_rt_error *err);

int tc_start(tc_ctx *ctx, tc_rt_error *err);  /* READY, STOPPED or EXPIRED_START -> STARTED */
void tc_stop(tc_ctx *ctx);                 /* STARTED -> STOPPED */
int tc_status(const tc_ctx *ctx);
bool tc_is_alive(const tc_ctx *ctx);       /* STARTED only (Matrix also said yes for DEFAULT) */

/* Records method id in or out on the calling thread: the recording thread,
 * or with TC_THREADS_ALL any thread (its ring is handed out at its first
 * event; after that an event takes no lock and allocates nothing). Ignored
 * for ids >= TC_ID_MAX, other threads in TC_THREADS_MAIN, status < READY and
 * nested calls (re-entrancy guard). on_method_enter is called on the
 * recording thread only. */
void tc_record(tc_ctx *ctx, uint32_t id, bool in);

/* Attaches the calling thread's staged writer (tc_feed, copied). The
 * recording thread's becomes the context's ring of record: the newest events
 * of the ring (or of the feed it attached before, then released) are moved
 * into it and its count set; a ring file is kept a copy of it at each clock
 * tick, when tc_feed_pull asks and at tc_ctx_free.
 * Another thread's (with TC_THREADS_ALL) feeds a ring of its own, handed out
 * now as by tc_record and named name (NULL: the thread's system name), its
 * count set to the ring's; the runtime copies it at each clock tick, when
 * tc_feed_pull asks, and a last time once its thread ended (then the feed is
 * released, and a later thread may get the ring).
 * *token (if not NULL) names the ring for tc_feed_ended (0 for the
 * recording thread's). TC_RT_ENOSPC: every thread ring is in use (the thread is
 * counted as refused; the feed is not kept: attach again later); TC_RT_ESTATE:
 * the context records the recording thread only. */
int tc_feed_attach(tc_ctx *ctx, const tc_feed *feed, const char *name, uint64_t *token, tc_rt_error *err);
/* Another thread's writer says its thread is done (the Java thread ended;
 * the native thread may still be ending, before its TLS destructor runs):
 * its ring may go to the next thread that asks, after a last copy. token is
 * what tc_feed_attach gave; a token of a ring handed out again since is
 * ignored. Any thread. */
void tc_feed_ended(tc_ctx *ctx, uint64_t token);
/* Copies the calling thread's feed into its ring (the recording thread's:
 * into the ring file, if there is one) now. */
void tc_feed_pull(tc_ctx *ctx);
/* A staged writer read TC_CLOCK_STALE: the clock thread ticks again until
 * two ticks find no new event outside a message, and the word is current
 * before this returns. Returns the time (ms since the time base), or
 * TC_CLOCK_OFF while not recording. Any thread. */
int64_t tc_clock_kick(tc_ctx *ctx);
/* The clock word, as on_clock_word was last given it. */
int64_t tc_clock_word(const tc_ctx *ctx);
/* The thread file's region (its header: the clock word for other threads'
 * events, the counters; tc_ringfile.h), or NULL; valid as long. */
void *tc_threads_base(const tc_ctx *ctx, size_t *size);
/* Counts events that a staged writer dropped because its thread got no
 * ring (tc_feed_attach said TC_RT_ENOSPC); tc_record counts its own. */
void tc_threads_dropped(tc_ctx *ctx, uint64_t events);
/* Names the calling thread's ring (the recording thread's, or its own) as
 * tc-trace shows it; the default is the system's name of the thread. */
void tc_thread_name(tc_ctx *ctx, const char *name);

/* Sections: named intervals (tc_event.h), nestable, on the calling thread
 * (the recording thread, or any with TC_THREADS_ALL; elsewhere ignored).
 * tc_section_end ends the innermost section the thread began with
 * tc_section_begin (nothing if none). Sections deeper than 32 on one thread
 * are not recorded. The names (up to TC_SECTION_MAX distinct ones, each up
 * to 63 bytes) are kept in the ring's header; a name past that is TC_RT_ENOSPC
 * and is not recorded. */
int tc_section_begin(tc_ctx *ctx, const char *name, tc_rt_error *err);
void tc_section_end(tc_ctx *ctx);
/* The event id of section name (registering it), for writers that store
 * their own events: TC_ID_SECTION + n. Any thread. */
int tc_section_id(tc_ctx *ctx, const char *name, uint32_t *id, tc_rt_error *err);

/* A string field the next report delivered carries, once (before its tag):
 * a fact of the start that no report has a field for, e.g. why the Java
 * writers record nothing ("recordingOff"). At most TC_FIRST_NOTES_MAX;
 * one more is TC_RT_ENOSPC, a key already given is replaced. Any thread. */
#define TC_FIRST_NOTES_MAX 4
int tc_first_report_note(tc_ctx *ctx, const char *key, const char *value, tc_rt_error *err);
/* What one event of the Java writers cost at the start's self-check
 * (TraceCanary, off the recording thread: a burst of events with the
 * writers' Unsafe stores into a scratch staging ring, timed), in
 * picoseconds: kept in the ring's header (tc_ringfile.h, check_ps), which
 * tc-ringdump shows; the first report carries it as a note. Any thread. */
void tc_self_check(tc_ctx *ctx, uint32_t ps_per_event);
tc_index tc_mark(const tc_ctx *ctx);
bool tc_index_valid(const tc_ctx *ctx, tc_index idx);
/* Copies the events since idx, preceded by the one event before it (as
 * Matrix's copyData), in order, into a malloc'd array the caller frees.
 * Nothing new since idx gives *n = 0. TC_RT_ESTALE if the ring wrapped over it.
 * A staged writer's count read half-stored (32-bit ARM: its two halves
 * across a carry) is read again, never taken for a wrap; TC_RT_EBUSY if it
 * stayed so for 1,000 reads (the writer stopped between its halves). */
int tc_copy_since(const tc_ctx *ctx, tc_index idx, uint64_t **out, size_t *n, tc_rt_error *err);
uint64_t tc_now_ms(const tc_ctx *ctx);   /* the recording clock: ms since the time base */
uint64_t tc_written(const tc_ctx *ctx);  /* events ever written into the current ring */

/* The ring's region (tc_ringfile.h layout) and its size, for readers
 * (tests, tools). With a staged writer attached the events are in its memory:
 * the region is a copy of it as of the last copy if it is a file, else holds
 * only the header. Valid until tc_reconfigure replaces the ring or
 * tc_ctx_free. */
void *tc_ring_base(const tc_ctx *ctx, size_t *size);

/* Main looper, recording thread. Begin refreshes the clock, wakes the clock
 * thread, writes a TC_ID_DISPATCH in marker and starts the tracers' message
 * watch; end writes the out marker and ends it. A frame is recorded at end if
 * tc_vsync was called during the message. */
void tc_dispatch_begin(tc_ctx *ctx);
void tc_dispatch_end(tc_ctx *ctx);
/* Main queue, recording thread: an idle handler's queueIdle() begins and
 * ends (outside any message; ignored inside one). With TC_TRACER_IDLE the
 * watchdog reports one that runs idle_lag_ms or longer. */
void tc_idle_begin(tc_ctx *ctx);
void tc_idle_end(tc_ctx *ctx);

/* Frames, from Choreographer (Matrix's FPSCollector: the report has
 * Matrix's old Trace_FPS keys). tc_vsync marks the current message as a
 * Choreographer frame whose vsync was at vsync_ns (clock base): the display's
 * vsync, not the frame time doFrame is given, which Choreographer moves
 * forward when the frame is late. The frame ends with the message. tc_frame
 * records one frame directly. Any thread for tc_frame; tc_vsync on the
 * recording thread. */
void tc_vsync(tc_ctx *ctx, uint64_t vsync_ns);
void tc_frame(tc_ctx *ctx, uint64_t intended_ns, uint64_t end_ns);
/* The display's frame interval (1e9 / refresh rate); follow its changes. */
void tc_set_frame_interval(tc_ctx *ctx, uint64_t interval_ns);

/* Frames from Android's FrameMetrics (API 24+; Matrix's FrameTracer path:
 * the report adds its keys, the average of each duration, DROP_COUNT and
 * REFRESH_RATE). The durations in ns, in Matrix's FrameDuration order; GPU
 * is -1 where unknown (before API 31). Any thread, e.g. the listener's. */
enum {
	TC_FM_UNKNOWN_DELAY, TC_FM_INPUT_HANDLING, TC_FM_ANIMATION, TC_FM_LAYOUT_MEASURE, TC_FM_DRAW,
	TC_FM_SYNC, TC_FM_COMMAND_ISSUE, TC_FM_SWAP_BUFFERS, TC_FM_TOTAL, TC_FM_GPU, TC_FM_COUNT
};
void tc_frame_metrics(tc_ctx *ctx, const int64_t ns[TC_FM_COUNT]);
/* The same, with the frame's intended vsync (FrameMetrics'
 * INTENDED_VSYNC_TIMESTAMP, API 26+, clock base; -1 unknown), which places
 * the frame's main-thread phases in a message (the view phases). */
void tc_frame_metrics_at(tc_ctx *ctx, const int64_t ns[TC_FM_COUNT], int64_t intended_vsync_ns);
/* n frames whose FrameMetrics the platform dropped before the next it gave
 * (onFrameMetricsAvailable's dropCountSinceLastInvocation: the listener fell
 * behind, usually on the slow frames): frames of unknown duration, counted
 * in the current window's report as FRAMES_UNKNOWN_DURATION (in no bucket,
 * not in fps). Call it before that next frame's tc_frame_metrics_at. */
void tc_frame_metrics_dropped(tc_ctx *ctx, uint32_t n);

/* View phases (tc_config.block_context): a slow message's report says how
 * long the frames drawn in it spent in input, animation, measure + layout
 * and draw. The Android glue says where they come from: TC_VIEW_NONE (the
 * report says "unknown"), TC_VIEW_CHOREOGRAPHER (tc_view_phase marks),
 * TC_VIEW_FRAME_METRICS (tc_frame_metrics_at). */
enum { TC_VIEW_NONE, TC_VIEW_CHOREOGRAPHER, TC_VIEW_FRAME_METRICS };
void tc_set_view_source(tc_ctx *ctx, int source);
/* Recording thread, inside a message: a Choreographer frame enters a phase
 * (a callback at the head of its queue); a phase ends where the next one
 * begins, the last with the message. */
enum { TC_VIEW_INPUT, TC_VIEW_ANIMATION, TC_VIEW_TRAVERSAL };
void tc_view_phase(tc_ctx *ctx, int phase);

/* Scene (the visible activity or fragment) and foreground state. */
void tc_set_scene(tc_ctx *ctx, const char *scene);
void tc_set_foreground(tc_ctx *ctx, bool foreground);

/* Application and activity lifecycle. identity tells instances of one class
 * apart (Java's identity hash). tc_activity_focus is AppMethodBeat.at(): the
 * first focus per class is passed to the startup tracer. */
void tc_app_create_begin(tc_ctx *ctx);
void tc_app_create_end(tc_ctx *ctx, int what, bool by_launch_activity);
void tc_activity_created(tc_ctx *ctx, const char *cls, uint32_t identity);
void tc_activity_destroyed(tc_ctx *ctx, const char *cls, uint32_t identity);
void tc_activity_focus(tc_ctx *ctx, const char *cls, uint32_t identity, bool has_focus);

/* Checks the signal-ANR watcher has finished (one per SIGQUIT, or per burst;
 * a SIGQUIT during a check joins it; their reports,
 * if any, are handed to the tracer thread by then); for tests. */
uint64_t tc_signal_anr_handled(const tc_ctx *ctx);

/* Without threads: runs the tracer tasks whose time (by the injected clock)
 * has come. With threads it does nothing. */
void tc_ctx_poll(tc_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif

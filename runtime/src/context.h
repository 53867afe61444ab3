/* context.h: the context's insides, shared by context.c, report.c and the
 * tracers. Fields say which thread touches them. */
#ifndef TC_CONTEXT_H
#define TC_CONTEXT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "block_context.h"
#include "rt_error.h"
#include "clock.h"
#include "tc_runtime.h"
#include "ring.h"
#include "tc_analysis.h"
#include "tc_runtime.h"
#include "task_queue.h"
#include "thread_set.h"

#define SCENE_MAX 256
#define DROP_BUCKETS 5 /* BEST NORMAL MIDDLE HIGH FROZEN */

/* A scene's frame window (tracer_frame.c). */
typedef struct frame_scene {
	char scene[SCENE_MAX];
	bool metrics;           /* FrameMetrics frames; else Choreographer frames */
	int64_t sum_frames;
	int64_t drop_level[DROP_BUCKETS], drop_sum[DROP_BUCKETS];
	/* Choreographer: frame time, summed in ns (Matrix summed truncated ms, quirk fixed) */
	uint64_t sum_cost_ns;
	/* FrameMetrics: sums over the window's frames, which began at begin_ns */
	uint64_t begin_ns;
	int64_t durations[TC_FM_COUNT];
	int64_t gpu_frames;
	double dropped, refresh_hz;
	uint64_t paced_ns;      /* sum of max(total, interval) */
	int64_t unknown_frames; /* FrameMetrics the platform dropped (tc_frame_metrics_dropped) */
} frame_scene;

typedef struct frames {
	pthread_mutex_t mu;     /* frames come from the recording thread or a FrameMetrics listener */
	frame_scene *items;     /* per-scene windows */
	size_t n;
	char scene[SCENE_MAX];  /* the scene frames count for, and its scene_gen */
	uint32_t scene_gen;
} frames;

typedef struct activity_entry {
	char *key;              /* "Class@identity" */
	uint64_t created_ms;
} activity_entry;

struct tc_ctx {
	tc_config cfg;          /* strings point at the owned copies below */
	char *buffer_path, *splash, *report_path;
	/* tc_first_report_note's fields, under mu; the next report takes them */
	struct { char *key, *value; } first_notes[TC_FIRST_NOTES_MAX];
	size_t n_first_notes;
	/* The ring is replaced only before the first start, on the recording
	 * thread (tc_reconfigure), so that thread uses it unlocked, and so does
	 * the clock thread, which is stopped across a replacement. Other threads
	 * hold ring_lock shared while they use it; the replacement holds it
	 * exclusively. */
	ring ring;
	pthread_rwlock_t ring_lock;
	/* TC_STATUS_*. The ring header's status mirrors it for the file, the
	 * clock word for staged writers; changes are made under mu, so mirror
	 * stores keep order. */
	_Atomic int status;
	/* The recording thread's staged writer (tc_feed_attach), if any: the ring
	 * of record then (context.c, mirrored). feed_mu is held by whoever uses
	 * it off the recording thread (readers, the copy into a ring file) and
	 * by the C writer; taken after ring_lock's shared side. feed and has_feed
	 * change on the recording thread, under feed_mu. */
	pthread_mutex_t feed_mu;
	tc_feed feed;
	bool has_feed;
	/* the staged writer's count the clock thread saw last (its markers set
	 * it too: they are no reason to tick on), and events lost because a
	 * writer overran its memory before a copy */
	_Atomic uint64_t count_seen, lost;
	tc_index first_mark;    /* the recording's first event */
	clock_thread clock;
	task_queue tasks;
	tc_clock clk;           /* the clock: set once, read by any thread */
	uint64_t base_ns;
	pthread_t record_thread;
	_Atomic uint32_t record_tid; /* its thread id, for the PLT-hook tracers (any thread) */
	bool in_record;         /* re-entrancy guard, recording thread */
	section_stack sections; /* the recording thread's open sections */
	/* TC_THREADS_ALL: the other threads' rings, made once (tc_ctx_new or
	 * tc_reconfigure, under mu) and published with release; freed with the
	 * context. Other threads reach it without a lock. */
	_Atomic(thread_set *) tset;

	/* mu guards the scene, the settings tc_reconfigure replaces and status
	 * changes, and is only ever held briefly (never across I/O or a callback) */
	pthread_mutex_t mu;
	char scene[SCENE_MAX];
	_Atomic uint32_t scene_gen; /* changed with the scene: readers copy only then */
	_Atomic bool foreground;
	_Atomic uint64_t frame_interval_ns;

	/* message in progress: recording thread */
	bool in_dispatch;
	uint64_t dispatch_begin_ns;
	uint64_t message_token;
	bool vsync;
	uint64_t vsync_ns;
	/* ... and as the watchdog (clock thread) sees it: msg_state is
	 * 2 * token + 1 while message `token` runs, 2 * token after it, stored
	 * (release) after the other two: a seqlock with one writer */
	_Atomic uint64_t msg_state, msg_begin_ns, msg_mark;
	/* the watchdog's own: the last message given a lag and an ANR check */
	uint64_t lag_checked, anr_checked;

	/* an idle handler running (tracer_idle.c): recording thread, and as the
	 * watchdog sees it, idle_state 2 * token + 1 while handler run `token`
	 * runs (as msg_state); idle_checked is the watchdog's */
	bool in_idle;
	uint64_t idle_token, idle_checked;
	_Atomic uint64_t idle_state, idle_begin_ns;

	/* signal ANR (tracer_signal.c): installed at tc_ctx_new, removed at free */
	struct signal_anr *sig;

	/* tracers: recording thread unless noted */
	tc_index evil_mark;
	block_state block;      /* cfg.block_context: the clock thread's start sample (block_context.h) */
	view_phases vp;         /* cfg.block_context: a slow message's frames (viewphase.h) */

	frames frames;

	struct {
		uint64_t app_begin_ms, app_end_ms;  /* eggBrokenTime, application create end */
		bool app_begun;
		int app_scene;                       /* the H message; INT32_MIN until known */
		bool by_launch_activity;
		tc_index app_mark, warm_mark;
		int64_t first_screen_ms, cold_ms;
		bool splash_shown, warm, cold_done;
		uint64_t warm_create_ms;
		int active;
		activity_entry *acts;
		size_t n_acts;
		char **focused;                      /* classes with focus (AppMethodBeat.at) */
		size_t n_focused;
	} st;
};

/* task-queue token of the start-expiry check */
#define EXPIRE_TOKEN UINT64_C(2)

uint64_t ctx_clock_ns(const tc_ctx *ctx);
uint64_t ctx_ms(const tc_ctx *ctx, uint64_t ns);  /* ns -> ms since the time base */
bool ctx_started(const tc_ctx *ctx);
/* a malloc'd copy of the scene, or NULL */
char *ctx_scene(tc_ctx *ctx);
/* copies the scene into buf if it changed since *gen, which it updates */
void ctx_scene_cached(tc_ctx *ctx, char buf[SCENE_MAX], uint32_t *gen);
void ctx_log(tc_ctx *ctx, int level, const char *tag, const char *fmt, ...) TC_RT_PRINTF(4, 5);

/* report.c: opens the content object with the device-info keys ... */
struct json;
void report_begin(tc_ctx *ctx, struct json *j);
/* ... and closes it with tag, process and time, then delivers it (callback,
 * then the JSON-lines file). Tracer thread. */
void report_send(tc_ctx *ctx, struct json *j, const char *tag, const char *key);

/* procinfo.c: defaults for the tc_probe members */
uint64_t procinfo_wall_ms(tc_ctx *ctx);
void procinfo_device_info(tc_ctx *ctx, tc_device_info *out);
void procinfo_process_stat(tc_ctx *ctx, tc_process_stat *out);
char *procinfo_thread_stack(tc_ctx *ctx, int style);
char *procinfo_process_name(tc_ctx *ctx);
/* Reads a small /proc file into buf (NUL-terminated); returns its length or -1. */
long procinfo_read_small(const char *path, char *buf, size_t cap);
/* The fields of a /proc stat line after the ")" that ends the command name (which may
 * hold spaces), split in place; returns how many (at most max). */
int procinfo_stat_fields(char *text, char **field, int max);

/* The tracers: one file each (tracer_NAME.c), which defines one row,
 * tracer_NAME; the context walks the table of them (context.c, tracers[],
 * in its order) and calls none by name, so a new tracer is one file and one
 * row (tests/runtime/tracers/table.py checks it). Any hook may be NULL. A
 * tracer's reports are its own: it posts them to the tracer thread from its
 * hooks (ctx_deliver and the task queue). */
typedef struct tracer_ops {
	const char *tag;       /* its log tag (Matrix's class) */
	const char *what;      /* what is off when start fails ("signal ANR") */
	uint32_t bit;          /* TC_TRACER_*: start and stop follow it in tc_config.tracers */
	/* at tc_ctx_new, TC_RT_EBUSY from start (another context holds what is
	 * process-wide) is a warning and the context goes on without it; any
	 * other failure fails tc_ctx_new. At tc_reconfigure every failure is a
	 * warning. */
	bool busy_is_warning;
	/* tc_ctx_new and every tc_reconfigure with bit on (cfg's library
	 * patterns are used there and not kept); again while it runs, so it
	 * applies what changed or keeps what it has */
	int (*start)(tc_ctx *ctx, const tc_config *cfg, tc_rt_error *err);
	/* tc_reconfigure with bit off, and first thing at tc_ctx_free (it
	 * returns once no call is inside a hook with the context); a no-op
	 * when not started */
	void (*stop)(tc_ctx *ctx);
	/* a main-looper message begins, ends (recording thread, context started) */
	void (*message_begin)(tc_ctx *ctx);
	void (*message_end)(tc_ctx *ctx, uint64_t begin_ns, uint64_t end_ns);
	/* a frame ended (a message after a vsync, or tc_frame; context started) */
	void (*frame)(tc_ctx *ctx, uint64_t intended_ns, uint64_t end_ns);
	/* the watchdogs: on the clock thread at every tick (tc_ctx_poll without threads) */
	void (*tick)(tc_ctx *ctx, uint64_t now_ns);
	/* tc_ctx_free, once the context's threads are stopped: its state */
	void (*free)(tc_ctx *ctx);
} tracer_ops;
extern const tracer_ops tracer_evil, tracer_anr, tracer_frame, tracer_startup, tracer_idle, tracer_signal,
	tracer_priority, tracer_touch;
/* tracer_signal.c: the SIGQUIT handler and its watcher thread */
typedef struct signal_anr signal_anr;

/* shared by the stack-reporting tracers: strict or not, parse + trim */
int ctx_analyse_events(tc_stack *st, const uint64_t *ev, size_t n, bool strict, uint64_t end_ms);

#endif

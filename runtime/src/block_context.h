/* block_context.h: why a slow message was slow (BlockCanaryEx's block context):
 * the recording thread's CPU time against wall time (Matrix's `usage`), the
 * process's CPU time, and the GC that ran meanwhile.
 *
 * Nothing here runs per event, nor per message on the recording thread: the
 * start values are sampled by the clock thread's watchdog at its first tick
 * inside a message (block_watch), the end values only when a message turns
 * out slow, or at a lag or ANR check (block_end). The sample is a little
 * after the message began (the clock thread wakes at the begin): the
 * figures cover the time from the sample to the end, and say how long that
 * was (`sampledMs`). */
#ifndef TC_BLOCK_CONTEXT_H
#define TC_BLOCK_CONTEXT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "bytes.h"
#include "viewphase.h"

struct tc_ctx;
struct json;

enum { BLOCK_GC_COUNT, BLOCK_GC_TIME, BLOCK_GC_BLOCKING_COUNT, BLOCK_GC_BLOCKING_TIME, BLOCK_GC_N };

typedef struct block_sample {
	uint64_t at_ns;                /* the context's clock */
	int64_t thread_cpu_ns;         /* the recording thread's utime + stime; -1 unknown */
	int64_t thread_runq_ns;        /* its time runnable but waiting for a CPU; -1 unknown */
	int64_t process_cpu_ns;        /* the process's; -1 unknown */
	int64_t gc[BLOCK_GC_N];        /* counts, and times in ms; -1 unknown (before API 23) */
} block_sample;

/* The start sample of one message. The clock thread writes it once per
 * message, the recording thread (or the watchdog, at a check) reads it: a
 * seqlock with one writer (token 0 while it writes, then the message's,
 * stored with release). Zeroed memory is a valid empty state. */
typedef struct block_state {
	_Atomic uint64_t token;        /* the message sampled (0: none, or being written) */
	_Atomic uint64_t at_ns;
	_Atomic int64_t thread_cpu_ns, thread_runq_ns, process_cpu_ns;
	_Atomic int64_t gc[BLOCK_GC_N];
	uint64_t seen;                 /* clock thread: the last message it sampled */
} block_state;

/* What a report says: the difference between the two samples. */
typedef struct block_ctx {
	bool known;                    /* a start sample of this message was taken */
	int64_t wall_ms;               /* sample to end */
	int64_t thread_cpu_ms, runq_ms, process_cpu_ms; /* -1 unknown */
	int64_t gc[BLOCK_GC_N];        /* -1 unknown */
} block_ctx;

/* Clock thread, at every tick (tc_ctx_poll without threads): samples the
 * start of a message it has not seen yet. Does nothing unless the
 * configuration asks for the block context. */
void block_watch(struct tc_ctx *ctx, uint64_t now_ns);
/* The message token ran from its start sample to end_ns: fills out (known
 * false when the watchdog never sampled it, or token is 0: no message). */
void block_end(struct tc_ctx *ctx, uint64_t token, uint64_t end_ns, block_ctx *out);
/* Matrix's `usage` string: "0%" / "100%" / "12.34%". */
void block_usage(char *buf, size_t cap, int64_t cpu_ms, int64_t wall_ms);
/* The report keys (`usage`, `blockContext`{...}) and the logcat lines; the
 * view phases where vp is given (a slow message's, known at its end). */
void block_json(struct json *j, const block_ctx *b, const vp_result *vp);
void block_text(tc_buf *sb, const block_ctx *b, const vp_result *vp);
/* key: v, or "unknown" when v < 0 */
void block_kv_known(struct json *j, const char *key, int64_t v);

#endif

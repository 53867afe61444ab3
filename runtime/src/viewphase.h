/* viewphase.h: the view phases of the frames drawn inside a slow message
 * (input, animation, measure + layout, draw), part of its block context.
 *
 * Two sources, chosen by the Android glue (tc_set_view_source):
 * - Choreographer (before API 26): callbacks at the heads of the input,
 *   animation and traversal queues mark where each phase begins, on the
 *   recording thread, inside the message; a phase ends where the next one
 *   begins, the traversal with the message. Known at the message's end.
 *   The traversal is measure, layout and draw in one: they are "unknown".
 * - FrameMetrics (API 26+, the first with a frame's intended vsync): each
 *   frame's main-thread phases arrive after the frame is rendered, on another
 *   thread. A frame belongs to the message its input phase began in (intended
 *   vsync + unknown delay). The report waits until a frame that began after
 *   the message has arrived, or VP_SETTLE_MS after its end.
 * Nothing runs per event, nor per message unless the message is slow. */
#ifndef TC_VIEWPHASE_H
#define TC_VIEWPHASE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "bytes.h"

struct tc_ctx;
struct json;

enum { VP_INPUT, VP_ANIMATION, VP_MEASURE_LAYOUT, VP_DRAW, VP_TRAVERSAL, VP_N };

#define VP_RING 64           /* FrameMetrics frames kept: 0.5 s at 120 Hz */
#define VP_SETTLE_MS 500     /* how long a report waits for a message's frames */
#define VP_POLL_MS 32        /* how often it looks */

/* What a report says. */
typedef struct vp_result {
	int source;              /* TC_VIEW_* */
	int64_t frames;          /* -1 unknown (or, FrameMetrics, not collected yet) */
	int64_t ms[VP_N];        /* -1 unknown */
} vp_result;

typedef struct vp_frame {
	uint64_t vsync_ns, start_ns;  /* intended vsync; the input phase's start */
	int64_t ns[VP_TRAVERSAL];     /* input, animation, measure + layout, draw */
} vp_frame;

typedef struct view_phases {
	_Atomic int source;
	/* Choreographer: recording thread only */
	uint64_t token;          /* the message the sums are for */
	int open;                /* the phase running, -1 none */
	uint64_t open_ns;
	int64_t frames;
	uint64_t sum[3];         /* input, animation, traversal */
	/* FrameMetrics: under ctx->frames.mu (the listener's thread adds, the
	 * tracer thread reads) */
	vp_frame ring[VP_RING];
	unsigned next, n;
	uint64_t latest_ns;      /* the latest input start seen */
} view_phases;

/* Recording thread, at a Choreographer queue's head (tc_view_phase). */
void vp_mark(struct tc_ctx *ctx, int phase, uint64_t now_ns);
/* A FrameMetrics frame (tc_frame_metrics_at); any thread. */
void vp_metrics(struct tc_ctx *ctx, const int64_t *ns, int64_t intended_vsync_ns);
/* Recording thread, when the message token, ended at end_ns, was slow: the
 * Choreographer sums, or (FrameMetrics) frames -1 to collect later. */
void vp_end(struct tc_ctx *ctx, uint64_t token, uint64_t end_ns, vp_result *out);
/* Tracer thread: collects the FrameMetrics frames of [begin_ns, end_ns) into
 * out; false while a frame of it may still come (unless final). */
bool vp_collect(struct tc_ctx *ctx, uint64_t begin_ns, uint64_t end_ns, bool final, vp_result *out);

/* The report's `blockContext.viewPhases` object, the logcat line, and the
 * heaviest phase for the `why` line ("" when there is no frame). */
void vp_json(struct json *j, const vp_result *v);
void vp_text(tc_buf *sb, const vp_result *v);
void vp_why(tc_buf *sb, const vp_result *v);

#endif

/* trace_perfetto.h: Perfetto's own trace format (protobuf: a Trace is a sequence of
 * TracePacket messages; protos/perfetto/trace/perfetto_trace.proto of google/perfetto),
 * which ui.perfetto.dev, Android Studio and trace_processor open natively.
 *
 * What it writes, one sequence (trusted_packet_sequence_id 1):
 *   - a first packet that clears the incremental state and sets the packets' default
 *     clock, BUILTIN_CLOCK_MONOTONIC (the clock the ring records, as atrace's on
 *     Android: a system trace taken at the same time loads beside it), and describes the
 *     process's track (ProcessDescriptor: pid, name);
 *   - per track given (tr_chrome_track): a TrackDescriptor (a thread's: ThreadDescriptor
 *     with pid, tid and name; its sections': a named track under the process), and for
 *     a method track also a "messages" track under the process holding one slice per
 *     looper message, so the messages read as a row of their own;
 *   - TrackEvents: TYPE_SLICE_BEGIN / TYPE_SLICE_END per span in pre-order (a thread's
 *     methods nested in its messages, as the Chrome JSON has them), names interned
 *     (InternedData.event_names, categories, annotation names and the full-name strings,
 *     each sent once, in the packet that first uses it); debug annotations "id" and
 *     "method" (with the descriptor), and "note" / "clipped" where the span has them;
 *   - each report as a TYPE_INSTANT on the first track, category "report", its args
 *     (a JSON object) as debug annotations (objects as dictionaries, arrays as arrays,
 *     numbers as integers when they are, else doubles).
 * Timestamps are in ns: base_ns plus the span's ms. Spans shorter than o->min_us are
 * left out and counted as in tr_chrome_write_tracks (0: every span, the default of
 * `tc-trace perfetto`). The output is written packet by packet as it is made. */
#ifndef TR_PERFETTO_H
#define TR_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "trace_chrome.h"

/* o: pid, process_name, names (slice names), next_instant, min_us as for Chrome's;
 * timestamps from base_ns (CLOCK_MONOTONIC, the ring's time base), paired with wall_ns
 * (CLOCK_REALTIME at the same moment; 0: unknown) in the clock snapshot. o->complete is
 * not used (begin/end always). */
int tr_perfetto_write_tracks(FILE *out, const tr_chrome_track *tracks, size_t n, const tr_mapping *m,
                             const tr_chrome_opts *o, uint64_t base_ns, uint64_t wall_ns,
                             tr_chrome_dropped *dropped, tc_error *err);

#endif

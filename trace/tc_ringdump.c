/* tc-ringdump: prints a ring file (tc_ringfile.h), e.g. one left behind by a
 * process that was killed, and optionally the call stack it holds; or a
 * thread file (PATH-threads), each thread's ring in turn.
 *
 *   tc-ringdump [-q] [-s] [-t END_MS] FILE
 *     -q        header only, no event lines
 *     -s        also print the call stack (report lines depth,id,count,ms)
 *     -t END_MS close methods still open at END_MS (strict from the first
 *               message, as the ANR tracer does); default: drop them
 *
 * A launch keeps the ring the run before left as FILE.prev: when there is
 * one, a line on stderr says so.
 *
 * Exit status: 0 ok, 1 the file could not be decoded, 2 usage. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_analysis.h"
#include "tc_ringfile.h"
#include "trace_io.h"

static void prev_note(const char *path)
{
	char *prev = tr_prev_ring(path);
	if (prev)
		fprintf(stderr, "tc-ringdump: %s holds the ring of the run before this one\n", prev);
	free(prev);
}

static int usage(void)
{
	fputs("usage: tc-ringdump [-q] [-s] [-t END_MS] FILE\n", stderr);
	return 2;
}

/* The header's status (TC_STATUS_*, Matrix's values) in words: a bare "-3"
 * sent readers to the source. */
static const char *status_words(int32_t s)
{
	switch (s) {
	case TC_STATUS_RELEASED: return "released: the process freed the runtime, the recording ended cleanly";
	case TC_STATUS_EXPIRED_START: return "start expired: never started in time, so recording stopped";
	case TC_STATUS_STOPPED: return "stopped: tc_stop (AppMethodBeat.stop) ended the recording";
	case TC_STATUS_READY: return "ready: recording, tracers not started; still running or killed";
	case TC_STATUS_STARTED: return "started: recording with tracers; still running or killed";
	default: return "unknown status";
	}
}

static int dump(const char *path, const tc_ring_image *img, int quiet, int stack, int strict, uint64_t end_ms)
{
	printf("ring %s: version %u, capacity %" PRIu64 ", written %" PRIu64 ", pid %u, status %d (%s), resolution %u ms\n",
	       path, img->version, img->capacity, img->seq, img->pid, img->status, status_words(img->status),
	       img->resolution_ms);
	printf("time base: monotonic %" PRIu64 " ns, wall %" PRIu64 " ms\n", img->time_base_ns, img->wall_base_ms);
	if (img->tid || img->thread_name[0])
		printf("thread: %u %s\n", img->tid, img->thread_name);
	if (img->build_id) /* tc-instrument's buildId file of the build that recorded it */
		printf("build id: %016" PRIx64 "\n", img->build_id);
	if (img->generation) /* a thread's ring: which hand-out, and whether its thread ended */
		printf("generation %u, %s\n", img->generation, img->ended_ns ? "ended" : "running");
	if (img->check_ps) /* the start's self-check of the Java writers (tc_self_check) */
		printf("self-check: %u.%03u ns per event\n", img->check_ps / 1000, img->check_ps % 1000);
	for (uint32_t n = 0; img->names && n < TC_SECTION_MAX; n++)
		if (img->names[n][0])
			printf("section %u: %s\n", TC_ID_SECTION + n, img->names[n]);
	printf("events: %zu from seq %" PRIu64 "%s\n", img->count, img->first_seq,
	       img->recovered ? " (newest recovered past the stored count)" : "");
	if (img->lost) /* the copier's, when a staged writer lapped it: empty slots, not wrong events */
		printf("lost to lapping: %" PRIu64 " events (the writer overwrote them before they were copied)\n",
		       img->lost);
	if (!quiet) {
		for (size_t i = 0; i < img->count; i++) {
			uint64_t v = img->events[i];
			if (v == 0)
				continue;
			printf("%" PRIu64 " %s %u %" PRIu64 "\n", img->first_seq + i, tc_event_is_in(v) ? "in" : "out",
			       tc_event_id(v), tc_event_time(v));
		}
	}
	int rc = 0;
	if (stack) {
		tc_stack st = { 0 };
		char *text = NULL;
		if (tc_stack_build(&st, img->events, img->count, strict, end_ms) != TC_RT_OK ||
		    tc_stack_format(&st, &text, NULL) < 0) {
			fputs("tc-ringdump: out of memory\n", stderr);
			rc = 1;
		} else {
			printf("stack: %zu items\n%s", st.len, text);
		}
		free(text);
		tc_stack_dispose(&st);
	}
	return rc;
}

int main(int argc, char **argv)
{
	int quiet = 0, stack = 0, strict = 0;
	uint64_t end_ms = TC_NO_END_TIME;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-q") == 0)
			quiet = 1;
		else if (strcmp(argv[i], "-s") == 0)
			stack = 1;
		else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
			char *end;
			end_ms = strtoull(argv[++i], &end, 10);
			if (*end)
				return usage();
			strict = 1;
		} else if (argv[i][0] == '-' || path)
			return usage();
		else
			path = argv[i];
	}
	if (!path)
		return usage();

	tc_rt_error err = { 0 };
	char magic[8] = { 0 };
	FILE *f = fopen(path, "rb");
	if (f) {
		if (fread(magic, 1, sizeof magic, f) != sizeof magic)
			magic[0] = '\0';
		fclose(f);
	}
	if (memcmp(magic, TC_THREADS_MAGIC, 8) == 0) {
		tc_threads_image ti;
		if (tc_threads_load(&ti, path, &err) != TC_RT_OK) {
			fprintf(stderr, "tc-ringdump: %s\n", err.message);
			return 1;
		}
		printf("thread file %s: %zu of %u rings used (%" PRIu64 " handed out), pid %u, refused %" PRIu64
		       " threads, dropped %" PRIu64 " events\n", path, ti.count, ti.max_threads, ti.handed, ti.pid,
		       ti.refused, ti.dropped);
		int rc = 0;
		for (size_t k = 0; k < ti.count && rc == 0; k++) {
			char what[64];
			snprintf(what, sizeof what, "%s ring %zu", path, k);
			rc = dump(what, &ti.rings[k], quiet, stack, strict, end_ms);
		}
		tc_threads_image_dispose(&ti);
		return rc;
	}
	tc_ring_image img;
	if (tc_ring_load(&img, path, &err) != TC_RT_OK) {
		fprintf(stderr, "tc-ringdump: %s\n", err.message);
		return 1;
	}
	int rc = dump(path, &img, quiet, stack, strict, end_ms);
	tc_ring_image_dispose(&img);
	prev_note(path);
	return rc;
}

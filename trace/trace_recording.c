/* trace_recording.c: see trace_recording.h. */
#include "trace_recording.h"
#include "try.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace_io.h"

void tr_recording_dispose(tr_recording *r)
{
	tc_ring_image_dispose(&r->ring);
	tc_threads_image_dispose(&r->threads);
	free(r->threads_path);
	free(r->thread);
	memset(r, 0, sizeof *r);
}

static tr_thread thread_of(const tc_ring_image *img, int main)
{
	return (tr_thread){ img->tid, img->thread_name, main, img->events, img->count, img->seq, img->generation, 0, img->lost };
}

/* A runtime's error (its record and codes, tc_rt_error.h) as tc-trace's:
 * the message kept, the code the one of the same meaning. */
static int from_runtime(tc_error *err, const tc_rt_error *rt)
{
	static const int codes[][2] = {
		{ TC_RT_ENOMEM, TC_ENOMEM }, { TC_RT_EIO, TC_EIO },       { TC_RT_EFORMAT, TC_EFORMAT },
		{ TC_RT_EINVAL, TC_EINVAL }, { TC_RT_ESTALE, TC_ESTALE }, { TC_RT_ESTATE, TC_ESTATE },
		{ TC_RT_ETHREAD, TC_ETHREAD }, { TC_RT_EBUSY, TC_EBUSY }, { TC_RT_ENOSPC, TC_ENOSPC },
	};
	int code = TC_EFORMAT;
	for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++)
		if (codes[k][0] == rt->code)
			code = codes[k][1];
	return tc_set(err, code, "%s", rt->message[0] ? rt->message : tc_rt_strerror(rt->code));
}

int tr_recording_read(tr_recording *r, const char *path, char *note, size_t note_cap, tc_error *err)
{
	tc_rt_error rt = { 0 };
	memset(r, 0, sizeof *r);
	if (note && note_cap)
		note[0] = '\0';
	if (tc_ring_load(&r->ring, path, &rt) != TC_RT_OK)
		return from_runtime(err, &rt);
	r->pid = r->ring.pid;
	r->time_base_ns = r->ring.time_base_ns;
	r->wall_base_ms = r->ring.wall_base_ms;

	size_t n = strlen(path);
	char *tp = malloc(n + sizeof "-threads");
	if (!tp) {
		tr_recording_dispose(r);
		return tc_set(err, TC_ENOMEM, "%s: out of memory", path);
	}
	memcpy(tp, path, n);
	memcpy(tp + n, "-threads", sizeof "-threads");
	struct stat st;
	int rc = TC_OK;
	if (stat(tp, &st) == 0) {
		if (tc_threads_load(&r->threads, tp, &rt) != TC_RT_OK) {
			rc = from_runtime(err, &rt);
		} else if (r->threads.pid != r->ring.pid || r->threads.time_base_ns != r->ring.time_base_ns) {
			/* a file an earlier run left: not this recording's */
			if (note && note_cap)
				snprintf(note, note_cap, "%s is another run's (pid %u, not %u): left out", tp, r->threads.pid,
				         r->ring.pid);
			tc_threads_image_dispose(&r->threads);
		} else {
			r->threads_path = tp;
			tp = NULL;
		}
	} else if (errno != ENOENT) {
		rc = tc_set(err, TC_EIO, "%s: %s", tp, strerror(errno));
	}
	free(tp);
	if (rc == TC_OK) {
		r->thread = malloc((1 + r->threads.count) * sizeof *r->thread);
		if (!r->thread)
			rc = tc_set(err, TC_ENOMEM, "%s: out of memory", path);
	}
	if (rc != TC_OK) {
		tr_recording_dispose(r);
		return rc;
	}
	r->thread[r->n++] = thread_of(&r->ring, 1);
	for (size_t k = 0; k < r->threads.count; k++)
		r->thread[r->n++] = thread_of(&r->threads.rings[k], 0);
	for (size_t a = 0; a < r->n; a++)
		for (size_t b = a + 1; b < r->n; b++)
			if (r->thread[a].tid && r->thread[a].tid == r->thread[b].tid)
				r->thread[a].shared_tid = r->thread[b].shared_tid = 1;
	return TC_OK;
}

const char *tr_recording_section(const tr_recording *r, uint32_t id)
{
	if (!tc_id_is_section(id) || !r->ring.names)
		return NULL;
	const char *s = r->ring.names[id - TC_ID_SECTION];
	return s[0] ? s : NULL;
}

int tr_recording_name_sections(const tr_recording *r, tr_mapping *m, tc_error *err)
{
	for (uint32_t n = 0; n < TC_SECTION_MAX; n++) {
		const char *s = tr_recording_section(r, TC_ID_SECTION + n);
		if (s)
			TRY(tr_mapping_name(m, TC_ID_SECTION + n, s, err));
	}
	return TC_OK;
}

int tr_recording_select(const tr_recording *r, const char *which, size_t *sel, size_t *n, tc_error *err)
{
	*n = 0;
	char *end;
	errno = 0;
	unsigned long tid = strtoul(which, &end, 10);
	int by_tid = which[0] >= '0' && which[0] <= '9' && !*end && !errno;
	for (size_t k = 0; k < r->n; k++) {
		const tr_thread *t = &r->thread[k];
		if (strcmp(which, "all") == 0 || (strcmp(which, "main") == 0 && t->main) ||
		    (by_tid && t->tid == tid) || strcmp(which, t->name) == 0)
			sel[(*n)++] = k;
	}
	if (*n)
		return TC_OK;
	tc_buf names;
	buf_init(&names);
	for (size_t k = 0; k < r->n; k++)
		buf_printf(&names, "%s%s (%u)", k ? ", " : "", r->thread[k].name[0] ? r->thread[k].name : "?",
		          r->thread[k].tid);
	int rc = tc_set(err, TC_EINVAL, "no thread \"%s\": the recording has %s", which,
	                 names.str && !names.err ? names.str : "?");
	buf_free(&names);
	return rc;
}

/* trace_recording.h: what one process recorded, per thread. The ring file
 * holds the recording thread's events (and the section names); with
 * threads = all, the thread file next to it (PATH-threads, tc_ringfile.h)
 * holds every other thread's. Both share one time base.
 *
 * This is the reading layer the views use: per thread its id, name and
 * events, whatever files they came from. */
#ifndef TR_RECORDING_H
#define TR_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#include "tc_error.h"
#include "tc_ringfile.h"
#include "tc_runtime.h"
#include "trace_mapping.h"

typedef struct tr_thread {
	uint32_t tid;            /* 0 if unknown */
	const char *name;        /* "" if unknown */
	int main;                /* the recording thread (the ring file) */
	const uint64_t *events;  /* oldest first; 0 = empty slot */
	size_t count;
	uint64_t written;        /* events it ever wrote: more than count after a wrap */
	uint32_t generation;     /* its ring's hand-out in the thread file (1 up), 0 for the ring file's */
	int shared_tid;          /* another thread of the recording had the same id (the kernel gave
	                            it again after that thread ended): they are told apart by generation */
	uint64_t lost;           /* events the runtime's copier dropped because the writer lapped it */
} tr_thread;

typedef struct tr_recording {
	tc_ring_image ring;          /* the ring file */
	tc_threads_image threads;    /* the thread file, zeroed if there is none */
	char *threads_path;          /* its path when it was read, else NULL */
	tr_thread *thread;           /* the recording thread first, then the thread file's in order */
	size_t n;
	uint32_t pid;
	uint64_t time_base_ns, wall_base_ms;
} tr_recording;

/* Reads the ring file at path and the thread file next to it, if there is
 * one of the same process and time base (one that is not is left out, with
 * *note saying why; note may be NULL). Errors name the file. */
int tr_recording_read(tr_recording *r, const char *path, char *note, size_t note_cap, tc_error *err);
void tr_recording_dispose(tr_recording *r);

/* The name of a section id (TC_ID_SECTION + n), or NULL if unnamed. */
const char *tr_recording_section(const tr_recording *r, uint32_t id);

/* The threads which names: "all", "main" (the recording thread), a thread
 * id, or a thread's name (every thread of that name). Fills sel (r->n
 * entries) with their indexes; none is TC_EINVAL, naming the threads there are. */
int tr_recording_select(const tr_recording *r, const char *which, size_t *sel, size_t *n, tc_error *err);

/* Gives the mapping the section names, so that views show them. */
int tr_recording_name_sections(const tr_recording *r, tr_mapping *m, tc_error *err);

#endif

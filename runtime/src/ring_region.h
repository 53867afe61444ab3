/* ring_region.h: the memory a ring or a thread file lives in: the heap, anonymous
 * pages, or a file mapped MAP_SHARED.
 *
 * A file is built at PATH.PID.tmp with all its blocks reserved (a sparse file
 * would fault, SIGBUS, on a full disk) and takes PATH at ring_region_publish, so
 * that PATH is never truncated: not if it is this process's own file (own_fd),
 * whose contents are still to be copied, and not at all if another live
 * process holds it (TC_RT_EBUSY; a process holds its files locked, flock, while
 * it maps them). TC_RT_ENOSPC: no room for the file.
 *
 * A file at PATH that an earlier process left (one that no live process
 * holds) is the trace of the last run, often the one a user wants: one that
 * was killed. ring_region_publish moves it to prev first (PATH.prev, replacing an
 * older one), so that the new file does not erase it. */
#ifndef TC_RING_REGION_H
#define TC_RING_REGION_H

#include <stdbool.h>
#include <stddef.h>

#include "tc_runtime.h"

typedef enum ring_region_kind { RING_REGION_HEAP, RING_REGION_ANON, RING_REGION_FILE } ring_region_kind;

typedef struct ring_region {
	void *base;                    /* zeroed when opened */
	size_t size;
	ring_region_kind kind;
	int fd;                        /* a file: holds its lock (flock) while mapped; else -1 */
	char *tmp, *path;              /* a file: built at tmp (until ring_region_publish), for path */
	char *prev;                    /* a file: where an earlier run's file at path goes, or NULL */
	int claim_fd;                  /* until ring_region_publish: path's lock, or -1 */
} ring_region;

/* path NULL: memory, from the heap or (anon) anonymous pages. prev (a file;
 * may be NULL): where an earlier run's file at path is kept. */
int ring_region_open(ring_region *r, const char *path, const char *prev, size_t size, int own_fd, bool anon,
                tc_rt_error *err);
/* Moves a file to its path (nothing for memory), and an earlier run's file
 * there to prev. */
int ring_region_publish(ring_region *r, tc_rt_error *err);
/* Frees or unmaps; an unpublished file is removed. A closed (zeroed) region is fine. */
void ring_region_close(ring_region *r);
/* For memory whose address other threads may still hold and write through
 * (anonymous or a file): the pages are replaced by zeroed anonymous ones that
 * stay mapped for the life of the process, so that such a writer reads zeros
 * (status 0: not recording) and writes where nobody reads, and the file is
 * closed. What was written stays in the file. */
void ring_region_retire(ring_region *r);

#endif

/* region.h: the memory a ring or a thread file lives in: the heap, anonymous
 * pages, or a file mapped MAP_SHARED.
 *
 * A file is built at PATH.PID.tmp with all its blocks reserved (a sparse file
 * would fault, SIGBUS, on a full disk) and takes PATH at region_publish, so
 * that PATH is never truncated: not if it is this process's own file (own_fd),
 * whose contents are still to be copied, and not at all if another live
 * process holds it (TC_EBUSY; a process holds its files locked, flock, while
 * it maps them). TC_ENOSPC: no room for the file.
 *
 * A file at PATH that an earlier process left (one that no live process
 * holds) is the trace of the last run, often the one a user wants: one that
 * was killed. region_publish moves it to prev first (PATH.prev, replacing an
 * older one), so that the new file does not erase it. */
#ifndef TC_REGION_H
#define TC_REGION_H

#include <stdbool.h>
#include <stddef.h>

#include "tc_runtime.h"

typedef enum region_kind { REGION_HEAP, REGION_ANON, REGION_FILE } region_kind;

typedef struct region {
	void *base;                    /* zeroed when opened */
	size_t size;
	region_kind kind;
	int fd;                        /* a file: holds its lock (flock) while mapped; else -1 */
	char *tmp, *path;              /* a file: built at tmp (until region_publish), for path */
	char *prev;                    /* a file: where an earlier run's file at path goes, or NULL */
	int claim_fd;                  /* until region_publish: path's lock, or -1 */
} region;

/* path NULL: memory, from the heap or (anon) anonymous pages. prev (a file;
 * may be NULL): where an earlier run's file at path is kept. */
int region_open(region *r, const char *path, const char *prev, size_t size, int own_fd, bool anon,
                tc_error *err);
/* Moves a file to its path (nothing for memory), and an earlier run's file
 * there to prev. */
int region_publish(region *r, tc_error *err);
/* Frees or unmaps; an unpublished file is removed. A closed (zeroed) region is fine. */
void region_close(region *r);
/* For memory whose address other threads may still hold and write through
 * (anonymous or a file): the pages are replaced by zeroed anonymous ones that
 * stay mapped for the life of the process, so that such a writer reads zeros
 * (status 0: not recording) and writes where nobody reads, and the file is
 * closed. What was written stays in the file. */
void region_retire(region *r);

#endif

/* ring_region.c: see ring_region.h. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS: not POSIX, but in every Linux libc */

#include "ring_region.h"
#include "rt_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc_runtime.h"

/* Reserves the file's blocks: posix_fallocate, or where the file system
 * cannot allocate without writing (glibc then writes for it, musl and bionic
 * do not), zeros. Returns 0 or an errno value. */
static int reserve(int fd, size_t size)
{
	int rc = posix_fallocate(fd, 0, (off_t)size);
	if (rc != EINVAL && rc != EOPNOTSUPP && rc != ENOSYS)
		return rc;
	static const char zeros[65536];
	for (size_t off = 0; off < size;) {
		size_t n = size - off < sizeof zeros ? size - off : sizeof zeros;
		ssize_t w = pwrite(fd, zeros, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		off += (size_t)w;
	}
	return 0;
}

static bool no_room(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EFBIG;
}

/* Locks path if it exists, so that no other process takes it until
 * ring_region_publish: TC_RT_EBUSY if a live process holds it, unless that is this
 * process (its own file, own_fd). *fd is -1 if there is nothing to lock. */
static int claim(const char *path, int own_fd, int *fd, tc_rt_error *err)
{
	*fd = open(path, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return errno == ENOENT ? TC_RT_OK : tc_rt_set(err, TC_RT_EIO, "open %s: %s", path, strerror(errno));
	if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
		return TC_RT_OK;
	int e = errno;
	struct stat a, b;
	if (own_fd >= 0 && fstat(*fd, &a) == 0 && fstat(own_fd, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		close(*fd); /* our own file's lock stays, on own_fd */
		*fd = -1;
		return TC_RT_OK;
	}
	close(*fd);
	*fd = -1;
	if (e == EWOULDBLOCK)
		return tc_rt_set(err, TC_RT_EBUSY, "%s is another live process's ring", path);
	return tc_rt_set(err, TC_RT_EIO, "lock %s: %s", path, strerror(e));
}

/* Sets r's file fields, or on failure leaves r as it was. */
static int map_file(ring_region *r, const char *want, const char *prev_path, size_t size, int own_fd, tc_rt_error *err)
{
	int claim_fd = -1, fd = -1, rc;
	size_t n = strlen(want) + 32;
	char *tmp = malloc(n), *path = strdup(want), *prev = prev_path ? strdup(prev_path) : NULL;
	if (!tmp || !path || (prev_path && !prev)) {
		rc = tc_rt_set(err, TC_RT_ENOMEM, "ring path");
		goto cleanup;
	}
	snprintf(tmp, n, "%s.%d.tmp", want, (int)getpid());
	rc = claim(want, own_fd, &claim_fd, err);
	if (rc != TC_RT_OK)
		goto cleanup;
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = tc_rt_set(err, TC_RT_EIO, "open %s: %s", tmp, strerror(errno));
		goto cleanup;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		rc = tc_rt_set(err, TC_RT_EIO, "lock %s: %s", tmp, strerror(errno));
		goto cleanup;
	}
	/* the blocks come zeroed: an empty slot is 0 */
	int e = reserve(fd, size);
	if (e) {
		rc = tc_rt_set(err, no_room(e) ? TC_RT_ENOSPC : TC_RT_EIO, "reserve %zu bytes for %s: %s", size, want,
		             strerror(e));
		goto cleanup;
	}
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		rc = tc_rt_set(err, TC_RT_EIO, "mmap %s: %s", tmp, strerror(errno));
		goto cleanup;
	}
	r->base = m;
	r->kind = RING_REGION_FILE;
	r->fd = fd;
	r->claim_fd = claim_fd;
	r->tmp = tmp;
	r->path = path;
	r->prev = prev;
	return TC_RT_OK;

cleanup:
	if (fd >= 0) {
		unlink(tmp);
		close(fd);
	}
	if (claim_fd >= 0)
		close(claim_fd);
	free(tmp);
	free(path);
	free(prev);
	return rc;
}

int ring_region_open(ring_region *r, const char *path, const char *prev, size_t size, int own_fd, bool anon,
                tc_rt_error *err)
{
	memset(r, 0, sizeof *r);
	r->fd = -1;
	r->claim_fd = -1;
	r->size = size;
	if (path)
		return map_file(r, path, prev, size, own_fd, err);
	if (anon) {
		void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return tc_rt_set(err, TC_RT_ENOMEM, "%zu bytes of memory: %s", size, strerror(errno));
		r->base = m;
		r->kind = RING_REGION_ANON;
		return TC_RT_OK;
	}
	/* calloc: large blocks come zeroed from the kernel, touched lazily */
	r->base = calloc(1, size);
	if (!r->base)
		return tc_rt_set(err, TC_RT_ENOMEM, "ring of %zu bytes", size);
	r->kind = RING_REGION_HEAP;
	return TC_RT_OK;
}

int ring_region_publish(ring_region *r, tc_rt_error *err)
{
	if (!r->tmp)
		return TC_RT_OK;
	/* claim_fd holds an earlier run's file at path (not this process's own,
	 * whose events were copied into the new one): keep it, unless it is
	 * empty. Best effort: the new ring is published even if it cannot be
	 * kept. */
	struct stat st;
	if (r->claim_fd >= 0 && r->prev && fstat(r->claim_fd, &st) == 0 && st.st_size > 0)
		rename(r->path, r->prev);
	if (rename(r->tmp, r->path) != 0)
		return tc_rt_set(err, TC_RT_EIO, "rename %s to %s: %s", r->tmp, r->path, strerror(errno));
	free(r->tmp);
	r->tmp = NULL;
	if (r->claim_fd >= 0)
		close(r->claim_fd); /* the file it locked is the one just replaced */
	r->claim_fd = -1;
	return TC_RT_OK;
}

static void close_file(ring_region *r)
{
	if (r->tmp)
		unlink(r->tmp);
	close(r->fd);
	if (r->claim_fd >= 0)
		close(r->claim_fd);
}

/* Once the memory is given back: nothing held, no descriptors (-1). */
static void forget(ring_region *r)
{
	free(r->tmp);
	free(r->path);
	free(r->prev);
	memset(r, 0, sizeof *r);
	r->fd = r->claim_fd = -1;
}

void ring_region_close(ring_region *r)
{
	if (!r->base)
		return;
	if (r->kind == RING_REGION_HEAP) {
		free(r->base);
	} else {
		munmap(r->base, r->size);
		if (r->kind == RING_REGION_FILE)
			close_file(r);
	}
	forget(r);
}

void ring_region_retire(ring_region *r)
{
	if (!r->base)
		return;
	if (r->kind == RING_REGION_HEAP) {
		ring_region_close(r);
		return;
	}
	/* MAP_FIXED replaces the pages in one step: no moment when the range is
	 * unmapped (where a writer would fault) or another mapping could take it. */
	if (mmap(r->base, r->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	    MAP_FAILED)
		memset(r->base, 0, r->size); /* cannot happen for a range we mapped; zeros say "not recording" */
	if (r->kind == RING_REGION_FILE)
		close_file(r);
	forget(r);
}

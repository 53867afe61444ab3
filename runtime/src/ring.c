/* ring.c: the event ring's memory (heap or mapped file) and index records.
 *
 * An index record is the write sequence number at the time it was taken.
 * Validity is a function of that number and the current sequence, so a wrap
 * invalidates every record it passes, wherever it sits; Matrix kept records
 * in a list and only checked its head (quirk fixed, see test
 * ring/quirk_fixed_pileup_checks_every_record). Nothing on the write path
 * looks at records. */
#include "ring.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"

_Static_assert(sizeof(struct ring_header) == TC_RING_HEADER_SIZE, "header is 256 bytes");
_Static_assert(offsetof(struct ring_header, capacity) == TC_RING_OFF_CAPACITY, "capacity offset");
_Static_assert(offsetof(struct ring_header, time_base_ns) == TC_RING_OFF_TIME_BASE, "time base offset");
_Static_assert(offsetof(struct ring_header, status) == TC_RING_OFF_STATUS, "status offset");
_Static_assert(offsetof(struct ring_header, seq) == TC_RING_OFF_SEQ, "seq offset");
_Static_assert(offsetof(struct ring_header, now_ms) == TC_RING_OFF_NOW, "now offset");
_Static_assert(sizeof(_Atomic uint64_t) == 8, "slots are 8 bytes");

/* Java addresses the region through a ByteBuffer, whose size is an int. */
#define RING_MAX_CAPACITY ((UINT64_C(0x7FFFFFFF) - TC_RING_HEADER_SIZE) / 8)

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
 * ring_publish: TC_EBUSY if a live process holds it, unless that is this
 * process (its own ring file, own_fd). *fd is -1 if there is nothing to lock. */
static int claim(const char *path, int own_fd, int *fd, tc_error *err)
{
	*fd = open(path, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return errno == ENOENT ? TC_OK : tc_fail(err, TC_EIO, "open %s: %s", path, strerror(errno));
	if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
		return TC_OK;
	int e = errno;
	struct stat a, b;
	if (own_fd >= 0 && fstat(*fd, &a) == 0 && fstat(own_fd, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		close(*fd); /* our own ring's lock stays, on own_fd */
		*fd = -1;
		return TC_OK;
	}
	close(*fd);
	*fd = -1;
	if (e == EWOULDBLOCK)
		return tc_fail(err, TC_EBUSY, "%s is another live process's ring", path);
	return tc_fail(err, TC_EIO, "lock %s: %s", path, strerror(e));
}

/* Sets r's file fields, or on failure leaves them and everything else as
 * they were. */
static int map_file(ring *r, const ring_params *p, size_t size, tc_error *err)
{
	int claim_fd = -1, fd = -1, rc;
	size_t n = strlen(p->path) + 32;
	char *tmp = malloc(n), *path = strdup(p->path);
	if (!tmp || !path) {
		rc = tc_fail(err, TC_ENOMEM, "ring path");
		goto cleanup;
	}
	snprintf(tmp, n, "%s.%d.tmp", p->path, (int)getpid());
	rc = claim(p->path, p->own_fd, &claim_fd, err);
	if (rc != TC_OK)
		goto cleanup;
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = tc_fail(err, TC_EIO, "open %s: %s", tmp, strerror(errno));
		goto cleanup;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		rc = tc_fail(err, TC_EIO, "lock %s: %s", tmp, strerror(errno));
		goto cleanup;
	}
	/* the blocks come zeroed: an empty slot is 0 */
	int e = reserve(fd, size);
	if (e) {
		rc = tc_fail(err, no_room(e) ? TC_ENOSPC : TC_EIO, "reserve %zu bytes for %s: %s", size, p->path,
		             strerror(e));
		goto cleanup;
	}
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		rc = tc_fail(err, TC_EIO, "mmap %s: %s", tmp, strerror(errno));
		goto cleanup;
	}
	r->hdr = m;
	r->fd = fd;
	r->claim_fd = claim_fd;
	r->tmp = tmp;
	r->path = path;
	return TC_OK;

cleanup:
	if (fd >= 0) {
		unlink(tmp);
		close(fd);
	}
	if (claim_fd >= 0)
		close(claim_fd);
	free(tmp);
	free(path);
	return rc;
}

int ring_open(ring *r, const ring_params *p, tc_error *err)
{
	memset(r, 0, sizeof *r);
	r->fd = -1;
	r->claim_fd = -1;
	if (p->capacity < 2 || p->capacity > RING_MAX_CAPACITY)
		return tc_fail(err, TC_EINVAL, "ring capacity %llu not in [2, %llu]",
		               (unsigned long long)p->capacity, (unsigned long long)RING_MAX_CAPACITY);
	size_t size = TC_RING_HEADER_SIZE + (size_t)p->capacity * 8;
	r->size = size;
	if (p->path) {
		TRY(map_file(r, p, size, err));
	} else {
		/* calloc: large blocks come zeroed from the kernel, touched lazily */
		r->hdr = calloc(1, size);
		if (!r->hdr)
			return tc_fail(err, TC_ENOMEM, "ring of %zu bytes", size);
	}
	r->capacity = p->capacity;
	r->slots = (_Atomic uint64_t *)((char *)r->hdr + TC_RING_HEADER_SIZE);

	struct ring_header *h = r->hdr;
	memcpy(h->magic, TC_RING_MAGIC, 8);
	h->version = TC_RING_VERSION;
	h->header_size = TC_RING_HEADER_SIZE;
	h->byte_order = TC_RING_BYTE_ORDER;
	h->event_size = 8;
	h->capacity = p->capacity;
	h->time_base_ns = p->time_base_ns;
	h->wall_base_ms = p->wall_base_ms;
	h->pid = p->pid;
	h->resolution_ms = p->resolution_ms;
	atomic_store(&h->status, TC_STATUS_READY);
	atomic_store(&h->seq, 0);
	atomic_store(&h->now_ms, 0);
	return TC_OK;
}

int ring_publish(ring *r, tc_error *err)
{
	if (!r->tmp)
		return TC_OK;
	if (rename(r->tmp, r->path) != 0)
		return tc_fail(err, TC_EIO, "rename %s to %s: %s", r->tmp, r->path, strerror(errno));
	free(r->tmp);
	r->tmp = NULL;
	if (r->claim_fd >= 0)
		close(r->claim_fd); /* the file it locked is the one just replaced */
	r->claim_fd = -1;
	return TC_OK;
}

void ring_close(ring *r)
{
	if (!r->hdr)
		return;
	if (r->fd >= 0) {
		munmap(r->hdr, r->size);
		if (r->tmp)
			unlink(r->tmp);
		close(r->fd);
		if (r->claim_fd >= 0)
			close(r->claim_fd);
	} else {
		free(r->hdr);
	}
	free(r->tmp);
	free(r->path);
	memset(r, 0, sizeof *r);
}

uint64_t ring_refill(ring *to, const ring *from)
{
	assert(ring_seq(to) == 0);
	uint64_t w = ring_seq(from);
	uint64_t n = w < from->capacity ? w : from->capacity;
	if (n > to->capacity)
		n = to->capacity;
	uint64_t first = w - n;
	/* Slot k % capacity holds event k; the new ring numbers from 0, so the
	 * decoder and the Java writer (slot seq % capacity) need nothing else. */
	for (uint64_t i = 0; i < n; i++)
		atomic_store_explicit(&to->slots[i],
		                      atomic_load_explicit(&from->slots[(first + i) % from->capacity],
		                                           memory_order_relaxed),
		                      memory_order_relaxed);
	ring_set_now(to, ring_now(from));
	atomic_store_explicit(&to->hdr->seq, n, memory_order_release);
	return first;
}

uint64_t ring_rebase(uint64_t mark_seq, uint64_t shift)
{
	if (mark_seq == RING_SEQ_LOST)
		return RING_SEQ_LOST;
	if (shift == 0)
		return mark_seq; /* every event was carried over */
	/* the record needs event mark_seq - 1, which was carried over if >= shift */
	return mark_seq > shift ? mark_seq - shift : RING_SEQ_LOST;
}

static uint64_t first_of(uint64_t mark_seq)
{
	/* Matrix's copy starts at the last event written before the mark. */
	return mark_seq ? mark_seq - 1 : 0;
}

int ring_index_valid(const ring *r, uint64_t mark_seq)
{
	uint64_t w = ring_seq(r);
	/* Event k lives in slot k % capacity until event k + capacity is written.
	 * A writer may be storing events up to w + RING_WRITER_AHEAD - 1 now, so
	 * the events before w + RING_WRITER_AHEAD - capacity are already unsafe. */
	return mark_seq <= w && w + RING_WRITER_AHEAD - first_of(mark_seq) <= r->capacity;
}

int ring_copy_since(const ring *r, uint64_t mark_seq, uint64_t **out, size_t *n, tc_error *err)
{
	*out = NULL;
	*n = 0;
	if (mark_seq == RING_SEQ_LOST)
		return tc_fail(err, TC_ESTALE, "index lost: its events were dropped when the ring was replaced");
	uint64_t w = ring_seq(r);
	if (mark_seq > w)
		return tc_fail(err, TC_EINVAL, "index %llu is ahead of the ring (%llu)",
		               (unsigned long long)mark_seq, (unsigned long long)w);
	uint64_t start = first_of(mark_seq);
	if (w + RING_WRITER_AHEAD - start > r->capacity)
		return tc_fail(err, TC_ESTALE, "index %llu overwritten (written %llu, capacity %llu)",
		               (unsigned long long)mark_seq, (unsigned long long)w,
		               (unsigned long long)r->capacity);
	if (w == mark_seq)
		return TC_OK; /* nothing since the mark */
	size_t count = (size_t)(w - start);
	uint64_t *buf = malloc(count * sizeof *buf);
	if (!buf)
		return tc_fail(err, TC_ENOMEM, "copy of %zu events", count);
	for (size_t i = 0; i < count; i++)
		buf[i] = atomic_load_explicit(&r->slots[(start + i) % r->capacity], memory_order_relaxed);
	/* Pairs with the writer's fence before a slot store: if we read an
	 * overwritten slot, this load sees the sequence number that overwrote it. */
	atomic_thread_fence(memory_order_acquire);
	uint64_t w2 = ring_seq(r);
	if (w2 + RING_WRITER_AHEAD - start > r->capacity) {
		uint64_t cut = w2 + RING_WRITER_AHEAD - r->capacity - start; /* events possibly overwritten */
		if (start + cut > mark_seq) {
			free(buf);
			return tc_fail(err, TC_ESTALE, "index %llu overwritten while copying",
			               (unsigned long long)mark_seq);
		}
		memmove(buf, buf + cut, (count - (size_t)cut) * sizeof *buf);
		count -= (size_t)cut;
	}
	*out = buf;
	*n = count;
	return TC_OK;
}

/* ringfile.c: decoding a ring region (tc_ringfile.h) from bytes that may be
 * truncated or corrupt. Every read goes through a cursor bounded by the
 * input; every failure goes through bad(), which names the offset. */
#include "tc_ringfile.h"
#include "rt_error.h"
#include "file.h"
#include "try.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_runtime.h"
#include "tc_event.h"

typedef struct cursor {
	const unsigned char *base;
	size_t pos, end;
	tc_rt_error *err;
} cursor;

static int bad(cursor *c, size_t off, const char *what)
{
	return tc_rt_set(c->err, TC_RT_EFORMAT, "ring at byte %zu: %s", off, what);
}

static int get_bytes(cursor *c, size_t off, void *dst, size_t n)
{
	if (off > c->end || c->end - off < n)
		return bad(c, off, "truncated");
	memcpy(dst, c->base + off, n);
	return TC_RT_OK;
}

static int get_u32(cursor *c, size_t off, uint32_t *v) { return get_bytes(c, off, v, 4); }
static int get_u64(cursor *c, size_t off, uint64_t *v) { return get_bytes(c, off, v, 8); }

void tc_ring_image_dispose(tc_ring_image *img)
{
	if (!img)
		return;
	free(img->events);
	free(img->names);
	memset(img, 0, sizeof *img);
}

/* Text from the file (a thread or section name) is shown and put in JSON:
 * it ends at its first NUL (or at cap - 1 bytes, where a NUL is put), and
 * control characters and bytes that are not UTF-8 become '?'. */
static void clean_text(char *s, size_t cap)
{
	s[cap - 1] = '\0';
	unsigned char *p = (unsigned char *)s;
	while (*p) {
		size_t n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : (*p & 0xF8) == 0xF0 ? 4 : 0;
		bool ok = n > 0 && !(n == 1 && *p < 0x20) && *p != 0x7F && !(n == 2 && *p < 0xC2);
		for (size_t i = 1; ok && i < n; i++)
			ok = (p[i] & 0xC0) == 0x80;
		if (!ok) {
			*p++ = '?';
			continue;
		}
		p += n;
	}
}

/* The slot at seq % capacity may hold an event stored after the last seq
 * store (a writer stores the event first; a pull stores a batch, then the
 * count). It is recovered only when it cannot be something else.
 *
 * Before the ring wraps, that slot is otherwise 0, and a writer that stored
 * the event as two 32-bit halves and died between them left one half and a
 * zero half. The high half holds the in/out bit and the id: without it there
 * is no event to keep (an out of id 0 is given up with it). The low half
 * holds the time's low 32 bits: without them the time falls before the
 * newest event's, and a whole event's never does.
 *
 * After the wrap, the slot holds the oldest event unless it was overwritten,
 * and the oldest event's time is not after the newest's: a later time
 * identifies the new one (equal times are read as the old event: a guess
 * either way, and the safe one). Half a new event over the oldest cannot be
 * told from a whole one by its bytes when the new half is the low one (the
 * old id shows with the new time): version 1 files may come from a writer
 * that stores halves (the ByteBuffer path of 32-bit ARM), so they recover
 * nothing past the wrap; from version 2 every writer stores whole slots
 * (tc_ringfile.h). */
static int has_unannounced(const uint64_t *slot, uint64_t cap, uint64_t seq, uint32_t version)
{
	uint64_t h = seq % cap, c = slot[h];
	if (c == 0)
		return 0;
	uint64_t newest = seq ? tc_event_time(slot[(seq - 1) % cap]) : 0;
	if (seq < cap)
		return (c >> 32) != 0 && tc_event_time(c) >= newest;
	return version >= 2 && tc_event_time(c) > newest;
}

int tc_ring_decode(tc_ring_image *out, const void *data, size_t size, tc_rt_error *err)
{
	memset(out, 0, sizeof *out);
	cursor c = { data, 0, size, err };
	char magic[8] = { 0 };
	uint32_t header_size = 0, byte_order = 0, event_size = 0, status = 0;
	uint64_t cap = 0, seq = 0;

	TRY(get_bytes(&c, 0, magic, 8));
	if (memcmp(magic, TC_RING_MAGIC, 8) != 0)
		return bad(&c, 0, "not a tracecanary ring (bad magic)");
	TRY(get_u32(&c, 16, &byte_order));
	if (byte_order != TC_RING_BYTE_ORDER)
		return bad(&c, 16, byte_order == 0x04030201u ? "written with the other byte order"
		                                              : "bad byte-order mark");
	TRY(get_u32(&c, 8, &out->version));
	if (out->version < 1 || out->version > TC_RING_VERSION)
		return bad(&c, 8, "unsupported version");
	TRY(get_u32(&c, 12, &header_size));
	if (header_size < TC_RING_HEADER_SIZE || header_size % 8 != 0)
		return bad(&c, 12, "bad header size");
	TRY(get_u32(&c, 20, &event_size));
	if (event_size != 8)
		return bad(&c, 20, "event size is not 8");
	TRY(get_u64(&c, TC_RING_OFF_CAPACITY, &cap));
	if (cap == 0 || cap > (SIZE_MAX - header_size) / 8)
		return bad(&c, TC_RING_OFF_CAPACITY, "bad capacity");
	if (header_size + cap * 8 != size)
		return bad(&c, TC_RING_OFF_CAPACITY, "capacity does not match the size");
	TRY(get_u64(&c, 32, &out->time_base_ns));
	TRY(get_u64(&c, 40, &out->wall_base_ms));
	TRY(get_u32(&c, 48, &out->pid));
	TRY(get_u32(&c, 52, &out->resolution_ms));
	TRY(get_u32(&c, TC_RING_OFF_STATUS, &status));
	out->status = (int32_t)status;
	TRY(get_u64(&c, TC_RING_OFF_SEQ, &seq));
	TRY(get_u32(&c, TC_RING_OFF_TID, &out->tid));
	TRY(get_bytes(&c, TC_RING_OFF_THREAD_NAME, out->thread_name, 16));
	clean_text(out->thread_name, sizeof out->thread_name);
	if (out->version >= 2) {
		TRY(get_u32(&c, TC_RING_OFF_GENERATION, &out->generation));
		TRY(get_u64(&c, TC_RING_OFF_ENDED, &out->ended_ns));
	}
	if (out->version >= 3) {
		TRY(get_u64(&c, TC_RING_OFF_BUILD_ID, &out->build_id));
		TRY(get_u64(&c, TC_RING_OFF_LOST, &out->lost));
		TRY(get_u32(&c, TC_RING_OFF_CHECK, &out->check_ps));
	}
	out->capacity = cap;
	out->seq = seq;
	if (header_size >= TC_RING_MAIN_HEADER_SIZE) {
		out->names = malloc(TC_RING_NAMES_SIZE);
		if (!out->names)
			return tc_rt_set(err, TC_RT_ENOMEM, "section names");
		memcpy(out->names, (const unsigned char *)data + TC_RING_OFF_NAMES, TC_RING_NAMES_SIZE);
		for (size_t n = 0; n < TC_SECTION_MAX; n++)
			clean_text(out->names[n], TC_RING_NAME_SIZE);
	}

	/* header_size is 8-aligned, so the slots may be read in place only if the
	 * input is; copy them instead to stay independent of the caller's buffer. */
	uint64_t *slot = malloc((size_t)cap * 8);
	if (!slot) {
		tc_ring_image_dispose(out);
		return tc_rt_set(err, TC_RT_ENOMEM, "ring of %llu events", (unsigned long long)cap);
	}
	memcpy(slot, (const unsigned char *)data + header_size, (size_t)cap * 8);

	int extra = seq != UINT64_MAX && has_unannounced(slot, cap, seq, out->version);
	uint64_t total = seq + (uint64_t)extra;        /* events that exist */
	uint64_t count = total < cap ? total : cap;
	uint64_t first = total - count;
	out->events = malloc((size_t)(count ? count : 1) * 8);
	if (!out->events) {
		free(slot);
		tc_ring_image_dispose(out);
		return tc_rt_set(err, TC_RT_ENOMEM, "ring of %llu events", (unsigned long long)count);
	}
	for (uint64_t i = 0; i < count; i++)
		out->events[i] = slot[(first + i) % cap];
	free(slot);
	out->count = (size_t)count;
	out->first_seq = first;
	out->recovered = extra;
	return TC_RT_OK;
}

/* The whole file at path, in buf (base's one reader, whose error record is
 * base's: its message is kept, its code becomes the runtime's); every error
 * names the file. */
static int load_file(const char *path, tc_buf *buf, tc_rt_error *err)
{
	tc_error e = { 0 };
	if (tc_file_read(path, buf, UINT64_MAX, NULL, &e) == TC_OK)
		return TC_RT_OK;
	char text[sizeof e.part + sizeof e.message + 64];
	tc_error_format(&e, text, sizeof text);
	return tc_rt_set(err, e.code == TC_ENOMEM ? TC_RT_ENOMEM : TC_RT_EIO, "%s", text);
}

/* A decoder's error, prefixed with the file it read. */
static int name_file(int rc, const char *path, tc_rt_error *err)
{
	return rc == TC_RT_OK ? rc : tc_rt_set(err, rc, "%s: %s", path, err->message);
}

int tc_ring_load(tc_ring_image *out, const char *path, tc_rt_error *err)
{
	memset(out, 0, sizeof *out);
	tc_buf buf;
	buf_init(&buf);
	int rc = load_file(path, &buf, err);
	if (rc == TC_RT_OK)
		rc = name_file(tc_ring_decode(out, buf.data, buf.len, err), path, err);
	buf_free(&buf);
	return rc;
}

void tc_threads_image_dispose(tc_threads_image *img)
{
	if (!img)
		return;
	for (size_t i = 0; i < img->count; i++)
		tc_ring_image_dispose(&img->rings[i]);
	free(img->rings);
	memset(img, 0, sizeof *img);
}

int tc_threads_decode(tc_threads_image *out, const void *data, size_t size, tc_rt_error *err)
{
	memset(out, 0, sizeof *out);
	cursor c = { data, 0, size, err };
	char magic[8] = { 0 };
	uint32_t version = 0, header_size = 0, byte_order = 0, used = 0;
	TRY(get_bytes(&c, 0, magic, 8));
	if (memcmp(magic, TC_THREADS_MAGIC, 8) != 0)
		return bad(&c, 0, "not a tracecanary thread file (bad magic)");
	TRY(get_u32(&c, 16, &byte_order));
	if (byte_order != TC_RING_BYTE_ORDER)
		return bad(&c, 16, byte_order == 0x04030201u ? "written with the other byte order"
		                                              : "bad byte-order mark");
	TRY(get_u32(&c, 8, &version));
	if (version < 1 || version > TC_THREADS_VERSION)
		return bad(&c, 8, "unsupported version");
	TRY(get_u32(&c, 12, &header_size));
	if (header_size < TC_THREADS_HEADER_SIZE || header_size % 8 != 0)
		return bad(&c, 12, "bad header size");
	TRY(get_u32(&c, TC_THREADS_OFF_MAX, &out->max_threads));
	TRY(get_u64(&c, TC_THREADS_OFF_RING_SIZE, &out->ring_size));
	if (out->ring_size < TC_RING_HEADER_SIZE + 16 || out->ring_size % 8 != 0 ||
	    (out->max_threads && out->ring_size > (SIZE_MAX - header_size) / out->max_threads))
		return bad(&c, TC_THREADS_OFF_RING_SIZE, "bad ring size");
	if (header_size + (uint64_t)out->max_threads * out->ring_size != size)
		return bad(&c, TC_THREADS_OFF_MAX, "thread count and ring size do not match the size");
	TRY(get_u64(&c, 32, &out->time_base_ns));
	TRY(get_u64(&c, 40, &out->wall_base_ms));
	TRY(get_u32(&c, 48, &out->pid));
	TRY(get_u32(&c, TC_THREADS_OFF_USED, &used));
	if (used > out->max_threads)
		return bad(&c, TC_THREADS_OFF_USED, "more rings used than there are");
	TRY(get_u64(&c, TC_THREADS_OFF_REFUSED, &out->refused));
	TRY(get_u64(&c, TC_THREADS_OFF_DROPPED, &out->dropped));
	out->handed = used;
	if (version >= 2) {
		TRY(get_u64(&c, TC_THREADS_OFF_HANDED, &out->handed));
		if (out->handed < used)
			return bad(&c, TC_THREADS_OFF_HANDED, "fewer rings handed out than used");
	}
	out->rings = calloc(used ? used : 1, sizeof *out->rings);
	if (!out->rings)
		return tc_rt_set(err, TC_RT_ENOMEM, "%u thread rings", used);
	for (uint32_t k = 0; k < used; k++) {
		size_t off = header_size + (size_t)k * (size_t)out->ring_size;
		tc_rt_error e = { 0 };
		if (tc_ring_decode(&out->rings[k], (const unsigned char *)data + off, (size_t)out->ring_size, &e) != TC_RT_OK) {
			tc_threads_image_dispose(out);
			return tc_rt_set(err, e.code, "thread ring %u (at byte %zu): %s", k, off, e.message);
		}
		out->count = k + 1;
	}
	return TC_RT_OK;
}

int tc_threads_load(tc_threads_image *out, const char *path, tc_rt_error *err)
{
	memset(out, 0, sizeof *out);
	tc_buf buf;
	buf_init(&buf);
	int rc = load_file(path, &buf, err);
	if (rc == TC_RT_OK)
		rc = name_file(tc_threads_decode(out, buf.data, buf.len, err), path, err);
	buf_free(&buf);
	return rc;
}

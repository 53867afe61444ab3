/* The cursor over untrusted input (big-endian for class files; little-endian and LEB128
 * for dex files), and the growable byte buffer.
 *
 * A reader is {base, pos, end}: base stays the start of the whole input (the class file,
 * the dex file), so every offset in an error is absolute even inside a sub-reader limited
 * to one attribute. Readers never read past end; on a short or malformed read they set
 * the error and return 0, so a parse can check once per structure (rd_ok) instead of per
 * byte. */
#ifndef TC_BYTES_H
#define TC_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tc_error.h"

typedef struct tc_reader {
	const uint8_t *base;
	const uint8_t *pos;
	const uint8_t *end;
	tc_error *err;
	const char *part; /* what is being read, for the error message */
} tc_reader;

static inline tc_reader rd_init(const uint8_t *data, size_t len, tc_error *err)
{
	tc_reader r = {data, data, data + len, err, "class file"};
	return r;
}

static inline uint32_t rd_off(const tc_reader *r)
{
	return (uint32_t)(r->pos - r->base);
}

static inline size_t rd_left(const tc_reader *r)
{
	return (size_t)(r->end - r->pos);
}

static inline bool rd_ok(const tc_reader *r)
{
	return r->err->code == TC_OK;
}

static inline bool rd_need(tc_reader *r, size_t n)
{
	if (rd_left(r) >= n)
		return true;
	if (r->err->code == TC_OK)
		tc_fail(r->err, TC_ETRUNC, rd_off(r), r->part,
		        "needs %zu more bytes, %zu left", n, rd_left(r));
	r->pos = r->end;
	return false;
}

static inline uint8_t rd_u1(tc_reader *r)
{
	if (!rd_need(r, 1))
		return 0;
	return *r->pos++;
}

static inline uint16_t rd_u2(tc_reader *r)
{
	if (!rd_need(r, 2))
		return 0;
	uint16_t v = (uint16_t)(r->pos[0] << 8 | r->pos[1]);
	r->pos += 2;
	return v;
}

static inline uint32_t rd_u4(tc_reader *r)
{
	if (!rd_need(r, 4))
		return 0;
	uint32_t v = (uint32_t)r->pos[0] << 24 | (uint32_t)r->pos[1] << 16 |
	             (uint32_t)r->pos[2] << 8 | r->pos[3];
	r->pos += 4;
	return v;
}

/* Returns a pointer to n bytes in the input and skips them, or NULL when short. */
static inline const uint8_t *rd_bytes(tc_reader *r, size_t n)
{
	if (!rd_need(r, n))
		return NULL;
	const uint8_t *p = r->pos;
	r->pos += n;
	return p;
}

/* A reader over the next n bytes (an attribute body); the parent skips them. */
static inline tc_reader rd_sub(tc_reader *r, size_t n, const char *part)
{
	tc_reader s = *r;
	s.part = part;
	if (!rd_need(r, n)) {
		s.pos = s.end = r->end;
		return s;
	}
	s.end = r->pos + n;
	r->pos += n;
	return s;
}

/* A reader over base[0..len) positioned at off (at the end when off is past it), for a
 * structure an absolute offset points at (dex files are read that way). */
static inline tc_reader rd_at(const uint8_t *base, size_t len, size_t off, tc_error *err, const char *part)
{
	tc_reader r = {base, base + (off <= len ? off : len), base + len, err, part};
	return r;
}

static inline uint16_t get_u2(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline int16_t get_s2(const uint8_t *p)
{
	return (int16_t)get_u2(p);
}

static inline uint32_t get_u4(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void put_u2(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void put_u4(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The same, little-endian (dex files, zip records). */
static inline uint16_t get_le2(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t get_le4(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t get_le8(const uint8_t *p)
{
	return get_le4(p) | (uint64_t)get_le4(p + 4) << 32;
}

static inline void put_le2(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put_le4(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void put_le8(uint8_t *p, uint64_t v)
{
	put_le4(p, (uint32_t)v);
	put_le4(p + 4, (uint32_t)(v >> 32));
}

/* The little-endian readers (dex files). */
static inline uint16_t rd_le2(tc_reader *r)
{
	if (!rd_need(r, 2))
		return 0;
	uint16_t v = get_le2(r->pos);
	r->pos += 2;
	return v;
}

static inline uint32_t rd_le4(tc_reader *r)
{
	if (!rd_need(r, 4))
		return 0;
	uint32_t v = get_le4(r->pos);
	r->pos += 4;
	return v;
}

/* LEB128 as dex files use it ("Dalvik executable format", LEB128): at most 5 bytes and
 * 32 bits; anything longer is an error. uleb128: the fifth byte may use only its low 4
 * bits. */
static inline uint32_t rd_uleb(tc_reader *r)
{
	uint32_t v = 0;
	for (int i = 0; i < 5; i++) {
		if (!rd_need(r, 1))
			return 0;
		uint8_t b = *r->pos++;
		if (i == 4 && (b & 0xf0)) {
			tc_fail(r->err, TC_EFORMAT, rd_off(r) - 1, r->part, "LEB128 value wider than 32 bits");
			return 0;
		}
		v |= (uint32_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	return v; /* not reached: the fifth byte has no continuation bit */
}

static inline int32_t rd_sleb(tc_reader *r)
{
	uint32_t v = 0;
	int shift = 0;
	for (int i = 0; i < 5; i++) {
		if (!rd_need(r, 1))
			return 0;
		uint8_t b = *r->pos++;
		v |= (uint32_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 32 && (b & 0x40))
				v |= ~0u << shift;
			return (int32_t)v;
		}
	}
	tc_fail(r->err, TC_EFORMAT, rd_off(r) - 1, r->part, "LEB128 value wider than 32 bits");
	return 0;
}

/* uleb128p1: the value plus one, so that -1 (NO_INDEX) takes one byte. */
static inline uint32_t rd_ulebp1(tc_reader *r)
{
	return rd_uleb(r) - 1u;
}

/* The growable byte buffer, for binary output (class files, dex files, jar entries) and
 * text (reports, JSON, tc-trace's outputs), with a sticky error: after a failure the
 * contents are undefined and the caller reports the error once. Memory comes from malloc
 * (not an arena) because the buffer usually outlives the input it was made from.
 *
 * Text written with buf_putn/puts/putc/printf is NUL-terminated at len (str), so a
 * builder may read it as a C string at any point; the binary writers (buf_u1...) do not
 * keep that terminator. An empty buffer has data == str == NULL. */
typedef struct tc_buf {
	union {
		uint8_t *data;
		char *str;
	};
	size_t len;
	size_t cap;
	size_t limit; /* 0 = none; growing past it fails (tests of error paths) */
	int err;      /* TC_OK or TC_ENOMEM */
} tc_buf;

void buf_init(tc_buf *b);
/* A buffer over caller-owned memory (e.g. an arena) that never grows: writing past
 * cap sets TC_ENOMEM. Do not buf_free it. */
void buf_fixed(tc_buf *b, uint8_t *mem, size_t cap);
void buf_free(tc_buf *b);
/* Empties the buffer and clears its error; keeps the memory. */
void buf_clear(tc_buf *b);
bool buf_reserve(tc_buf *b, size_t more);
/* Takes the bytes; the buffer is empty afterwards. The caller frees the result. */
uint8_t *buf_take(tc_buf *b, size_t *len);

/* Text: appends and keeps a NUL after the text. */
void buf_putn(tc_buf *b, const char *s, size_t n);
void buf_puts(tc_buf *b, const char *s);
void buf_putc(tc_buf *b, char c);
void buf_printf(tc_buf *b, const char *fmt, ...) TC_PRINTF(2, 3);
/* Hands over the text, malloc'd ("" for an empty buffer), or NULL after an error; the
 * buffer is empty afterwards. */
char *buf_take_str(tc_buf *b);

static inline void buf_u1(tc_buf *b, uint8_t v)
{
	if (b->len < b->cap || buf_reserve(b, 1))
		b->data[b->len++] = v;
}

static inline void buf_u2(tc_buf *b, uint16_t v)
{
	if (b->cap - b->len >= 2 || buf_reserve(b, 2)) {
		put_u2(b->data + b->len, v);
		b->len += 2;
	}
}

static inline void buf_u4(tc_buf *b, uint32_t v)
{
	if (b->cap - b->len >= 4 || buf_reserve(b, 4)) {
		put_u4(b->data + b->len, v);
		b->len += 4;
	}
}

static inline void buf_bytes(tc_buf *b, const void *p, size_t n)
{
	if (n && (b->cap - b->len >= n || buf_reserve(b, n))) {
		memcpy(b->data + b->len, p, n);
		b->len += n;
	}
}

static inline void buf_le2(tc_buf *b, uint16_t v)
{
	if (b->cap - b->len >= 2 || buf_reserve(b, 2)) {
		put_le2(b->data + b->len, v);
		b->len += 2;
	}
}

static inline void buf_le4(tc_buf *b, uint32_t v)
{
	if (b->cap - b->len >= 4 || buf_reserve(b, 4)) {
		put_le4(b->data + b->len, v);
		b->len += 4;
	}
}

/* LEB128, always minimal (the canonical encoding): unsigned up to 64 bits, signed 32. */
static inline size_t leb_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline void buf_uleb(tc_buf *b, uint64_t v)
{
	while (v >= 0x80) {
		buf_u1(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	buf_u1(b, (uint8_t)v);
}

static inline void buf_sleb(tc_buf *b, int32_t v)
{
	for (;;) {
		uint8_t byte = (uint8_t)(v & 0x7f);
		v >>= 7; /* arithmetic on every compiler we build with */
		bool done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
		buf_u1(b, done ? byte : (uint8_t)(byte | 0x80));
		if (done)
			return;
	}
}

static inline void buf_pad(tc_buf *b, size_t align)
{
	while (b->len % align)
		buf_u1(b, 0);
}

#endif

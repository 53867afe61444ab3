/* Little-endian cursor over an untrusted dex file, with the LEB128 forms of the format.
 *
 * Like classfile's reader: {base, pos, end}, base stays the start of the file so every
 * offset in an error is absolute; a short or malformed read sets the error once and
 * returns 0, so a parse checks rd_ok once per structure. LEB128 values are at most 5
 * bytes and 32 bits ("Dalvik executable format", LEB128); anything longer is an error. */
#ifndef TC_DEX_LE_H
#define TC_DEX_LE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bytes.h"
#include "tc_error.h"

typedef struct dx_rd {
	const uint8_t *base;
	const uint8_t *pos;
	const uint8_t *end;
	tc_error *err;
	const char *part;
} dx_rd;

static inline dx_rd dx_at(const uint8_t *base, size_t len, size_t off, tc_error *err, const char *part)
{
	dx_rd r = {base, base + (off <= len ? off : len), base + len, err, part};
	return r;
}

static inline uint32_t dx_off(const dx_rd *r)
{
	return (uint32_t)(r->pos - r->base);
}

static inline bool dx_ok(const dx_rd *r)
{
	return r->err->code == TC_OK;
}

static inline bool dx_need(dx_rd *r, size_t n)
{
	if ((size_t)(r->end - r->pos) >= n)
		return true;
	if (r->err->code == TC_OK)
		tc_fail(r->err, TC_ETRUNC, dx_off(r), r->part, "needs %zu more bytes, %zu left", n,
		        (size_t)(r->end - r->pos));
	r->pos = r->end;
	return false;
}

static inline uint16_t le_u2(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t le_u4(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void le_put2(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void le_put4(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint8_t dx_u1(dx_rd *r)
{
	return dx_need(r, 1) ? *r->pos++ : 0;
}

static inline uint16_t dx_u2(dx_rd *r)
{
	if (!dx_need(r, 2))
		return 0;
	uint16_t v = le_u2(r->pos);
	r->pos += 2;
	return v;
}

static inline uint32_t dx_u4(dx_rd *r)
{
	if (!dx_need(r, 4))
		return 0;
	uint32_t v = le_u4(r->pos);
	r->pos += 4;
	return v;
}

static inline const uint8_t *dx_bytes(dx_rd *r, size_t n)
{
	if (!dx_need(r, n))
		return NULL;
	const uint8_t *p = r->pos;
	r->pos += n;
	return p;
}

/* uleb128: at most 5 bytes; the fifth may use only its low 4 bits. */
static inline uint32_t dx_uleb(dx_rd *r)
{
	uint32_t v = 0;
	for (int i = 0; i < 5; i++) {
		if (!dx_need(r, 1))
			return 0;
		uint8_t b = *r->pos++;
		if (i == 4 && (b & 0xf0)) {
			tc_fail(r->err, TC_EFORMAT, dx_off(r) - 1, r->part, "LEB128 value wider than 32 bits");
			return 0;
		}
		v |= (uint32_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	return v; /* not reached: the fifth byte has no continuation bit */
}

static inline int32_t dx_sleb(dx_rd *r)
{
	uint32_t v = 0;
	int shift = 0;
	for (int i = 0; i < 5; i++) {
		if (!dx_need(r, 1))
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
	tc_fail(r->err, TC_EFORMAT, dx_off(r) - 1, r->part, "LEB128 value wider than 32 bits");
	return 0;
}

/* uleb128p1: the value plus one, so that -1 (NO_INDEX) takes one byte. */
static inline uint32_t dx_ulebp1(dx_rd *r)
{
	return dx_uleb(r) - 1u;
}

/* Writers of the same forms, always minimal (the canonical encoding). */
static inline size_t leb_size(uint32_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline void buf_uleb(tc_buf *b, uint32_t v)
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

static inline void buf_le2(tc_buf *b, uint16_t v)
{
	if (b->cap - b->len >= 2 || buf_reserve(b, 2)) {
		le_put2(b->data + b->len, v);
		b->len += 2;
	}
}

static inline void buf_le4(tc_buf *b, uint32_t v)
{
	if (b->cap - b->len >= 4 || buf_reserve(b, 4)) {
		le_put4(b->data + b->len, v);
		b->len += 4;
	}
}

static inline void buf_pad(tc_buf *b, size_t align)
{
	while (b->len % align)
		buf_u1(b, 0);
}

#endif

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

static inline uint8_t dx_u1(dx_rd *r)
{
	return dx_need(r, 1) ? *r->pos++ : 0;
}

static inline uint16_t dx_u2(dx_rd *r)
{
	if (!dx_need(r, 2))
		return 0;
	uint16_t v = get_le2(r->pos);
	r->pos += 2;
	return v;
}

static inline uint32_t dx_u4(dx_rd *r)
{
	if (!dx_need(r, 4))
		return 0;
	uint32_t v = get_le4(r->pos);
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

/* The writers of these forms are base's (bytes.h: buf_uleb, buf_sleb, buf_le2, buf_le4). */

#endif

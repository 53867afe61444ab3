/* Whole-buffer deflate and inflate through libdeflate (2 to 3 times zlib's speed at the
 * same level, and deterministic: the same input and level give the same bytes); zip
 * entries are whole buffers here, so zlib's streaming is never needed. */
#include "containers/zlib_io.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

uint32_t zio_crc32(const uint8_t *data, size_t len)
{
	return libdeflate_crc32(0, data, len);
}

uint32_t zio_crc32_combine(uint32_t crc_a, uint32_t crc_b, size_t len_b)
{
	return (uint32_t)crc32_combine(crc_a, crc_b, (z_off_t)len_b);
}

struct zio_inflater {
	struct libdeflate_decompressor *d;
};

zio_inflater *zio_inflater_new(void)
{
	zio_inflater *z = calloc(1, sizeof *z);
	if (z && !(z->d = libdeflate_alloc_decompressor())) {
		free(z);
		z = NULL;
	}
	return z;
}

void zio_inflater_free(zio_inflater *z)
{
	if (z) {
		libdeflate_free_decompressor(z->d);
		free(z);
	}
}

int zio_inflate(zio_inflater *zi, const uint8_t *in, size_t in_len, size_t size, uint32_t crc,
                tc_buf *out, const char *label, tc_error *err)
{
	buf_clear(out);
	if (size >= SIZE_MAX / 2)
		return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, label, "entry too large");
	if (!buf_reserve(out, size + 1))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory for %zu bytes", size);
	zio_inflater *own = NULL;
	if (!zi && !(zi = own = zio_inflater_new()))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "cannot start inflate");
	size_t got = 0;
	/* room for one byte more than declared: a longer stream shows as such */
	enum libdeflate_result lr = libdeflate_deflate_decompress(zi->d, in, in_len, out->data, size + 1, &got);
	int rc = TC_OK;
	if (lr == LIBDEFLATE_INSUFFICIENT_SPACE)
		rc = tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label,
		             "corrupt compressed data (longer or shorter than declared)");
	else if (lr != LIBDEFLATE_SUCCESS)
		rc = tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label, "corrupt compressed data (%s)",
		             lr == LIBDEFLATE_BAD_DATA ? "invalid deflate stream" : "cut off");
	else if (got != size)
		rc = tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label, "inflates to %zu bytes, header says %zu", got, size);
	else if (zio_crc32(out->data, size) != crc)
		rc = tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label, "CRC-32 mismatch: corrupt entry");
	zio_inflater_free(own);
	if (rc == TC_OK)
		out->len = size;
	return rc;
}

/* --- the block walk of a deflate stream (RFC 1951 3.2) ------------------------------- */

/* A Huffman code (3.2.2): codes of up to FAST_BITS bits are decoded through a table (an
 * entry is the symbol and the code's length; 0 where a longer code starts, or none),
 * longer ones bit by bit from the counts (as zlib's puff does). */
#define FAST_BITS 10
#define MAX_BITS 15
#define ENTRY(sym, len) ((uint16_t)((len) << 9 | (sym)))

typedef struct huff {
	uint16_t fast[1 << FAST_BITS];
	uint16_t count[MAX_BITS + 1]; /* codes of each length */
	uint16_t sym[288];            /* symbols by code */
} huff;

typedef struct scan_tables {
	huff lit, dist, lens;
} scan_tables;

/* Bits LSB first; past the end it reads zeros, and pos says how far it went. */
typedef struct bits {
	const uint8_t *in, *p, *end;
	uint64_t buf, pos; /* pos: bits consumed from in[0] */
	unsigned n;        /* bits in buf */
} bits;

static inline void refill(bits *b)
{
	if (b->end - b->p >= 8) {
		uint64_t v;
		memcpy(&v, b->p, 8);
		b->buf |= v << b->n; /* little-endian machines; the byte-wise path is the portable one */
		b->p += (63 - b->n) >> 3;
		b->n |= 56;
		return;
	}
	while (b->n <= 56) {
		uint64_t v = b->p < b->end ? *b->p++ : 0;
		b->buf |= v << b->n;
		b->n += 8;
	}
}

static inline uint32_t take(bits *b, unsigned k)
{
	uint32_t v = (uint32_t)(b->buf & ((1ull << k) - 1));
	b->buf >>= k;
	b->n -= k;
	b->pos += k;
	return v;
}

/* Builds a canonical code from its code lengths; false for an over-subscribed one (an
 * incomplete one decodes some bits as errors). */
static bool build(huff *h, const uint8_t *len, unsigned nsym)
{
	memset(h->count, 0, sizeof h->count);
	for (unsigned i = 0; i < nsym; i++)
		h->count[len[i]]++;
	h->count[0] = 0;
	int left = 1;
	for (unsigned l = 1; l <= MAX_BITS; l++) {
		left = 2 * left - (int)h->count[l];
		if (left < 0)
			return false;
	}
	/* symbols by length, then value (3.2.2): offs[l] is the first slot of length l, and
	 * next[l] the next code of that length */
	unsigned offs[MAX_BITS + 1], next[MAX_BITS + 1], code = 0, at = 0;
	for (unsigned l = 1; l <= MAX_BITS; l++) {
		offs[l] = at;
		at += h->count[l];
		next[l] = code;
		code = (code + h->count[l]) << 1;
	}
	memset(h->fast, 0, sizeof h->fast);
	for (unsigned i = 0; i < nsym; i++) {
		unsigned l = len[i];
		if (!l)
			continue;
		h->sym[offs[l]++] = (uint16_t)i;
		unsigned c = next[l]++;
		if (l > FAST_BITS)
			continue;
		unsigned r = 0;
		for (unsigned k = 0; k < l; k++)
			r |= ((c >> k) & 1u) << (l - 1 - k); /* sent MSB first */
		for (unsigned e = r; e < (1u << FAST_BITS); e += 1u << l)
			h->fast[e] = ENTRY(i, l);
	}
	return true;
}

static int decode_slow(bits *b, const huff *h)
{
	int code = 0, first = 0, index = 0;
	uint64_t v = b->buf;
	for (unsigned l = 1; l <= MAX_BITS; l++) {
		code |= (int)(v & 1);
		v >>= 1;
		int count = h->count[l];
		if (code - count < first) {
			take(b, l);
			return h->sym[index + (code - first)];
		}
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1;
}

/* Needs MAX_BITS bits in b. */
static inline int decode(bits *b, const huff *h)
{
	uint16_t e = h->fast[b->buf & ((1u << FAST_BITS) - 1)];
	if (!(e >> 9))
		return decode_slow(b, h);
	take(b, e >> 9);
	return e & 0x1ff;
}

/* A dynamic block's header (3.2.7): its two codes into t. */
static bool dynamic_codes(bits *b, scan_tables *t)
{
	static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
	uint8_t len[288 + 32] = {0}, cl[19] = {0};
	refill(b);
	unsigned nlit = take(b, 5) + 257, ndist = take(b, 5) + 1, ncl = take(b, 4) + 4;
	if (nlit > 286 || ndist > 30)
		return false;
	for (unsigned i = 0; i < ncl; i++) {
		refill(b);
		cl[order[i]] = (uint8_t)take(b, 3);
	}
	if (!build(&t->lens, cl, 19))
		return false;
	for (unsigned i = 0; i < nlit + ndist;) {
		refill(b);
		int sym = decode(b, &t->lens);
		if (sym < 0)
			return false;
		if (sym < 16) {
			len[i++] = (uint8_t)sym;
			continue;
		}
		unsigned rep;
		uint8_t v = 0;
		if (sym == 16) {
			if (!i)
				return false;
			v = len[i - 1];
			rep = 3 + take(b, 2);
		} else if (sym == 17) {
			rep = 3 + take(b, 3);
		} else {
			rep = 11 + take(b, 7);
		}
		if (i + rep > nlit + ndist)
			return false;
		while (rep--)
			len[i++] = v;
	}
	return len[256] && build(&t->lit, len, nlit) && build(&t->dist, len + nlit, ndist);
}

static void fixed_codes(scan_tables *t)
{
	uint8_t len[288];
	memset(len, 8, 144);
	memset(len + 144, 9, 112);
	memset(len + 256, 7, 24);
	memset(len + 280, 8, 8);
	build(&t->lit, len, 288);
	memset(len, 5, 30);
	build(&t->dist, len, 30);
}

/* The symbols of one Huffman-coded block, up to its end-of-block code (3.2.5). */
static bool walk_codes(bits *b, const scan_tables *t, uint64_t limit)
{
	static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
	                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
	static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
	                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
	for (;;) {
		if (b->pos > limit)
			return false;
		/* at most 15 + 5 + 15 + 13 bits for a literal or a length and distance */
		refill(b);
		int sym = decode(b, &t->lit);
		if (sym < 256) {
			if (sym < 0)
				return false;
			continue;
		}
		if (sym == 256)
			return true;
		if (sym > 285)
			return false;
		take(b, len_extra[sym - 257]);
		int d = decode(b, &t->dist);
		if (d < 0 || d > 29)
			return false;
		take(b, dist_extra[d]);
	}
}

static int scan(scan_tables *t, const uint8_t *in, size_t len, uint64_t *final_bit, uint64_t *end_bit)
{
	bits b = {in, in, in + len, 0, 0, 0};
	uint64_t limit = (uint64_t)len * 8;
	bool fixed_built = false;
	for (;;) {
		uint64_t head = b.pos;
		refill(&b);
		unsigned final = take(&b, 1), type = take(&b, 2);
		if (type == 0) {
			/* stored (3.2.4): to the byte boundary, LEN, NLEN, LEN bytes */
			uint64_t at = (b.pos + 7) / 8;
			if (at + 4 > len)
				return TC_EFORMAT;
			unsigned n = in[at] | in[at + 1] << 8, nn = in[at + 2] | in[at + 3] << 8;
			if ((n ^ nn) != 0xffff || at + 4 + n > len)
				return TC_EFORMAT;
			b = (bits){in, in + at + 4 + n, in + len, 0, (at + 4 + n) * 8, 0};
		} else if (type == 1) {
			if (!fixed_built)
				fixed_codes(t);
			fixed_built = true;
			if (!walk_codes(&b, t, limit))
				return TC_EFORMAT;
		} else if (type == 2) {
			fixed_built = false;
			if (!dynamic_codes(&b, t) || !walk_codes(&b, t, limit))
				return TC_EFORMAT;
		} else {
			return TC_EFORMAT;
		}
		if (b.pos > limit)
			return TC_EFORMAT;
		if (final) {
			*final_bit = head;
			*end_bit = b.pos;
			return TC_OK;
		}
	}
}

int zio_deflate_scan(const uint8_t *in, size_t len, uint64_t *final_bit, uint64_t *end_bit)
{
	scan_tables *t = malloc(sizeof *t);
	if (!t)
		return TC_ENOMEM;
	int rc = scan(t, in, len, final_bit, end_bit);
	free(t);
	return rc;
}

struct zio_deflater {
	struct libdeflate_compressor *c;
	scan_tables *t; /* made on the first part */
};

zio_deflater *zio_deflater_new(int level)
{
	zio_deflater *d = calloc(1, sizeof *d);
	if (d && !(d->c = libdeflate_alloc_compressor(level))) {
		free(d);
		d = NULL;
	}
	return d;
}

void zio_deflater_free(zio_deflater *d)
{
	if (d) {
		libdeflate_free_compressor(d->c);
		free(d->t);
		free(d);
	}
}

int zio_deflate(zio_deflater *d, const uint8_t *data, size_t len, tc_buf *out, const char *label,
                tc_error *err)
{
	buf_clear(out);
	size_t bound = libdeflate_deflate_compress_bound(d->c, len);
	if (!buf_reserve(out, bound))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
	size_t n = libdeflate_deflate_compress(d->c, data, len, out->data, bound);
	if (!n)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, label, "deflate failed");
	out->len = n;
	return TC_OK;
}

int zio_deflate_part(zio_deflater *d, const uint8_t *data, size_t len, bool last, tc_buf *out,
                     const char *label, tc_error *err)
{
	if (zio_deflate(d, data, len, out, label, err) != TC_OK)
		return err->code;
	if (last)
		return TC_OK;
	if (!d->t && !(d->t = malloc(sizeof *d->t)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
	uint64_t final_bit, end_bit;
	if (scan(d->t, out->data, out->len, &final_bit, &end_bit) != TC_OK)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, label, "deflate: its output does not parse");
	if (!buf_reserve(out, 5))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
	out->data[final_bit / 8] &= (uint8_t)~(1u << (final_bit % 8)); /* BFINAL = 0 */
	/* after the last code: an empty stored block, its header's 3 bits (BFINAL 0, BTYPE
	 * 00) and zeros to the byte boundary, then LEN 0 and NLEN 0xffff */
	size_t keep = (size_t)((end_bit + 3 + 7) / 8);
	size_t at = (size_t)(end_bit / 8);
	if (end_bit % 8)
		out->data[at++] &= (uint8_t)((1u << (end_bit % 8)) - 1);
	memset(out->data + at, 0, keep - at);
	memcpy(out->data + keep, "\x00\x00\xff\xff", 4);
	out->len = keep + 4;
	return TC_OK;
}

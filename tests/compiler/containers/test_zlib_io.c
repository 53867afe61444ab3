/* Deflate in parts (src/containers/zlib_io.c): parts deflated on their own, concatenated
 * in order, must be one raw deflate stream that zlib (the independent judge) inflates to
 * the input, at every level, for data that deflates to every kind of block (Huffman-coded,
 * stored), and at part boundaries that fall anywhere; the block walk finds a stream's
 * final block and its end, and refuses damaged streams. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ctest.h"
#include "containers/zlib_io.h"

/* Text-like bytes (words from a small vocabulary), random bytes, runs: each its own kind
 * of block. */
static uint8_t *sample(size_t len, int kind, uint32_t seed)
{
	static const char *words[] = {"method", "class ", "Ljava/lang/Object;", "invoke", "\n", "0x1f ", "static"};
	uint8_t *p = malloc(len);
	cr_assert(p);
	for (size_t i = 0; i < len;) {
		seed = seed * 1103515245u + 12345u;
		if (kind == 0) {
			const char *w = words[(seed >> 16) % 7];
			for (size_t k = 0; w[k] && i < len; k++)
				p[i++] = (uint8_t)w[k];
		} else if (kind == 1) {
			p[i++] = (uint8_t)(seed >> 16);
		} else {
			p[i] = (uint8_t)((i / 70000) & 3);
			i++;
		}
	}
	return p;
}

/* Deflates data in parts of `part` bytes and inflates the concatenation with zlib. */
static void round_trip(const uint8_t *data, size_t len, size_t part, int level)
{
	zio_deflater *d = zio_deflater_new(level);
	cr_assert(d);
	tc_buf all, one;
	buf_init(&all);
	buf_init(&one);
	tc_error err;
	tc_error_clear(&err);
	uint32_t crc = 0;
	for (size_t at = 0; at < len || at == 0; at += part) {
		size_t n = len - at < part ? len - at : part;
		bool last = at + n >= len;
		cr_assert_eq(zio_deflate_part(d, data + at, n, last, &one, "t", &err), TC_OK, "%s", err.message);
		if (!last) /* a part that is not the last ends in an empty stored block */
			cr_assert_eq(memcmp(one.data + one.len - 4, "\x00\x00\xff\xff", 4), 0);
		buf_bytes(&all, one.data, one.len);
		crc = at ? zio_crc32_combine(crc, zio_crc32(data + at, n), n) : zio_crc32(data, n);
		if (!len)
			break;
	}
	cr_assert_eq(crc, zio_crc32(data, len));
	uint8_t *back = malloc(len + 1);
	z_stream z = {0};
	cr_assert_eq(inflateInit2(&z, -15), Z_OK);
	z.next_in = all.data;
	z.avail_in = (uInt)all.len;
	z.next_out = back;
	z.avail_out = (uInt)len + 1;
	cr_assert_eq(inflate(&z, Z_FINISH), Z_STREAM_END, "level %d part %zu: %s", level, part, z.msg ? z.msg : "");
	cr_assert_eq(z.avail_in, 0, "bytes after the stream's end");
	cr_assert_eq(z.total_out, len);
	cr_assert_eq(memcmp(back, data, len), 0);
	inflateEnd(&z);
	free(back);
	buf_free(&all);
	buf_free(&one);
	zio_deflater_free(d);
}

Test(zlib_io, parts_make_one_stream)
{
	size_t len = 700000;
	for (int kind = 0; kind < 3; kind++) {
		uint8_t *data = sample(len, kind, 7u + (uint32_t)kind);
		for (int level = 1; level <= 12; level += level < 6 ? 5 : 3) {
			round_trip(data, len, 65536, level);
			round_trip(data, len, ZIO_PART, level);
		}
		round_trip(data, 1, 1, 6);
		round_trip(data, 5, 2, 6);
		free(data);
	}
	/* parts of every size modulo 8 bytes: the open end falls at every bit of a byte */
	uint8_t *data = sample(40000, 0, 3);
	for (size_t part = 1000; part < 1008; part++)
		round_trip(data, 40000, part, 6);
	free(data);
}

Test(zlib_io, the_walk_finds_the_final_block_and_refuses_damage)
{
	size_t len = 300000;
	uint8_t *data = sample(len, 0, 11);
	uint8_t *z = malloc(len * 2);
	/* zlib's stream: a full flush (a stored block inside), then the final block */
	z_stream s = {0};
	cr_assert_eq(deflateInit2(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
	s.next_in = data;
	s.avail_in = (uInt)len / 2;
	s.next_out = z;
	s.avail_out = (uInt)len * 2;
	cr_assert_eq(deflate(&s, Z_FULL_FLUSH), Z_OK);
	s.avail_in = (uInt)(len - len / 2);
	cr_assert_eq(deflate(&s, Z_FINISH), Z_STREAM_END);
	size_t n = s.total_out;
	deflateEnd(&s);
	uint64_t final_bit, end_bit;
	cr_assert_eq(zio_deflate_scan(z, n, &final_bit, &end_bit), TC_OK);
	cr_assert(end_bit > n * 8 - 8 && end_bit <= n * 8, "the stream ends in its last byte");
	cr_assert(final_bit > 8 * 4 && final_bit < end_bit);
	cr_assert(z[final_bit / 8] >> (final_bit % 8) & 1, "BFINAL is set there");
	/* cut short, or a reserved block type at the start: refused */
	cr_assert_eq(zio_deflate_scan(z, n / 2, &final_bit, &end_bit), TC_EFORMAT);
	uint8_t bad = 0x07;
	cr_assert_eq(zio_deflate_scan(&bad, 1, &final_bit, &end_bit), TC_EFORMAT);
	free(z);
	free(data);
}

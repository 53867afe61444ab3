/* Whole-buffer deflate and inflate through libdeflate (2 to 3 times zlib's speed at the
 * same level, and deterministic: the same input and level give the same bytes); zip
 * entries are whole buffers here, so zlib's streaming is never needed. */
#include "containers/zlib_io.h"

#include <libdeflate.h>
#include <stdlib.h>

uint32_t zio_crc32(const uint8_t *data, size_t len)
{
	return libdeflate_crc32(0, data, len);
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

struct zio_deflater {
	struct libdeflate_compressor *c;
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

#include "zlib_io.h"

#include <limits.h>
#include <zlib.h>

uint32_t zio_crc32(const uint8_t *data, size_t len)
{
	uLong crc = crc32(0L, Z_NULL, 0);
	while (len > 0) {
		uInt n = len > UINT_MAX ? UINT_MAX : (uInt)len;
		crc = crc32(crc, data, n);
		data += n;
		len -= n;
	}
	return (uint32_t)crc;
}

int zio_inflate(const uint8_t *in, size_t in_len, size_t size, uint32_t crc, cf_buf *out,
                const char *label, cf_error *err)
{
	buf_clear(out);
	if (!buf_reserve(out, size + 1))
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "no memory for %zu bytes", size);
	if (in_len > UINT_MAX || size >= UINT_MAX)
		return cf_fail(err, CF_ELIMIT, CF_NO_OFFSET, label, "entry over 4 GiB");
	z_stream z = {0};
	/* Negative window bits: a raw stream, as zip entries store it (RFC 1951). */
	if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "cannot start inflate");
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)in_len;
	z.next_out = out->data;
	z.avail_out = (uInt)size + 1; /* one spare byte shows a stream longer than declared */
	int zr = inflate(&z, Z_FINISH);
	size_t got = (size_t)z.total_out;
	inflateEnd(&z);
	if (zr != Z_STREAM_END)
		return cf_fail(err, CF_EFORMAT, CF_NO_OFFSET, label, "corrupt compressed data (%s)",
		               zr == Z_BUF_ERROR ? "longer or shorter than declared" : z.msg ? z.msg : "zlib error");
	if (got != size)
		return cf_fail(err, CF_EFORMAT, CF_NO_OFFSET, label, "inflates to %zu bytes, header says %zu",
		               got, size);
	if (zio_crc32(out->data, size) != crc)
		return cf_fail(err, CF_EFORMAT, CF_NO_OFFSET, label, "CRC-32 mismatch: corrupt entry");
	out->len = size;
	return CF_OK;
}

int zio_deflate(const uint8_t *data, size_t len, int level, cf_buf *out, const char *label,
                cf_error *err)
{
	buf_clear(out);
	if (len > UINT_MAX / 2)
		return cf_fail(err, CF_ELIMIT, CF_NO_OFFSET, label, "entry too large to deflate");
	z_stream z = {0};
	if (deflateInit2(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "cannot start deflate");
	uLong bound = deflateBound(&z, (uLong)len);
	if (!buf_reserve(out, bound)) {
		deflateEnd(&z);
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "no memory");
	}
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	z.next_out = out->data;
	z.avail_out = (uInt)bound;
	int zr = deflate(&z, Z_FINISH);
	out->len = (size_t)z.total_out;
	deflateEnd(&z);
	if (zr != Z_STREAM_END)
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, label, "deflate failed");
	return CF_OK;
}

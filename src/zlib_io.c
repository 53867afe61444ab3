#include "zlib_io.h"

#include <limits.h>
#include <stdlib.h>
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

struct zio_inflater {
	z_stream z;
};

zio_inflater *zio_inflater_new(void)
{
	zio_inflater *z = calloc(1, sizeof *z);
	/* Negative window bits: a raw stream, as zip entries store it (RFC 1951). */
	if (z && inflateInit2(&z->z, -MAX_WBITS) != Z_OK) {
		free(z);
		z = NULL;
	}
	return z;
}

void zio_inflater_free(zio_inflater *z)
{
	if (z) {
		inflateEnd(&z->z);
		free(z);
	}
}

int zio_inflate(zio_inflater *zi, const uint8_t *in, size_t in_len, size_t size, uint32_t crc,
                cf_buf *out, const char *label, cf_error *err)
{
	buf_clear(out);
	if (in_len > UINT_MAX || size >= UINT_MAX)
		return cf_fail(err, CF_ELIMIT, CF_NO_OFFSET, label, "entry over 4 GiB");
	if (!buf_reserve(out, size + 1))
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "no memory for %zu bytes", size);
	zio_inflater *own = NULL;
	if (!zi && !(zi = own = zio_inflater_new()))
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "cannot start inflate");
	z_stream *z = &zi->z;
	if (inflateReset(z) != Z_OK) {
		zio_inflater_free(own);
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "cannot start inflate");
	}
	z->next_in = (Bytef *)in;
	z->avail_in = (uInt)in_len;
	z->next_out = out->data;
	z->avail_out = (uInt)size + 1; /* one spare byte shows a stream longer than declared */
	int zr = inflate(z, Z_FINISH);
	size_t got = (size_t)z->total_out;
	const char *msg = z->msg ? z->msg : "zlib error";
	int rc = CF_OK;
	if (zr != Z_STREAM_END)
		rc = cf_fail(err, CF_EFORMAT, CF_NO_OFFSET, label, "corrupt compressed data (%s)",
		             zr == Z_BUF_ERROR ? "longer or shorter than declared" : msg);
	else if (got != size)
		rc = cf_fail(err, CF_EFORMAT, CF_NO_OFFSET, label, "inflates to %zu bytes, header says %zu",
		             got, size);
	else if (zio_crc32(out->data, size) != crc)
		rc = cf_fail(err, CF_EFORMAT, CF_NO_OFFSET, label, "CRC-32 mismatch: corrupt entry");
	zio_inflater_free(own);
	if (rc == CF_OK)
		out->len = size;
	return rc;
}

struct zio_deflater {
	z_stream z;
};

zio_deflater *zio_deflater_new(int level)
{
	zio_deflater *d = calloc(1, sizeof *d);
	if (d && deflateInit2(&d->z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(d);
		d = NULL;
	}
	return d;
}

void zio_deflater_free(zio_deflater *d)
{
	if (d) {
		deflateEnd(&d->z);
		free(d);
	}
}

int zio_deflate(zio_deflater *d, const uint8_t *data, size_t len, cf_buf *out, const char *label,
                cf_error *err)
{
	buf_clear(out);
	if (len > UINT_MAX / 2)
		return cf_fail(err, CF_ELIMIT, CF_NO_OFFSET, label, "entry too large to deflate");
	z_stream *z = &d->z;
	if (deflateReset(z) != Z_OK)
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, label, "cannot start deflate");
	uLong bound = deflateBound(z, (uLong)len);
	if (!buf_reserve(out, bound))
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "no memory");
	z->next_in = (Bytef *)data;
	z->avail_in = (uInt)len;
	z->next_out = out->data;
	z->avail_out = (uInt)bound;
	int zr = deflate(z, Z_FINISH);
	out->len = (size_t)z->total_out;
	if (zr != Z_STREAM_END)
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, label, "deflate failed");
	return CF_OK;
}

/* Raw deflate streams (the zip entry format) through zlib, so that worker threads
 * inflate and deflate in parallel while one thread writes the archive. */
#ifndef TC_ZLIB_IO_H
#define TC_ZLIB_IO_H

#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "cf_error.h"

/* Inflates exactly `size` bytes from a raw deflate stream into out and checks the
 * CRC-32; a stream that is short, long or damaged is CF_EFORMAT. */
int zio_inflate(const uint8_t *in, size_t in_len, size_t size, uint32_t crc, cf_buf *out,
                const char *label, cf_error *err);
/* Deflates data into out (raw stream, level 1..9). */
int zio_deflate(const uint8_t *data, size_t len, int level, cf_buf *out, const char *label,
                cf_error *err);
uint32_t zio_crc32(const uint8_t *data, size_t len);

#endif

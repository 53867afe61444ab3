/* Raw deflate streams (the zip entry format), whole buffers at a time, so that worker
 * threads inflate and deflate in parallel while one thread writes the archive. */
#ifndef TC_ZLIB_IO_H
#define TC_ZLIB_IO_H

#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "tc_error.h"

/* An inflater kept by one thread across entries (its state is allocated once, not for
 * each class). */
typedef struct zio_inflater zio_inflater;
zio_inflater *zio_inflater_new(void);
void zio_inflater_free(zio_inflater *z);
/* Inflates exactly `size` bytes from a raw deflate stream into out and checks the
 * CRC-32; a stream that is short, long or damaged is TC_EFORMAT. z may be NULL (a
 * stream of its own for this call). */
int zio_inflate(zio_inflater *z, const uint8_t *in, size_t in_len, size_t size, uint32_t crc,
                tc_buf *out, const char *label, tc_error *err);
/* A deflater kept by one thread across entries: its state (hundreds of KB) is
 * allocated and faulted in once, not for each class. */
typedef struct zio_deflater zio_deflater;
zio_deflater *zio_deflater_new(int level);
void zio_deflater_free(zio_deflater *d);
/* Deflates data into out (a raw stream, at the deflater's level). */
int zio_deflate(zio_deflater *d, const uint8_t *data, size_t len, tc_buf *out, const char *label,
                tc_error *err);
uint32_t zio_crc32(const uint8_t *data, size_t len);

#endif

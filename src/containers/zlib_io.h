/* Raw deflate streams (the zip entry format), whole buffers at a time, so that worker
 * threads inflate and deflate in parallel while one thread writes the archive. */
#ifndef TC_ZLIB_IO_H
#define TC_ZLIB_IO_H

#include <stdbool.h>
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
/* The CRC-32 of A followed by B, from crc_a, crc_b and B's length (zlib's crc32_combine). */
uint32_t zio_crc32_combine(uint32_t crc_a, uint32_t crc_b, size_t len_b);

/* A large entry is deflated in parts of ZIO_PART bytes, each on its own (no history
 * across parts), on any worker: part i of n deflated by zio_deflate_part(..., i + 1 == n)
 * and the outputs concatenated in order are one raw deflate stream (RFC 1951), the same
 * bytes whatever the number of threads. Fixed: the output depends on it. */
#define ZIO_PART ((size_t)512 << 10)
/* Deflates one part into out. A part that is not the last ends byte-aligned and open, as
 * zlib's Z_SYNC_FLUSH ends one: its last block is not final, and an empty stored block
 * follows it (pigz's way); libdeflate writes whole streams only, so its final block is
 * found (zio_deflate_scan) and turned into a non-final one. */
int zio_deflate_part(zio_deflater *d, const uint8_t *data, size_t len, bool last, tc_buf *out,
                     const char *label, tc_error *err);
/* Walks the blocks of the raw deflate stream in[0, len) (decoding its Huffman codes,
 * writing nothing) up to its final block: the bit offset of that block's header and the
 * bit offset just past its end-of-block code (bits counted from bit 0 of in[0], LSB
 * first). A stream that is damaged or does not end within len is TC_EFORMAT. */
int zio_deflate_scan(const uint8_t *in, size_t len, uint64_t *final_bit, uint64_t *end_bit);

#endif

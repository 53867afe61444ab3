/* Jar (zip) archives, read (jar_read.c) and written (jar_write.c) by this module alone.
 *
 * Reading indexes the central directory of an archive held in memory (the file is
 * mapped) and checks each entry's local header against it, so that the entries'
 * bytes are then plain pointers: workers inflate them in parallel and the writer
 * copies them without a copy of its own. Stored and deflated entries are read here;
 * any other compression method goes through libzip.
 *
 * Writing streams a new archive entry by entry to a temporary file beside the
 * destination, renamed into place by jar_writer_finish, so a failed run never leaves
 * a half-written jar. An entry is either a raw copy of an entry of a source archive
 * (same compressed bytes) or new bytes; both keep the source entry's name, time,
 * attributes, comment and extra fields. Zip64 is read and written where needed.
 *
 * Format: PKWARE APPNOTE.TXT 6.3 (sections 4.3 and 4.5). */
#ifndef TC_JAR_H
#define TC_JAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "tc_error.h"

typedef struct tc_jar tc_jar;

/* Opens an archive for reading and indexes it. A damaged central directory, or a
 * local header that disagrees with it, is TC_EFORMAT with the byte offset. */
int jar_open(tc_jar **out, const char *path, tc_error *err);
/* Opens an archive held in memory, borrowed until jar_close. */
int jar_open_buffer(tc_jar **out, const void *data, size_t len, const char *label, tc_error *err);
void jar_close(tc_jar *jar);
/* Gives back the pages of the mapped archive that were read (they are read again from
 * the page cache if needed), so that a run over many jars holds only the ones it works
 * on. Not while another thread reads the archive. */
void jar_release(tc_jar *jar);
/* Whether the file was cut short while it was mapped (containers/map_guard.h): what was
 * read past its new end read as zeros, so nothing read from it may be trusted. */
bool jar_damaged(const tc_jar *jar);

uint64_t jar_count(const tc_jar *jar);
/* Refuses (TC_EFORMAT, at the second one's local header) an archive that holds a name
 * twice. Android's zip reader refuses such an APK (which copy counts is what the
 * "master key" exploit played on); the JVM reads such jars (Debian's xmlbeans is one). */
int jar_check_unique(const tc_jar *jar, tc_error *err);
/* Name of entry i: its raw bytes, NUL-terminated (a name holding a NUL is refused at
 * open). Valid until jar_close. */
const char *jar_name(const tc_jar *jar, uint64_t i);
bool jar_is_dir(const tc_jar *jar, uint64_t i);

typedef struct jar_info {
	uint64_t size;      /* uncompressed */
	uint64_t comp_size;
	uint32_t crc;
	uint16_t method;    /* 0 stored, 8 deflated; others are read through libzip */
	bool encrypted;
} jar_info;

void jar_stat(const tc_jar *jar, uint64_t i, jar_info *out);
/* The bytes of entry i as stored in the archive (comp_size of them, still
 * compressed), valid until jar_close. Safe from any thread. */
const uint8_t *jar_raw(const tc_jar *jar, uint64_t i);
/* Reads entry i into buf (replacing its contents), checking its size and CRC-32.
 * Refuses entries larger than max_size bytes with TC_ELIMIT. z, the calling thread's
 * inflater, may be NULL. Safe from any thread for stored and deflated entries; other
 * methods go through libzip, on one thread only. */
struct zio_inflater;
int jar_read(tc_jar *jar, uint64_t i, tc_buf *buf, uint64_t max_size, struct zio_inflater *z,
             tc_error *err);

typedef struct tc_jar_writer tc_jar_writer;

/* Starts an archive that will replace `path` on jar_writer_finish. Source archives
 * given to the calls below must stay open until then. */
int jar_writer_open(tc_jar_writer **out, const char *path, tc_error *err);
/* Aligns the data of every stored entry written from now on to `align` bytes, and of
 * stored "*.so" entries to so_align (zipalign -p), with Android's alignment extra field
 * (id 0xd935: u16 alignment, then zero padding) last in the local header; an existing
 * one, and the bare zero padding of old zipalign versions, are replaced by it, so that
 * the block stays a sequence of whole fields (what `unzip -t` checks). */
void jar_writer_align(tc_jar_writer *w, uint32_t align, uint32_t so_align);
/* Adds entry i of src as it is: same name, compressed bytes, time, comment, attributes. */
int jar_writer_copy(tc_jar_writer *w, const tc_jar *src, uint64_t i, tc_error *err);
/* Adds entry i of src with new content, keeping its name and metadata: `len` bytes as
 * they go into the archive with `method` (0 stored, 8 a raw deflate stream), `size`
 * bytes once inflated, CRC-32 `crc` of those. The data is written before the call
 * returns; the caller keeps it. */
int jar_writer_replace(tc_jar_writer *w, const tc_jar *src, uint64_t i, uint16_t method,
                       const uint8_t *data, size_t len, uint64_t size, uint32_t crc,
                       tc_error *err);
/* Adds a new entry `name` holding data[0..len) stored (method 0), CRC-32 `crc`, with
 * metadata that never varies (the format's first date, 1980-01-01 00:00; no extra field,
 * no attributes): the same bytes whenever it is written. */
int jar_writer_add(tc_jar_writer *w, const char *name, const uint8_t *data, size_t len, uint32_t crc,
                   tc_error *err);
/* Gives the archive the comment of src; a comment that holds an end-record signature
 * is refused (TC_EFORMAT): in it, zip readers could find a false end of the archive. */
int jar_writer_copy_comment(tc_jar_writer *w, const tc_jar *src, tc_error *err);
/* Writes the central directory, closes the temporary file and renames it to the path;
 * frees w whatever the outcome. */
int jar_writer_finish(tc_jar_writer *w, tc_error *err);
/* Discards an unfinished archive; nothing is left behind. */
void jar_writer_abort(tc_jar_writer *w);

#endif

/* Jar (zip) archives, the one module that talks to libzip.
 *
 * Reading: entries in archive order, their names, metadata and bytes. Writing: a new
 * archive made entry by entry, where an entry is either new bytes (deflated) or a raw
 * copy of an entry of a source archive (not recompressed), with the original name,
 * timestamp, comment and external attributes. Archives are written to a temporary
 * file in the destination directory and renamed into place on success, so a failed
 * run never leaves a half-written jar. */
#ifndef TC_JAR_H
#define TC_JAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "cf_error.h"

typedef struct tc_jar tc_jar;

/* Opens an archive for reading; checks its central directory for consistency. */
int jar_open(tc_jar **out, const char *path, cf_error *err);
/* Opens an archive held in memory (borrowed until jar_close). */
int jar_open_buffer(tc_jar **out, const void *data, size_t len, const char *label, cf_error *err);
void jar_close(tc_jar *jar);

uint64_t jar_count(const tc_jar *jar);
/* Name of entry i (raw bytes from the archive), or NULL when unreadable. */
const char *jar_name(tc_jar *jar, uint64_t i);
bool jar_is_dir(tc_jar *jar, uint64_t i);
/* Reads entry i into buf (replacing its contents). Refuses entries larger than
 * max_size bytes with CF_ELIMIT. */
int jar_read(tc_jar *jar, uint64_t i, cf_buf *buf, uint64_t max_size, cf_error *err);

typedef struct jar_info {
	uint64_t size;      /* uncompressed */
	uint64_t comp_size;
	uint32_t crc;
	uint16_t method;    /* 0 stored, 8 deflated; others are read through libzip */
	bool encrypted;
} jar_info;

int jar_stat(tc_jar *jar, uint64_t i, jar_info *out, cf_error *err);
/* The bytes of entry i as stored in the archive (still compressed). */
int jar_read_raw(tc_jar *jar, uint64_t i, cf_buf *buf, cf_error *err);

typedef struct tc_jar_writer tc_jar_writer;

/* Starts an archive that will replace `path` on jar_writer_finish. */
int jar_writer_open(tc_jar_writer **out, const char *path, cf_error *err);
/* Adds entry i of src as it is: same name, compressed bytes, time, comment, attributes. */
int jar_writer_copy(tc_jar_writer *w, tc_jar *src, uint64_t i, cf_error *err);
/* Adds entry i of src with new content (deflated), keeping its name and metadata.
 * data must stay valid until jar_writer_finish; the writer takes ownership (free()). */
int jar_writer_replace(tc_jar_writer *w, tc_jar *src, uint64_t i, uint8_t *data, size_t len,
                       cf_error *err);
/* Adds entry i of src with new content that the caller deflated already (a raw
 * deflate stream of `size` bytes with CRC-32 `crc`); libzip copies it as it is. The
 * writer takes ownership of `deflated` (free()). */
int jar_writer_replace_deflated(tc_jar_writer *w, tc_jar *src, uint64_t i, uint8_t *deflated,
                                size_t comp_len, uint64_t size, uint32_t crc, cf_error *err);
/* Gives the archive the comment of src. */
int jar_writer_copy_comment(tc_jar_writer *w, tc_jar *src, cf_error *err);
/* Writes the archive to a temporary file and renames it to the path. */
int jar_writer_finish(tc_jar_writer *w, cf_error *err);
/* Discards an unfinished archive; nothing is written. */
void jar_writer_abort(tc_jar_writer *w);

#endif

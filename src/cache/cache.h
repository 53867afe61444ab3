/* A content-addressed cache of tc-instrument's results on disk: entries named by a
 * 128-bit key (XXH3 of everything that determines them), each a file with a header
 * (magic, kind, length, XXH3 of the payload) so that a damaged or cut-off entry is
 * detected and treated as missing, never used.
 *
 * Safe under concurrent runs: an entry is written under a temporary name and renamed
 * into place, so a reader sees the old entry, the new one or none; readers only read.
 * Bounded: cache_close evicts the least recently used entries (by modification time,
 * which a hit refreshes) until the directory holds at most max_bytes. */
#ifndef TC_CACHE_H
#define TC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "tc_error.h"

typedef struct cache_key {
	uint64_t lo, hi;
} cache_key;

/* Building a key from parts; the order of the parts matters. */
typedef struct cache_hasher cache_hasher;
cache_hasher *cache_hasher_new(void);
void cache_hasher_free(cache_hasher *h);
void cache_hash(cache_hasher *h, const void *data, size_t len);
void cache_hash_u64(cache_hasher *h, uint64_t v);
void cache_hash_str(cache_hasher *h, const char *s); /* with its length: "ab","c" != "a","bc" */
cache_key cache_digest(cache_hasher *h);
/* The key of a file's bytes (mapped), or of a buffer. */
int cache_hash_file(const char *path, cache_key *out, uint64_t *size, tc_error *err);
cache_key cache_hash_bytes(const void *data, size_t len);

typedef struct tc_cache tc_cache;

/* Opens (creating) a cache directory. */
int cache_open(tc_cache **out, const char *dir, uint64_t max_bytes, tc_error *err);
/* Evicts down to max_bytes and frees c. */
void cache_close(tc_cache *c);

/* Reads entry (key, kind) into out. Returns true when it exists and is intact; a damaged
 * entry is removed and reported as missing. */
bool cache_get(tc_cache *c, cache_key key, const char *kind, tc_buf *out);
/* Writes entry (key, kind); errors are the caller's to ignore (a cache that cannot be
 * written only makes the next run slower) and are returned. */
int cache_put(tc_cache *c, cache_key key, const char *kind, const uint8_t *data, size_t len, tc_error *err);
/* An entry meant for cache_get_file, from memory: its payload starts at a block
 * boundary, so that a reflink can share it. */
int cache_put_blob(tc_cache *c, cache_key key, const char *kind, const uint8_t *data, size_t len, tc_error *err);
/* A whole file as entry (key, kind), its payload the file's bytes; *content (unless
 * NULL) receives cache_hash_bytes of them, and with expect set the entry is written
 * only if that is *expect. */
int cache_put_file(tc_cache *c, cache_key key, const char *kind, const char *path, const cache_key *expect,
                   cache_key *content, tc_error *err);
/* Copies the payload of entry (key, kind) to `dest` (written under a temporary name,
 * then renamed), by reflink where the file system shares blocks, else copy_file_range
 * or read/write, after checking it. Returns true when the entry existed and is intact
 * and dest is in place. */
bool cache_get_file(tc_cache *c, cache_key key, const char *kind, const char *dest, tc_error *err);

/* Whether entry (key, kind) exists (not checked: for a writer that would write the
 * same bytes, which then need not); an entry found counts as used. */
bool cache_has(tc_cache *c, cache_key key, const char *kind);

/* Entries read and written by this handle, for the statistics. */
typedef struct cache_stats {
	uint64_t hits, misses, damaged, writes, evicted;
} cache_stats;
cache_stats cache_get_stats(const tc_cache *c);

#endif

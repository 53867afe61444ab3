/* trace_index.h: the row of a key in a caller's array, found by the key's
 * hash. tc-trace's tables (call-tree nodes by (parent, id), compare rows by
 * (kind, key), fleet rows by (detail, stack), differential-flame nodes and
 * key texts) keep their rows in growing arrays; this index holds only row
 * numbers, so rows may move when their array grows.
 *
 * Open addressing with linear probing over a power-of-two number of slots,
 * at most half full. The caller probes inline (the call tree does it once
 * per span):
 *
 *	size_t s = tr_index_slot(ix, h), r;
 *	for (; (r = ix->slots[s]) != TR_INDEX_EMPTY; s = tr_index_next(ix, s))
 *		if (row r has the key)
 *			return r;
 *	... append the row, then tr_index_put(ix, s, row, hash_of, rows, err)
 *
 * tr_index_put doubles the slots when they get half full, placing each row
 * it holds again by hash_of(ctx, row): the hash the caller probed it with. */
#ifndef TR_INDEX_H
#define TR_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "tc_error.h"

#define TR_INDEX_EMPTY SIZE_MAX

typedef struct tr_index {
	size_t *slots; /* row numbers, TR_INDEX_EMPTY where free */
	size_t mask;   /* slots - 1 */
	size_t n;      /* rows held */
} tr_index;

typedef uint64_t (*tr_index_hash_fn)(const void *ctx, size_t row);

/* nslots: a power of two, the first size. */
int tr_index_init(tr_index *ix, size_t nslots, tc_error *err);
void tr_index_dispose(tr_index *ix);

static inline size_t tr_index_slot(const tr_index *ix, uint64_t h)
{
	return (size_t)h & ix->mask;
}

static inline size_t tr_index_next(const tr_index *ix, size_t s)
{
	return (s + 1) & ix->mask;
}

/* Stores row in the empty slot s the probe ended on; grows at half full. On
 * TC_ENOMEM the row is held and the index is as it was, only fuller. */
int tr_index_put(tr_index *ix, size_t s, size_t row, tr_index_hash_fn hash_of, const void *ctx, tc_error *err);

/* FNV-1a over a NUL-terminated string, continuing from h (TR_HASH_SEED to
 * start); a key of several strings hashes each with a separator between. */
#define TR_HASH_SEED UINT64_C(14695981039346656037)
uint64_t tr_hash_str(uint64_t h, const char *s);

static inline uint64_t tr_hash_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * UINT64_C(1099511628211);
}

/* Two integers (a node's parent and its id or key). */
static inline uint64_t tr_hash_pair(uint64_t a, uint64_t b)
{
	uint64_t h = a * UINT64_C(0x9E3779B97F4A7C15) ^ b * UINT64_C(0xC2B2AE3D27D4EB4F);
	return h ^ (h >> 29);
}

#endif

/* The row index of tc-trace's tables (trace_index.h): every key found at its
 * row across growth, with well-spread and with colliding hashes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "trace_index.h"

#define N 20000

static char keys[N][24];
static uint64_t (*hash_fn)(const char *);

static uint64_t spread(const char *k)
{
	return tr_hash_str(TR_HASH_SEED, k);
}

/* eight values only: long probe runs, wrapping past the last slot */
static uint64_t clumped(const char *k)
{
	return (tr_hash_str(TR_HASH_SEED, k) & 7) | ~UINT64_C(7);
}

static uint64_t row_hash(const void *ctx, size_t row)
{
	char (*k)[24] = (char (*)[24])ctx;
	return hash_fn(k[row]);
}

/* the row of key, added as row n if new */
static size_t row_of(tr_index *ix, const char *key, size_t *n)
{
	size_t s = tr_index_slot(ix, hash_fn(key)), r;
	for (; (r = ix->slots[s]) != TR_INDEX_EMPTY; s = tr_index_next(ix, s))
		if (strcmp(keys[r], key) == 0)
			return r;
	strcpy(keys[*n], key);
	tc_error err;
	cr_assert_eq(tr_index_put(ix, s, *n, row_hash, keys, &err), TC_OK);
	return (*n)++;
}

static void run(uint64_t (*h)(const char *), size_t count)
{
	hash_fn = h;
	tr_index ix;
	tc_error err;
	cr_assert_eq(tr_index_init(&ix, 4, &err), TC_OK);
	size_t n = 0;
	char key[24];
	for (size_t i = 0; i < count; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		cr_assert_eq(row_of(&ix, key, &n), i, "key %s is new: row %zu", key, i);
	}
	cr_assert_eq(ix.n, count);
	cr_assert_geq(ix.mask + 1, 2 * count, "at most half full: %zu slots for %zu rows", ix.mask + 1, count);
	/* every key again, in another order: found, nothing added */
	for (size_t i = count; i-- > 0;) {
		snprintf(key, sizeof key, "k%zu", i);
		cr_assert_eq(row_of(&ix, key, &n), i);
	}
	cr_assert_eq(n, count);
	cr_assert_eq(ix.n, count);
	tr_index_dispose(&ix);
	cr_assert_null(ix.slots);
}

Test(index, spread_keys_survive_growth)
{
	run(spread, N);
}

Test(index, colliding_keys_survive_growth)
{
	run(clumped, 2000);
}

Test(index, pair_hash_tells_order)
{
	cr_assert_neq(tr_hash_pair(1, 2), tr_hash_pair(2, 1));
	cr_assert_neq(tr_hash_str(tr_hash_byte(TR_HASH_SEED, 0), "a"), tr_hash_str(tr_hash_byte(TR_HASH_SEED, 1), "a"));
}

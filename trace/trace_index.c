/* trace_index.c: see trace_index.h. */
#include "trace_index.h"

#include <stdlib.h>

int tr_index_init(tr_index *ix, size_t nslots, tc_error *err)
{
	ix->n = 0;
	ix->mask = nslots - 1;
	ix->slots = malloc(nslots * sizeof *ix->slots);
	if (!ix->slots)
		return tc_set(err, TC_ENOMEM, "out of memory (an index of %zu slots)", nslots);
	for (size_t i = 0; i < nslots; i++)
		ix->slots[i] = TR_INDEX_EMPTY;
	return TC_OK;
}

void tr_index_dispose(tr_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->mask = ix->n = 0;
}

static int grow(tr_index *ix, tr_index_hash_fn hash_of, const void *ctx, tc_error *err)
{
	size_t old = ix->mask + 1, n = old * 2;
	if (n > SIZE_MAX / sizeof *ix->slots)
		return tc_set(err, TC_ENOMEM, "out of memory (an index of %zu rows)", ix->n);
	size_t *s = malloc(n * sizeof *s);
	if (!s)
		return tc_set(err, TC_ENOMEM, "out of memory (an index of %zu rows)", ix->n);
	for (size_t i = 0; i < n; i++)
		s[i] = TR_INDEX_EMPTY;
	/* in the old slots' order: the new table depends only on the old one */
	for (size_t i = 0; i < old; i++) {
		size_t row = ix->slots[i];
		if (row == TR_INDEX_EMPTY)
			continue;
		size_t j = (size_t)hash_of(ctx, row) & (n - 1);
		while (s[j] != TR_INDEX_EMPTY)
			j = (j + 1) & (n - 1);
		s[j] = row;
	}
	free(ix->slots);
	ix->slots = s;
	ix->mask = n - 1;
	return TC_OK;
}

int tr_index_put(tr_index *ix, size_t s, size_t row, tr_index_hash_fn hash_of, const void *ctx, tc_error *err)
{
	ix->slots[s] = row;
	ix->n++;
	if (ix->n * 2 > ix->mask + 1)
		return grow(ix, hash_of, ctx, err);
	return TC_OK;
}

uint64_t tr_hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = tr_hash_byte(h, (unsigned char)*s);
	return h;
}

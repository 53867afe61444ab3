#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_chunk {
	arena_chunk *next;
	size_t size; /* usable bytes after the header */
	_Alignas(16) unsigned char data[];
};

enum { ALIGN = 16, MIN_CHUNK = 64 * 1024 };

void arena_init(arena *a)
{
	memset(a, 0, sizeof *a);
}

static int new_chunk(arena *a, size_t need)
{
	size_t size = MIN_CHUNK;
	if (a->head && a->head->size * 2 > size && a->head->size < (SIZE_MAX >> 2))
		size = a->head->size * 2;
	if (size < need)
		size = need;
	if (size > SIZE_MAX - sizeof(arena_chunk))
		return -1;
	arena_chunk *c = malloc(sizeof(arena_chunk) + size);
	if (!c)
		return -1;
	c->next = a->head;
	c->size = size;
	a->head = c;
	a->used = 0;
	return 0;
}

void *arena_alloc(arena *a, size_t size)
{
	if (size == 0)
		size = 1;
	if (size > SIZE_MAX - ALIGN)
		return NULL;
	size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (a->limit && (a->total > a->limit || size > a->limit - a->total))
		return NULL;
	if (!a->head || a->head->size - a->used < size) {
		if (new_chunk(a, size) != 0)
			return NULL;
	}
	void *p = a->head->data + a->used;
	a->used += size;
	a->total += size;
	if (a->total > a->peak)
		a->peak = a->total;
	return p;
}

void *arena_zalloc(arena *a, size_t size)
{
	void *p = arena_alloc(a, size);
	if (p)
		memset(p, 0, size);
	return p;
}

void *arena_array(arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return arena_alloc(a, n * size);
}

void *arena_dup(arena *a, const void *src, size_t size)
{
	void *p = arena_alloc(a, size);
	if (p && size)
		memcpy(p, src, size);
	return p;
}

void *arena_grow(arena *a, void *old, size_t old_size, size_t new_size)
{
	if (new_size <= old_size && old)
		return old;
	void *p = arena_alloc(a, new_size);
	if (p && old && old_size)
		memcpy(p, old, old_size);
	return p;
}

void arena_reset(arena *a)
{
	/* Keep one chunk. When the last use needed several, replace them by one chunk
	 * of their total size, so that the next use of the same size needs no malloc. */
	size_t need = 0, n = 0;
	arena_chunk *keep = NULL;
	for (arena_chunk *c = a->head; c; c = c->next) {
		need += c->size;
		n++;
		if (!keep || c->size > keep->size)
			keep = c;
	}
	for (arena_chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		if (c != keep)
			free(c);
	}
	a->head = keep;
	if (keep)
		keep->next = NULL;
	if (n > 1 && need > keep->size && need <= SIZE_MAX - sizeof(arena_chunk)) {
		arena_chunk *big = malloc(sizeof(arena_chunk) + need);
		if (big) {
			free(keep);
			big->next = NULL;
			big->size = need;
			a->head = big;
		}
	}
	a->used = 0;
	a->total = 0;
}

void arena_free(arena *a)
{
	for (arena_chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->used = 0;
	a->total = 0;
}

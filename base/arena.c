/* MAP_ANONYMOUS and MADV_HUGEPAGE are not POSIX. */
#define _DEFAULT_SOURCE
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
/* Chunks this large are mapped on their own and offered transparent huge pages: an
 * arena that keeps data for a whole run (hundreds of MB for a large input) would
 * otherwise take one page fault per 4 KB, which dominates on virtual machines. */
#define BIG_CHUNK ((size_t)2 << 20)
#endif

struct arena_chunk {
	arena_chunk *next;
	size_t size; /* usable bytes after the header */
	_Alignas(16) unsigned char data[];
};

enum { ALIGN = 16, MIN_CHUNK = 64 * 1024 };

static arena_chunk *chunk_new(size_t size)
{
	if (size > SIZE_MAX - sizeof(arena_chunk))
		return NULL;
	arena_chunk *c;
#ifdef BIG_CHUNK
	if (size >= BIG_CHUNK) {
		/* Whole huge pages, aligned: map one more than needed and trim both ends. */
		size_t total = (sizeof(arena_chunk) + size + BIG_CHUNK - 1) & ~(BIG_CHUNK - 1);
		if (total < size || total > SIZE_MAX - BIG_CHUNK)
			return NULL;
		uint8_t *p = mmap(NULL, total + BIG_CHUNK, PROT_READ | PROT_WRITE,
		                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		size_t head = (BIG_CHUNK - (uintptr_t)p % BIG_CHUNK) % BIG_CHUNK;
		if (head)
			munmap(p, head);
		munmap(p + head + total, BIG_CHUNK - head);
		p += head;
#ifdef MADV_HUGEPAGE
		madvise(p, total, MADV_HUGEPAGE); /* a hint: failure is fine */
#endif
		c = (arena_chunk *)(void *)p;
		c->next = NULL;
		c->size = total - sizeof(arena_chunk);
		return c;
	}
#endif
	{
		if (!(c = malloc(sizeof(arena_chunk) + size)))
			return NULL;
	}
	c->next = NULL;
	c->size = size;
	return c;
}

static void chunk_free(arena_chunk *c)
{
#ifdef BIG_CHUNK
	if (c->size >= BIG_CHUNK) {
		munmap(c, sizeof(arena_chunk) + c->size);
		return;
	}
#endif
	free(c);
}

void arena_init(arena *a)
{
	memset(a, 0, sizeof *a);
}

void arena_init_sized(arena *a, size_t min_chunk)
{
	arena_init(a);
	a->min_chunk = min_chunk;
}

static int new_chunk(arena *a, size_t need)
{
	size_t size = a->min_chunk > MIN_CHUNK ? a->min_chunk : MIN_CHUNK;
	if (a->head && a->head->size * 2 > size && a->head->size < (SIZE_MAX >> 2))
		size = a->head->size * 2;
	if (size < need)
		size = need;
	arena_chunk *c = chunk_new(size);
	if (!c)
		return -1;
	c->next = a->head;
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

char *arena_strndup(arena *a, const char *s, size_t n)
{
	if (n == SIZE_MAX)
		return NULL;
	char *p = arena_alloc(a, n + 1);
	if (p) {
		if (n)
			memcpy(p, s, n);
		p[n] = '\0';
	}
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
			chunk_free(c);
	}
	a->head = keep;
	if (keep)
		keep->next = NULL;
	if (n > 1 && need > keep->size) {
		arena_chunk *big = chunk_new(need);
		if (big) {
			chunk_free(keep);
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
		chunk_free(c);
	}
	a->head = NULL;
	a->used = 0;
	a->total = 0;
}

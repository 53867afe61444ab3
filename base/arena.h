/* A bump allocator: everything parsed from one class (one report line, one mapping
 * file) lives in one arena and is freed at once. arena_reset keeps the memory for the
 * next class, so a worker thread allocates from the system only while its largest class
 * grows. Not thread-safe: one per thread. A zeroed arena is empty and valid, and so is
 * one after arena_free. */
#ifndef TC_ARENA_H
#define TC_ARENA_H

#include <stddef.h>

typedef struct arena_chunk arena_chunk;

typedef struct arena {
	arena_chunk *head;   /* current chunk; older ones follow */
	size_t used;         /* bytes used in head */
	size_t total;        /* bytes handed out since the last reset */
	size_t limit;        /* 0 = none; else allocations past it fail (tests of error paths) */
	size_t peak;         /* largest total seen, for statistics */
	size_t min_chunk;    /* 0 = the default; see arena_init_sized */
} arena;

void arena_init(arena *a);
/* An arena whose chunks are at least min_chunk bytes: for one that will grow large,
 * so that it starts with huge pages (see arena.c) instead of growing to them. */
void arena_init_sized(arena *a, size_t min_chunk);
/* Aligned to 16 bytes. NULL when the system or the limit refuses. */
void *arena_alloc(arena *a, size_t size);
void *arena_zalloc(arena *a, size_t size);
/* n * size with overflow check. */
void *arena_array(arena *a, size_t n, size_t size);
void *arena_dup(arena *a, const void *src, size_t size);
/* A copy of s[0..n) with a terminating NUL, or NULL. */
char *arena_strndup(arena *a, const char *s, size_t n);
/* Grows an array owned by the arena: copies the old contents; the old block is not reused. */
void *arena_grow(arena *a, void *old, size_t old_size, size_t new_size);
/* Frees all but the largest chunk, which is kept for reuse. */
void arena_reset(arena *a);
void arena_free(arena *a);

#endif

/* trace_arena.h: a bump allocator of malloc'd chunks, freed at once. A
 * zeroed arena is empty and valid; tr_arena_dispose may be called on it
 * any number of times. */
#ifndef TR_ARENA_H
#define TR_ARENA_H

#include <stddef.h>

typedef struct tr_arena_chunk tr_arena_chunk;

typedef struct tr_arena {
	tr_arena_chunk *head;
	size_t used, size; /* in head */
} tr_arena;

/* n bytes aligned for any object, or NULL when out of memory. */
void *tr_arena_alloc(tr_arena *a, size_t n);
/* A copy of s[0..n) with a terminating NUL, or NULL. */
char *tr_arena_strndup(tr_arena *a, const char *s, size_t n);
void tr_arena_dispose(tr_arena *a);

#endif

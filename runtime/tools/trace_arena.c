#include "trace_arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct tr_arena_chunk {
	tr_arena_chunk *next;
	alignas(max_align_t) unsigned char data[];
};

#define CHUNK 65536u

void *tr_arena_alloc(tr_arena *a, size_t n)
{
	const size_t al = alignof(max_align_t);
	if (n > SIZE_MAX - al)
		return NULL;
	n = (n + al - 1) / al * al;
	if (!a->head || a->size - a->used < n) {
		size_t size = n > CHUNK ? n : CHUNK;
		if (size > SIZE_MAX - sizeof(tr_arena_chunk))
			return NULL;
		tr_arena_chunk *c = malloc(sizeof *c + size);
		if (!c)
			return NULL;
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->size = size;
	}
	void *p = a->head->data + a->used;
	a->used += n;
	return p;
}

char *tr_arena_strndup(tr_arena *a, const char *s, size_t n)
{
	if (n == SIZE_MAX)
		return NULL;
	char *p = tr_arena_alloc(a, n + 1);
	if (p) {
		if (n)
			memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

void tr_arena_dispose(tr_arena *a)
{
	for (tr_arena_chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->used = a->size = 0;
}

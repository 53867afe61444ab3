#include "bytes.h"

#include <stdlib.h>

void buf_init(cf_buf *b)
{
	memset(b, 0, sizeof *b);
}

void buf_fixed(cf_buf *b, uint8_t *mem, size_t cap)
{
	buf_init(b);
	b->data = mem;
	b->cap = cap;
	b->limit = cap;
}

void buf_free(cf_buf *b)
{
	free(b->data);
	buf_init(b);
}

void buf_clear(cf_buf *b)
{
	b->len = 0;
	b->err = CF_OK;
}

bool buf_reserve(cf_buf *b, size_t more)
{
	if (b->err)
		return false;
	if (more > SIZE_MAX - b->len || (b->limit && b->len + more > b->limit)) {
		b->err = CF_ENOMEM;
		return false;
	}
	size_t need = b->len + more;
	if (need <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	/* Never hold more than the limit: the inline writers only call here when full. */
	if (b->limit && cap > b->limit)
		cap = b->limit;
	uint8_t *p = realloc(b->data, cap);
	if (!p) {
		b->err = CF_ENOMEM;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

uint8_t *buf_take(cf_buf *b, size_t *len)
{
	uint8_t *p = b->data;
	*len = b->len;
	buf_init(b);
	return p;
}

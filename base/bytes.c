#include "bytes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void buf_init(tc_buf *b)
{
	memset(b, 0, sizeof *b);
}

void buf_fixed(tc_buf *b, uint8_t *mem, size_t cap)
{
	buf_init(b);
	b->data = mem;
	b->cap = cap;
	b->limit = cap;
}

void buf_free(tc_buf *b)
{
	free(b->data);
	buf_init(b);
}

void buf_clear(tc_buf *b)
{
	b->len = 0;
	b->err = TC_OK;
}

bool buf_reserve(tc_buf *b, size_t more)
{
	if (b->err)
		return false;
	if (more > SIZE_MAX - b->len || (b->limit && b->len + more > b->limit)) {
		b->err = TC_ENOMEM;
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
		b->err = TC_ENOMEM;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

uint8_t *buf_take(tc_buf *b, size_t *len)
{
	uint8_t *p = b->data;
	*len = b->len;
	buf_init(b);
	return p;
}

void buf_putn(tc_buf *b, const char *s, size_t n)
{
	if (n == SIZE_MAX || !buf_reserve(b, n + 1))
		return;
	if (n)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->str[b->len] = '\0';
}

void buf_puts(tc_buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}

void buf_putc(tc_buf *b, char c)
{
	buf_putn(b, &c, 1);
}

void buf_printf(tc_buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (!b->err)
			b->err = TC_EARG;
		return;
	}
	if ((size_t)n < sizeof small) {
		buf_putn(b, small, (size_t)n);
		return;
	}
	if (!buf_reserve(b, (size_t)n + 1))
		return;
	va_start(ap, fmt);
	vsnprintf(b->str + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *buf_take_str(tc_buf *b)
{
	if (b->err)
		return NULL;
	if (!b->data) {
		if (!buf_reserve(b, 1))
			return NULL;
		b->str[0] = '\0';
	}
	char *s = b->str;
	buf_init(b);
	return s;
}

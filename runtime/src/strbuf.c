#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(strbuf *sb)
{
	memset(sb, 0, sizeof *sb);
}

void sb_dispose(strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

static int grow(strbuf *sb, size_t extra)
{
	if (sb->failed)
		return -1;
	if (sb->len + extra + 1 <= sb->cap)
		return 0;
	size_t cap = sb->cap ? sb->cap : 128;
	while (cap < sb->len + extra + 1) {
		if (cap > SIZE_MAX / 2) {
			sb->failed = 1;
			return -1;
		}
		cap *= 2;
	}
	char *p = realloc(sb->buf, cap);
	if (!p) {
		sb->failed = 1;
		return -1;
	}
	sb->buf = p;
	sb->cap = cap;
	return 0;
}

void sb_putn(strbuf *sb, const char *s, size_t n)
{
	if (grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s)
{
	sb_putn(sb, s, strlen(s));
}

void sb_putc(strbuf *sb, char c)
{
	sb_putn(sb, &c, 1);
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->failed = 1;
		return;
	}
	if ((size_t)n < sizeof small) {
		sb_putn(sb, small, (size_t)n);
		return;
	}
	if (grow(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

char *sb_take(strbuf *sb)
{
	if (sb->failed)
		return NULL;
	if (!sb->buf) {
		if (grow(sb, 0))
			return NULL;
		sb->buf[0] = '\0';
	}
	char *s = sb->buf;
	sb_init(sb);
	return s;
}

/* strbuf.h: a growable string with a sticky failure flag, so builders
 * append freely and check once. */
#ifndef TC_STRBUF_H
#define TC_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "error.h"

typedef struct strbuf {
	char *buf;
	size_t len, cap;
	int failed;
} strbuf;

void sb_init(strbuf *sb);
void sb_dispose(strbuf *sb);
void sb_putn(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_putc(strbuf *sb, char c);
void sb_printf(strbuf *sb, const char *fmt, ...) TC_PRINTF(2, 3);
/* Hands over the string (never NULL unless failed); the buffer is reset. */
char *sb_take(strbuf *sb);

#endif

#include "cf_error.h"

#include <stdio.h>
#include <string.h>

static void copy(char *dst, size_t size, const char *src)
{
	if (!src) {
		dst[0] = '\0';
		return;
	}
	size_t n = strlen(src);
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void cf_error_clear(cf_error *err)
{
	/* Cleared once per method on hot paths: only what marks the record empty. */
	if (!err)
		return;
	err->code = CF_OK;
	err->offset = CF_NO_OFFSET;
	err->part[0] = err->message[0] = err->member[0] = err->cls[0] = err->file[0] = '\0';
}

int cf_fail(cf_error *err, int code, uint32_t offset, const char *part, const char *fmt, ...)
{
	if (!err || err->code != CF_OK)
		return code;
	err->code = code;
	err->offset = offset;
	copy(err->part, sizeof err->part, part);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return code;
}

int cf_set(cf_error *err, int code, const char *fmt, ...)
{
	if (!err)
		return code;
	char message[sizeof err->message];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	cf_error_clear(err);
	err->code = code;
	memcpy(err->message, message, sizeof message);
	return code;
}

void cf_error_context(cf_error *err, const char *file, const char *cls, const char *member)
{
	if (!err)
		return;
	if (file && !err->file[0])
		copy(err->file, sizeof err->file, file);
	if (cls && !err->cls[0])
		copy(err->cls, sizeof err->cls, cls);
	if (member && !err->member[0])
		copy(err->member, sizeof err->member, member);
}

size_t cf_error_format(const cf_error *err, char *buf, size_t size)
{
	size_t n = 0;
	int w;
#define PUT(...)                                                      \
	do {                                                          \
		w = snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__); \
		if (w > 0)                                            \
			n += (size_t)w;                               \
	} while (0)
	if (size)
		buf[0] = '\0';
	if (err->file[0])
		PUT("%s: ", err->file);
	if (err->cls[0])
		PUT("class %s: ", err->cls);
	if (err->member[0])
		PUT("%s: ", err->member);
	if (err->part[0])
		PUT("%s", err->part);
	if (err->offset != CF_NO_OFFSET)
		PUT("%sat offset %u", err->part[0] ? " " : "", err->offset);
	if (err->part[0] || err->offset != CF_NO_OFFSET)
		PUT(": ");
	PUT("%s", err->message[0] ? err->message : cf_strerror(err->code));
#undef PUT
	return n < size ? n : (size ? size - 1 : 0);
}

const char *cf_strerror(int code)
{
	switch (code) {
	case CF_OK: return "ok";
	case CF_ETRUNC: return "truncated input";
	case CF_EFORMAT: return "malformed class file";
	case CF_EVERSION: return "unsupported class-file version";
	case CF_EOPCODE: return "bad instruction";
	case CF_EBRANCH: return "bad branch target";
	case CF_ELIMIT: return "JVM limit exceeded";
	case CF_EUNSUPPORTED: return "unsupported";
	case CF_ENOMEM: return "out of memory";
	case CF_EIO: return "I/O error";
	case CF_EARG: return "invalid argument";
	}
	return "unknown error";
}

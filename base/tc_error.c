#include "tc_error.h"

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

void tc_error_clear(tc_error *err)
{
	/* Cleared once per method on hot paths: only what marks the record empty. */
	if (!err)
		return;
	err->code = TC_OK;
	err->offset = TC_NO_OFFSET;
	err->part[0] = err->message[0] = err->member[0] = err->cls[0] = err->file[0] = '\0';
}

int tc_fail(tc_error *err, int code, uint32_t offset, const char *part, const char *fmt, ...)
{
	if (!err || err->code != TC_OK)
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

int tc_set(tc_error *err, int code, const char *fmt, ...)
{
	if (!err)
		return code;
	char message[sizeof err->message];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	tc_error_clear(err);
	err->code = code;
	memcpy(err->message, message, sizeof message);
	return code;
}

void tc_error_context(tc_error *err, const char *file, const char *cls, const char *member)
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

size_t tc_error_format(const tc_error *err, char *buf, size_t size)
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
	if (err->offset != TC_NO_OFFSET)
		PUT("%sat offset %u", err->part[0] ? " " : "", err->offset);
	if (err->part[0] || err->offset != TC_NO_OFFSET)
		PUT(": ");
	PUT("%s", err->message[0] ? err->message : tc_strerror(err->code));
#undef PUT
	return n < size ? n : (size ? size - 1 : 0);
}

const char *tc_strerror(int code)
{
	switch (code) {
	case TC_OK: return "ok";
	case TC_ETRUNC: return "truncated input";
	case TC_EFORMAT: return "malformed input";
	case TC_EVERSION: return "unsupported class-file version";
	case TC_EOPCODE: return "bad instruction";
	case TC_EBRANCH: return "bad branch target";
	case TC_ELIMIT: return "JVM limit exceeded";
	case TC_EUNSUPPORTED: return "unsupported";
	case TC_ENOMEM: return "out of memory";
	case TC_EIO: return "I/O error";
	case TC_EARG: return "invalid argument";
	case TC_EINVAL: return "invalid configuration or argument";
	case TC_ESTALE: return "index record overwritten";
	case TC_ESTATE: return "not allowed in this status";
	case TC_ETHREAD: return "thread start failed";
	case TC_EBUSY: return "ring file held by another process";
	case TC_ENOSPC: return "no room for the ring file";
	}
	return "unknown error";
}

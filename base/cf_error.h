/* Error values shared by every layer: a status code plus where it happened.
 *
 * A fallible function returns 0 or a negative CF_E* code and fills a caller-owned
 * cf_error. Lower layers set the offset and part; upper layers add the member, class
 * and file without rewording the message (see cf_error_context). No global state. */
#ifndef TC_CF_ERROR_H
#define TC_CF_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum {
	CF_OK = 0,
	CF_ETRUNC = -1,       /* input ends before a structure does */
	CF_EFORMAT = -2,      /* a structure is malformed: bad tag, index, length, flag */
	CF_EVERSION = -3,     /* class-file version outside 45.0 .. 69.0 */
	CF_EOPCODE = -4,      /* undefined opcode or malformed instruction */
	CF_EBRANCH = -5,      /* branch/handler/table offset not on an instruction boundary */
	CF_ELIMIT = -6,       /* a JVM limit would be exceeded (code size, pool size, u2 count) */
	CF_EUNSUPPORTED = -7, /* well-formed input this library refuses to edit */
	CF_ENOMEM = -8,
	CF_EIO = -9,
	CF_EARG = -10,        /* API misuse by the caller */
};

#define CF_NO_OFFSET UINT32_MAX

typedef struct cf_error {
	int code;
	uint32_t offset;  /* byte offset in the class file, or CF_NO_OFFSET */
	char part[512];   /* what was being read: "constant pool #12", "Code of m(I)V", "a.jar!entry" */
	char msg[192];    /* one line, no trailing period */
	char member[160]; /* "name(desc)" when inside a method or field, else "" */
	char cls[160];    /* class name when known, else "" */
	char file[1024];  /* file path, "jar!entry" or "" */
} cf_error;

void cf_error_clear(cf_error *err);

/* The one funnel: records code, offset and a formatted message; returns code. The first
 * error wins: a later call on an error already set is ignored, so callers may stack
 * cleanup paths without losing the precise cause. */
int cf_fail(cf_error *err, int code, uint32_t offset, const char *part, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* Fills member/class/file if still empty (upper layers add context, never reword). */
void cf_error_context(cf_error *err, const char *file, const char *cls, const char *member);

/* "file: class C: member m: part at offset N: message" without empty parts. */
size_t cf_error_format(const cf_error *err, char *buf, size_t size);

const char *cf_strerror(int code);

#endif

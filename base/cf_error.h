/* The one error record of every layer: a status code plus where it happened.
 *
 * A fallible function returns 0 or a negative code and fills a caller-owned cf_error.
 * The codes are the caller's layer's: CF_E* below for the formats and the compiler,
 * TC_E* (tc_runtime.h) for the runtime and tc-trace, whose public header calls this
 * record tc_error. Lower layers set the offset and part; upper layers add the member,
 * class and file without rewording the message (see cf_error_context). No global state. */
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

/* printf-style checking of a function's format (argument a) and arguments (from b). */
#if defined(__GNUC__)
#define CF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CF_PRINTF(a, b)
#endif

typedef struct cf_error {
	int code;
	uint32_t offset;  /* byte offset in the class file, or CF_NO_OFFSET */
	char part[512];   /* what was being read: "constant pool #12", "Code of m(I)V", "a.jar!entry" */
	char message[512]; /* one line, no trailing period */
	char member[160]; /* "name(desc)" when inside a method or field, else "" */
	char cls[160];    /* class name when known, else "" */
	char file[1024];  /* file path, "jar!entry" or "" */
} cf_error;

void cf_error_clear(cf_error *err);

/* The one funnel: records code, offset and a formatted message; returns code. The first
 * error wins: a later call on an error already set is ignored, so callers may stack
 * cleanup paths without losing the precise cause. */
int cf_fail(cf_error *err, int code, uint32_t offset, const char *part, const char *fmt, ...) CF_PRINTF(5, 6);

/* The other funnel, for callers whose message already says where (the runtime, tc-trace:
 * "FILE:LINE: ...", "ring at byte N: ..."): sets code and message, clears the rest and
 * replaces an error already set (the runtime reuses one record across calls). err may be
 * NULL, and fmt's arguments may be read from err itself. Returns code. */
int cf_set(cf_error *err, int code, const char *fmt, ...) CF_PRINTF(3, 4);

/* Returns from the calling function when expr is negative: the one propagation macro. */
#define TRY(expr) do { int try_rc_ = (expr); if (try_rc_ < 0) return try_rc_; } while (0)

/* Fills member/class/file if still empty (upper layers add context, never reword). */
void cf_error_context(cf_error *err, const char *file, const char *cls, const char *member);

/* "file: class C: member m: part at offset N: message" without empty parts. */
size_t cf_error_format(const cf_error *err, char *buf, size_t size);

const char *cf_strerror(int code);

#endif

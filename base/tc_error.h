/* The one error record of the host tools' layers: a status code plus where it happened.
 *
 * A fallible function returns 0 (TC_OK) or a negative TC_E* code and fills a
 * caller-owned tc_error. The codes are one space: those of the formats and the
 * compiler, then those only tc-trace returns, in a range of their own (the runtime's
 * public API has its own record and codes, runtime/include/tc_rt_error.h, which base
 * does not see). Lower layers set the offset and part; upper layers add the member,
 * class and file without rewording the message (see tc_error_context). No global
 * state. The propagation macro TRY is in try.h, for .c files only. */
#ifndef TC_ERROR_H
#define TC_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum {
	TC_OK = 0,
	TC_ETRUNC = -1,       /* input ends before a structure does */
	TC_EFORMAT = -2,      /* a structure is malformed: bad tag, index, length, flag */
	TC_EVERSION = -3,     /* class-file version outside 45.0 .. 69.0 */
	TC_EOPCODE = -4,      /* undefined opcode or malformed instruction */
	TC_EBRANCH = -5,      /* branch/handler/table offset not on an instruction boundary */
	TC_ELIMIT = -6,       /* a JVM limit would be exceeded (code size, pool size, u2 count) */
	TC_EUNSUPPORTED = -7, /* well-formed input this library refuses to edit */
	TC_ENOMEM = -8,
	TC_EIO = -9,
	TC_EARG = -10,        /* API misuse by the caller */
	/* tc-trace's own, which also stand for the runtime's codes of the same names
	 * (runtime/include/tc_rt_error.h: TC_RT_E*, a record of its own) */
	TC_EINVAL = -20,      /* bad argument or configuration */
	TC_ESTALE = -21,      /* an index record was overwritten by the ring */
	TC_ESTATE = -22,      /* call not allowed in the current status */
	TC_ETHREAD = -23,     /* a thread could not be started */
	TC_EBUSY = -24,       /* a ring file another live process holds */
	TC_ENOSPC = -25,      /* no room to reserve a ring file (full disk, quota, file size limit) */
};

#define TC_NO_OFFSET UINT32_MAX

/* printf-style checking of a function's format (argument a) and arguments (from b). */
#if defined(__GNUC__)
#define TC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TC_PRINTF(a, b)
#endif

typedef struct tc_error {
	int code;
	uint32_t offset;  /* byte offset in the class file, or TC_NO_OFFSET */
	char part[512];   /* what was being read: "constant pool #12", "Code of m(I)V", "a.jar!entry" */
	char message[512]; /* one line, no trailing period */
	char member[160]; /* "name(desc)" when inside a method or field, else "" */
	char cls[160];    /* class name when known, else "" */
	char file[1024];  /* file path, "jar!entry" or "" */
} tc_error;

void tc_error_clear(tc_error *err);

/* The one funnel: records code, offset and a formatted message; returns code. The first
 * error wins: a later call on an error already set is ignored, so callers may stack
 * cleanup paths without losing the precise cause. */
int tc_fail(tc_error *err, int code, uint32_t offset, const char *part, const char *fmt, ...) TC_PRINTF(5, 6);

/* The other funnel, for callers whose message already says where (tc-trace:
 * "FILE:LINE: ...", "ring at byte N: ..."): sets code and message, clears the rest and
 * replaces an error already set (a caller may reuse one record across calls). err may be
 * NULL, and fmt's arguments may be read from err itself. Returns code. */
int tc_set(tc_error *err, int code, const char *fmt, ...) TC_PRINTF(3, 4);

/* Fills member/class/file if still empty (upper layers add context, never reword). */
void tc_error_context(tc_error *err, const char *file, const char *cls, const char *member);

/* "file: class C: member m: part at offset N: message" without empty parts. */
size_t tc_error_format(const tc_error *err, char *buf, size_t size);

/* A short name of the code, every layer's; "unknown error" for one that is none. */
const char *tc_strerror(int code);

#endif

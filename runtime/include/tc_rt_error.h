/* tc_rt_error.h: the runtime's error record and codes, for every public
 * header of runtime/include (an app's NDK build needs nothing else).
 *
 * A fallible function returns TC_RT_OK (0) or a negative TC_RT_E* code and,
 * if err is not NULL, fills it with the code and a one-line message (no
 * trailing period) that says where: "PATH: ring at byte N: ...". The record
 * is the caller's; the runtime reuses one across calls (each error replaces
 * the one before). The codes are a range of their own (-101 .. -199), apart
 * from those of the host tools' error record (base/tc_error.h), so that a
 * program that has both (tc-trace) can tell them apart. */
#ifndef TC_RT_ERROR_H
#define TC_RT_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum {
	TC_RT_OK = 0,
	TC_RT_ENOMEM = -101,  /* out of memory */
	TC_RT_EIO = -102,     /* a file or mapping could not be read or written */
	TC_RT_EFORMAT = -103, /* a ring or thread file is malformed (tc_ringfile.h) */
	TC_RT_EINVAL = -104,  /* bad argument or configuration */
	TC_RT_ESTALE = -105,  /* an index record was overwritten by the ring */
	TC_RT_ESTATE = -106,  /* call not allowed in the current status */
	TC_RT_ETHREAD = -107, /* a thread could not be started */
	TC_RT_EBUSY = -108,   /* held elsewhere: a ring file another live process holds, a symbol another
	                       * hook has, a count its writer is storing */
	TC_RT_ENOSPC = -109,  /* no room: for a ring file (full disk, quota, file size limit), a ring, a name */
};

#define TC_RT_MESSAGE_SIZE 512

typedef struct tc_rt_error {
	int code;
	char message[TC_RT_MESSAGE_SIZE]; /* one line, "" when the code says it all */
} tc_rt_error;

/* A short name of a TC_RT_* code; "unknown error" for one that is none. */
const char *tc_rt_strerror(int code);

#ifdef __cplusplus
}
#endif
#endif

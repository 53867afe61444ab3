#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int tc_fail(tc_error *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		err->code = code;
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return code;
}

const char *tc_strerror(int code)
{
	switch (code) {
	case TC_OK: return "ok";
	case TC_EINVAL: return "invalid argument";
	case TC_ENOMEM: return "out of memory";
	case TC_EIO: return "input/output error";
	case TC_EFORMAT: return "malformed ring file";
	case TC_ESTALE: return "index record overwritten";
	case TC_ESTATE: return "not allowed in this status";
	case TC_ETHREAD: return "thread start failed";
	case TC_EBUSY: return "ring file held by another process";
	case TC_ENOSPC: return "no room for the ring file";
	default: return "unknown error";
	}
}

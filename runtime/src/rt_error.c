/* rt_error.c: the runtime's error record (tc_rt_error.h). */
#include "rt_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int tc_rt_set(tc_rt_error *err, int code, const char *fmt, ...)
{
	if (!err)
		return code;
	char message[sizeof err->message];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	err->code = code;
	memcpy(err->message, message, sizeof message);
	return code;
}

const char *tc_rt_strerror(int code)
{
	switch (code) {
	case TC_RT_OK: return "ok";
	case TC_RT_ENOMEM: return "out of memory";
	case TC_RT_EIO: return "I/O error";
	case TC_RT_EFORMAT: return "malformed ring file";
	case TC_RT_EINVAL: return "invalid configuration or argument";
	case TC_RT_ESTALE: return "index record overwritten";
	case TC_RT_ESTATE: return "not allowed in this status";
	case TC_RT_ETHREAD: return "thread start failed";
	case TC_RT_EBUSY: return "busy";
	case TC_RT_ENOSPC: return "no room";
	}
	return "unknown error";
}

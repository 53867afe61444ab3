/* error.c: the names of the runtime's codes (TC_E*, tc_runtime.h). Errors themselves
 * go through base's funnel cf_set (cf_error.h). */
#include "tc_runtime.h"

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

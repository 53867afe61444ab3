/* libtc_hookloader.so: loads libraries the way the platform's libraries
 * do, so that the hook engine's watch on the loader sees it
 * (test_plthook.c): a plain dlopen, and what Android 8+'s libdl.so does
 * (dlopen is __loader_dlopen with the caller's address; the test program
 * plays the linker and defines __loader_dlopen). */
#include <dlfcn.h>

void *loader_open(const char *path, int flags);
void *loader_open_as_libdl(const char *path, int flags);
const void *loader_last_caller(void);

void *__loader_dlopen(const char *path, int flags, const void *caller) __attribute__((weak));

static const void *last_caller;

void *loader_open(const char *path, int flags)
{
	return dlopen(path, flags);
}

void *loader_open_as_libdl(const char *path, int flags)
{
	last_caller = __builtin_return_address(0);
	return __loader_dlopen(path, flags, last_caller);
}

const void *loader_last_caller(void)
{
	return last_caller;
}

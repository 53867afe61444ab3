/* os_thread.c: the calling thread's name, priority and id. On
 * Linux, and so on Android, each thread has its own name (prctl
 * PR_SET_NAME) and its own nice value, which setpriority sets when given a
 * thread id (as ART's Thread.setPriority does). Both are in every Linux libc
 * (bionic, glibc, musl); gettid is a system call glibc only wraps since 2.30. */
#define _DEFAULT_SOURCE 1 /* syscall() */

#include "os_thread.h"

#include <string.h>

#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

void os_thread_identify(const char *name, int nice)
{
#if defined(__linux__)
	prctl(PR_SET_NAME, name, 0, 0, 0);
	id_t tid = (id_t)syscall(SYS_gettid);
	/* -1 is a valid niceness; raising it needs no privilege, lowering it may
	 * fail, and then the inherited value stays. */
	int cur = getpriority(PRIO_PROCESS, tid);
	if (cur < nice)
		setpriority(PRIO_PROCESS, tid, nice);
#else
	(void)name;
	(void)nice;
#endif
}

void os_thread_name(char out[16])
{
	out[0] = '\0';
#if defined(__linux__)
	if (prctl(PR_GET_NAME, out, 0, 0, 0) != 0)
		out[0] = '\0';
	out[15] = '\0';
#endif
}

uint32_t os_thread_id(void)
{
#if defined(__linux__)
	return (uint32_t)syscall(SYS_gettid);
#else
	return 0;
#endif
}

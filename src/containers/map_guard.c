/* See map_guard.h. The handler runs on the faulting thread and touches only lock-free
 * atomics and mmap (a system call; Linux's, as the JVM's and ART's own SIGBUS handlers
 * rely on, is safe there). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "containers/map_guard.h"

#define SLOTS 256

static struct {
	atomic_uintptr_t start; /* 0: free */
	atomic_size_t len;
	atomic_bool damaged;
} slots[SLOTS];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* map_guard_add's slot search */
static bool installed;
static struct sigaction previous;
static long page_size;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	uintptr_t a = (uintptr_t)si->si_addr;
	for (int i = 0; i < SLOTS; i++) {
		uintptr_t s = atomic_load(&slots[i].start);
		if (!s || a < s || a - s >= atomic_load(&slots[i].len))
			continue;
		void *p = (void *)(a & ~((uintptr_t)page_size - 1));
		if (mmap(p, (size_t)page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			break;
		atomic_store(&slots[i].damaged, true);
		return; /* the read runs again, on zeros */
	}
	/* not ours: what it would have been without us (the fault comes again) */
	sigaction(sig, &previous, NULL);
	if (previous.sa_handler == SIG_IGN || previous.sa_handler == SIG_DFL)
		signal(sig, SIG_DFL);
}

int map_guard_add(const void *addr, size_t len)
{
	if (!addr || !len)
		return -1;
	pthread_mutex_lock(&lock);
	int slot = -1;
	if (!installed && (page_size = sysconf(_SC_PAGESIZE)) > 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		installed = sigaction(SIGBUS, &sa, &previous) == 0;
	}
	for (int i = 0; installed && i < SLOTS && slot < 0; i++)
		if (!atomic_load(&slots[i].start)) {
			atomic_store(&slots[i].damaged, false);
			atomic_store(&slots[i].len, len);
			atomic_store(&slots[i].start, (uintptr_t)addr);
			slot = i;
		}
	pthread_mutex_unlock(&lock);
	return slot;
}

bool map_guard_damaged(int slot)
{
	return slot >= 0 && slot < SLOTS && atomic_load(&slots[slot].damaged);
}

void map_guard_remove(int slot)
{
	if (slot < 0 || slot >= SLOTS)
		return;
	atomic_store(&slots[slot].start, 0);
	atomic_store(&slots[slot].len, 0);
}

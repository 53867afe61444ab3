/* hookset.h: the PLT hooks of one tracer, owned by one context at a time (GOTs are
 * process-wide), and the guard that lets the owner go while hooked calls run: a hook
 * enters (takes the owner) and leaves; uninstall waits until no call is inside. Used by
 * tracer_priority.c and tracer_touch.c. */
#ifndef TC_HOOKSET_H
#define TC_HOOKSET_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "context.h"
#include "tc_plthook.h"

#define HOOKSET_MAX 4

typedef struct hookset {
	pthread_mutex_t mu;
	_Atomic(tc_ctx *) ctx; /* the owner, read by the hooks inside inflight */
	_Atomic int inflight;
	int ids[HOOKSET_MAX];  /* tc_plthook ids, -1 for none */
} hookset;

#define HOOKSET_INIT { PTHREAD_MUTEX_INITIALIZER, NULL, 0, { -1, -1, -1, -1 } }

/* In a hook: the owner, or NULL when there is none (then the hook only calls on). A
 * non-NULL owner stays valid until hookset_leave. */
tc_ctx *hookset_enter(hookset *h);
void hookset_leave(hookset *h);

/* Takes h for ctx, locked: *cur is its owner before (NULL or ctx). Another owner:
 * TC_RT_EBUSY with "another context traces WHAT", unlocked. */
int hookset_lock(hookset *h, tc_ctx *ctx, tc_ctx **cur, const char *what, tc_rt_error *err);
/* With h locked: replaces its hooks by specs[0..n) (all or none: a reconfigure may name
 * other libraries), makes ctx the owner (none on failure) and unlocks. Logs a warning
 * under tag when no loaded library matching specs[0].libs calls any of them ("no library
 * matching LIBS calls CALLS (yet)"). */
int hookset_install(hookset *h, tc_ctx *ctx, const tc_plthook_spec *specs, size_t n, const char *tag,
                    const char *calls, tc_rt_error *err);
/* Removes ctx's hooks (nothing when another context owns h) and waits for the calls
 * still inside. */
void hookset_uninstall(hookset *h, tc_ctx *ctx);

#endif

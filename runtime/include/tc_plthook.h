/* tc_plthook.h: redirect the calls other shared libraries make to a function
 * they import, by rewriting their GOT slots (a PLT/GOT hook, what Matrix gets
 * from xhook). Built for the tracers that watch libc calls made by the
 * platform's libraries (thread priority: setpriority in every .so; touch lag:
 * sendto/recvfrom in libinput.so).
 *
 * A hook names a symbol, the libraries whose imports of it are redirected
 * (patterns, below) and the replacement. Every loaded object whose name
 * matches gets each of its relocations of that symbol that hold a function
 * address (jump slot, GLOB_DAT, absolute word) pointed at the replacement;
 * objects loaded later get it too, as they appear (dlopen is watched the same
 * way; see runtime/README.md for what Android needs there) or at
 * tc_plthook_refresh. Removing the hook writes each slot's previous value
 * back. Only calls through those objects' GOTs are redirected: calls inside
 * the defining library, or through a pointer taken before the hook, are not.
 *
 * The replacement calls the original through a fixed slot the caller owns,
 * filled before any GOT slot points at the replacement and never cleared:
 *
 *     static _Atomic(tc_plthook_fn) orig_setpriority;
 *     static int my_setpriority(int which, id_t who, int prio)
 *     {
 *         ... record, no lock, no allocation ...
 *         return ((int (*)(int, id_t, int))tc_plthook_orig(&orig_setpriority))(which, who, prio);
 *     }
 *     tc_plthook_spec s = { .libs = "*.so", .symbol = "setpriority",
 *                           .replacement = (tc_plthook_fn)my_setpriority, .orig = &orig_setpriority };
 *     int id; tc_plthook_add(&s, &id, &err);   ...   tc_plthook_remove(id, &err);
 *
 * The original is the value the first patched slot held (for an unbound
 * lazy slot, glibc only, what the linker resolves the name to); should the
 * library it lies in be unloaded, the next object hooked gives a new one.
 * The slot and the replacement must outlive every call in flight: keep them
 * static in a library that is never unloaded. A replacement may run on any thread, in a
 * signal handler too; the engine takes no lock on that path.
 *
 * Process-wide: GOTs are. Thread-safe: one lock around the engine's tables,
 * taken inside dl_iterate_phdr's callback (the loader's lock, then ours), so
 * do not call these functions from an ELF constructor or while holding a lock
 * a dlopen may wait for. The object holding this engine (libtracecanary.so,
 * or a test program) is never patched.
 *
 * Errors: TC_RT_EINVAL (a bad spec, an unknown id), TC_RT_EBUSY (the symbol already
 * has another hook; dlopen, android_dlopen_ext and __loader_dlopen,
 * __loader_android_dlopen_ext are the engine's own), TC_RT_ENOMEM. What happens
 * in each library is not an error of the call: it is counted in
 * tc_plthook_stat (a library that does not import the symbol, a slot that
 * could not be written). */
#ifndef TC_PLTHOOK_H
#define TC_PLTHOOK_H

#include <stdatomic.h>
#include <stddef.h>

#include "tc_rt_error.h" /* the error record and codes alone: nothing of the context API */

#ifdef __cplusplus
extern "C" {
#endif

/* Any function pointer; cast to the real type to call it. */
typedef void (*tc_plthook_fn)(void);

typedef struct tc_plthook_spec {
	/* Which objects: ';'-separated fnmatch(3) patterns. A pattern with a '/'
	 * is matched against the object's path as the loader reports it, one
	 * without against its basename ("libinput.so", "lib*.so", "*"). glibc
	 * reports the main program as "". */
	const char *libs;
	const char *ignore;            /* objects never patched (same syntax), or NULL */
	const char *symbol;            /* the imported function */
	tc_plthook_fn replacement;
	_Atomic(tc_plthook_fn) *orig;  /* the caller's fixed slot for the original */
} tc_plthook_spec;

/* Registers the hook and applies it to every loaded object that matches.
 * The same spec again is a no-op that gives the same id. TC_RT_ENOMEM after
 * *id is set leaves the hook registered, perhaps partly applied: remove it
 * (or refresh). */
int tc_plthook_add(const tc_plthook_spec *spec, int *id, tc_rt_error *err);

/* Writes back every slot the hook changed that still points at its
 * replacement (one rewritten since by someone else is left alone and
 * counted). Removing a removed hook is a no-op; an id never given is
 * TC_RT_EINVAL. Calls already inside the replacement finish there. */
int tc_plthook_remove(int id, tc_rt_error *err);

/* Applies every hook to objects loaded since the last look (those loaded
 * through a dlopen the engine does not see, e.g. one called from the
 * engine's own library). */
int tc_plthook_refresh(tc_rt_error *err);

typedef struct tc_plthook_stat {
	size_t objects;   /* objects with at least one slot pointing at the replacement */
	size_t slots;     /* slots pointing at it */
	size_t lazy;      /* of those, found unbound (glibc lazy binding) when patched */
	size_t failed;    /* slots that could not be written (mprotect refused) */
	size_t skipped;   /* relocations of the symbol not holding its address (addend) */
	size_t foreign;   /* at removal, slots someone else had rewritten: left alone */
	tc_rt_error first_failure;  /* the first failure's message (code TC_RT_OK if none) */
} tc_plthook_stat;

int tc_plthook_stat_get(int id, tc_plthook_stat *st, tc_rt_error *err);

/* The original, for the replacement to call (acquire: the engine stores it
 * with release before any slot points at the replacement). */
static inline tc_plthook_fn tc_plthook_orig(_Atomic(tc_plthook_fn) *orig)
{
	return atomic_load_explicit(orig, memory_order_acquire);
}

#ifdef __cplusplus
}
#endif

#endif

/* plthook.c: the PLT/GOT hook engine (tc_plthook.h).
 *
 * State: the hooks, and one record per loaded object the engine has looked
 * at (its load bias and dynamic section identify it) with the slots it wrote
 * there and the hooks already applied to it. Process-wide by nature (GOTs
 * are), so it is global, behind one mutex.
 *
 * Every look at the objects is a pass of dl_iterate_phdr. Slots are read and
 * written only inside its callback, for the object being visited: the
 * loader cannot unload that object meanwhile (glibc and bionic hold their
 * lock across the callback; musl never unloads). The mutex is taken inside
 * the callback, never held while waiting for the loader: the order is
 * always the loader's lock, then ours, which is also the order of a library
 * constructor that dlopens through a watched dlopen. Objects a pass does not
 * find were unloaded: their records go, unwritten. An object unloaded and
 * loaded again at the same place is recognised by none of its recorded slots
 * pointing at its hook any more, and is hooked afresh.
 *
 * Lazy binding (glibc without -z now): an unbound jump slot points back into
 * its own object's PLT; calling that would bind it over our hook. When no
 * bound slot has given the original, it is what dlsym finds from that object
 * (outside the callback: dlsym takes glibc's load lock, which a dlopen holds
 * while it waits for the lock dl_iterate_phdr holds), and a second pass
 * patches those slots. The saved value stays the PLT address, so removing
 * the hook leaves the slot unbound, as it was.
 *
 * New objects: the engine hooks the dynamic loader's entry points the same
 * way (in every object but its own) and, after the real call returns, makes
 * a pass. Which entry points: on Android 8+ (API 26) __loader_dlopen and
 * __loader_android_dlopen_ext, which libdl.so's dlopen calls with the
 * caller's address, so the proxy passes that address on and the linker picks
 * the caller's namespace, not ours; on API 21-23, dlopen and
 * android_dlopen_ext (no namespaces); on API 24-25 none (namespaces, and
 * only private linker symbols take a caller address): there new libraries
 * wait for tc_plthook_refresh. Elsewhere (glibc, musl) dlopen, and the two
 * __loader_ ones, which only a test's simulated libdl imports. */
/* dl_iterate_phdr, RTLD_NOLOAD: in glibc's headers with _GNU_SOURCE */
#define _GNU_SOURCE 1
#include "tc_plthook.h"
#include "rt_error.h"
#include "try.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __ANDROID__
#include <sys/system_properties.h>
#endif

#include "tc_runtime.h"
#include "plthook_elf.h"

#define MAX_NAME 256        /* a pattern or symbol, with its NUL */
#define MAX_SYMS 8          /* versions of one name in one object */

enum { PATCHED, FAILED, SKIPPED };

struct patch {
	int hook;               /* its id */
	uintptr_t slot, saved;  /* slot 0: the object's tables could not be read */
	unsigned char state;
	bool lazy;
};

struct object {
	uintptr_t base, dyn;
	unsigned long seen;     /* the last pass that found it */
	struct patch *patches;
	size_t npatches, cappatches;
	int *done;              /* hooks applied (or not applicable) here */
	size_t ndone, capdone;
};

struct hook {
	int id;
	bool active, internal;
	char *libs, *ignore, *symbol;
	uintptr_t replacement;
	_Atomic(tc_plthook_fn) *orig;
	bool orig_set;
	bool home_known;        /* the object the original lies in: */
	uintptr_t home_base, home_dyn;
	size_t foreign;
	tc_rt_error first_failure;
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static struct hook *g_hooks;      /* removed ones stay, inactive: their id and stats */
static size_t g_nhooks, g_caphooks;
static struct object *g_objs;
static size_t g_nobjs, g_capobjs;
static int g_next_id = 1;
static unsigned long g_pass;
static size_t g_users;            /* active hooks that are not the engine's own */
static size_t g_pagesz;
static int g_api;                 /* Android API level; 0 elsewhere */

/* ---- the loader's entry points ---- */

static _Atomic(tc_plthook_fn) g_orig_dlopen, g_orig_dlopen_ext, g_orig_loader_dlopen, g_orig_loader_dlopen_ext;
static int apply_all(tc_rt_error *err);

/* A new object may have come: hook it. errno is the caller's (dlopen's). */
static void after_load(void)
{
	int saved = errno;
	apply_all(NULL);
	errno = saved;
}

typedef void *(*dlopen_fn)(const char *, int);
typedef void *(*dlopen_ext_fn)(const char *, int, const void *);
typedef void *(*loader_dlopen_fn)(const char *, int, const void *);
typedef void *(*loader_dlopen_ext_fn)(const char *, int, const void *, const void *);

static void *proxy_dlopen(const char *file, int flags)
{
	dlopen_fn real = (dlopen_fn)tc_plthook_orig(&g_orig_dlopen);
	void *h = real ? real(file, flags) : NULL;
	if (h)
		after_load();
	return h;
}

/* bionic's android_dlopen_ext(const char *, int, const android_dlextinfo *) */
static void *proxy_dlopen_ext(const char *file, int flags, const void *info)
{
	dlopen_ext_fn real = (dlopen_ext_fn)tc_plthook_orig(&g_orig_dlopen_ext);
	void *h = real ? real(file, flags, info) : NULL;
	if (h)
		after_load();
	return h;
}

static void *proxy_loader_dlopen(const char *file, int flags, const void *caller)
{
	loader_dlopen_fn real = (loader_dlopen_fn)tc_plthook_orig(&g_orig_loader_dlopen);
	void *h = real ? real(file, flags, caller) : NULL;
	if (h)
		after_load();
	return h;
}

static void *proxy_loader_dlopen_ext(const char *file, int flags, const void *info, const void *caller)
{
	loader_dlopen_ext_fn real = (loader_dlopen_ext_fn)tc_plthook_orig(&g_orig_loader_dlopen_ext);
	void *h = real ? real(file, flags, info, caller) : NULL;
	if (h)
		after_load();
	return h;
}

static const struct monitor {
	const char *symbol;
	tc_plthook_fn proxy;
	_Atomic(tc_plthook_fn) *orig;
	bool loader;            /* a __loader_ entry point (Android 8+) */
} monitors[] = {
	{ "dlopen", (tc_plthook_fn)proxy_dlopen, &g_orig_dlopen, false },
	{ "android_dlopen_ext", (tc_plthook_fn)proxy_dlopen_ext, &g_orig_dlopen_ext, false },
	{ "__loader_dlopen", (tc_plthook_fn)proxy_loader_dlopen, &g_orig_loader_dlopen, true },
	{ "__loader_android_dlopen_ext", (tc_plthook_fn)proxy_loader_dlopen_ext, &g_orig_loader_dlopen_ext, true },
};
#define NMONITORS (sizeof monitors / sizeof monitors[0])

static bool monitor_wanted(const struct monitor *m)
{
	if (g_api == 0)
		return true;
	if (g_api >= 26)
		return m->loader;
	return g_api <= 23 && !m->loader;
}

static void init(void)
{
	long p = sysconf(_SC_PAGESIZE);
	g_pagesz = p > 0 ? (size_t)p : 4096;
#ifdef __ANDROID__
	char v[PROP_VALUE_MAX] = "";
	__system_property_get("ro.build.version.sdk", v);
	g_api = atoi(v);
	if (g_api <= 0)
		g_api = 21;
#endif
}

/* ---- tables (g_mu held) ---- */

static struct hook *hook_by_id(int id)
{
	for (size_t i = 0; i < g_nhooks; i++)
		if (g_hooks[i].id == id)
			return &g_hooks[i];
	return NULL;
}

static bool grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : 8;
	while (n < need)
		n *= 2;
	void *p = realloc(*v, n * size);
	if (!p)
		return false;
	*v = p;
	*cap = n;
	return true;
}

static struct object *object_for(uintptr_t base, uintptr_t dyn)
{
	for (size_t i = 0; i < g_nobjs; i++)
		if (g_objs[i].base == base && g_objs[i].dyn == dyn)
			return &g_objs[i];
	if (!grow((void **)&g_objs, &g_capobjs, g_nobjs + 1, sizeof *g_objs))
		return NULL;
	struct object *o = &g_objs[g_nobjs++];
	memset(o, 0, sizeof *o);
	o->base = base;
	o->dyn = dyn;
	return o;
}

static void object_clear(struct object *o)
{
	free(o->patches);
	free(o->done);
	o->patches = NULL;
	o->done = NULL;
	o->npatches = o->cappatches = o->ndone = o->capdone = 0;
}

static bool is_done(const struct object *o, int id)
{
	for (size_t i = 0; i < o->ndone; i++)
		if (o->done[i] == id)
			return true;
	return false;
}

static bool mark_done(struct object *o, int id)
{
	if (!grow((void **)&o->done, &o->capdone, o->ndone + 1, sizeof *o->done))
		return false;
	o->done[o->ndone++] = id;
	return true;
}

static const struct patch *patch_of(const struct object *o, int id, uintptr_t slot)
{
	for (size_t i = 0; i < o->npatches; i++)
		if (o->patches[i].hook == id && o->patches[i].slot == slot)
			return &o->patches[i];
	return NULL;
}

static void note_failure(struct hook *h, const tc_rt_error *e)
{
	if (h->first_failure.code == TC_RT_OK)
		h->first_failure = *e;
}

/* Objects the pass seq did not find were unloaded (a pass that started
 * later and found an object has stamped it with a larger number). */
static void forget(unsigned long seq)
{
	size_t k = 0;
	for (size_t i = 0; i < g_nobjs; i++) {
		if (g_objs[i].seen < seq)
			object_clear(&g_objs[i]);
		else
			g_objs[k++] = g_objs[i];
	}
	g_nobjs = k;
}

/* An object loaded again where an unloaded one was: none of its recorded
 * slots holds its hook's replacement any more. */
static void forget_if_reloaded(struct object *o)
{
	bool any = false;
	for (size_t i = 0; i < o->npatches; i++) {
		const struct patch *p = &o->patches[i];
		if (p->state != PATCHED)
			continue;
		const struct hook *h = hook_by_id(p->hook);
		if (!h)
			continue;
		if (__atomic_load_n((const uintptr_t *)p->slot, __ATOMIC_RELAXED) == h->replacement)
			return;
		any = true;
	}
	if (any)
		object_clear(o);
}

/* ---- names ---- */

/* fnmatch against the path if the pattern has a '/', else the basename */
static bool matches(const char *list, const char *path)
{
	if (!list)
		return false;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	char pat[MAX_NAME];
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ";");
		if (n > 0 && n < sizeof pat) {
			memcpy(pat, p, n);
			pat[n] = '\0';
			if (fnmatch(pat, memchr(pat, '/', n) ? path : base, 0) == 0)
				return true;
		}
		p += n;
		if (*p == ';')
			p++;
	}
	return false;
}

static int check_list(const char *list, const char *what, tc_rt_error *err)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ";");
		if (n >= MAX_NAME)
			return tc_rt_set(err, TC_RT_EINVAL, "PLT hook: a pattern of %s is longer than %d bytes", what,
			               MAX_NAME - 1);
		p += n;
		if (*p == ';')
			p++;
	}
	return TC_RT_OK;
}

/* ---- writing a slot ---- */

/* The protection the page holding addr has now, from /proc/self/maps: the
 * loader made RELRO read-only (glibc rounds its end down to a page, bionic
 * up), another hook may have left it writable; the ELF headers cannot say. */
static int page_prot(uintptr_t addr, int *prot, tc_rt_error *err)
{
	int fd;
	do
		fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return tc_rt_set(err, TC_RT_EIO, "PLT hook: open /proc/self/maps: %s", strerror(errno));
	char buf[4096], head[96];
	size_t hn = 0;
	bool found = false;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n && !found; i++) {
			if (buf[i] != '\n') {
				if (hn < sizeof head - 1)
					head[hn++] = buf[i];
				continue;
			}
			/* "start-end perms offset dev inode path" */
			head[hn] = '\0';
			hn = 0;
			char *e;
			unsigned long long lo = strtoull(head, &e, 16), hi;
			if (*e != '-')
				continue;
			hi = strtoull(e + 1, &e, 16);
			if (*e != ' ' || strlen(e + 1) < 3 || addr < lo || addr >= hi)
				continue;
			*prot = (e[1] == 'r' ? PROT_READ : 0) | (e[2] == 'w' ? PROT_WRITE : 0) |
			        (e[3] == 'x' ? PROT_EXEC : 0);
			found = true;
		}
		if (found)
			break;
	}
	close(fd);
	if (!found)
		return tc_rt_set(err, TC_RT_EIO, "PLT hook: %#lx is not in /proc/self/maps", (unsigned long)addr);
	return TC_RT_OK;
}

struct protcache {
	uintptr_t page;
	int prot;
	bool valid;
};

/* One aligned word, stored at once (threads may be calling through it),
 * the page made writable around the store if it was not. */
static int write_slot(uintptr_t slot, uintptr_t value, struct protcache *pc, tc_rt_error *err)
{
	uintptr_t page = slot & ~(uintptr_t)(g_pagesz - 1);
	if (!pc->valid || pc->page != page) {
		TRY(page_prot(slot, &pc->prot, err));
		pc->page = page;
		pc->valid = true;
	}
	bool ro = !(pc->prot & PROT_WRITE);
	if (ro && mprotect((void *)page, g_pagesz, pc->prot | PROT_WRITE) != 0)
		return tc_rt_set(err, TC_RT_EIO, "PLT hook: mprotect(%#lx, +PROT_WRITE): %s", (unsigned long)page,
		               strerror(errno));
	__atomic_store_n((uintptr_t *)slot, value, __ATOMIC_SEQ_CST);
	/* A GOT word is data, fetched by a load: no instruction-cache
	 * maintenance is needed for it on any of these machines. Flushed anyway,
	 * as xhook does on ARM, for the day a slot shares a line with code that
	 * is rewritten; a no-op on x86. */
	__builtin___clear_cache((char *)slot, (char *)(slot + sizeof(uintptr_t)));
	if (ro && mprotect((void *)page, g_pagesz, pc->prot) != 0)
		return tc_rt_set(err, TC_RT_EIO, "PLT hook: mprotect(%#lx) back: %s (the slot is written, the page left writable)",
		               (unsigned long)page, strerror(errno));
	return TC_RT_OK;
}

static uintptr_t load_slot(uintptr_t slot)
{
	return __atomic_load_n((const uintptr_t *)slot, __ATOMIC_RELAXED);
}

/* ---- where the original lives ---- */

struct home {
	uintptr_t addr, base, dyn;
	bool found;
};

static int home_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct home *h = arg;
	bool in = false;
	uintptr_t dyn = 0;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t s = info->dlpi_addr + (uintptr_t)ph->p_vaddr;
		if (ph->p_type == PT_LOAD && h->addr >= s && h->addr - s < ph->p_memsz)
			in = true;
		if (ph->p_type == PT_DYNAMIC)
			dyn = s;
	}
	if (!in)
		return 0;
	h->base = info->dlpi_addr;
	h->dyn = dyn;
	h->found = true;
	return 1;
}

/* The loaded object holding addr, as (load bias, dynamic section). Inside a
 * dl_iterate_phdr callback too: the loaders' locks are recursive (musl
 * takes none across callbacks). */
static bool home_of(uintptr_t addr, uintptr_t *base, uintptr_t *dyn)
{
	struct home h = { addr, 0, 0, false };
	dl_iterate_phdr(home_cb, &h);
	*base = h.base;
	*dyn = h.dyn;
	return h.found;
}

/* g_mu held; home as found by home_of */
static void set_orig(struct hook *h, uintptr_t value, bool known, uintptr_t base, uintptr_t dyn)
{
	atomic_store_explicit(h->orig, (tc_plthook_fn)value, memory_order_release);
	h->orig_set = true;
	h->home_known = known;
	h->home_base = base;
	h->home_dyn = dyn;
}

/* The original's library unloaded (and maybe loaded again elsewhere, with
 * the object being hooked again now): the saved address would lead into
 * whatever is there. A new original is then taken as at first. The same
 * library loaded again at the same place has the function where it was. */
static void check_orig(struct hook *h)
{
	uintptr_t base, dyn;
	if (!h->orig_set || !h->home_known)
		return;
	uintptr_t orig = (uintptr_t)atomic_load_explicit(h->orig, memory_order_relaxed);
	if (!home_of(orig, &base, &dyn) || base != h->home_base || dyn != h->home_dyn)
		h->orig_set = h->home_known = false;
}

/* ---- applying a hook to one object (g_mu held, inside the callback) ---- */

struct cand {
	pe_slot s;
	uintptr_t value;
};

struct cands {
	struct cand *v;
	size_t n, cap;
};

static int collect(void *arg, const pe_slot *s)
{
	struct cands *c = arg;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].s.addr == s->addr)
			return TC_RT_OK;
	if (!grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v))
		return TC_RT_ENOMEM;
	c->v[c->n].s = *s;
	c->v[c->n].value = 0;
	c->n++;
	return TC_RT_OK;
}

/* what apply leaves to do: nothing; look again at the next pass; resolve
 * the original with dlsym, then look again */
enum { A_DONE, A_AGAIN, A_LAZY };

/* An unbound lazy jump slot points into its own object's PLT (its text),
 * not at the symbol's own definition there. */
static bool unbound(const pe_object *pe, const struct cand *c)
{
	return c->s.kind == PE_JUMP_SLOT && c->value != c->s.defined && pe_inside(pe, c->value, 1, PF_X);
}

/* A slot the loader has not relocated yet (glibc lists an object before it
 * relocates it): a link-time PLT address, not moved by the bias. */
static bool unrelocated(const pe_object *pe, const struct cand *c)
{
	return c->s.kind == PE_JUMP_SLOT && pe->bias != 0 && c->value + pe->bias >= c->value &&
	       pe_inside(pe, c->value + pe->bias, 1, PF_X) && !pe_inside(pe, c->value, 1, 0);
}

static int apply(struct object *ob, const pe_object *pe, struct hook *h, int *rc)
{
	uint32_t idx[MAX_SYMS];
	size_t n;
	tc_rt_error e = { 0 };
	struct cands c = { NULL, 0, 0 };
	int r = pe_lookup(pe, h->symbol, idx, MAX_SYMS, &n, &e);
	if (r == TC_RT_OK)
		r = pe_each_slot(pe, idx, n, collect, &c, &e);
	if (r == TC_RT_ENOMEM) {
		free(c.v);
		*rc = TC_RT_ENOMEM;
		return A_AGAIN;
	}
	if (r < 0) {
		/* malformed tables: one failure for the object */
		free(c.v);
		note_failure(h, &e);
		if (!grow((void **)&ob->patches, &ob->cappatches, ob->npatches + 1, sizeof *ob->patches)) {
			*rc = TC_RT_ENOMEM;
			return A_AGAIN;
		}
		ob->patches[ob->npatches++] = (struct patch){ h->id, 0, 0, FAILED, false };
		return A_DONE;
	}
	if (c.n == 0) {
		free(c.v);
		return A_DONE; /* not imported here */
	}
	/* room for every record first: a written slot must never lack one */
	if (!grow((void **)&ob->patches, &ob->cappatches, ob->npatches + c.n, sizeof *ob->patches)) {
		free(c.v);
		*rc = TC_RT_ENOMEM;
		return A_AGAIN;
	}

	/* the first bound slot gives the original */
	check_orig(h);
	uintptr_t ref = h->orig_set ? (uintptr_t)atomic_load_explicit(h->orig, memory_order_relaxed) : 0;
	for (size_t i = 0; i < c.n; i++) {
		struct cand *k = &c.v[i];
		k->value = load_slot(k->s.addr);
		if (unrelocated(pe, k)) {
			free(c.v);
			return A_AGAIN;
		}
		/* a word known to hold exactly the address: no addend (a REL
		 * absolute word's is implicit, unknown) */
		bool exact = !(k->s.has_addend && k->s.addend != 0) && (k->s.kind != PE_ABS || k->s.has_addend);
		if (!ref && k->value && k->value != h->replacement && !unbound(pe, k) && exact)
			ref = k->value;
	}
	if (!h->orig_set && ref) {
		uintptr_t base, dyn;
		bool known = home_of(ref, &base, &dyn);
		set_orig(h, ref, known, base, dyn);
	}

	int result = A_DONE;
	struct protcache pc = { 0, 0, false };
	for (size_t i = 0; i < c.n; i++) {
		struct cand *k = &c.v[i];
		if (patch_of(ob, h->id, k->s.addr))
			continue;
		struct patch *p = &ob->patches[ob->npatches];
		*p = (struct patch){ h->id, k->s.addr, k->value, PATCHED, false };
		if (k->value == 0 || k->value == h->replacement) {
			/* not bound yet (a weak import, or an object being loaded), or
			 * still ours from a hook being removed: look again later */
			if (result == A_DONE)
				result = A_AGAIN;
			continue;
		}
		if ((k->s.has_addend && k->s.addend != 0) ||
		    (k->s.kind == PE_ABS && !k->s.has_addend && k->value != ref)) {
			/* a word holding the function's address plus something */
			p->state = SKIPPED;
			ob->npatches++;
			continue;
		}
		if (unbound(pe, k)) {
			if (!h->orig_set) {
				result = A_LAZY;
				continue;
			}
			p->lazy = true;
		}
		if (write_slot(k->s.addr, h->replacement, &pc, &e) < 0) {
			note_failure(h, &e);
			p->state = FAILED;
		}
		ob->npatches++;
	}
	free(c.v);
	return result;
}

/* Puts back the slots of the hooks being removed (g_mu held). */
static void restore(struct object *ob, const int *ids, size_t nids)
{
	struct protcache pc = { 0, 0, false };
	for (size_t i = 0; i < ob->npatches; i++) {
		struct patch *p = &ob->patches[i];
		size_t k = 0;
		while (k < nids && ids[k] != p->hook)
			k++;
		if (k == nids || p->state != PATCHED)
			continue;
		struct hook *h = hook_by_id(p->hook);
		tc_rt_error e;
		if (load_slot(p->slot) != h->replacement)
			h->foreign++;
		else if (write_slot(p->slot, p->saved, &pc, &e) < 0)
			note_failure(h, &e);
	}
}

static void drop_records(struct object *ob, const int *ids, size_t nids)
{
	size_t w = 0;
	for (size_t i = 0; i < ob->npatches; i++) {
		size_t k = 0;
		while (k < nids && ids[k] != ob->patches[i].hook)
			k++;
		if (k == nids)
			ob->patches[w++] = ob->patches[i];
	}
	ob->npatches = w;
	w = 0;
	for (size_t i = 0; i < ob->ndone; i++) {
		size_t k = 0;
		while (k < nids && ids[k] != ob->done[i])
			k++;
		if (k == nids)
			ob->done[w++] = ob->done[i];
	}
	ob->ndone = w;
}

/* ---- passes ---- */

enum { APPLY, RESTORE };

/* APPLY: a hook whose original must come from dlsym, and from where */
struct lazy {
	int hook;
	char *path, *symbol;
};

struct pass {
	int mode;
	unsigned long seq;
	const int *ids;         /* RESTORE: the hooks being removed */
	size_t nids;
	int rc;
	struct lazy *lazy;      /* one per hook */
	size_t nlazy, caplazy;
};

/* The engine's own object is never patched. */
static bool holds_self(const struct dl_phdr_info *info)
{
	uintptr_t me = (uintptr_t)&holds_self;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t s = info->dlpi_addr + (uintptr_t)ph->p_vaddr;
		if (ph->p_type == PT_LOAD && me >= s && me - s < ph->p_memsz)
			return true;
	}
	return false;
}

static void want_original(struct pass *p, const struct hook *h, const char *path)
{
	for (size_t i = 0; i < p->nlazy; i++)
		if (p->lazy[i].hook == h->id)
			return;
	if (!grow((void **)&p->lazy, &p->caplazy, p->nlazy + 1, sizeof *p->lazy)) {
		p->rc = TC_RT_ENOMEM;
		return;
	}
	struct lazy *l = &p->lazy[p->nlazy];
	l->hook = h->id;
	l->path = strdup(path);
	l->symbol = strdup(h->symbol);
	if (!l->path || !l->symbol) {
		free(l->path);
		free(l->symbol);
		p->rc = TC_RT_ENOMEM;
		return;
	}
	p->nlazy++;
}

static int visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct pass *p = arg;
	const ElfW(Phdr) *dynph = NULL;
	for (size_t i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dynph = &info->dlpi_phdr[i];
	if (!dynph || holds_self(info))
		return 0;
	const char *name = info->dlpi_name ? info->dlpi_name : "";
	uintptr_t dyn = info->dlpi_addr + (uintptr_t)dynph->p_vaddr;

	pthread_mutex_lock(&g_mu);
	struct object *ob = object_for(info->dlpi_addr, dyn);
	if (!ob) {
		p->rc = TC_RT_ENOMEM;
		pthread_mutex_unlock(&g_mu);
		return 0;
	}
	if (ob->seen < p->seq)
		ob->seen = p->seq;
	if (p->mode == RESTORE) {
		restore(ob, p->ids, p->nids);
		pthread_mutex_unlock(&g_mu);
		return 0;
	}
	forget_if_reloaded(ob);
	pe_object pe;
	tc_rt_error e = { 0 };
	int opened = 1; /* 1: not yet */
	for (size_t i = 0; i < g_nhooks; i++) {
		struct hook *h = &g_hooks[i];
		if (!h->active || is_done(ob, h->id))
			continue;
		if (!matches(h->libs, name) || matches(h->ignore, name)) {
			if (!mark_done(ob, h->id))
				p->rc = TC_RT_ENOMEM;
			continue;
		}
		if (opened == 1)
			opened = pe_open(&pe, info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, &e);
		int a;
		if (opened < 0) {
			note_failure(h, &e);
			if (grow((void **)&ob->patches, &ob->cappatches, ob->npatches + 1, sizeof *ob->patches))
				ob->patches[ob->npatches++] = (struct patch){ h->id, 0, 0, FAILED, false };
			a = A_DONE;
		} else {
			a = apply(ob, &pe, h, &p->rc);
		}
		if (a == A_DONE && !mark_done(ob, h->id))
			p->rc = TC_RT_ENOMEM;
		if (a == A_LAZY)
			want_original(p, h, name);
	}
	pthread_mutex_unlock(&g_mu);
	return 0;
}

static int run_pass(struct pass *p)
{
	pthread_mutex_lock(&g_mu);
	p->seq = ++g_pass;
	pthread_mutex_unlock(&g_mu);
	dl_iterate_phdr(visit, p);
	pthread_mutex_lock(&g_mu);
	forget(p->seq);
	pthread_mutex_unlock(&g_mu);
	return p->rc;
}

/* The original of a lazily bound import: what the object's own lookup
 * would find, outside any loader callback. */
static uintptr_t resolve(const char *path, const char *symbol)
{
	void *h = dlopen(path[0] ? path : NULL, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return 0;
	uintptr_t f = (uintptr_t)dlsym(h, symbol);
	dlclose(h);
	return f;
}

/* A pass, then, while it found unbound slots of hooks with no original
 * yet, the originals from dlsym and another pass (each round gives at least
 * one hook its original, or ends). */
static int apply_all(tc_rt_error *err)
{
	for (;;) {
		struct pass p;
		memset(&p, 0, sizeof p);
		p.mode = APPLY;
		int rc = run_pass(&p);
		bool progress = false;
		for (size_t i = 0; i < p.nlazy; i++) {
			uintptr_t f = rc == TC_RT_OK ? resolve(p.lazy[i].path, p.lazy[i].symbol) : 0;
			free(p.lazy[i].path);
			free(p.lazy[i].symbol);
			if (!f)
				continue;
			uintptr_t base, dyn;
			bool known = home_of(f, &base, &dyn); /* before g_mu: the loader's lock first */
			pthread_mutex_lock(&g_mu);
			struct hook *h = hook_by_id(p.lazy[i].hook);
			if (h && h->active && !h->orig_set) {
				set_orig(h, f, known, base, dyn);
				progress = true;
			}
			pthread_mutex_unlock(&g_mu);
		}
		free(p.lazy);
		if (rc < 0)
			return tc_rt_set(err, rc, "PLT hook: out of memory");
		if (!progress)
			return TC_RT_OK;
	}
}

/* ---- the API ---- */

static bool same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static void hook_free_strings(struct hook *h)
{
	free(h->libs);
	free(h->ignore);
	free(h->symbol);
	h->libs = h->ignore = h->symbol = NULL;
}

/* g_mu held */
static struct hook *hook_new(const char *libs, const char *ignore, const char *symbol, tc_plthook_fn fn,
                             _Atomic(tc_plthook_fn) *orig, bool internal)
{
	if (!grow((void **)&g_hooks, &g_caphooks, g_nhooks + 1, sizeof *g_hooks))
		return NULL;
	struct hook *h = &g_hooks[g_nhooks];
	memset(h, 0, sizeof *h);
	h->libs = strdup(libs);
	h->ignore = ignore ? strdup(ignore) : NULL;
	h->symbol = strdup(symbol);
	if (!h->libs || !h->symbol || (ignore && !h->ignore)) {
		hook_free_strings(h);
		return NULL;
	}
	h->id = g_next_id++;
	h->active = true;
	h->internal = internal;
	h->replacement = (uintptr_t)fn;
	h->orig = orig;
	g_nhooks++;
	return h;
}

int tc_plthook_add(const tc_plthook_spec *spec, int *id, tc_rt_error *err)
{
	if (!spec || !id || !spec->libs || !spec->symbol || !spec->symbol[0] || !spec->replacement || !spec->orig)
		return tc_rt_set(err, TC_RT_EINVAL, "PLT hook: libs, symbol, replacement and orig are required");
	if (strlen(spec->symbol) >= MAX_NAME)
		return tc_rt_set(err, TC_RT_EINVAL, "PLT hook: symbol name longer than %d bytes", MAX_NAME - 1);
	TRY(check_list(spec->libs, "libs", err));
	if (spec->ignore)
		TRY(check_list(spec->ignore, "ignore", err));
	if (!PE_SUPPORTED)
		return tc_rt_set(err, TC_RT_EINVAL, "PLT hooks: relocation types of this machine are not known");
	for (size_t i = 0; i < NMONITORS; i++)
		if (strcmp(spec->symbol, monitors[i].symbol) == 0)
			return tc_rt_set(err, TC_RT_EBUSY, "PLT hook: %s is the engine's own (it watches new libraries)",
			               spec->symbol);
	pthread_once(&g_once, init);

	pthread_mutex_lock(&g_mu);
	for (size_t i = 0; i < g_nhooks; i++) {
		struct hook *h = &g_hooks[i];
		if (!h->active || strcmp(h->symbol, spec->symbol) != 0)
			continue;
		bool again = same(h->libs, spec->libs) && same(h->ignore, spec->ignore) &&
		             h->replacement == (uintptr_t)spec->replacement && h->orig == spec->orig;
		int other = h->id;
		pthread_mutex_unlock(&g_mu);
		if (!again)
			return tc_rt_set(err, TC_RT_EBUSY, "PLT hook: %s already has another hook (%d)", spec->symbol, other);
		*id = other;
		return TC_RT_OK;
	}
	struct hook *h = hook_new(spec->libs, spec->ignore, spec->symbol, spec->replacement, spec->orig, false);
	if (!h) {
		pthread_mutex_unlock(&g_mu);
		return tc_rt_set(err, TC_RT_ENOMEM, "PLT hook: out of memory");
	}
	*id = h->id;
	if (g_users++ == 0) {
		/* the first hook: watch the loader too */
		for (size_t i = 0; i < NMONITORS; i++)
			if (monitor_wanted(&monitors[i]) &&
			    !hook_new("*", NULL, monitors[i].symbol, monitors[i].proxy, monitors[i].orig, true)) {
				pthread_mutex_unlock(&g_mu);
				return tc_rt_set(err, TC_RT_ENOMEM, "PLT hook: out of memory");
			}
	}
	pthread_mutex_unlock(&g_mu);
	return apply_all(err);
}

int tc_plthook_remove(int id, tc_rt_error *err)
{
	int ids[1 + NMONITORS];
	size_t nids = 0;
	pthread_mutex_lock(&g_mu);
	struct hook *h = hook_by_id(id);
	if (!h || h->internal) {
		pthread_mutex_unlock(&g_mu);
		return tc_rt_set(err, TC_RT_EINVAL, "PLT hook: no hook %d", id);
	}
	if (!h->active) {
		pthread_mutex_unlock(&g_mu);
		return TC_RT_OK;
	}
	h->active = false;
	ids[nids++] = id;
	if (--g_users == 0) {
		/* the last one: stop watching the loader */
		for (size_t i = 0; i < g_nhooks; i++)
			if (g_hooks[i].internal && g_hooks[i].active) {
				g_hooks[i].active = false;
				ids[nids++] = g_hooks[i].id;
			}
	}
	pthread_mutex_unlock(&g_mu);

	struct pass p;
	memset(&p, 0, sizeof p);
	p.mode = RESTORE;
	p.ids = ids;
	p.nids = nids;
	run_pass(&p);

	pthread_mutex_lock(&g_mu);
	for (size_t i = 0; i < g_nobjs; i++)
		drop_records(&g_objs[i], ids, nids);
	/* the records are gone; ids and statistics stay */
	size_t k = 0;
	for (size_t i = 0; i < g_nhooks; i++) {
		struct hook *x = &g_hooks[i];
		bool gone = false;
		for (size_t j = 0; j < nids; j++)
			gone |= x->id == ids[j];
		if (gone)
			hook_free_strings(x);
		if (gone && x->internal)
			continue; /* the engine's own are made afresh */
		g_hooks[k++] = *x;
	}
	g_nhooks = k;
	pthread_mutex_unlock(&g_mu);
	return TC_RT_OK;
}

int tc_plthook_refresh(tc_rt_error *err)
{
	pthread_once(&g_once, init);
	return apply_all(err);
}

int tc_plthook_stat_get(int id, tc_plthook_stat *st, tc_rt_error *err)
{
	memset(st, 0, sizeof *st);
	pthread_mutex_lock(&g_mu);
	struct hook *h = hook_by_id(id);
	if (!h || h->internal) {
		pthread_mutex_unlock(&g_mu);
		return tc_rt_set(err, TC_RT_EINVAL, "PLT hook: no hook %d", id);
	}
	for (size_t i = 0; i < g_nobjs; i++) {
		bool any = false;
		for (size_t j = 0; j < g_objs[i].npatches; j++) {
			const struct patch *p = &g_objs[i].patches[j];
			if (p->hook != id)
				continue;
			if (p->state == PATCHED) {
				st->slots++;
				st->lazy += p->lazy;
				any = true;
			}
			st->failed += p->state == FAILED;
			st->skipped += p->state == SKIPPED;
		}
		st->objects += any;
	}
	st->foreign = h->foreign;
	st->first_failure = h->first_failure;
	pthread_mutex_unlock(&g_mu);
	return TC_RT_OK;
}

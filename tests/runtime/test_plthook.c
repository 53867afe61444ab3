/* PLT/GOT hooks (tc_plthook.h) on libraries of our own (plthook/): a caller
 * library importing tc_target_add from a target library, linked the ways a
 * library can be; the hook counts its calls and calls the original through
 * its slot. Each test runs in a process of its own (Criterion, minicrit), so
 * every test starts with nothing hooked. Built three ways: here (Criterion),
 * with ThreadSanitizer (minicrit; the concurrent test is the point there),
 * and for armhf, arm64, i686 and musl by cross.sh (minicrit, under qemu). */
/* dladdr: in glibc's <dlfcn.h> with _GNU_SOURCE */
#define _GNU_SOURCE 1
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tc_plthook.h"

typedef int (*add_fn)(int, int);

/* what caller.c exports */
struct lib {
	void *h;
	int (*add)(int, int);
	int (*sub)(int, int);
	add_fn (*addr)(void);
	int (*add_table)(int, int);
	add_fn (*table_entry)(void);
	const void *(*table_addr)(void);
};

static const char *path_of(const char *name)
{
	static char buf[4096];
	const char *dir = getenv("TC_PLTHOOK_LIBS");
	cr_assert_not_null(dir, "TC_PLTHOOK_LIBS (the directory of the test libraries) is not set");
	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	return buf;
}

/* dlsym into a function pointer (POSIX: same representation) */
static void get(void *h, const char *name, void *fn, size_t size)
{
	void *p = dlsym(h, name);
	cr_assert_not_null(p, "dlsym %s: %s", name, dlerror());
	cr_assert_eq(size, sizeof p);
	memcpy(fn, &p, size);
}

static void bind_lib(struct lib *l, void *h)
{
	cr_assert_not_null(h, "dlopen: %s", dlerror());
	memset(l, 0, sizeof *l);
	l->h = h;
	get(h, "caller_add", &l->add, sizeof l->add);
	if (dlsym(h, "caller_sub")) { /* caller.c, not caller_plt.c */
		get(h, "caller_sub", &l->sub, sizeof l->sub);
		get(h, "caller_addr", &l->addr, sizeof l->addr);
		get(h, "caller_add_table", &l->add_table, sizeof l->add_table);
		get(h, "caller_table_entry", &l->table_entry, sizeof l->table_entry);
		get(h, "caller_table_addr", &l->table_addr, sizeof l->table_addr);
	}
}

static void open_lib(struct lib *l, const char *name, int flags)
{
	bind_lib(l, dlopen(path_of(name), flags | RTLD_LOCAL));
}

/* libtc_hookloader.so */
static void *(*loader_open)(const char *, int);
static void *(*loader_open_as_libdl)(const char *, int);
static const void *(*loader_last_caller)(void);

static void open_loader(void)
{
	void *h = dlopen(path_of("libtc_hookloader.so"), RTLD_NOW | RTLD_LOCAL);
	cr_assert_not_null(h, "dlopen: %s", dlerror());
	get(h, "loader_open", &loader_open, sizeof loader_open);
	get(h, "loader_open_as_libdl", &loader_open_as_libdl, sizeof loader_open_as_libdl);
	get(h, "loader_last_caller", &loader_last_caller, sizeof loader_last_caller);
}

/* libtc_hooktarget.so, loaded as a caller's dependency (the handle is
 * closed again: the tests unload it) */
static void *target(void)
{
	void *h = dlopen(path_of("libtc_hooktarget.so"), RTLD_NOW | RTLD_NOLOAD);
	cr_assert_not_null(h, "the target library is not loaded");
	return h;
}

static uintptr_t target_add(void)
{
	void *h = target();
	uintptr_t f = (uintptr_t)dlsym(h, "tc_target_add");
	dlclose(h);
	return f;
}

static int target_calls(void)
{
	void *h = target();
	int (*f)(void);
	get(h, "tc_target_calls", &f, sizeof f);
	int n = f();
	dlclose(h);
	return n;
}

/* Android 8+'s linker entry point, played by this program for loader.c's
 * libdl-like dlopen: it gets the caller's address and loads */
void *__loader_dlopen(const char *path, int flags, const void *caller);
static atomic_int loader_calls;
static _Atomic(const void *) loader_caller;

void *__loader_dlopen(const char *path, int flags, const void *caller)
{
	atomic_fetch_add(&loader_calls, 1);
	atomic_store(&loader_caller, caller);
	return dlopen(path, flags);
}

/* the hook */
static _Atomic(tc_plthook_fn) orig_add;
static atomic_int hooked;

static int hook_add(int a, int b)
{
	atomic_fetch_add(&hooked, 1);
	return ((add_fn)tc_plthook_orig(&orig_add))(a, b);
}

static int hook_other(int a, int b)
{
	return a * b;
}

static tc_plthook_spec spec_for(const char *libs)
{
	tc_plthook_spec s = { libs, NULL, "tc_target_add", (tc_plthook_fn)hook_add, &orig_add };
	return s;
}

static int add_hook(const char *libs)
{
	tc_plthook_spec s = spec_for(libs);
	tc_rt_error e = { 0 };
	int id = -1;
	cr_assert_eq(tc_plthook_add(&s, &id, &e), TC_RT_OK, "%s", e.message);
	cr_assert_gt(id, 0);
	return id;
}

static void remove_hook(int id)
{
	tc_rt_error e = { 0 };
	cr_assert_eq(tc_plthook_remove(id, &e), TC_RT_OK, "%s", e.message);
}

static tc_plthook_stat stat_of(int id)
{
	tc_plthook_stat st;
	tc_rt_error e = { 0 };
	cr_assert_eq(tc_plthook_stat_get(id, &st, &e), TC_RT_OK, "%s", e.message);
	return st;
}

/* the page protection /proc/self/maps shows for addr */
static int prot_of(const void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	cr_assert_not_null(f);
	char line[8192];
	int prot = -1;
	while (prot < 0 && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		char perms[8];
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && (uintptr_t)addr >= lo &&
		    (uintptr_t)addr < hi)
			prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
			       (perms[2] == 'x' ? PROT_EXEC : 0);
	}
	fclose(f);
	cr_assert_geq(prot, 0, "%p is not mapped", addr);
	return prot;
}

/* caller.c's slots: the GLOB_DAT of the address, the word in .data.rel.ro,
 * and the jump slot of the call, unless the linker routes the call through
 * the GLOB_DAT slot (GNU ld on x86 does, .plt.got, when the address is also
 * taken): 2 or 3 */
static void caller_slots(const tc_plthook_stat *st, size_t objects)
{
	cr_assert_eq(st->objects, objects);
	cr_assert_geq(st->slots, 2 * objects);
	cr_assert_leq(st->slots, 3 * objects);
	cr_assert_eq(st->failed, 0, "%s", st->first_failure.message);
	cr_assert_eq(st->skipped, 0);
}

static bool lazy_binding(void)
{
#ifdef __GLIBC__
	const char *now = getenv("LD_BIND_NOW");
	return !now || !*now;
#else
	return false; /* musl binds every slot at load */
#endif
}

Test(plthook, plt_got_and_data_slots_call_the_hook_then_the_original)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_now.so", RTLD_NOW);
	uintptr_t real = target_add();
	cr_assert_eq((uintptr_t)l.addr(), real);

	int id = add_hook("libtc_hookcaller_now.so");
	tc_plthook_stat st = stat_of(id);
	caller_slots(&st, 1);
	cr_assert_eq((uintptr_t)tc_plthook_orig(&orig_add), real);

	int before = target_calls();
	cr_assert_eq(l.add(2, 3), 5);
	cr_assert_eq(atomic_load(&hooked), 1);
	cr_assert_eq(target_calls(), before + 1, "the original ran behind the hook");
	cr_assert_eq((uintptr_t)l.addr(), (uintptr_t)hook_add);
	cr_assert_eq((uintptr_t)l.table_entry(), (uintptr_t)hook_add);
	cr_assert_eq(l.add_table(4, 5), 9);
	cr_assert_eq(atomic_load(&hooked), 2);
	cr_assert_eq(l.sub(5, 3), 2, "another import of the same library");
	cr_assert_eq(atomic_load(&hooked), 2);

	remove_hook(id);
	st = stat_of(id);
	cr_assert_eq(st.slots, 0);
	cr_assert_eq(st.objects, 0);
	cr_assert_eq(st.foreign, 0);
	cr_assert_eq(l.add(1, 1), 2);
	cr_assert_eq(l.add_table(1, 2), 3);
	cr_assert_eq(atomic_load(&hooked), 2);
	cr_assert_eq((uintptr_t)l.addr(), real, "unhook restores the pointer");
	cr_assert_eq((uintptr_t)l.table_entry(), real);
	cr_assert_eq(target_calls(), before + 4);
}

Test(plthook, adding_the_same_hook_again_is_a_no_op)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_now.so", RTLD_NOW);
	int id = add_hook("libtc_hookcaller_now.so");
	size_t slots = stat_of(id).slots;
	cr_assert_eq(add_hook("libtc_hookcaller_now.so"), id);
	cr_assert_eq(stat_of(id).slots, slots);
	cr_assert_eq(l.add(1, 2), 3);
	cr_assert_eq(atomic_load(&hooked), 1, "hooked once, so called once");
	remove_hook(id);
	cr_assert_eq(l.add(1, 2), 3);
	cr_assert_eq(atomic_load(&hooked), 1);
}

Test(plthook, removing_twice_is_a_no_op_and_an_unknown_id_is_refused)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_now.so", RTLD_NOW);
	int id = add_hook("libtc_hookcaller_now.so");
	remove_hook(id);
	remove_hook(id);
	cr_assert_eq((uintptr_t)l.addr(), target_add());
	tc_rt_error e = { 0 };
	cr_assert_eq(tc_plthook_remove(id + 1000, &e), TC_RT_EINVAL);
	cr_assert(strstr(e.message, "no hook"), "%s", e.message);
	cr_assert_eq(tc_plthook_remove(0, NULL), TC_RT_EINVAL);
}

Test(plthook, another_hook_on_the_same_symbol_is_busy)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_now.so", RTLD_NOW);
	int id = add_hook("libtc_hookcaller_now.so");
	static _Atomic(tc_plthook_fn) other_orig;
	tc_plthook_spec s = { "libtc_hookcaller_now.so", NULL, "tc_target_add", (tc_plthook_fn)hook_other, &other_orig };
	int id2 = -1;
	tc_rt_error e = { 0 };
	cr_assert_eq(tc_plthook_add(&s, &id2, &e), TC_RT_EBUSY);
	cr_assert(strstr(e.message, "tc_target_add"), "%s", e.message);
	s.replacement = (tc_plthook_fn)hook_add;
	s.orig = &orig_add;
	s.libs = "libtc_hookcaller_*.so";
	cr_assert_eq(tc_plthook_add(&s, &id2, &e), TC_RT_EBUSY, "same hook, other libraries");
	/* the loader's entry points are the engine's */
	s.symbol = "dlopen";
	cr_assert_eq(tc_plthook_add(&s, &id2, &e), TC_RT_EBUSY);
	cr_assert_eq(l.add(1, 2), 3);
	cr_assert_eq(atomic_load(&hooked), 1);
	remove_hook(id);
}

Test(plthook, bad_specs_are_refused)
{
	int id;
	tc_rt_error e = { 0 };
	cr_assert_eq(tc_plthook_add(NULL, &id, &e), TC_RT_EINVAL);
	tc_plthook_spec s = spec_for("libtc_hookcaller_now.so");
	s.symbol = NULL;
	cr_assert_eq(tc_plthook_add(&s, &id, &e), TC_RT_EINVAL);
	s = spec_for("libtc_hookcaller_now.so");
	s.orig = NULL;
	cr_assert_eq(tc_plthook_add(&s, &id, &e), TC_RT_EINVAL);
	s = spec_for(NULL);
	cr_assert_eq(tc_plthook_add(&s, &id, &e), TC_RT_EINVAL);
	char longpat[400];
	memset(longpat, 'a', sizeof longpat - 1);
	longpat[sizeof longpat - 1] = '\0';
	s = spec_for(longpat);
	cr_assert_eq(tc_plthook_add(&s, &id, &e), TC_RT_EINVAL);
	cr_assert(strstr(e.message, "longer"), "%s", e.message);
	cr_assert_eq(tc_plthook_stat_get(12345, &(tc_plthook_stat){ 0 }, &e), TC_RT_EINVAL);
}

Test(plthook, a_symbol_the_library_does_not_import_patches_nothing)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_now.so", RTLD_NOW);
	tc_plthook_spec s = spec_for("libtc_hookcaller_now.so");
	s.symbol = "tc_target_nothing";
	int id;
	tc_rt_error e = { 0 };
	cr_assert_eq(tc_plthook_add(&s, &id, &e), TC_RT_OK, "%s", e.message);
	tc_plthook_stat st = stat_of(id);
	cr_assert_eq(st.objects, 0);
	cr_assert_eq(st.slots, 0);
	cr_assert_eq(st.failed, 0);
	cr_assert_eq(l.add(1, 2), 3);
	cr_assert_eq((uintptr_t)l.addr(), target_add());
	remove_hook(id);
}

/* RELRO: the loader made the page read-only; the write goes through and the
 * page is read-only again after, with the hook on and after it is off */
static void relro_case(const char *name, int flags)
{
	struct lib l;
	open_lib(&l, name, flags);
	const void *t = l.table_addr();
	cr_assert_eq(prot_of(t), PROT_READ, "%s: .data.rel.ro should be read-only (RELRO)", name);
	int id = add_hook(name);
	tc_plthook_stat st = stat_of(id);
	caller_slots(&st, 1);
	cr_assert_eq((uintptr_t)l.table_entry(), (uintptr_t)hook_add);
	cr_assert_eq(prot_of(t), PROT_READ);
	cr_assert_eq(l.add_table(2, 2), 4);
	cr_assert_eq(l.add(2, 2), 4);
	cr_assert_eq((uintptr_t)l.addr(), (uintptr_t)hook_add);
	cr_assert_eq(atomic_load(&hooked), 2);
	remove_hook(id);
	cr_assert_eq((uintptr_t)l.table_entry(), target_add());
	cr_assert_eq(prot_of(t), PROT_READ);
}

Test(plthook, full_relro_got_is_written_and_made_read_only_again)
{
	relro_case("libtc_hookcaller_now.so", RTLD_NOW);
}

Test(plthook, partial_relro_got_is_written_and_made_read_only_again)
{
	relro_case("libtc_hookcaller_relro.so", RTLD_LAZY);
}

Test(plthook, lazy_binding_without_relro)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_lazy.so", RTLD_LAZY);
	int id = add_hook("libtc_hookcaller_lazy.so");
	tc_plthook_stat st = stat_of(id);
	caller_slots(&st, 1);
	/* a jump slot is unbound until the first call (glibc) */
	cr_assert_eq(st.lazy, lazy_binding() ? st.slots - 2 : 0u);
	cr_assert_eq(l.add(3, 4), 7);
	cr_assert_eq(atomic_load(&hooked), 1);
	remove_hook(id);
	/* unbound again: the first call binds it to the original */
	cr_assert_eq(l.add(3, 4), 7);
	cr_assert_eq(l.add(3, 5), 8);
	cr_assert_eq(atomic_load(&hooked), 1);
}

/* The only slot is an unbound jump slot: no bound slot gives the original,
 * the engine asks the loader for it. */
Test(plthook, an_unbound_jump_slot_alone_gets_its_original_from_the_loader)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_pltonly.so", RTLD_LAZY);
	int id = add_hook("libtc_hookcaller_pltonly.so");
	tc_plthook_stat st = stat_of(id);
	cr_assert_eq(st.slots, 1, "objects %zu lazy %zu failed %zu skipped %zu %s", st.objects, st.lazy, st.failed, st.skipped, st.first_failure.message);
	cr_assert_eq(st.lazy, lazy_binding() ? 1u : 0u);
	cr_assert_eq((uintptr_t)tc_plthook_orig(&orig_add), target_add());
	int before = target_calls();
	cr_assert_eq(l.add(20, 22), 42);
	cr_assert_eq(atomic_load(&hooked), 1);
	cr_assert_eq(target_calls(), before + 1);
	remove_hook(id);
	cr_assert_eq(l.add(20, 22), 42);
	cr_assert_eq(atomic_load(&hooked), 1);
	cr_assert_eq(target_calls(), before + 2);
}

/* A jump slot in a full-RELRO GOT (read-only after loading) */
Test(plthook, a_jump_slot_in_a_read_only_got)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_pltnow.so", RTLD_NOW);
	int id = add_hook("libtc_hookcaller_pltnow.so");
	tc_plthook_stat st = stat_of(id);
	cr_assert_eq(st.slots, 1);
	cr_assert_eq(st.lazy, 0);
	cr_assert_eq((uintptr_t)tc_plthook_orig(&orig_add), target_add());
	cr_assert_eq(l.add(7, 8), 15);
	cr_assert_eq(atomic_load(&hooked), 1);
	remove_hook(id);
	cr_assert_eq(l.add(7, 8), 15);
	cr_assert_eq(atomic_load(&hooked), 1);
}

/* A slot bound before the hook is the same case as -z now */
Test(plthook, a_lazy_slot_already_bound_is_a_plain_slot)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_pltonly.so", RTLD_LAZY);
	cr_assert_eq(l.add(1, 1), 2);
	int id = add_hook("libtc_hookcaller_pltonly.so");
	tc_plthook_stat st = stat_of(id);
	cr_assert_eq(st.slots, 1);
	cr_assert_eq(st.lazy, 0);
	cr_assert_eq(l.add(1, 1), 2);
	cr_assert_eq(atomic_load(&hooked), 1);
	remove_hook(id);
	cr_assert_eq(l.add(1, 1), 2);
	cr_assert_eq(atomic_load(&hooked), 1);
}

/* -fno-plt: calls load the address from a GOT slot (GLOB_DAT) where the
 * compiler supports it (x86, AArch64; GCC ignores it on 32-bit ARM) */
Test(plthook, no_plt_calls_through_the_got)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_noplt.so", RTLD_NOW);
	int id = add_hook("libtc_hookcaller_noplt.so");
	tc_plthook_stat st = stat_of(id);
	cr_assert_geq(st.slots, 2);
	cr_assert_leq(st.slots, 3);
	cr_assert_eq(l.add(5, 5), 10);
	cr_assert_eq(l.add_table(5, 6), 11);
	cr_assert_eq(atomic_load(&hooked), 2);
	cr_assert_eq((uintptr_t)l.addr(), (uintptr_t)hook_add);
	remove_hook(id);
	cr_assert_eq(l.add(5, 5), 10);
	cr_assert_eq(atomic_load(&hooked), 2);
}

Test(plthook, several_libraries_from_one_pattern_list)
{
	struct lib a, b, c;
	open_lib(&a, "libtc_hookcaller_now.so", RTLD_NOW);
	open_lib(&b, "libtc_hookcaller_relro.so", RTLD_NOW);
	open_lib(&c, "libtc_hookcaller_noplt.so", RTLD_NOW);
	/* one pattern by basename, one by whole path */
	char pattern[4200];
	snprintf(pattern, sizeof pattern, "libtc_hookcaller_now.so;*/libtc_hookcaller_relro.so");
	int id = add_hook(pattern);
	tc_plthook_stat st = stat_of(id);
	caller_slots(&st, 2);
	cr_assert_eq(a.add(1, 1) + b.add(1, 1) + c.add(1, 1), 6);
	cr_assert_eq(atomic_load(&hooked), 2, "libtc_hookcaller_noplt.so matches neither pattern");
	remove_hook(id);
}

Test(plthook, a_library_matching_no_pattern_is_untouched)
{
	open_loader();
	struct lib other, late;
	open_lib(&other, "libtc_hookother.so", RTLD_NOW);
	int id = add_hook("libtc_hookcaller_*");
	cr_assert_eq(other.add(1, 2), 3);
	cr_assert_eq((uintptr_t)other.addr(), target_add());
	cr_assert_eq((uintptr_t)other.table_entry(), target_add());
	cr_assert_eq(atomic_load(&hooked), 0);
	/* nor when it is loaded after the hook (the loader is watched) */
	cr_assert_eq(dlclose(other.h), 0);
	bind_lib(&late, loader_open(path_of("libtc_hookcaller_late.so"), RTLD_NOW));
	bind_lib(&other, loader_open(path_of("libtc_hookother.so"), RTLD_NOW));
	cr_assert_eq(late.add(1, 2), 3);
	cr_assert_eq(atomic_load(&hooked), 1);
	cr_assert_eq(other.add(1, 2), 3);
	cr_assert_eq((uintptr_t)other.addr(), target_add());
	cr_assert_eq(atomic_load(&hooked), 1);
	remove_hook(id);
}

Test(plthook, an_ignored_library_is_untouched)
{
	struct lib now, noplt;
	open_lib(&now, "libtc_hookcaller_now.so", RTLD_NOW);
	open_lib(&noplt, "libtc_hookcaller_noplt.so", RTLD_NOW);
	tc_plthook_spec s = spec_for("libtc_hookcaller_*");
	s.ignore = "*_noplt.so;libtc_hookcaller_lazy.so";
	int id;
	tc_rt_error e = { 0 };
	cr_assert_eq(tc_plthook_add(&s, &id, &e), TC_RT_OK, "%s", e.message);
	cr_assert_eq(stat_of(id).objects, 1);
	cr_assert_eq(noplt.add(1, 1), 2);
	cr_assert_eq(atomic_load(&hooked), 0);
	cr_assert_eq((uintptr_t)noplt.addr(), target_add());
	cr_assert_eq(now.add(1, 1), 2);
	cr_assert_eq(atomic_load(&hooked), 1);
	remove_hook(id);
}

Test(plthook, a_library_dlopened_after_the_hook_is_hooked)
{
	open_loader();
	int id = add_hook("libtc_hookcaller_late.so");
	cr_assert_eq(stat_of(id).objects, 0);
	struct lib l;
	bind_lib(&l, loader_open(path_of("libtc_hookcaller_late.so"), RTLD_NOW));
	tc_plthook_stat st = stat_of(id);
	cr_assert_eq(st.objects, 1, "hooked as the loader returned, no refresh");
	caller_slots(&st, 1);
	cr_assert_eq(l.add(1, 2), 3);
	cr_assert_eq(atomic_load(&hooked), 1);
	cr_assert_eq((uintptr_t)l.addr(), (uintptr_t)hook_add);
	remove_hook(id);
	cr_assert_eq((uintptr_t)l.addr(), target_add());
}

/* Android 8+: libdl.so's dlopen calls __loader_dlopen with its caller's
 * address, which picks the linker namespace; the watch must pass that
 * address on, not its own */
Test(plthook, a_libdl_style_load_keeps_the_callers_address)
{
	open_loader();
	int id = add_hook("libtc_hookcaller_late.so");
	struct lib l;
	bind_lib(&l, loader_open_as_libdl(path_of("libtc_hookcaller_late.so"), RTLD_NOW));
	cr_assert_eq(atomic_load(&loader_calls), 1);
	cr_assert_not_null(loader_last_caller());
	cr_assert_eq(atomic_load(&loader_caller), loader_last_caller());
	cr_assert_eq(stat_of(id).objects, 1);
	cr_assert_eq(l.add(1, 2), 3);
	cr_assert_eq(atomic_load(&hooked), 1);
	remove_hook(id);
}

/* This program holds the engine, so its own dlopen is not watched: the
 * library waits for a refresh */
Test(plthook, a_library_loaded_unseen_is_hooked_at_refresh)
{
	int id = add_hook("libtc_hookcaller_late.so");
	struct lib l;
	open_lib(&l, "libtc_hookcaller_late.so", RTLD_NOW);
	cr_assert_eq(l.add(1, 2), 3);
	cr_assert_eq(atomic_load(&hooked), 0);
	tc_rt_error e = { 0 };
	cr_assert_eq(tc_plthook_refresh(&e), TC_RT_OK, "%s", e.message);
	cr_assert_eq(l.add(1, 2), 3);
	cr_assert_eq(atomic_load(&hooked), 1);
	remove_hook(id);
}

Test(plthook, a_failed_dlopen_keeps_its_error)
{
	open_loader();
	int id = add_hook("libtc_hookcaller_late.so");
	dlerror();
	cr_assert_null(loader_open(path_of("libtc_nonexistent.so"), RTLD_NOW));
	const char *msg = dlerror();
	cr_assert_not_null(msg);
	cr_assert(strstr(msg, "libtc_nonexistent"), "%s", msg);
	remove_hook(id);
}

/* Someone rewrote a slot after us: removing the hook leaves theirs */
Test(plthook, remove_leaves_a_slot_someone_else_rewrote)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_now.so", RTLD_NOW);
	int id = add_hook("libtc_hookcaller_now.so");
	const void *t = l.table_addr();
	uintptr_t page = (uintptr_t)t & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
	int prot = prot_of(t);
	cr_assert_eq(mprotect((void *)page, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE), 0);
	add_fn mine = hook_other;
	memcpy((void *)t, &mine, sizeof mine);
	cr_assert_eq(mprotect((void *)page, (size_t)sysconf(_SC_PAGESIZE), prot), 0);
	remove_hook(id);
	cr_assert_eq(stat_of(id).foreign, 1);
	cr_assert_eq((uintptr_t)l.table_entry(), (uintptr_t)hook_other);
	cr_assert_eq((uintptr_t)l.addr(), target_add(), "the others are restored");
	cr_assert_eq(l.add(2, 5), 7);
	cr_assert_eq(atomic_load(&hooked), 0);
}

/* Unloaded and loaded again: the new copy is hooked; the target library
 * went with it and comes back elsewhere (its old place is taken), so the
 * saved original would lead into nothing; removing after an unload writes
 * nothing into memory that is gone */
Test(plthook, an_unloaded_library_is_forgotten_and_hooked_again_when_reloaded)
{
	open_loader();
	int id = add_hook("libtc_hookcaller_late.so");
	struct lib l;
	bind_lib(&l, loader_open(path_of("libtc_hookcaller_late.so"), RTLD_NOW));
	cr_assert_eq(l.add(1, 1), 2);
	cr_assert_eq(atomic_load(&hooked), 1);
	uintptr_t old_add = target_add();
	cr_assert_eq((uintptr_t)tc_plthook_orig(&orig_add), old_add);
	Dl_info info;
	cr_assert_neq(dladdr((void *)old_add, &info), 0);
	cr_assert_eq(dlclose(l.h), 0);
	bool unloaded = dlopen(path_of("libtc_hooktarget.so"), RTLD_NOW | RTLD_NOLOAD) == NULL;
	cr_log_info("libtc_hooktarget.so %s by dlclose", unloaded ? "unloaded" : "kept");
	void *block = MAP_FAILED;
	if (unloaded) {
		/* the loader puts a library back where it was when it can */
		long page = sysconf(_SC_PAGESIZE);
		block = mmap(info.dli_fbase, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		cr_assert_neq(block, MAP_FAILED);
	}
	bind_lib(&l, loader_open(path_of("libtc_hookcaller_late.so"), RTLD_NOW));
	if (block == info.dli_fbase)
		cr_assert_neq(target_add(), old_add, "the target came back at its old place");
	cr_assert_eq(stat_of(id).objects, 1);
	cr_assert_eq((uintptr_t)tc_plthook_orig(&orig_add), target_add(), "the original of the new copy");
	int before = target_calls();
	cr_assert_eq(l.add(1, 1), 2);
	cr_assert_eq(atomic_load(&hooked), 2);
	cr_assert_eq(target_calls(), before + 1);
	cr_assert_eq(dlclose(l.h), 0);
	remove_hook(id);
	cr_assert_eq(stat_of(id).slots, 0);
}

/* Callers on other threads while the hook comes and goes: each call
 * reaches either function whole, never a torn pointer, and the original
 * runs every time (ThreadSanitizer in its build). */
struct worker {
	struct lib *l;
	atomic_bool *stop;
	long calls;
	int bad;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	for (int i = 0; !atomic_load(w->stop); i++) {
		int a = i & 0xffff;
		w->bad += w->l->add(a, 1) != a + 1;
		w->bad += w->l->addr()(a, 2) != a + 2;
		w->bad += w->l->add_table(a, 3) != a + 3;
		w->calls += 3;
	}
	return NULL;
}

Test(plthook, concurrent_callers_while_hooking_and_unhooking)
{
	struct lib l;
	open_lib(&l, "libtc_hookcaller_now.so", RTLD_NOW);
	atomic_bool stop = false;
	struct worker w[3];
	pthread_t t[3];
	int before = target_calls();
	for (int i = 0; i < 3; i++) {
		w[i] = (struct worker){ &l, &stop, 0, 0 };
		cr_assert_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (int k = 0; k < 60; k++) {
		int id = add_hook("libtc_hookcaller_now.so");
		int h = atomic_load(&hooked);
		cr_assert_eq(l.add(k, k), 2 * k);
		cr_assert_gt(atomic_load(&hooked), h);
		remove_hook(id);
	}
	atomic_store(&stop, true);
	long calls = 60;
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(pthread_join(t[i], NULL), 0);
		cr_assert_eq(w[i].bad, 0);
		calls += w[i].calls;
	}
	cr_assert_eq(target_calls() - before, calls, "every call reached the original once");
	cr_assert_leq(atomic_load(&hooked), calls);
	cr_assert_eq((uintptr_t)l.addr(), target_add());
	cr_log_info("%ld calls, %d through the hook", calls, atomic_load(&hooked));
}

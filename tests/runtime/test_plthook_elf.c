/* The PLT hook engine's ELF reader (plthook_elf.c): tables made by hand in
 * a buffer laid out as a loaded object (each hash table, REL and RELA, a
 * .dynamic as bionic leaves it and as glibc rewrites it, malformed ones),
 * Android's packed relocations (APS2) encoded here, and lld's own output with
 * and without --pack-dyn-relocs=android (glibc cannot load the packed one,
 * so the test lays both out in memory itself). */
#include <criterion/criterion.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plthook_elf.h"

#define W sizeof(uintptr_t)

/* offsets in the buffer: vaddr = offset, bias = the buffer's address */
enum {
	SZ = 4096,
	DYN = 0x000, SYMS = 0x200, STR = 0x300, HASH = 0x340, GNU = 0x400,
	PLT = 0x500, DYNREL = 0x600, PACKED = 0x700, GOT = 0x800, CODE = 0x900,
};
enum { SYSV = 1, GNUH = 2 };

static struct {
	alignas(64) unsigned char mem[SZ];
	ElfW(Phdr) ph[3];
	size_t phnum, ndyn;
	bool absolute;
} im;

static uintptr_t B(void)
{
	return (uintptr_t)im.mem;
}

static uintptr_t ptr(uintptr_t off)
{
	return im.absolute ? B() + off : off;
}

static ElfW(Dyn) *dyns(void)
{
	return (ElfW(Dyn) *)(void *)(im.mem + DYN);
}

static void set_dyn(long tag, uintptr_t v)
{
	ElfW(Dyn) *d = dyns();
	size_t i = 0;
	while (i < im.ndyn && d[i].d_tag != tag)
		i++;
	if (i == im.ndyn)
		im.ndyn++;
	d[i].d_tag = tag;
	d[i].d_un.d_val = v;
	d[im.ndyn].d_tag = DT_NULL;
	im.ph[1].p_memsz = (im.ndyn + 1) * sizeof *d;
}

static uint32_t gnu_hash(const char *s)
{
	uint32_t h = 5381;
	for (; *s; s++)
		h = h * 33 + (uint8_t)*s;
	return h;
}

static uint32_t *words(size_t off)
{
	return (uint32_t *)(void *)(im.mem + off);
}

static void reloc(size_t off, size_t i, bool rela, uintptr_t where, uint32_t sym, uint32_t type, intptr_t addend)
{
	if (rela) {
		ElfW(Rela) *r = (ElfW(Rela) *)(void *)(im.mem + off) + i;
		r->r_offset = where;
		r->r_info = PE_R_INFO(sym, type);
		r->r_addend = addend;
	} else {
		ElfW(Rel) *r = (ElfW(Rel) *)(void *)(im.mem + off) + i;
		r->r_offset = where;
		r->r_info = PE_R_INFO(sym, type);
	}
}

/* Symbols: 1 foo and 2 bar imported, 3 baz defined at CODE. Relocations:
 * .rel(a).plt: jump slots of foo (GOT) and bar (GOT+4W); .rel(a).dyn:
 * GLOB_DAT foo (GOT+W), absolute foo (GOT+2W), absolute foo + 8 (GOT+3W),
 * GLOB_DAT baz (GOT+5W). */
static void build(int hashes, bool rela, bool absolute)
{
	memset(&im, 0, sizeof im);
	im.absolute = absolute;
	im.ph[0] = (ElfW(Phdr)){ .p_type = PT_LOAD, .p_vaddr = 0, .p_memsz = SZ, .p_flags = PF_R | PF_W };
	im.ph[1] = (ElfW(Phdr)){ .p_type = PT_DYNAMIC, .p_vaddr = DYN, .p_flags = PF_R | PF_W };
	im.phnum = 2;
	ElfW(Sym) *s = (ElfW(Sym) *)(void *)(im.mem + SYMS);
	s[1].st_name = 1;
	s[2].st_name = 5;
	s[3].st_name = 9;
	s[3].st_shndx = 7;
	s[3].st_value = CODE;
	memcpy(im.mem + STR, "\0foo\0bar\0baz", 13);
	set_dyn(DT_SYMTAB, ptr(SYMS));
	set_dyn(DT_STRTAB, ptr(STR));
	set_dyn(DT_STRSZ, 13);
	set_dyn(DT_SYMENT, sizeof(ElfW(Sym)));
	if (hashes & SYSV) {
		uint32_t *h = words(HASH);
		h[0] = 1, h[1] = 4; /* nbucket, nchain */
		h[2] = 3;           /* bucket 0: baz, bar, foo */
		h[3 + 3] = 2, h[3 + 2] = 1, h[3 + 1] = 0;
		set_dyn(DT_HASH, ptr(HASH));
	}
	if (hashes & GNUH) {
		uint32_t *h = words(GNU);
		h[0] = 1, h[1] = 3, h[2] = 1, h[3] = 6; /* nbuckets, symoffset, bloom words, shift */
		memset(h + 4, 0xff, W);                 /* the bloom word */
		uint32_t *buckets = h + 4 + W / 4;
		buckets[0] = 3;
		buckets[1] = gnu_hash("baz") | 1; /* the chain: baz, last */
		set_dyn(PE_DT_GNU_HASH, ptr(GNU));
	}
	reloc(PLT, 0, rela, GOT, 1, PE_R_JUMP_SLOT, 0);
	reloc(PLT, 1, rela, GOT + 4 * W, 2, PE_R_JUMP_SLOT, 0);
	reloc(DYNREL, 0, rela, GOT + W, 1, PE_R_GLOB_DAT, 0);
	reloc(DYNREL, 1, rela, GOT + 2 * W, 1, PE_R_ABS, 0);
	reloc(DYNREL, 2, rela, GOT + 3 * W, 1, PE_R_ABS, 8);
	reloc(DYNREL, 3, rela, GOT + 5 * W, 3, PE_R_GLOB_DAT, 0);
	size_t esz = rela ? sizeof(ElfW(Rela)) : sizeof(ElfW(Rel));
	set_dyn(DT_JMPREL, ptr(PLT));
	set_dyn(DT_PLTRELSZ, 2 * esz);
	set_dyn(DT_PLTREL, rela ? DT_RELA : DT_REL);
	set_dyn(rela ? DT_RELA : DT_REL, ptr(DYNREL));
	set_dyn(rela ? DT_RELASZ : DT_RELSZ, 4 * esz);
	set_dyn(rela ? DT_RELAENT : DT_RELENT, esz);
}

static int open_im(pe_object *o, tc_rt_error *e)
{
	return pe_open(o, B(), im.ph, im.phnum, e);
}

static void lookup_is(const pe_object *o, const char *name, size_t n, uint32_t first)
{
	uint32_t idx[8];
	size_t got = 99;
	tc_rt_error e = { 0 };
	cr_assert_eq(pe_lookup(o, name, idx, 8, &got, &e), TC_RT_OK, "%s: %s", name, e.message);
	cr_assert_eq(got, n, "%s", name);
	if (n)
		cr_assert_eq(idx[0], first, "%s", name);
}

struct seen {
	pe_slot s[16];
	size_t n;
};

static int keep(void *arg, const pe_slot *s)
{
	struct seen *v = arg;
	cr_assert_lt(v->n, 16);
	v->s[v->n++] = *s;
	return TC_RT_OK;
}

static struct seen slots_of(const pe_object *o, const char *name)
{
	uint32_t idx[8];
	size_t n;
	tc_rt_error e = { 0 };
	struct seen v = { .n = 0 };
	cr_assert_eq(pe_lookup(o, name, idx, 8, &n, &e), TC_RT_OK, "%s", e.message);
	cr_assert_eq(pe_each_slot(o, idx, n, keep, &v, &e), TC_RT_OK, "%s", e.message);
	return v;
}

static void expect_foo_slots(const pe_object *o, bool rela)
{
	struct seen v = slots_of(o, "foo");
	cr_assert_eq(v.n, 4);
	const struct { uintptr_t at; int kind; intptr_t addend; } want[] = {
		{ GOT, PE_JUMP_SLOT, 0 }, { GOT + W, PE_GLOB_DAT, 0 }, { GOT + 2 * W, PE_ABS, 0 }, { GOT + 3 * W, PE_ABS, 8 },
	};
	for (size_t i = 0; i < 4; i++) {
		cr_assert_eq(v.s[i].addr, B() + want[i].at, "slot %zu", i);
		cr_assert_eq(v.s[i].kind, want[i].kind, "slot %zu", i);
		cr_assert_eq(v.s[i].has_addend, rela);
		cr_assert_eq(v.s[i].addend, rela ? want[i].addend : 0);
		cr_assert_eq(v.s[i].sym, 1);
		cr_assert_eq(v.s[i].defined, 0, "foo is imported");
	}
	v = slots_of(o, "baz");
	cr_assert_eq(v.n, 1);
	cr_assert_eq(v.s[0].defined, B() + CODE, "baz is defined here");
}

Test(plthook_elf, every_hash_table_finds_imports_and_definitions)
{
	const int kinds[] = { SYSV, GNUH, SYSV | GNUH, 0 };
	for (size_t k = 0; k < 4; k++) {
		build(kinds[k], true, false);
		pe_object o;
		tc_rt_error e = { 0 };
		cr_assert_eq(open_im(&o, &e), TC_RT_OK, "%s", e.message);
		cr_assert_eq(o.nsyms, kinds[k] ? 4u : 0u, "hash tables %d", kinds[k]);
		lookup_is(&o, "foo", 1, 1);
		lookup_is(&o, "bar", 1, 2);
		lookup_is(&o, "baz", 1, 3);
		lookup_is(&o, "qux", 0, 0);
		lookup_is(&o, "fo", 0, 0);
	}
}

Test(plthook_elf, slots_of_each_kind_from_rela_and_rel)
{
	for (int rela = 0; rela < 2; rela++) {
		build(GNUH, rela, false);
		pe_object o;
		tc_rt_error e = { 0 };
		cr_assert_eq(open_im(&o, &e), TC_RT_OK, "%s", e.message);
		expect_foo_slots(&o, rela);
	}
}

/* glibc rewrites a writable .dynamic with addresses; bionic and musl leave
 * offsets */
Test(plthook_elf, dynamic_entries_as_offsets_or_as_addresses)
{
	for (int abs = 0; abs < 2; abs++) {
		build(SYSV, true, abs);
		pe_object o;
		tc_rt_error e = { 0 };
		cr_assert_eq(open_im(&o, &e), TC_RT_OK, "%s", e.message);
		cr_assert_eq(o.symtab, B() + SYMS);
		cr_assert_eq(o.jmprel.addr, B() + PLT);
		expect_foo_slots(&o, true);
	}
}

static void refused(const char *what, const char *needle)
{
	pe_object o;
	tc_rt_error e = { 0 };
	int rc = open_im(&o, &e);
	if (rc == TC_RT_OK) {
		uint32_t idx[8];
		size_t n;
		rc = pe_lookup(&o, "foo", idx, 8, &n, &e);
		if (rc == TC_RT_OK) {
			struct seen v = { .n = 0 };
			rc = pe_each_slot(&o, idx, n, keep, &v, &e);
		}
	}
	cr_assert_eq(rc, TC_RT_EFORMAT, "%s: %d %s", what, rc, e.message);
	cr_assert(strstr(e.message, needle), "%s: '%s' lacks '%s'", what, e.message, needle);
}

Test(plthook_elf, malformed_tables_are_errors_not_crashes)
{
	build(SYSV, true, false);
	set_dyn(DT_STRTAB, ptr(0x10000));
	refused("strtab outside", "DT_STRTAB");

	build(SYSV, true, false);
	set_dyn(DT_STRSZ, SZ);
	refused("strtab runs out", "DT_STRTAB");

	build(SYSV, true, false);
	set_dyn(DT_SYMENT, 3);
	refused("syment", "DT_SYMENT");

	build(SYSV, true, false);
	((ElfW(Sym) *)(void *)(im.mem + SYMS))[3].st_name = 500;
	refused("name outside strtab", "DT_STRTAB");

	build(SYSV, true, false);
	words(HASH)[3 + 1] = 3; /* foo -> baz: 3, 2, 1, 3, ... */
	refused("hash chain loop", "DT_HASH");

	build(SYSV, true, false);
	words(HASH)[0] = 0;
	refused("no buckets", "DT_HASH");

	build(SYSV, true, false);
	words(HASH)[1] = 0x7fffffff;
	refused("chains past the object", "DT_HASH");

	build(GNUH, true, false);
	words(GNU + 16 + W)[0] = 2; /* a bucket below symoffset 3 */
	refused("gnu bucket", "DT_GNU_HASH");

	build(GNUH, true, false);
	words(GNU + 16 + W)[1] = gnu_hash("baz") & ~1u; /* the chain never ends */
	words(GNU + 16 + W)[2] = 0;
	memset(im.mem + GNU + 16 + W + 12, 0, SZ - (GNU + 16 + W + 12));
	refused("gnu chain without end", "DT_GNU_HASH");

	build(GNUH, true, false);
	reloc(DYNREL, 0, true, 0x2000, 1, PE_R_GLOB_DAT, 0);
	refused("slot outside", "writable");

	build(GNUH, true, false);
	reloc(DYNREL, 0, true, GOT + 1, 1, PE_R_GLOB_DAT, 0);
	refused("slot misaligned", "aligned");

	build(GNUH, true, false);
	im.ph[0].p_memsz = GOT; /* the rest read-only */
	im.ph[2] = (ElfW(Phdr)){ .p_type = PT_LOAD, .p_vaddr = GOT, .p_memsz = SZ - GOT, .p_flags = PF_R };
	im.phnum = 3;
	refused("slot in a read-only segment", "writable");

	build(GNUH, true, false);
	set_dyn(DT_PLTREL, 5);
	refused("pltrel", "DT_PLTREL");

	build(GNUH, true, false);
	set_dyn(DT_PLTRELSZ, sizeof(ElfW(Rela)) + 1);
	refused("pltrelsz", "multiple");

	build(GNUH, true, false);
	set_dyn(DT_RELA, ptr(SZ - 8));
	refused("rela outside", "DT_RELA");

	build(GNUH, true, false);
	im.ph[1].p_type = PT_NOTE;
	refused("no dynamic", "PT_DYNAMIC");

	build(GNUH, true, false);
	im.ph[1].p_vaddr = SZ - 8;
	im.ph[1].p_memsz = 64;
	refused("dynamic outside", "PT_DYNAMIC");
}

/* ---- APS2 ---- */

static size_t sleb_put(uint8_t *p, intmax_t v)
{
	size_t n = 0;
	for (;;) {
		uint8_t b = v & 0x7f;
		v >>= 7; /* arithmetic on every compiler we use */
		bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
		p[n++] = done ? b : (b | 0x80);
		if (done)
			return n;
	}
}

struct stream {
	uint8_t b[256];
	size_t n;
};

static void put(struct stream *s, intmax_t v)
{
	s->n += sleb_put(s->b + s->n, v);
}

static struct stream aps2(void)
{
	struct stream s;
	memcpy(s.b, "APS2", 4);
	s.n = 4;
	return s;
}

struct rels {
	pe_rel r[16];
	size_t n;
};

static int keep_rel(void *arg, const pe_rel *r)
{
	struct rels *v = arg;
	cr_assert_lt(v->n, 16);
	v->r[v->n++] = *r;
	return TC_RT_OK;
}

Test(plthook_elf, aps2_groups_decode_as_bionic_reads_them)
{
	/* RELA: a group sharing info, offset delta and addend; one with each
	 * field per relocation (offsets may go down) */
	struct stream s = aps2();
	put(&s, 5);      /* count */
	put(&s, 0x1000); /* offset */
	put(&s, 2);
	put(&s, 1 | 2 | 4 | 8);
	put(&s, 8);                              /* offset delta */
	put(&s, (intmax_t)PE_R_INFO(1, PE_R_ABS)); /* info */
	put(&s, 16);                             /* addend delta */
	put(&s, 3);
	put(&s, 8);
	put(&s, 8), put(&s, (intmax_t)PE_R_INFO(2, PE_R_GLOB_DAT)), put(&s, -16);
	put(&s, 0x100), put(&s, (intmax_t)PE_R_INFO(3, PE_R_ABS)), put(&s, 5);
	put(&s, -0x300), put(&s, (intmax_t)PE_R_INFO(0, 8)), put(&s, -5);
	struct rels v = { .n = 0 };
	tc_rt_error e = { 0 };
	cr_assert_eq(pe_aps2_each(s.b, s.n, true, 100, keep_rel, &v, &e), TC_RT_OK, "%s", e.message);
	const pe_rel want[] = {
		{ 0x1008, PE_R_INFO(1, PE_R_ABS), 16 }, { 0x1010, PE_R_INFO(1, PE_R_ABS), 16 },
		{ 0x1018, PE_R_INFO(2, PE_R_GLOB_DAT), 0 }, { 0x1118, PE_R_INFO(3, PE_R_ABS), 5 },
		{ 0xe18, PE_R_INFO(0, 8), 0 },
	};
	cr_assert_eq(v.n, 5);
	for (size_t i = 0; i < 5; i++) {
		cr_assert_eq(v.r[i].offset, want[i].offset, "%zu", i);
		cr_assert_eq(v.r[i].info, want[i].info, "%zu", i);
		cr_assert_eq(v.r[i].addend, want[i].addend, "%zu", i);
	}

	/* REL: no addends; a group without HAS_ADDEND resets it */
	s = aps2();
	put(&s, 3), put(&s, 0x40);
	put(&s, 3), put(&s, 1);
	put(&s, (intmax_t)PE_R_INFO(4, PE_R_JUMP_SLOT));
	put(&s, 4), put(&s, 4), put(&s, 4);
	v.n = 0;
	cr_assert_eq(pe_aps2_each(s.b, s.n, false, 100, keep_rel, &v, &e), TC_RT_OK, "%s", e.message);
	cr_assert_eq(v.n, 3);
	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(v.r[i].offset, 0x44 + 4 * i);
		cr_assert_eq(v.r[i].info, PE_R_INFO(4, PE_R_JUMP_SLOT));
		cr_assert_eq(v.r[i].addend, 0);
	}
}

static void aps2_refused(const struct stream *s, bool rela, size_t max, const char *needle)
{
	struct rels v = { .n = 0 };
	tc_rt_error e = { 0 };
	cr_assert_eq(pe_aps2_each(s->b, s->n, rela, max, keep_rel, &v, &e), TC_RT_EFORMAT, "%s", needle);
	cr_assert(strstr(e.message, needle), "'%s' lacks '%s'", e.message, needle);
}

Test(plthook_elf, malformed_aps2_is_an_error)
{
	struct stream s = aps2();
	s.b[3] = '1';
	put(&s, 0);
	aps2_refused(&s, true, 10, "magic");

	s = aps2();
	put(&s, 1000), put(&s, 0);
	aps2_refused(&s, true, 10, "more than");

	s = aps2();
	put(&s, 2), put(&s, 0), put(&s, 0), put(&s, 3);
	aps2_refused(&s, true, 10, "group of 0");

	s = aps2();
	put(&s, 2), put(&s, 0), put(&s, 3), put(&s, 3);
	aps2_refused(&s, true, 10, "group of 3");

	s = aps2();
	put(&s, 1), put(&s, 0), put(&s, 1), put(&s, 16);
	aps2_refused(&s, true, 10, "unknown group flags");

	s = aps2();
	put(&s, 1), put(&s, 0), put(&s, 1), put(&s, 8), put(&s, 4), put(&s, 7), put(&s, 1);
	aps2_refused(&s, false, 10, "addend in DT_ANDROID_REL");

	s = aps2();
	put(&s, 1), put(&s, 0), put(&s, 1), put(&s, 0), put(&s, 4);
	aps2_refused(&s, true, 10, "runs past"); /* the info is missing */

	s = aps2();
	for (int i = 0; i < 12; i++)
		s.b[s.n++] = 0x80;
	s.b[s.n++] = 0;
	aps2_refused(&s, true, 10, "longer than");
}

/* packed tables in an object: the slots come out of them like the others */
Test(plthook_elf, slots_in_packed_tables)
{
	for (int rela = 0; rela < 2; rela++) {
		build(GNUH, rela, false);
		/* .rel(a).dyn packed instead: GLOB_DAT foo, absolute foo */
		set_dyn(rela ? DT_RELASZ : DT_RELSZ, 0);
		struct stream s = aps2();
		put(&s, 2), put(&s, GOT);
		put(&s, 2), put(&s, 0); /* a group of 2, each with its offset and info */
		put(&s, W), put(&s, (intmax_t)PE_R_INFO(1, PE_R_GLOB_DAT));
		put(&s, W), put(&s, (intmax_t)PE_R_INFO(1, PE_R_ABS));
		memcpy(im.mem + PACKED, s.b, s.n);
		set_dyn(rela ? PE_DT_ANDROID_RELA : PE_DT_ANDROID_REL, ptr(PACKED));
		set_dyn(rela ? PE_DT_ANDROID_RELASZ : PE_DT_ANDROID_RELSZ, s.n);
		pe_object o;
		tc_rt_error e = { 0 };
		cr_assert_eq(open_im(&o, &e), TC_RT_OK, "%s", e.message);
		struct seen v = slots_of(&o, "foo");
		cr_assert_eq(v.n, 3);
		cr_assert_eq(v.s[0].kind, PE_JUMP_SLOT);
		cr_assert_eq(v.s[1].kind, PE_GLOB_DAT);
		cr_assert_eq(v.s[1].addr, B() + GOT + W);
		cr_assert_eq(v.s[2].kind, PE_ABS);
		cr_assert_eq(v.s[2].addr, B() + GOT + 2 * W);
		cr_assert_eq(v.s[2].has_addend, rela);
	}
}

/* ---- lld's output ---- */

struct laid {
	unsigned char *mem;
	ElfW(Phdr) *ph;
	size_t phnum;
};

/* Lays the PT_LOAD segments of an ELF file out at their addresses, as a
 * loader would, without relocating anything. */
static bool lay_out(const char *path, struct laid *L)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	static unsigned char buf[1 << 20];
	size_t size = fread(buf, 1, sizeof buf, f);
	fclose(f);
	ElfW(Ehdr) eh;
	cr_assert_geq(size, sizeof eh, "%s", path);
	memcpy(&eh, buf, sizeof eh);
	cr_assert_eq(memcmp(eh.e_ident, ELFMAG, SELFMAG), 0, "%s", path);
	cr_assert_eq(eh.e_phentsize, sizeof(ElfW(Phdr)), "%s: not this machine's ELF class", path);
	cr_assert_leq(eh.e_phoff + (size_t)eh.e_phnum * sizeof(ElfW(Phdr)), size);
	L->phnum = eh.e_phnum;
	L->ph = calloc(eh.e_phnum, sizeof(ElfW(Phdr)));
	memcpy(L->ph, buf + eh.e_phoff, eh.e_phnum * sizeof(ElfW(Phdr)));
	size_t span = 0;
	for (size_t i = 0; i < L->phnum; i++)
		if (L->ph[i].p_type == PT_LOAD && L->ph[i].p_vaddr + L->ph[i].p_memsz > span)
			span = L->ph[i].p_vaddr + L->ph[i].p_memsz;
	span = (span + 4095) & ~(size_t)4095;
	L->mem = aligned_alloc(4096, span);
	cr_assert_not_null(L->mem);
	memset(L->mem, 0, span);
	for (size_t i = 0; i < L->phnum; i++) {
		const ElfW(Phdr) *p = &L->ph[i];
		if (p->p_type != PT_LOAD)
			continue;
		cr_assert_leq(p->p_offset + p->p_filesz, size, "%s", path);
		memcpy(L->mem + p->p_vaddr, buf + p->p_offset, p->p_filesz);
	}
	return true;
}

/* a slot as (kind, offset in its segment): the same in both builds, which
 * differ only in the size of .rela.dyn, before the writable segment */
struct place {
	int kind;
	uintptr_t in_seg;
};

static size_t places(const struct laid *L, const pe_object *o, struct place *out)
{
	struct seen v = slots_of(o, "tc_target_add");
	for (size_t i = 0; i < v.n; i++) {
		uintptr_t off = v.s[i].addr - (uintptr_t)L->mem;
		out[i].kind = v.s[i].kind;
		out[i].in_seg = UINTPTR_MAX;
		for (size_t k = 0; k < L->phnum; k++)
			if (L->ph[k].p_type == PT_LOAD && off >= L->ph[k].p_vaddr &&
			    off < L->ph[k].p_vaddr + L->ph[k].p_memsz)
				out[i].in_seg = off - L->ph[k].p_vaddr;
	}
	/* order by kind */
	for (size_t i = 0; i < v.n; i++)
		for (size_t j = i + 1; j < v.n; j++)
			if (out[j].kind < out[i].kind) {
				struct place t = out[i];
				out[i] = out[j];
				out[j] = t;
			}
	return v.n;
}

Test(plthook_elf, lld_packed_relocations_give_the_same_slots)
{
	const char *dir = getenv("TC_PLTHOOK_LIBS");
	char packed[4096], unpacked[4096];
	snprintf(packed, sizeof packed, "%s/libtc_hookpacked.so", dir ? dir : ".");
	snprintf(unpacked, sizeof unpacked, "%s/libtc_hookunpacked.so", dir ? dir : ".");
	struct laid P, U;
	if (!lay_out(packed, &P) || !lay_out(unpacked, &U)) {
		const char *req = getenv("TC_REQUIRE_TOOLS");
		cr_assert(!(req && strcmp(req, "1") == 0), "%s: not built (clang and ld.lld, Debian packages clang lld)",
		          packed);
		cr_log_info("SKIP: %s not built (clang, ld.lld missing)", packed);
		return;
	}
	pe_object po, uo;
	tc_rt_error e = { 0 };
	cr_assert_eq(pe_open(&po, (uintptr_t)P.mem, P.ph, P.phnum, &e), TC_RT_OK, "%s", e.message);
	cr_assert_eq(pe_open(&uo, (uintptr_t)U.mem, U.ph, U.phnum, &e), TC_RT_OK, "%s", e.message);
	cr_assert_gt(po.android_rela.size + po.android_rel.size, 0, "lld packed nothing");
	cr_assert_eq(uo.android_rela.size + uo.android_rel.size, 0);
	struct place a[16], b[16];
	size_t na = places(&P, &po, a), nb = places(&U, &uo, b);
	/* the jump slot, the GLOB_DAT of the address, the word in .data.rel.ro */
	cr_assert_eq(nb, 3);
	cr_assert_eq(na, nb);
	for (size_t i = 0; i < na; i++) {
		cr_assert_eq(a[i].kind, b[i].kind, "%zu", i);
		cr_assert_eq(a[i].in_seg, b[i].in_seg, "slot %zu (kind %d)", i, a[i].kind);
	}
	free(P.mem), free(P.ph), free(U.mem), free(U.ph);
}

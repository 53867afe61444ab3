/* plthook_elf.c: a loaded object's dynamic-linking tables (plthook_elf.h).
 * Formats: the System V gABI (dynamic section, symbol and hash tables,
 * relocations), the GNU hash section (binutils' bfd/elf.c), the machines'
 * psABIs for the relocation types, Android's APS2 packing. */
#include "plthook_elf.h"
#include "rt_error.h"
#include "try.h"

#include <stdalign.h>
#include <string.h>

#include "tc_runtime.h"

#define WORD_BITS (sizeof(uintptr_t) * 8)

/* One funnel for malformed tables. */
#define BAD(err, ...) tc_rt_set(err, TC_RT_EFORMAT, "ELF: " __VA_ARGS__)

bool pe_inside(const pe_object *o, uintptr_t addr, size_t len, unsigned flags)
{
	if (addr + len < addr)
		return false;
	for (size_t i = 0; i < o->phnum; i++) {
		const ElfW(Phdr) *ph = &o->phdr[i];
		if (ph->p_type != PT_LOAD || (ph->p_flags & flags) != flags)
			continue;
		uintptr_t start = o->bias + (uintptr_t)ph->p_vaddr;
		uintptr_t end = start + (uintptr_t)ph->p_memsz;
		if (end >= start && addr >= start && addr + len <= end)
			return true;
	}
	return false;
}

/* A d_ptr value as an address: load-relative (bionic, musl, and glibc for
 * a read-only .dynamic) or already relocated (glibc adjusts a writable
 * .dynamic in place; elf/get-dynamic-info.h), whichever lands inside the
 * object with len bytes readable. A bias no larger than the object would
 * make both possible: refused rather than guessed. */
static int to_addr(const pe_object *o, uintptr_t v, size_t len, size_t align, const char *what, uintptr_t *out,
                   tc_rt_error *err)
{
	uintptr_t rel = o->bias + v;
	bool rel_ok = pe_inside(o, rel, len, PF_R);
	bool abs_ok = o->bias != 0 && pe_inside(o, v, len, PF_R);
	if (rel_ok && abs_ok)
		return BAD(err, "%s at %#lx is inside the object both as an offset and as an address", what,
		           (unsigned long)v);
	if (!rel_ok && !abs_ok)
		return BAD(err, "%s at %#lx (%zu bytes) is outside the object's readable segments", what,
		           (unsigned long)v, len);
	*out = rel_ok ? rel : v;
	if (*out % align)
		return BAD(err, "%s at %#lx is misaligned", what, (unsigned long)v);
	return TC_RT_OK;
}

static int table(const pe_object *o, uintptr_t v, size_t size, size_t entsize, const char *what, pe_table *t,
                 tc_rt_error *err)
{
	if (size == 0)
		return TC_RT_OK;
	if (size % entsize)
		return BAD(err, "%s size %zu is not a multiple of %zu", what, size, entsize);
	t->size = size;
	return to_addr(o, v, size, entsize > 4 ? sizeof(uintptr_t) : 4, what, &t->addr, err);
}

/* DT_GNU_HASH: nbuckets, symoffset, bloom_size, bloom_shift, the bloom
 * words (address-sized), the buckets, then one chain word per hashed
 * symbol, the last of each chain with bit 0 set. The symbol count is one
 * past the end of the chain of the highest bucket. */
static int gnu_count(pe_object *o, tc_rt_error *err)
{
	const uint32_t *h = (const uint32_t *)o->gnu_hash;
	uint32_t nbuckets = h[0], symoffset = h[1], bloom = h[2];
	if (nbuckets == 0)
		return BAD(err, "DT_GNU_HASH has no buckets");
	uint64_t total = 4 + (uint64_t)bloom * (sizeof(uintptr_t) / 4) + nbuckets;
	if (total > SIZE_MAX / 4)
		return BAD(err, "DT_GNU_HASH sizes overflow");
	size_t words = (size_t)(total - nbuckets);
	const uint32_t *buckets = h + words;
	if (!pe_inside(o, o->gnu_hash, (words + nbuckets) * 4, PF_R))
		return BAD(err, "DT_GNU_HASH buckets outside the object");
	uint32_t top = 0;
	for (uint32_t b = 0; b < nbuckets; b++)
		if (buckets[b] > top)
			top = buckets[b];
	o->gnu_symoffset = symoffset;
	if (top == 0) {
		o->nsyms = symoffset;
		return TC_RT_OK;
	}
	if (top < symoffset)
		return BAD(err, "DT_GNU_HASH bucket %u below symoffset %u", top, symoffset);
	uintptr_t chains = (uintptr_t)(buckets + nbuckets);
	for (uint32_t i = top;; i++) {
		uintptr_t w = chains + (uintptr_t)(i - symoffset) * 4;
		if (i == UINT32_MAX || w < chains || !pe_inside(o, w, 4, PF_R))
			return BAD(err, "DT_GNU_HASH chain runs out of the object");
		if (*(const uint32_t *)w & 1) {
			o->nsyms = (size_t)i + 1;
			/* every chain word, from the first hashed symbol's */
			if (!pe_inside(o, chains, ((size_t)i - symoffset + 1) * 4, PF_R))
				return BAD(err, "DT_GNU_HASH chains run out of the object");
			return TC_RT_OK;
		}
	}
}

int pe_open(pe_object *o, uintptr_t bias, const ElfW(Phdr) *phdr, size_t phnum, tc_rt_error *err)
{
	memset(o, 0, sizeof *o);
	o->bias = bias;
	o->phdr = phdr;
	o->phnum = phnum;
	if (!PE_SUPPORTED)
		return tc_rt_set(err, TC_RT_EINVAL, "PLT hooks: relocation types of this machine are not known");
	const ElfW(Phdr) *dynph = NULL;
	o->lo = UINTPTR_MAX;
	for (size_t i = 0; i < phnum; i++) {
		if (phdr[i].p_type == PT_DYNAMIC)
			dynph = &phdr[i];
		if (phdr[i].p_type == PT_LOAD) {
			uintptr_t s = bias + (uintptr_t)phdr[i].p_vaddr, e = s + (uintptr_t)phdr[i].p_memsz;
			if (s < o->lo)
				o->lo = s;
			if (e > o->hi)
				o->hi = e;
		}
	}
	if (!dynph)
		return BAD(err, "no PT_DYNAMIC");
	uintptr_t dyn = bias + (uintptr_t)dynph->p_vaddr;
	if (!pe_inside(o, dyn, dynph->p_memsz, PF_R) || dyn % alignof(ElfW(Dyn)))
		return BAD(err, "PT_DYNAMIC at %#lx is outside the object's readable segments", (unsigned long)dyn);

	uintptr_t symtab = 0, strtab = 0, hash = 0, gnu = 0, jmprel = 0, rel = 0, rela = 0, arel = 0, arela = 0;
	size_t strsz = 0, pltrelsz = 0, relsz = 0, relasz = 0, arelsz = 0, arelasz = 0;
	long pltrel = -1;
	const ElfW(Dyn) *d = (const ElfW(Dyn) *)dyn;
	size_t nd = dynph->p_memsz / sizeof *d;
	for (size_t i = 0; i < nd && d[i].d_tag != DT_NULL; i++) {
		uintptr_t v = (uintptr_t)d[i].d_un.d_val;
		switch (d[i].d_tag) {
		case DT_SYMTAB: symtab = v; break;
		case DT_STRTAB: strtab = v; break;
		case DT_STRSZ: strsz = v; break;
		case DT_HASH: hash = v; break;
		case PE_DT_GNU_HASH: gnu = v; break;
		case DT_JMPREL: jmprel = v; break;
		case DT_PLTRELSZ: pltrelsz = v; break;
		case DT_PLTREL: pltrel = (long)v; break;
		case DT_REL: rel = v; break;
		case DT_RELSZ: relsz = v; break;
		case DT_RELA: rela = v; break;
		case DT_RELASZ: relasz = v; break;
		case PE_DT_ANDROID_REL: arel = v; break;
		case PE_DT_ANDROID_RELSZ: arelsz = v; break;
		case PE_DT_ANDROID_RELA: arela = v; break;
		case PE_DT_ANDROID_RELASZ: arelasz = v; break;
		case DT_SYMENT:
			if (v != sizeof(ElfW(Sym)))
				return BAD(err, "DT_SYMENT %lu, not %zu", (unsigned long)v, sizeof(ElfW(Sym)));
			break;
		case DT_RELENT:
			if (v != sizeof(ElfW(Rel)))
				return BAD(err, "DT_RELENT %lu, not %zu", (unsigned long)v, sizeof(ElfW(Rel)));
			break;
		case DT_RELAENT:
			if (v != sizeof(ElfW(Rela)))
				return BAD(err, "DT_RELAENT %lu, not %zu", (unsigned long)v, sizeof(ElfW(Rela)));
			break;
		default: break;
		}
	}
	if (!symtab || !strtab || !strsz)
		return BAD(err, "no DT_SYMTAB, DT_STRTAB or DT_STRSZ");
	TRY(to_addr(o, symtab, sizeof(ElfW(Sym)), alignof(ElfW(Sym)), "DT_SYMTAB", &o->symtab, err));
	TRY(to_addr(o, strtab, strsz, 1, "DT_STRTAB", &o->strtab, err));
	o->strsz = strsz;

	if (hash) {
		TRY(to_addr(o, hash, 8, 4, "DT_HASH", &o->hash, err));
		const uint32_t *h = (const uint32_t *)o->hash;
		uint32_t nbucket = h[0], nchain = h[1];
		if (nbucket == 0)
			return BAD(err, "DT_HASH has no buckets");
		if ((uint64_t)2 + nbucket + nchain > SIZE_MAX / 4 ||
		    !pe_inside(o, o->hash, ((size_t)2 + nbucket + nchain) * 4, PF_R))
			return BAD(err, "DT_HASH (%u buckets, %u chains) runs out of the object", nbucket, nchain);
		o->nsyms = nchain;
	}
	if (gnu) {
		TRY(to_addr(o, gnu, 16, 4, "DT_GNU_HASH", &o->gnu_hash, err));
		if (!hash)
			TRY(gnu_count(o, err));
		else
			o->gnu_hash = 0; /* DT_HASH's chains hold every symbol: one table is enough */
	}
	if (o->nsyms) {
		if (o->nsyms > SIZE_MAX / sizeof(ElfW(Sym)) ||
		    !pe_inside(o, o->symtab, o->nsyms * sizeof(ElfW(Sym)), PF_R))
			return BAD(err, "DT_SYMTAB of %zu symbols runs out of the object", o->nsyms);
		if (o->gnu_hash && o->gnu_symoffset > o->nsyms)
			return BAD(err, "DT_GNU_HASH symoffset %u past %zu symbols", o->gnu_symoffset, o->nsyms);
	}

	if (jmprel && pltrelsz) {
		if (pltrel != DT_REL && pltrel != DT_RELA)
			return BAD(err, "DT_PLTREL %ld is neither DT_REL nor DT_RELA", pltrel);
		o->jmprel_rela = pltrel == DT_RELA;
		TRY(table(o, jmprel, pltrelsz, o->jmprel_rela ? sizeof(ElfW(Rela)) : sizeof(ElfW(Rel)), "DT_JMPREL",
		          &o->jmprel, err));
	}
	if (rel)
		TRY(table(o, rel, relsz, sizeof(ElfW(Rel)), "DT_REL", &o->rel, err));
	if (rela)
		TRY(table(o, rela, relasz, sizeof(ElfW(Rela)), "DT_RELA", &o->rela, err));
	if (arel && arelsz) {
		TRY(to_addr(o, arel, arelsz, 1, "DT_ANDROID_REL", &o->android_rel.addr, err));
		o->android_rel.size = arelsz;
	}
	if (arela && arelasz) {
		TRY(to_addr(o, arela, arelasz, 1, "DT_ANDROID_RELA", &o->android_rela.addr, err));
		o->android_rela.size = arelasz;
	}
	return TC_RT_OK;
}

static int sym_at(const pe_object *o, uint32_t i, const ElfW(Sym) **out, tc_rt_error *err)
{
	uintptr_t a = o->symtab + (uintptr_t)i * sizeof(ElfW(Sym));
	bool ok = o->nsyms ? i < o->nsyms
	                   : (i <= (UINTPTR_MAX - o->symtab) / sizeof(ElfW(Sym)) &&
	                      pe_inside(o, a, sizeof(ElfW(Sym)), PF_R));
	if (!ok)
		return BAD(err, "symbol %u is outside DT_SYMTAB", i);
	*out = (const ElfW(Sym) *)a;
	return TC_RT_OK;
}

static int name_is(const pe_object *o, uint32_t i, const char *name, size_t len, bool *yes, tc_rt_error *err)
{
	const ElfW(Sym) *s = NULL; /* set when sym_at succeeds (gcc -O3 cannot tell) */
	TRY(sym_at(o, i, &s, err));
	if (s->st_name >= o->strsz)
		return BAD(err, "symbol %u's name %u is outside DT_STRTAB", i, (unsigned)s->st_name);
	size_t room = o->strsz - s->st_name;
	*yes = len < room && memcmp((const char *)o->strtab + s->st_name, name, len + 1) == 0;
	return TC_RT_OK;
}

struct found {
	uint32_t *idx;
	size_t max, n;
};

static void add_found(struct found *f, uint32_t i)
{
	for (size_t k = 0; k < f->n; k++)
		if (f->idx[k] == i)
			return;
	if (f->n < f->max)
		f->idx[f->n++] = i;
}

static int check(const pe_object *o, uint32_t i, const char *name, size_t len, struct found *f, tc_rt_error *err)
{
	bool yes = false;
	TRY(name_is(o, i, name, len, &yes, err));
	if (yes)
		add_found(f, i);
	return TC_RT_OK;
}

/* The gABI's hash function (DT_HASH). */
static uint32_t sysv_hash(const char *s)
{
	uint32_t h = 0;
	for (; *s; s++) {
		h = (h << 4) + (uint8_t)*s;
		uint32_t g = h & 0xf0000000u;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

/* DT_GNU_HASH's (Bernstein's, h * 33 + c). */
static uint32_t gnu_hash_of(const char *s)
{
	uint32_t h = 5381;
	for (; *s; s++)
		h = h * 33 + (uint8_t)*s;
	return h;
}

/* Every relocation of every table, as (offset, info, addend, rela). */
typedef int (*rel_fn)(void *arg, const pe_rel *r, bool rela, tc_rt_error *err);

struct aps2_ctx {
	rel_fn fn;
	void *arg;
	tc_rt_error *err;
	bool rela;
};

static int aps2_one(void *arg, const pe_rel *r)
{
	struct aps2_ctx *c = arg;
	return c->fn(c->arg, r, c->rela, c->err);
}

static int each_rel(const pe_object *o, rel_fn fn, void *arg, tc_rt_error *err)
{
	const struct { const pe_table *t; bool rela; } plain[] = {
		{ &o->jmprel, o->jmprel_rela }, { &o->rel, false }, { &o->rela, true },
	};
	for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++) {
		const pe_table *t = plain[k].t;
		if (!t->size)
			continue;
		if (plain[k].rela) {
			const ElfW(Rela) *r = (const ElfW(Rela) *)t->addr;
			for (size_t i = 0; i < t->size / sizeof *r; i++) {
				pe_rel x = { (uintptr_t)r[i].r_offset, (uintptr_t)r[i].r_info, (intptr_t)r[i].r_addend };
				TRY(fn(arg, &x, true, err));
			}
		} else {
			const ElfW(Rel) *r = (const ElfW(Rel) *)t->addr;
			for (size_t i = 0; i < t->size / sizeof *r; i++) {
				pe_rel x = { (uintptr_t)r[i].r_offset, (uintptr_t)r[i].r_info, 0 };
				TRY(fn(arg, &x, false, err));
			}
		}
	}
	/* a packed table describes no more relocations than the object has words */
	size_t max = (o->hi - o->lo) / sizeof(uintptr_t) + 1;
	const struct { const pe_table *t; bool rela; } packed[] = { { &o->android_rel, false }, { &o->android_rela, true } };
	for (size_t k = 0; k < 2; k++) {
		const pe_table *t = packed[k].t;
		if (!t->size)
			continue;
		struct aps2_ctx c = { fn, arg, err, packed[k].rela };
		TRY(pe_aps2_each((const uint8_t *)t->addr, t->size, packed[k].rela, max, aps2_one, &c, err));
	}
	return TC_RT_OK;
}

static int max_sym(void *arg, const pe_rel *r, bool rela, tc_rt_error *err)
{
	uint32_t *top = arg;
	if (PE_R_SYM(r->info) > *top)
		*top = PE_R_SYM(r->info);
	return TC_RT_OK;
}

int pe_lookup(const pe_object *o, const char *name, uint32_t *idx, size_t max, size_t *n, tc_rt_error *err)
{
	struct found f = { idx, max, 0 };
	size_t len = strlen(name);
	*n = 0;
	if (o->hash) {
		const uint32_t *h = (const uint32_t *)o->hash;
		uint32_t nbucket = h[0], nchain = h[1];
		const uint32_t *chain = h + 2 + nbucket;
		uint32_t i = h[2 + sysv_hash(name) % nbucket];
		for (uint32_t steps = 0; i != 0; steps++) {
			if (i >= nchain || steps >= nchain)
				return BAD(err, "DT_HASH chain leaves the table or loops");
			TRY(check(o, i, name, len, &f, err));
			i = chain[i];
		}
	} else if (o->gnu_hash) {
		/* imports are not hashed: they come first, below symoffset */
		for (uint32_t i = 1; i < o->gnu_symoffset; i++)
			TRY(check(o, i, name, len, &f, err));
		const uint32_t *h = (const uint32_t *)o->gnu_hash;
		uint32_t nbuckets = h[0], symoffset = h[1];
		const uint32_t *buckets = h + 4 + h[2] * (sizeof(uintptr_t) / 4);
		const uint32_t *chains = buckets + nbuckets;
		uint32_t hv = gnu_hash_of(name);
		uint32_t i = buckets[hv % nbuckets];
		if (i != 0) {
			if (i < symoffset)
				return BAD(err, "DT_GNU_HASH bucket %u below symoffset %u", i, symoffset);
			for (;; i++) {
				if (i >= o->nsyms)
					return BAD(err, "DT_GNU_HASH chain runs past %zu symbols", o->nsyms);
				uint32_t c = chains[i - symoffset];
				if ((c | 1) == (hv | 1))
					TRY(check(o, i, name, len, &f, err));
				if (c & 1)
					break;
			}
		}
	} else {
		/* no hash table: the symbols the relocations name */
		uint32_t top = 0;
		TRY(each_rel(o, max_sym, &top, err));
		for (uint32_t i = 1; i <= top && i != 0; i++)
			TRY(check(o, i, name, len, &f, err));
	}
	*n = f.n;
	return TC_RT_OK;
}

struct slots {
	const pe_object *o;
	const uint32_t *idx;
	size_t n;
	pe_slot_fn fn;
	void *arg;
};

static int kind_of(uint32_t type)
{
	switch (type) {
	case PE_R_JUMP_SLOT: return PE_JUMP_SLOT;
	case PE_R_GLOB_DAT: return PE_GLOB_DAT;
	case PE_R_ABS: return PE_ABS;
	default: return 0;
	}
}

static int one_slot(void *arg, const pe_rel *r, bool rela, tc_rt_error *err)
{
	struct slots *s = arg;
	uint32_t sym = PE_R_SYM(r->info);
	size_t k = 0;
	while (k < s->n && s->idx[k] != sym)
		k++;
	int kind = kind_of(PE_R_TYPE(r->info));
	if (k == s->n || !kind)
		return TC_RT_OK;
	pe_slot slot = { s->o->bias + r->offset, kind, rela, r->addend, sym, 0 };
	if (slot.addr % sizeof(uintptr_t) || !pe_inside(s->o, slot.addr, sizeof(uintptr_t), PF_W))
		return BAD(err, "relocation of symbol %u at %#lx is not an aligned word of a writable segment", sym,
		           (unsigned long)r->offset);
	const ElfW(Sym) *def = NULL;
	TRY(sym_at(s->o, sym, &def, err));
	if (def->st_shndx != SHN_UNDEF && def->st_value != 0)
		slot.defined = s->o->bias + (uintptr_t)def->st_value;
	return s->fn(s->arg, &slot);
}

int pe_each_slot(const pe_object *o, const uint32_t *idx, size_t n, pe_slot_fn fn, void *arg, tc_rt_error *err)
{
	if (n == 0)
		return TC_RT_OK;
	struct slots s = { o, idx, n, fn, arg };
	return each_rel(o, one_slot, &s, err);
}

/* SLEB128, at most as many bytes as an address has 7-bit groups. */
static int sleb(const uint8_t **p, const uint8_t *end, uintptr_t *out, tc_rt_error *err)
{
	uintptr_t v = 0;
	unsigned shift = 0;
	uint8_t b;
	do {
		if (*p >= end)
			return BAD(err, "APS2: a number runs past the table");
		if (shift >= WORD_BITS)
			return BAD(err, "APS2: a number longer than %u bits", (unsigned)WORD_BITS);
		b = *(*p)++;
		v |= (uintptr_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < WORD_BITS && (b & 0x40))
		v |= ~(uintptr_t)0 << shift;
	*out = v;
	return TC_RT_OK;
}

/* group flags (bionic linker_reloc_iterators.h) */
enum {
	BY_INFO = 1,
	BY_OFFSET_DELTA = 2,
	BY_ADDEND = 4,
	HAS_ADDEND = 8,
};

int pe_aps2_each(const uint8_t *p, size_t size, bool rela, size_t max_count, pe_rel_fn fn, void *arg,
                 tc_rt_error *err)
{
	const uint8_t *end = p + size;
	if (size < 4 || memcmp(p, "APS2", 4) != 0)
		return BAD(err, "APS2: no magic");
	p += 4;
	uintptr_t count = 0, v = 0; /* set by sleb when it succeeds (gcc -O3 cannot tell) */
	pe_rel r = { 0, 0, 0 };
	TRY(sleb(&p, end, &count, err));
	TRY(sleb(&p, end, &r.offset, err));
	if (count > max_count)
		return BAD(err, "APS2: %lu relocations, more than the object's %zu words", (unsigned long)count,
		           max_count);
	for (uintptr_t done = 0; done < count;) {
		uintptr_t group = 0, flags = 0, delta = 0;
		TRY(sleb(&p, end, &group, err));
		TRY(sleb(&p, end, &flags, err));
		if (group == 0 || group > count - done)
			return BAD(err, "APS2: a group of %ld with %lu relocations left", (long)group,
			           (unsigned long)(count - done));
		if (flags & ~(uintptr_t)(BY_INFO | BY_OFFSET_DELTA | BY_ADDEND | HAS_ADDEND))
			return BAD(err, "APS2: unknown group flags %#lx", (unsigned long)flags);
		if (flags & BY_OFFSET_DELTA)
			TRY(sleb(&p, end, &delta, err));
		if (flags & BY_INFO)
			TRY(sleb(&p, end, &r.info, err));
		bool each_addend = false;
		if (flags & HAS_ADDEND) {
			if (!rela)
				return BAD(err, "APS2: an addend in DT_ANDROID_REL");
			if (flags & BY_ADDEND) {
				TRY(sleb(&p, end, &v, err));
				r.addend = (intptr_t)((uintptr_t)r.addend + v);
			} else {
				each_addend = true;
			}
		} else {
			r.addend = 0;
		}
		for (uintptr_t i = 0; i < group; i++) {
			if (flags & BY_OFFSET_DELTA) {
				r.offset += delta;
			} else {
				TRY(sleb(&p, end, &v, err));
				r.offset += v;
			}
			if (!(flags & BY_INFO))
				TRY(sleb(&p, end, &r.info, err));
			if (each_addend) {
				TRY(sleb(&p, end, &v, err));
				r.addend = (intptr_t)((uintptr_t)r.addend + v);
			}
			TRY(fn(arg, &r));
		}
		done += group;
	}
	return TC_RT_OK;
}

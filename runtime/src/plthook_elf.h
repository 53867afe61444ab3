/* plthook_elf.h: reading a loaded ELF object's dynamic-linking tables for
 * the PLT/GOT hook engine (plthook.c): where its imports of a symbol are
 * written (the GOT slots of its jump-slot, GLOB_DAT and absolute-word
 * relocations).
 *
 * It reads the memory the dynamic linker mapped, described by what
 * dl_iterate_phdr gives (load bias, program headers). Nothing there is
 * trusted: each table is checked to lie inside one readable PT_LOAD segment
 * before it is read, each slot inside a writable one, each index against its
 * table, each size for overflow. Native ELF class and machine only (a process
 * holds objects of its own kind): x86-64, i386, AArch64, ARM. No allocation,
 * no lock, no system call. */
#ifndef TC_PLTHOOK_ELF_H
#define TC_PLTHOOK_ELF_H

#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc_runtime.h"

/* Android's dynamic tags (bionic's elf.h): APS2-packed .rel(a).dyn. */
#define PE_DT_ANDROID_REL 0x6000000f
#define PE_DT_ANDROID_RELSZ 0x60000010
#define PE_DT_ANDROID_RELA 0x60000011
#define PE_DT_ANDROID_RELASZ 0x60000012
#define PE_DT_GNU_HASH 0x6ffffef5

/* What a slot is, whatever the machine calls it. */
enum { PE_JUMP_SLOT = 1, PE_GLOB_DAT = 2, PE_ABS = 3 };

/* The machine's relocation types (ELF psABIs), for the tests. */
#if defined(__x86_64__)
#define PE_R_JUMP_SLOT 7u   /* R_X86_64_JUMP_SLOT */
#define PE_R_GLOB_DAT 6u    /* R_X86_64_GLOB_DAT */
#define PE_R_ABS 1u         /* R_X86_64_64 */
#elif defined(__i386__)
#define PE_R_JUMP_SLOT 7u   /* R_386_JMP_SLOT */
#define PE_R_GLOB_DAT 6u    /* R_386_GLOB_DAT */
#define PE_R_ABS 1u         /* R_386_32 */
#elif defined(__aarch64__)
#define PE_R_JUMP_SLOT 1026u /* R_AARCH64_JUMP_SLOT */
#define PE_R_GLOB_DAT 1025u  /* R_AARCH64_GLOB_DAT */
#define PE_R_ABS 257u        /* R_AARCH64_ABS64 */
#elif defined(__arm__)
#define PE_R_JUMP_SLOT 22u  /* R_ARM_JUMP_SLOT */
#define PE_R_GLOB_DAT 21u   /* R_ARM_GLOB_DAT */
#define PE_R_ABS 2u         /* R_ARM_ABS32 */
#endif
#ifdef PE_R_JUMP_SLOT
#define PE_SUPPORTED 1
#else
#define PE_SUPPORTED 0
#endif

#if UINTPTR_MAX > 0xffffffffu
#define PE_R_SYM(i) ((uint32_t)((uint64_t)(i) >> 32))
#define PE_R_TYPE(i) ((uint32_t)((uint64_t)(i) & 0xffffffffu))
#define PE_R_INFO(s, t) (((uint64_t)(s) << 32) | (uint32_t)(t))
#else
#define PE_R_SYM(i) ((uint32_t)(i) >> 8)
#define PE_R_TYPE(i) ((uint32_t)(i) & 0xffu)
#define PE_R_INFO(s, t) (((uint32_t)(s) << 8) | ((uint32_t)(t) & 0xffu))
#endif

typedef struct pe_table {
	uintptr_t addr;
	size_t size;            /* bytes; 0: absent */
} pe_table;

typedef struct pe_object {
	uintptr_t bias;         /* load bias: address = bias + p_vaddr */
	const ElfW(Phdr) *phdr;
	size_t phnum;
	uintptr_t lo, hi;       /* [lo, hi): the span of its PT_LOAD segments */
	uintptr_t symtab;
	size_t nsyms;           /* from a hash table; 0: not known */
	uintptr_t strtab;
	size_t strsz;
	uintptr_t hash;         /* DT_HASH (SysV), 0 if none */
	uintptr_t gnu_hash;     /* DT_GNU_HASH, 0 if none */
	uint32_t gnu_symoffset; /* first symbol in the GNU hash table */
	pe_table jmprel;        /* DT_JMPREL, DT_PLTRELSZ */
	bool jmprel_rela;       /* DT_PLTREL: DT_RELA (else DT_REL) */
	pe_table rel, rela;     /* DT_REL(SZ), DT_RELA(SZ) */
	pe_table android_rel, android_rela; /* APS2-packed */
} pe_object;

/* One relocation of a looked-up symbol that puts a function's address in
 * a word: the engine's candidate slot. */
typedef struct pe_slot {
	uintptr_t addr;         /* the word (aligned, in a writable segment) */
	int kind;               /* PE_JUMP_SLOT, PE_GLOB_DAT, PE_ABS */
	bool has_addend;        /* RELA: the addend is known (REL: implicit) */
	intptr_t addend;
	uint32_t sym;           /* index in .dynsym */
	uintptr_t defined;      /* the symbol's own address if this object defines it, else 0 */
} pe_slot;

typedef int (*pe_slot_fn)(void *arg, const pe_slot *slot);

/* Reads the object's dynamic section (its PT_DYNAMIC). d_ptr values are
 * taken as load-relative (bionic, musl, a read-only .dynamic) or as already
 * relocated (glibc rewrites a writable .dynamic in place), whichever lands
 * inside the object; ambiguous or outside is TC_RT_EFORMAT. */
int pe_open(pe_object *o, uintptr_t bias, const ElfW(Phdr) *phdr, size_t phnum, tc_rt_error *err);

/* The .dynsym indices of the symbols named name (more than one when versions
 * differ), at most max of them, in *n. From DT_HASH (its chains hold every
 * symbol, imports too), else DT_GNU_HASH (defined symbols) plus a scan of
 * the imports before its first hashed symbol, else a scan of the symbols the
 * relocations name. */
int pe_lookup(const pe_object *o, const char *name, uint32_t *idx, size_t max, size_t *n, tc_rt_error *err);

/* Calls fn for every relocation of one of the n symbols in idx that is a
 * slot (jump slot, GLOB_DAT or absolute word), from .rel(a).plt, .rel(a).dyn
 * and the APS2-packed tables. A negative return of fn stops and is returned;
 * a malformed table is TC_RT_EFORMAT. RELR holds only relative relocations (no
 * symbol) and is not read. */
int pe_each_slot(const pe_object *o, const uint32_t *idx, size_t n, pe_slot_fn fn, void *arg, tc_rt_error *err);

/* addr inside one of the object's PT_LOAD segments (with its flags). */
bool pe_inside(const pe_object *o, uintptr_t addr, size_t len, unsigned flags);

/* One relocation decoded from an APS2 stream. */
typedef struct pe_rel {
	uintptr_t offset, info;
	intptr_t addend;
} pe_rel;
typedef int (*pe_rel_fn)(void *arg, const pe_rel *r);

/* Decodes Android's packed relocations ("APS2" then SLEB128 groups; bionic
 * linker_reloc_iterators.h, lld's AndroidPackedRelocationSection). rela:
 * DT_ANDROID_RELA (addends allowed) or DT_ANDROID_REL (an addend is
 * TC_RT_EFORMAT). At most max_count relocations (a stream can describe any
 * number in few bytes). */
int pe_aps2_each(const uint8_t *p, size_t size, bool rela, size_t max_count, pe_rel_fn fn, void *arg,
                 tc_rt_error *err);

#endif

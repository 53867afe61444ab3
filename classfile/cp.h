/* The constant pool (JVMS 4.4): parsed entries, checked accessors, find-or-add.
 *
 * Entries are indexed 1..count-1 as in the file; the slot after a Long or Double has
 * tag 0. Utf8 bytes are borrowed from the input buffer (or, for added entries, copied
 * into the arena). Every accessor checks the index range and the tag and returns NULL
 * or 0 on a mismatch, so callers never index out of bounds. */
#ifndef TC_CP_H
#define TC_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "bytes.h"

enum {
	CP_UTF8 = 1,
	CP_INTEGER = 3,
	CP_FLOAT = 4,
	CP_LONG = 5,
	CP_DOUBLE = 6,
	CP_CLASS = 7,
	CP_STRING = 8,
	CP_FIELDREF = 9,
	CP_METHODREF = 10,
	CP_IMETHODREF = 11,
	CP_NAMETYPE = 12,
	CP_METHODHANDLE = 15,
	CP_METHODTYPE = 16,
	CP_DYNAMIC = 17,
	CP_INVOKEDYNAMIC = 18,
	CP_MODULE = 19,
	CP_PACKAGE = 20,
};

/* The largest constant_pool_count a class file can hold (u2); indices stop one below. */
#define CP_MAX_COUNT 65535u

typedef struct cp_entry {
	uint8_t tag;
	uint8_t kind;  /* MethodHandle reference_kind */
	uint16_t a;    /* first index: name, class, string, descriptor, bootstrap method */
	uint16_t b;    /* second index: descriptor, name_and_type, reference */
	uint32_t len;  /* Utf8 byte length; for references, the memo of cp_ref_words */
	uint32_t off;  /* offset of the tag byte in the input, for errors; 0 when added */
	union {
		const uint8_t *utf8;
		uint32_t u4;   /* Integer, Float bits */
		uint64_t u8;   /* Long, Double bits */
	} v;
} cp_entry;

typedef struct cp_index cp_index;

typedef struct cp_pool {
	uint32_t count;      /* constant_pool_count; valid indices are 1..count-1 */
	uint32_t orig_count; /* the count as parsed: later entries were added */
	uint32_t cap;
	cp_entry *e;
	cp_index *index;     /* lookup for find-or-add, built once lookups are many */
	uint32_t lookups;    /* find-or-add calls so far (the first few scan instead) */
	uint16_t recent[8];  /* indices found or added lately: edits ask for the same few */
	uint32_t nrecent;
	arena *arena;
} cp_pool;

/* Parses count-1 entries starting at the reader, then checks every cross reference
 * (range and tag). The pool borrows Utf8 bytes from the reader's buffer. */
int cp_parse(cp_pool *pool, arena *a, tc_reader *r);
/* Writes constant_pool_count and the entries. */
void cp_write(const cp_pool *pool, tc_buf *out);

static inline uint8_t cp_tag(const cp_pool *pool, uint32_t idx)
{
	return idx > 0 && idx < pool->count ? pool->e[idx].tag : 0;
}

const uint8_t *cp_utf8(const cp_pool *pool, uint32_t idx, uint32_t *len);
/* The Utf8 name of a CONSTANT_Class (internal form "java/lang/Object"). */
const uint8_t *cp_class_name(const cp_pool *pool, uint32_t idx, uint32_t *len);
bool cp_utf8_eq(const cp_pool *pool, uint32_t idx, const char *s);

/* A Fieldref, Methodref or InterfaceMethodref, resolved to its strings. */
typedef struct cp_ref {
	const uint8_t *cls, *name, *desc;
	uint32_t cls_len, name_len, desc_len;
} cp_ref;
bool cp_member_ref(const cp_pool *pool, uint32_t idx, cp_ref *out);
/* The NameAndType of an InvokeDynamic/Dynamic entry: name and descriptor. */
bool cp_dynamic_ref(const cp_pool *pool, uint32_t idx, cp_ref *out);

/* Stack words of a Fieldref (args 0, ret = the field's words), Methodref,
 * InterfaceMethodref or InvokeDynamic (the arguments' and result's words). Parsed once
 * per entry and remembered in it, so instruction analyses stay cheap. false when the
 * entry is of another kind or its descriptor is malformed. */
bool cp_ref_words(cp_pool *pool, uint32_t idx, uint32_t *args, uint32_t *ret);

/* Find-or-add. They return the index (> 0), or 0 with err set when the pool is full
 * (TC_ELIMIT: never a broken class) or memory runs out. Strings are copied. */
uint16_t cp_add_utf8(cp_pool *pool, const void *s, uint32_t len, tc_error *err);
uint16_t cp_add_class(cp_pool *pool, const void *name, uint32_t len, tc_error *err);
uint16_t cp_add_string(cp_pool *pool, const void *s, uint32_t len, tc_error *err);
uint16_t cp_add_nametype(cp_pool *pool, const char *name, const char *desc, tc_error *err);
uint16_t cp_add_methodref(cp_pool *pool, const char *cls, const char *name, const char *desc,
                          bool interface, tc_error *err);
uint16_t cp_add_fieldref(cp_pool *pool, const char *cls, const char *name, const char *desc,
                         tc_error *err);
uint16_t cp_add_integer(cp_pool *pool, int32_t value, tc_error *err);

/* How many entries can still be added before the pool is full. */
static inline uint32_t cp_free_slots(const cp_pool *pool)
{
	return pool->count < CP_MAX_COUNT ? CP_MAX_COUNT - pool->count : 0;
}

const char *cp_tag_name(uint8_t tag);

#endif

#include "cp.h"

#include "desc.h"

#include <stdio.h>
#include <string.h>

/* uthash allocates its buckets through these macros; they draw from the pool's arena so
 * a parsed class never owns memory outside it. A failed allocation is not fatal: the
 * item is simply not indexed and the caller reports TC_ENOMEM. */
#define uthash_malloc(sz) arena_alloc(hash_arena, (sz))
#define uthash_free(ptr, sz) ((void)(ptr), (void)(sz))
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(obj) (hash_oom = 1)
#include <uthash.h>

typedef struct cp_item {
	UT_hash_handle hh;
	uint64_t key;        /* tag, a, b or value for structural entries */
	const uint8_t *utf8; /* Utf8 entries use the bytes as key */
	uint32_t len;
	uint16_t idx;
} cp_item;

struct cp_index {
	cp_item *utf8;
	cp_item *other;
};

static const char *const tag_names[] = {
	[CP_UTF8] = "Utf8",
	[CP_INTEGER] = "Integer",
	[CP_FLOAT] = "Float",
	[CP_LONG] = "Long",
	[CP_DOUBLE] = "Double",
	[CP_CLASS] = "Class",
	[CP_STRING] = "String",
	[CP_FIELDREF] = "Fieldref",
	[CP_METHODREF] = "Methodref",
	[CP_IMETHODREF] = "InterfaceMethodref",
	[CP_NAMETYPE] = "NameAndType",
	[CP_METHODHANDLE] = "MethodHandle",
	[CP_METHODTYPE] = "MethodType",
	[CP_DYNAMIC] = "Dynamic",
	[CP_INVOKEDYNAMIC] = "InvokeDynamic",
	[CP_MODULE] = "Module",
	[CP_PACKAGE] = "Package",
};

const char *cp_tag_name(uint8_t tag)
{
	if (tag < sizeof tag_names / sizeof tag_names[0] && tag_names[tag])
		return tag_names[tag];
	return "invalid";
}

static int bad_ref(tc_error *err, const cp_pool *pool, uint32_t i, uint32_t ref,
                   const char *want)
{
	char part[48];
	snprintf(part, sizeof part, "constant pool #%u", i);
	if (ref == 0 || ref >= pool->count)
		return tc_fail(err, TC_EFORMAT, pool->e[i].off, part,
		               "%s refers to index %u, outside 1..%u", cp_tag_name(pool->e[i].tag),
		               ref, pool->count - 1);
	return tc_fail(err, TC_EFORMAT, pool->e[i].off, part, "%s refers to #%u, a %s, not a %s",
	               cp_tag_name(pool->e[i].tag), ref, cp_tag_name(cp_tag(pool, ref)), want);
}

/* JVMS 4.4: every index inside the pool must name an entry of the right kind. */
static int check_refs(const cp_pool *pool, tc_error *err)
{
	for (uint32_t i = 1; i < pool->count; i++) {
		const cp_entry *e = &pool->e[i];
		switch (e->tag) {
		case CP_CLASS:
		case CP_STRING:
		case CP_METHODTYPE:
		case CP_MODULE:
		case CP_PACKAGE:
			if (cp_tag(pool, e->a) != CP_UTF8)
				return bad_ref(err, pool, i, e->a, "Utf8");
			break;
		case CP_FIELDREF:
		case CP_METHODREF:
		case CP_IMETHODREF:
			if (cp_tag(pool, e->a) != CP_CLASS)
				return bad_ref(err, pool, i, e->a, "Class");
			if (cp_tag(pool, e->b) != CP_NAMETYPE)
				return bad_ref(err, pool, i, e->b, "NameAndType");
			break;
		case CP_NAMETYPE:
			if (cp_tag(pool, e->a) != CP_UTF8)
				return bad_ref(err, pool, i, e->a, "Utf8");
			if (cp_tag(pool, e->b) != CP_UTF8)
				return bad_ref(err, pool, i, e->b, "Utf8");
			break;
		case CP_DYNAMIC:
		case CP_INVOKEDYNAMIC:
			if (cp_tag(pool, e->b) != CP_NAMETYPE)
				return bad_ref(err, pool, i, e->b, "NameAndType");
			break;
		case CP_METHODHANDLE: {
			uint8_t t = cp_tag(pool, e->b);
			bool ok;
			switch (e->kind) {
			case 1: case 2: case 3: case 4: ok = t == CP_FIELDREF; break;
			case 5: case 8: ok = t == CP_METHODREF; break;
			case 6: case 7: ok = t == CP_METHODREF || t == CP_IMETHODREF; break;
			case 9: ok = t == CP_IMETHODREF; break;
			default: {
				char part[48];
				snprintf(part, sizeof part, "constant pool #%u", i);
				return tc_fail(err, TC_EFORMAT, e->off, part,
				               "MethodHandle reference_kind %u is not 1..9", e->kind);
			}
			}
			if (!ok)
				return bad_ref(err, pool, i, e->b,
				               e->kind <= 4 ? "Fieldref" : "Methodref/InterfaceMethodref");
			break;
		}
		default:
			break;
		}
	}
	return TC_OK;
}

int cp_parse(cp_pool *pool, arena *a, tc_reader *r)
{
	memset(pool, 0, sizeof *pool);
	pool->arena = a;
	r->part = "constant_pool_count";
	uint32_t count = rd_u2(r);
	if (!rd_ok(r))
		return r->err->code;
	if (count == 0)
		return tc_fail(r->err, TC_EFORMAT, rd_off(r) - 2, r->part, "is 0, must be at least 1");
	pool->e = arena_array(a, count, sizeof(cp_entry));
	if (!pool->e)
		return tc_fail(r->err, TC_ENOMEM, rd_off(r), r->part, "no memory for %u entries", count);
	pool->count = pool->orig_count = pool->cap = count;
	memset(&pool->e[0], 0, sizeof pool->e[0]);
	r->part = "constant pool";
	char part[48];
	for (uint32_t i = 1; i < count; i++) {
		cp_entry *e = &pool->e[i];
		memset(e, 0, sizeof *e);
		e->off = rd_off(r);
		e->tag = rd_u1(r);
		switch (e->tag) {
		case CP_UTF8:
			e->len = rd_u2(r);
			e->v.utf8 = rd_bytes(r, e->len);
			break;
		case CP_INTEGER:
		case CP_FLOAT:
			e->v.u4 = rd_u4(r);
			break;
		case CP_LONG:
		case CP_DOUBLE: {
			uint64_t hi = rd_u4(r);
			e->v.u8 = hi << 32 | rd_u4(r);
			/* JVMS 4.4.5: an 8-byte constant takes two indices. */
			if (i + 1 >= count && rd_ok(r)) {
				snprintf(part, sizeof part, "constant pool #%u", i);
				return tc_fail(r->err, TC_EFORMAT, e->off, part,
				               "%s in the last slot has no room for its second index",
				               cp_tag_name(e->tag));
			}
			i++;
			memset(&pool->e[i], 0, sizeof pool->e[i]);
			break;
		}
		case CP_CLASS:
		case CP_STRING:
		case CP_METHODTYPE:
		case CP_MODULE:
		case CP_PACKAGE:
			e->a = rd_u2(r);
			break;
		case CP_FIELDREF:
		case CP_METHODREF:
		case CP_IMETHODREF:
		case CP_NAMETYPE:
		case CP_DYNAMIC:
		case CP_INVOKEDYNAMIC:
			e->a = rd_u2(r);
			e->b = rd_u2(r);
			break;
		case CP_METHODHANDLE:
			e->kind = rd_u1(r);
			e->b = rd_u2(r);
			break;
		default:
			if (!rd_ok(r))
				break;
			snprintf(part, sizeof part, "constant pool #%u", i);
			return tc_fail(r->err, TC_EFORMAT, e->off, part, "unknown tag %u", e->tag);
		}
		if (!rd_ok(r)) {
			/* The reader named only "constant pool": add which entry (not i, which
			 * a Long or Double has already moved to its second slot). */
			snprintf(r->err->part, sizeof r->err->part, "constant pool #%u",
			         (uint32_t)(e - pool->e));
			return r->err->code;
		}
	}
	r->part = "class file";
	return check_refs(pool, r->err);
}

void cp_write(const cp_pool *pool, tc_buf *out)
{
	buf_u2(out, (uint16_t)pool->count);
	for (uint32_t i = 1; i < pool->count; i++) {
		const cp_entry *e = &pool->e[i];
		if (e->tag == 0)
			continue;
		buf_u1(out, e->tag);
		switch (e->tag) {
		case CP_UTF8:
			buf_u2(out, (uint16_t)e->len);
			buf_bytes(out, e->v.utf8, e->len);
			break;
		case CP_INTEGER:
		case CP_FLOAT:
			buf_u4(out, e->v.u4);
			break;
		case CP_LONG:
		case CP_DOUBLE:
			buf_u4(out, (uint32_t)(e->v.u8 >> 32));
			buf_u4(out, (uint32_t)e->v.u8);
			break;
		case CP_CLASS:
		case CP_STRING:
		case CP_METHODTYPE:
		case CP_MODULE:
		case CP_PACKAGE:
			buf_u2(out, e->a);
			break;
		case CP_METHODHANDLE:
			buf_u1(out, e->kind);
			buf_u2(out, e->b);
			break;
		default:
			buf_u2(out, e->a);
			buf_u2(out, e->b);
			break;
		}
	}
}

const uint8_t *cp_utf8(const cp_pool *pool, uint32_t idx, uint32_t *len)
{
	if (cp_tag(pool, idx) != CP_UTF8)
		return NULL;
	if (len)
		*len = pool->e[idx].len;
	/* A zero-length Utf8 may carry a NULL pointer from rd_bytes; hand out "" instead. */
	return pool->e[idx].v.utf8 ? pool->e[idx].v.utf8 : (const uint8_t *)"";
}

const uint8_t *cp_class_name(const cp_pool *pool, uint32_t idx, uint32_t *len)
{
	if (cp_tag(pool, idx) != CP_CLASS)
		return NULL;
	return cp_utf8(pool, pool->e[idx].a, len);
}

bool cp_utf8_eq(const cp_pool *pool, uint32_t idx, const char *s)
{
	uint32_t len;
	const uint8_t *p = cp_utf8(pool, idx, &len);
	size_t n = strlen(s);
	return p && len == n && memcmp(p, s, n) == 0;
}

static bool nametype(const cp_pool *pool, uint32_t idx, cp_ref *out)
{
	if (cp_tag(pool, idx) != CP_NAMETYPE)
		return false;
	out->name = cp_utf8(pool, pool->e[idx].a, &out->name_len);
	out->desc = cp_utf8(pool, pool->e[idx].b, &out->desc_len);
	return out->name && out->desc;
}

bool cp_member_ref(const cp_pool *pool, uint32_t idx, cp_ref *out)
{
	uint8_t t = cp_tag(pool, idx);
	if (t != CP_FIELDREF && t != CP_METHODREF && t != CP_IMETHODREF)
		return false;
	out->cls = cp_class_name(pool, pool->e[idx].a, &out->cls_len);
	return out->cls && nametype(pool, pool->e[idx].b, out);
}

bool cp_dynamic_ref(const cp_pool *pool, uint32_t idx, cp_ref *out)
{
	uint8_t t = cp_tag(pool, idx);
	if (t != CP_DYNAMIC && t != CP_INVOKEDYNAMIC)
		return false;
	out->cls = NULL;
	out->cls_len = 0;
	return nametype(pool, pool->e[idx].b, out);
}

#define WORDS_KNOWN (1u << 31)
#define WORDS_BAD (1u << 30)

bool cp_ref_words(cp_pool *pool, uint32_t idx, uint32_t *args, uint32_t *ret)
{
	uint8_t t = cp_tag(pool, idx);
	if (t != CP_FIELDREF && t != CP_METHODREF && t != CP_IMETHODREF && t != CP_INVOKEDYNAMIC)
		return false;
	cp_entry *e = &pool->e[idx];
	if (!(e->len & WORDS_KNOWN)) {
		cp_ref ref;
		uint32_t memo = WORDS_BAD;
		bool ok = t == CP_INVOKEDYNAMIC ? cp_dynamic_ref(pool, idx, &ref) : cp_member_ref(pool, idx, &ref);
		if (ok && t == CP_FIELDREF) {
			if (cf_desc_field_valid(ref.desc, ref.desc_len))
				memo = (uint32_t)cf_desc_words(ref.desc[0]) << 16;
		} else if (ok) {
			cf_desc_method md;
			if (cf_desc_parse_method(ref.desc, ref.desc_len, &md) && md.arg_words <= 0xFFFF)
				memo = md.arg_words | (uint32_t)md.ret_words << 16;
		}
		e->len = memo | WORDS_KNOWN;
	}
	if (e->len & WORDS_BAD)
		return false;
	*args = e->len & 0xFFFF;
	*ret = (e->len >> 16) & 0xFF;
	return true;
}

/* --- find-or-add ------------------------------------------------------------------ */

static uint64_t key_of(const cp_entry *e)
{
	switch (e->tag) {
	case CP_INTEGER:
		return (uint64_t)e->tag << 56 | e->v.u4;
	default:
		return (uint64_t)e->tag << 56 | (uint64_t)e->kind << 40 | (uint64_t)e->a << 16 | e->b;
	}
}

static bool indexable(uint8_t tag)
{
	switch (tag) {
	case CP_UTF8: case CP_INTEGER: case CP_CLASS: case CP_STRING: case CP_NAMETYPE:
	case CP_FIELDREF: case CP_METHODREF: case CP_IMETHODREF:
		return true;
	}
	return false;
}

/* Indexes entry idx unless an equal entry is indexed already (the lowest index wins). */
static bool index_add(cp_pool *pool, uint32_t idx)
{
	arena *hash_arena = pool->arena;
	int hash_oom = 0;
	cp_index *ix = pool->index;
	const cp_entry *e = &pool->e[idx];
	cp_item *it = NULL;
	if (e->tag == CP_UTF8) {
		const uint8_t *s = e->v.utf8 ? e->v.utf8 : (const uint8_t *)"";
		HASH_FIND(hh, ix->utf8, s, e->len, it);
		if (it)
			return true;
		if (!(it = arena_zalloc(pool->arena, sizeof *it)))
			return false;
		it->utf8 = s;
		it->len = e->len;
		it->idx = (uint16_t)idx;
		HASH_ADD_KEYPTR(hh, ix->utf8, it->utf8, it->len, it);
	} else {
		uint64_t key = key_of(e);
		HASH_FIND(hh, ix->other, &key, sizeof key, it);
		if (it)
			return true;
		if (!(it = arena_zalloc(pool->arena, sizeof *it)))
			return false;
		it->key = key;
		it->idx = (uint16_t)idx;
		HASH_ADD(hh, ix->other, key, sizeof it->key, it);
	}
	return !hash_oom;
}

static int build_index(cp_pool *pool, tc_error *err)
{
	if (pool->index)
		return TC_OK;
	if (!(pool->index = arena_zalloc(pool->arena, sizeof *pool->index)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "constant pool", "no memory for its index");
	for (uint32_t i = 1; i < pool->count; i++) {
		if (indexable(pool->e[i].tag) && !index_add(pool, i)) {
			pool->index = NULL;
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "constant pool",
			               "no memory for its index");
		}
	}
	return TC_OK;
}

static uint16_t find(cp_pool *pool, const cp_entry *e)
{
	cp_item *it = NULL;
	if (e->tag == CP_UTF8) {
		HASH_FIND(hh, pool->index->utf8, e->v.utf8, e->len, it);
	} else {
		uint64_t key = key_of(e);
		HASH_FIND(hh, pool->index->other, &key, sizeof key, it);
	}
	return it ? it->idx : 0;
}

/* Instrumenting a class looks up a handful of entries: scanning the pool for those is
 * cheaper than hashing all of it. Many lookups (stress tests, big edits) get the index. */
enum { SCAN_LOOKUPS = 24 };

static bool same_entry(const cp_entry *a, const cp_entry *b)
{
	if (a->tag != b->tag)
		return false;
	if (a->tag == CP_UTF8)
		return a->len == b->len && (a->len == 0 || memcmp(a->v.utf8, b->v.utf8, a->len) == 0);
	if (a->tag == CP_INTEGER)
		return a->v.u4 == b->v.u4;
	return a->a == b->a && a->b == b->b && a->kind == b->kind;
}

static void remember(cp_pool *pool, uint16_t idx)
{
	pool->recent[pool->nrecent++ % 8] = idx;
}

static uint16_t lookup(cp_pool *pool, const cp_entry *e, tc_error *err, bool *failed)
{
	*failed = false;
	uint32_t nr = pool->nrecent < 8 ? pool->nrecent : 8;
	for (uint32_t k = 0; k < nr; k++) {
		uint16_t i = pool->recent[k];
		if (i < pool->count && same_entry(&pool->e[i], e))
			return i;
	}
	uint16_t found = 0;
	if (!pool->index && ++pool->lookups <= SCAN_LOOKUPS) {
		for (uint32_t i = 1; i < pool->count && !found; i++)
			if (same_entry(&pool->e[i], e))
				found = (uint16_t)i;
	} else if (build_index(pool, err) != TC_OK) {
		*failed = true;
		return 0;
	} else {
		found = find(pool, e);
	}
	if (found)
		remember(pool, found);
	return found;
}

/* Appends e, known to be absent. */
static uint16_t add_new(cp_pool *pool, const cp_entry *e, tc_error *err)
{
	uint16_t idx;
	if (pool->count >= CP_MAX_COUNT) {
		tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, "constant pool",
		        "is full (%u entries): cannot add a %s", pool->count - 1, cp_tag_name(e->tag));
		return 0;
	}
	if (pool->count >= pool->cap) {
		uint32_t cap = pool->cap * 2 < CP_MAX_COUNT ? pool->cap * 2 : CP_MAX_COUNT;
		if (cap < 16)
			cap = 16;
		cp_entry *n = arena_grow(pool->arena, pool->e, pool->cap * sizeof *n, cap * sizeof *n);
		if (!n) {
			tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "constant pool", "no memory to grow it");
			return 0;
		}
		pool->e = n;
		pool->cap = cap;
	}
	idx = (uint16_t)pool->count;
	pool->e[idx] = *e;
	pool->count++;
	if (pool->index && !index_add(pool, idx)) {
		pool->count--;
		tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "constant pool", "no memory for its index");
		return 0;
	}
	remember(pool, idx);
	return idx;
}

static uint16_t find_or_add(cp_pool *pool, const cp_entry *e, tc_error *err)
{
	/* An entry that refers to one added since parsing can only be among the added
	 * ones: no need to look through the original pool (instrumenting adds a few
	 * references whose names were just added). */
	if (e->tag != CP_UTF8 && e->tag != CP_INTEGER &&
	    (e->a >= pool->orig_count || e->b >= pool->orig_count)) {
		for (uint32_t i = pool->orig_count; i < pool->count; i++)
			if (same_entry(&pool->e[i], e))
				return (uint16_t)i;
		return add_new(pool, e, err);
	}
	bool failed;
	uint16_t idx = lookup(pool, e, err, &failed);
	if (idx || failed)
		return idx;
	return add_new(pool, e, err);
}

uint16_t cp_add_utf8(cp_pool *pool, const void *s, uint32_t len, tc_error *err)
{
	if (len > 0xFFFF) {
		tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, "constant pool", "Utf8 of %u bytes exceeds 65535",
		        len);
		return 0;
	}
	cp_entry e = {.tag = CP_UTF8, .len = len};
	e.v.utf8 = len ? s : (const uint8_t *)"";
	bool failed;
	uint16_t idx = lookup(pool, &e, err, &failed);
	if (idx || failed)
		return idx;
	/* The caller's string may not outlive the class: keep a copy in the arena. */
	if (len && !(e.v.utf8 = arena_dup(pool->arena, s, len))) {
		tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "constant pool", "no memory for a Utf8");
		return 0;
	}
	return add_new(pool, &e, err);
}

uint16_t cp_add_class(cp_pool *pool, const void *name, uint32_t len, tc_error *err)
{
	uint16_t u = cp_add_utf8(pool, name, len, err);
	if (!u)
		return 0;
	cp_entry e = {.tag = CP_CLASS, .a = u};
	return find_or_add(pool, &e, err);
}

uint16_t cp_add_string(cp_pool *pool, const void *s, uint32_t len, tc_error *err)
{
	uint16_t u = cp_add_utf8(pool, s, len, err);
	if (!u)
		return 0;
	cp_entry e = {.tag = CP_STRING, .a = u};
	return find_or_add(pool, &e, err);
}

uint16_t cp_add_nametype(cp_pool *pool, const char *name, const char *desc, tc_error *err)
{
	uint16_t n = cp_add_utf8(pool, name, (uint32_t)strlen(name), err);
	uint16_t d = n ? cp_add_utf8(pool, desc, (uint32_t)strlen(desc), err) : 0;
	if (!d)
		return 0;
	cp_entry e = {.tag = CP_NAMETYPE, .a = n, .b = d};
	return find_or_add(pool, &e, err);
}

static uint16_t add_ref(cp_pool *pool, uint8_t tag, const char *cls, const char *name,
                        const char *desc, tc_error *err)
{
	uint16_t c = cp_add_class(pool, cls, (uint32_t)strlen(cls), err);
	uint16_t nt = c ? cp_add_nametype(pool, name, desc, err) : 0;
	if (!nt)
		return 0;
	cp_entry e = {.tag = tag, .a = c, .b = nt};
	return find_or_add(pool, &e, err);
}

uint16_t cp_add_methodref(cp_pool *pool, const char *cls, const char *name, const char *desc,
                          bool interface, tc_error *err)
{
	return add_ref(pool, interface ? CP_IMETHODREF : CP_METHODREF, cls, name, desc, err);
}

uint16_t cp_add_fieldref(cp_pool *pool, const char *cls, const char *name, const char *desc,
                         tc_error *err)
{
	return add_ref(pool, CP_FIELDREF, cls, name, desc, err);
}

uint16_t cp_add_integer(cp_pool *pool, int32_t value, tc_error *err)
{
	cp_entry e = {.tag = CP_INTEGER};
	e.v.u4 = (uint32_t)value;
	return find_or_add(pool, &e, err);
}

#include "builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "builder: out of memory\n");
		abort();
	}
	return q;
}

static void bv_reserve(bvec *v, size_t more)
{
	if (v->n + more <= v->cap)
		return;
	size_t cap = v->cap ? v->cap * 2 : 64;
	while (cap < v->n + more)
		cap *= 2;
	v->d = xrealloc(v->d, cap);
	v->cap = cap;
}

void bv_u1(bvec *v, uint32_t x)
{
	bv_reserve(v, 1);
	v->d[v->n++] = (uint8_t)x;
}

void bv_u2(bvec *v, uint32_t x)
{
	bv_u1(v, x >> 8);
	bv_u1(v, x);
}

void bv_u4(bvec *v, uint32_t x)
{
	bv_u2(v, x >> 16);
	bv_u2(v, x);
}

void bv_bytes(bvec *v, const void *p, size_t n)
{
	if (!n)
		return;
	bv_reserve(v, n);
	memcpy(v->d + v->n, p, n);
	v->n += n;
}

void bv_free(bvec *v)
{
	free(v->d);
	memset(v, 0, sizeof *v);
}

typedef struct battr {
	uint16_t name;
	bvec body;
} battr;

struct bld_method {
	bld *b;
	uint16_t access, name, desc;
	bool has_code, raw;
	uint16_t max_stack, max_locals;
	bvec code;
	bvec exc;
	uint16_t nexc;
	battr cattrs[8];
	uint16_t ncattrs;
	battr mattrs[8];
	uint16_t nmattrs;
	bvec raw_body;
};

typedef struct bfield {
	uint16_t access, name, desc;
} bfield;

struct bld {
	uint16_t major, minor;
	bvec cp;
	uint32_t cp_next; /* next index */
	uint32_t count_override;
	bool count_set;
	size_t cp_rel[512];
	uint16_t access;
	uint16_t this_class, super_class;
	bool super_set;
	uint16_t code_utf8;
	uint16_t ifaces[16];
	uint16_t nifaces;
	bfield fields[16];
	uint16_t nfields;
	bld_method *methods[64];
	uint16_t nmethods;
	battr cattrs[8];
	uint16_t ncattrs;
	bld_layout layout;
};

bld *bld_new(uint16_t major, uint16_t minor)
{
	bld *b = xrealloc(NULL, sizeof *b);
	memset(b, 0, sizeof *b);
	b->major = major;
	b->minor = minor;
	b->cp_next = 1;
	b->access = 0x0021;
	return b;
}

void bld_free(bld *b)
{
	if (!b)
		return;
	bv_free(&b->cp);
	for (uint32_t i = 0; i < b->nmethods; i++) {
		bld_method *m = b->methods[i];
		bv_free(&m->code);
		bv_free(&m->exc);
		bv_free(&m->raw_body);
		for (uint32_t k = 0; k < m->ncattrs; k++)
			bv_free(&m->cattrs[k].body);
		for (uint32_t k = 0; k < m->nmattrs; k++)
			bv_free(&m->mattrs[k].body);
		free(m);
	}
	for (uint32_t k = 0; k < b->ncattrs; k++)
		bv_free(&b->cattrs[k].body);
	free(b);
}

static uint16_t entry(bld *b, uint16_t slots)
{
	uint16_t idx = (uint16_t)b->cp_next;
	if (idx < 512)
		b->cp_rel[idx] = b->cp.n;
	b->cp_next += slots;
	return idx;
}

uint16_t bld_utf8_raw(bld *b, const void *s, uint16_t len)
{
	uint16_t i = entry(b, 1);
	bv_u1(&b->cp, 1);
	bv_u2(&b->cp, len);
	bv_bytes(&b->cp, s, len);
	return i;
}

uint16_t bld_utf8(bld *b, const char *s)
{
	return bld_utf8_raw(b, s, (uint16_t)strlen(s));
}

static uint16_t one_ref(bld *b, uint8_t tag, uint16_t ref)
{
	uint16_t i = entry(b, 1);
	bv_u1(&b->cp, tag);
	bv_u2(&b->cp, ref);
	return i;
}

static uint16_t two_refs(bld *b, uint8_t tag, uint16_t x, uint16_t y)
{
	uint16_t i = entry(b, 1);
	bv_u1(&b->cp, tag);
	bv_u2(&b->cp, x);
	bv_u2(&b->cp, y);
	return i;
}

uint16_t bld_class(bld *b, const char *name)
{
	uint16_t u = bld_utf8(b, name);
	return one_ref(b, 7, u);
}

uint16_t bld_string(bld *b, const char *s)
{
	uint16_t u = bld_utf8(b, s);
	return one_ref(b, 8, u);
}

uint16_t bld_int(bld *b, int32_t v)
{
	uint16_t i = entry(b, 1);
	bv_u1(&b->cp, 3);
	bv_u4(&b->cp, (uint32_t)v);
	return i;
}

uint16_t bld_float_bits(bld *b, uint32_t bits)
{
	uint16_t i = entry(b, 1);
	bv_u1(&b->cp, 4);
	bv_u4(&b->cp, bits);
	return i;
}

uint16_t bld_long(bld *b, int64_t v)
{
	uint16_t i = entry(b, 2);
	bv_u1(&b->cp, 5);
	bv_u4(&b->cp, (uint32_t)((uint64_t)v >> 32));
	bv_u4(&b->cp, (uint32_t)v);
	return i;
}

uint16_t bld_double_bits(bld *b, uint64_t bits)
{
	uint16_t i = entry(b, 2);
	bv_u1(&b->cp, 6);
	bv_u4(&b->cp, (uint32_t)(bits >> 32));
	bv_u4(&b->cp, (uint32_t)bits);
	return i;
}

uint16_t bld_nametype(bld *b, const char *name, const char *desc)
{
	uint16_t n = bld_utf8(b, name);
	uint16_t d = bld_utf8(b, desc);
	return two_refs(b, 12, n, d);
}

static uint16_t ref(bld *b, uint8_t tag, const char *cls, const char *name, const char *desc)
{
	uint16_t c = bld_class(b, cls);
	uint16_t nt = bld_nametype(b, name, desc);
	return two_refs(b, tag, c, nt);
}

uint16_t bld_fieldref(bld *b, const char *cls, const char *name, const char *desc)
{
	return ref(b, 9, cls, name, desc);
}

uint16_t bld_methodref(bld *b, const char *cls, const char *name, const char *desc)
{
	return ref(b, 10, cls, name, desc);
}

uint16_t bld_imethodref(bld *b, const char *cls, const char *name, const char *desc)
{
	return ref(b, 11, cls, name, desc);
}

uint16_t bld_methodhandle(bld *b, uint8_t kind, uint16_t r)
{
	uint16_t i = entry(b, 1);
	bv_u1(&b->cp, 15);
	bv_u1(&b->cp, kind);
	bv_u2(&b->cp, r);
	return i;
}

uint16_t bld_methodtype(bld *b, const char *desc)
{
	uint16_t u = bld_utf8(b, desc);
	return one_ref(b, 16, u);
}

uint16_t bld_dynamic(bld *b, uint16_t bsm, const char *name, const char *desc)
{
	uint16_t nt = bld_nametype(b, name, desc);
	return two_refs(b, 17, bsm, nt);
}

uint16_t bld_indy(bld *b, uint16_t bsm, const char *name, const char *desc)
{
	uint16_t nt = bld_nametype(b, name, desc);
	return two_refs(b, 18, bsm, nt);
}

uint16_t bld_module(bld *b, const char *name)
{
	uint16_t u = bld_utf8(b, name);
	return one_ref(b, 19, u);
}

uint16_t bld_package(bld *b, const char *name)
{
	uint16_t u = bld_utf8(b, name);
	return one_ref(b, 20, u);
}

uint16_t bld_cp_raw(bld *b, const void *bytes, size_t len, uint16_t slots)
{
	uint16_t i = entry(b, slots);
	bv_bytes(&b->cp, bytes, len);
	return i;
}

void bld_cp_count(bld *b, uint32_t count)
{
	b->count_override = count;
	b->count_set = true;
}

uint16_t bld_cp_next(const bld *b)
{
	return (uint16_t)b->cp_next;
}

uint16_t bld_code_name(bld *b)
{
	if (!b->code_utf8)
		b->code_utf8 = bld_utf8(b, "Code");
	return b->code_utf8;
}

void bld_access(bld *b, uint16_t access)
{
	b->access = access;
}

void bld_this(bld *b, uint16_t cls_index)
{
	b->this_class = cls_index;
}

void bld_super(bld *b, uint16_t cls_index)
{
	b->super_class = cls_index;
	b->super_set = true;
}

uint16_t bld_this_index(bld *b)
{
	if (!b->this_class)
		b->this_class = bld_class(b, "T");
	return b->this_class;
}

void bld_interface(bld *b, uint16_t cls_index)
{
	if (b->nifaces == 16)
		abort();
	b->ifaces[b->nifaces++] = cls_index;
}

void bld_field(bld *b, uint16_t access, const char *name, const char *desc)
{
	if (b->nfields == 16) {
		fprintf(stderr, "builder: more than 16 fields\n");
		abort();
	}
	bfield *f = &b->fields[b->nfields++];
	f->access = access;
	f->name = bld_utf8(b, name);
	f->desc = bld_utf8(b, desc);
}

static bld_method *new_method(bld *b, uint16_t access, const char *name, const char *desc)
{
	if (b->nmethods == 64) {
		fprintf(stderr, "builder: more than 64 methods\n");
		abort();
	}
	bld_method *m = xrealloc(NULL, sizeof *m);
	memset(m, 0, sizeof *m);
	m->b = b;
	m->access = access;
	m->name = bld_utf8(b, name);
	m->desc = bld_utf8(b, desc);
	b->methods[b->nmethods++] = m;
	return m;
}

bld_method *bld_method_code(bld *b, uint16_t access, const char *name, const char *desc,
                            uint16_t max_stack, uint16_t max_locals, const uint8_t *code,
                            size_t len)
{
	bld_method *m = new_method(b, access, name, desc);
	m->has_code = true;
	m->max_stack = max_stack;
	m->max_locals = max_locals;
	bv_bytes(&m->code, code, len);
	return m;
}

bld_method *bld_method_nocode(bld *b, uint16_t access, const char *name, const char *desc)
{
	return new_method(b, access, name, desc);
}

void bld_exc(bld_method *m, uint16_t start, uint16_t end, uint16_t handler, uint16_t type)
{
	bv_u2(&m->exc, start);
	bv_u2(&m->exc, end);
	bv_u2(&m->exc, handler);
	bv_u2(&m->exc, type);
	m->nexc++;
}

void bld_code_attr(bld_method *m, const char *name, const void *body, size_t len)
{
	if (m->ncattrs == 8)
		abort();
	battr *a = &m->cattrs[m->ncattrs++];
	a->name = bld_utf8(m->b, name);
	bv_bytes(&a->body, body, len);
}

void bld_method_attr(bld_method *m, const char *name, const void *body, size_t len)
{
	if (m->nmattrs == 8)
		abort();
	battr *a = &m->mattrs[m->nmattrs++];
	a->name = bld_utf8(m->b, name);
	bv_bytes(&a->body, body, len);
}

void bld_code_raw(bld_method *m, const void *body, size_t len)
{
	m->has_code = true;
	m->raw = true;
	bv_bytes(&m->raw_body, body, len);
}

void bld_class_attr(bld *b, const char *name, const void *body, size_t len)
{
	if (b->ncattrs == 8)
		abort();
	battr *a = &b->cattrs[b->ncattrs++];
	a->name = bld_utf8(b, name);
	bv_bytes(&a->body, body, len);
}

void bld_default_init(bld *b)
{
	uint16_t r = bld_methodref(b, "java/lang/Object", "<init>", "()V");
	bld_method_code(b, 0x0001, "<init>", "()V", 1, 1, BYTES(0x2a, 0xb7, U2(r), 0xb1));
}

static bool old_format(const bld *b)
{
	return b->major < 45 || (b->major == 45 && b->minor < 3);
}

uint8_t *bld_finish(bld *b, size_t *len)
{
	bld_this_index(b);
	if (!b->super_set)
		b->super_class = bld_class(b, "java/lang/Object");
	/* Attribute names must exist before the pool is written. */
	uint16_t code_name = b->code_utf8;
	for (uint32_t i = 0; i < b->nmethods; i++)
		if (b->methods[i]->has_code && !code_name)
			code_name = bld_utf8(b, "Code");
	bld_layout *L = &b->layout;
	memset(L, 0, sizeof *L);
	bvec o = {0};
	bv_u4(&o, 0xCAFEBABE);
	bv_u2(&o, b->minor);
	bv_u2(&o, b->major);
	L->cp_start = o.n;
	bv_u2(&o, b->count_set ? b->count_override : b->cp_next);
	for (uint32_t i = 1; i < 512 && i < b->cp_next; i++)
		L->cp_entry[i] = o.n + b->cp_rel[i];
	bv_bytes(&o, b->cp.d, b->cp.n);
	L->header = o.n;
	bv_u2(&o, b->access);
	bv_u2(&o, b->this_class);
	bv_u2(&o, b->super_class);
	bv_u2(&o, b->nifaces);
	for (uint32_t i = 0; i < b->nifaces; i++)
		bv_u2(&o, b->ifaces[i]);
	L->fields = o.n;
	bv_u2(&o, b->nfields);
	for (uint32_t i = 0; i < b->nfields; i++) {
		bv_u2(&o, b->fields[i].access);
		bv_u2(&o, b->fields[i].name);
		bv_u2(&o, b->fields[i].desc);
		bv_u2(&o, 0);
	}
	L->methods = o.n;
	bv_u2(&o, b->nmethods);
	for (uint32_t i = 0; i < b->nmethods; i++) {
		bld_method *m = b->methods[i];
		if (i < 16)
			L->method[i] = o.n;
		bv_u2(&o, m->access);
		bv_u2(&o, m->name);
		bv_u2(&o, m->desc);
		bv_u2(&o, m->nmattrs + (m->has_code ? 1 : 0));
		if (m->has_code) {
			bvec c = {0};
			size_t rel_bytes = 0, rel_attr[8] = {0};
			if (m->raw) {
				bv_bytes(&c, m->raw_body.d, m->raw_body.n);
			} else {
				if (old_format(b)) {
					bv_u1(&c, m->max_stack);
					bv_u1(&c, m->max_locals);
					bv_u2(&c, (uint32_t)m->code.n);
				} else {
					bv_u2(&c, m->max_stack);
					bv_u2(&c, m->max_locals);
					bv_u4(&c, (uint32_t)m->code.n);
				}
				rel_bytes = c.n;
				bv_bytes(&c, m->code.d, m->code.n);
				bv_u2(&c, m->nexc);
				bv_bytes(&c, m->exc.d, m->exc.n);
				bv_u2(&c, m->ncattrs);
				for (uint32_t k = 0; k < m->ncattrs; k++) {
					bv_u2(&c, m->cattrs[k].name);
					bv_u4(&c, (uint32_t)m->cattrs[k].body.n);
					rel_attr[k] = c.n;
					bv_bytes(&c, m->cattrs[k].body.d, m->cattrs[k].body.n);
				}
			}
			bv_u2(&o, code_name);
			bv_u4(&o, (uint32_t)c.n);
			if (i < 16) {
				L->code[i] = o.n;
				L->code_bytes[i] = o.n + rel_bytes;
				for (uint32_t k = 0; k < 8; k++)
					L->code_attr[i][k] = o.n + rel_attr[k];
			}
			bv_bytes(&o, c.d, c.n);
			bv_free(&c);
		}
		for (uint32_t k = 0; k < m->nmattrs; k++) {
			bv_u2(&o, m->mattrs[k].name);
			bv_u4(&o, (uint32_t)m->mattrs[k].body.n);
			bv_bytes(&o, m->mattrs[k].body.d, m->mattrs[k].body.n);
		}
	}
	L->class_attrs = o.n;
	bv_u2(&o, b->ncattrs);
	for (uint32_t k = 0; k < b->ncattrs; k++) {
		bv_u2(&o, b->cattrs[k].name);
		bv_u4(&o, (uint32_t)b->cattrs[k].body.n);
		bv_bytes(&o, b->cattrs[k].body.d, b->cattrs[k].body.n);
	}
	L->end = o.n;
	*len = o.n;
	return o.d;
}

const bld_layout *bld_last_layout(const bld *b)
{
	return &b->layout;
}

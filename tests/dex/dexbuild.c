#include "dexbuild.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

static void ok(int rc, const tc_error *e)
{
	cr_assert_eq(rc, TC_OK, "%s", e->message);
}

void db_init(dex_file *d, arena *a)
{
	memset(d, 0, sizeof *d);
	d->a = a;
	d->version = 38;
}

uint32_t db_class(dex_file *d, const char *desc, uint32_t flags)
{
	return db_class_super(d, desc, "Ljava/lang/Object;", flags);
}

uint32_t db_class_super(dex_file *d, const char *desc, const char *super_desc, uint32_t flags)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t type, super;
	ok(dex_intern_type(d, desc, &type, &e), &e);
	ok(dex_intern_type(d, super_desc, &super, &e), &e);
	dex_class *v = arena_array(d->a, d->nclasses + 1, sizeof *v);
	cr_assert(v);
	if (d->nclasses)
		memcpy(v, d->classes, d->nclasses * sizeof *v);
	v[d->nclasses] = (dex_class){.type = type, .flags = flags, .super = super, .source = DEX_NO_INDEX};
	d->classes = v;
	return d->nclasses++;
}

uint32_t db_method(dex_file *d, uint32_t k, const char *name, const char *desc, uint32_t flags,
                   dex_code *code)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t len;
	const uint8_t *cls = dex_type_desc(d, d->classes[k].type, &len);
	char cbuf[256];
	memcpy(cbuf, cls, len);
	cbuf[len] = '\0';
	uint32_t m;
	ok(dex_intern_method(d, cbuf, name, desc, &m, &e), &e);
	dex_cdata *cd = d->classes[k].data;
	if (!cd)
		cd = d->classes[k].data = arena_zalloc(d->a, sizeof *cd);
	bool direct = (flags & (DACC_STATIC | DACC_PRIVATE | DACC_CONSTRUCTOR)) != 0;
	dex_emethod **v = direct ? &cd->dmethods : &cd->vmethods;
	uint32_t *n = direct ? &cd->ndmethods : &cd->nvmethods;
	dex_emethod *nv = arena_array(d->a, *n + 1, sizeof *nv);
	if (*n)
		memcpy(nv, *v, *n * sizeof *nv);
	nv[*n] = (dex_emethod){m, flags, code};
	*v = nv;
	(*n)++;
	return m;
}

uint32_t db_encode(const dex_insn *insns, uint32_t n, uint16_t *units)
{
	uint32_t at = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t bytes[10];
		cr_assert(dex_op_encode(&insns[i], bytes), "instruction %u (%s) does not encode", i,
		          dex_op_table[insns[i].op].name);
		uint32_t size = dex_op_fmt_size(insns[i].fmt);
		for (uint32_t k = 0; k < size; k++)
			units[at + k] = (uint16_t)(bytes[2 * k] | bytes[2 * k + 1] << 8);
		at += size;
	}
	return at;
}

dex_code *db_code_units(dex_file *d, uint16_t regs, uint16_t ins, uint16_t outs, const uint16_t *units,
                        uint32_t n)
{
	dex_code *c = arena_zalloc(d->a, sizeof *c);
	uint8_t *b = arena_alloc(d->a, 2 * (size_t)n + 1);
	for (uint32_t i = 0; i < n; i++) {
		b[2 * i] = (uint8_t)units[i];
		b[2 * i + 1] = (uint8_t)(units[i] >> 8);
	}
	*c = (dex_code){.regs = regs, .ins = ins, .outs = outs, .ninsns = n, .insns = b};
	return c;
}

dex_code *db_code(dex_file *d, uint16_t regs, uint16_t ins, uint16_t outs, const dex_insn *insns, uint32_t n)
{
	uint16_t units[4096];
	uint32_t len = db_encode(insns, n, units);
	return db_code_units(d, regs, ins, outs, units, len);
}

void db_rewrite(dex_file *d, tc_buf *buf, dex_file *again, arena *a2)
{
	tc_error e;
	tc_error_clear(&e);
	buf_clear(buf);
	ok(dex_write(d, buf, &e), &e);
	cr_assert_eq(buf->err, TC_OK);
	ok(dex_parse(again, a2, buf->data, buf->len, &e), &e);
}

uint32_t db_find(const dex_file *d, const char *cls, const char *name, const char *desc)
{
	for (uint32_t i = 0; i < d->methods.n; i++) {
		const dex_mid *m = &d->methods.v[i];
		uint32_t len;
		const uint8_t *c = dex_type_desc(d, m->cls, &len);
		char pd[512];
		if (len == strlen(cls) && !memcmp(c, cls, len) && dex_str_eq(d, m->name, name) &&
		    dex_proto_desc(d, m->proto, pd, sizeof pd) && !strcmp(pd, desc))
			return i;
	}
	return DEX_NO_INDEX;
}

dex_insn db_op(uint8_t op)
{
	dex_insn d = {0};
	d.op = op;
	d.fmt = dex_op_table[op].fmt;
	return d;
}

dex_insn db_a(uint8_t op, uint32_t a)
{
	dex_insn d = db_op(op);
	d.a = a;
	return d;
}

dex_insn db_ab(uint8_t op, uint32_t a, uint32_t b)
{
	dex_insn d = db_a(op, a);
	d.b = b;
	return d;
}

dex_insn db_lit(uint8_t op, uint32_t a, int64_t lit)
{
	dex_insn d = db_a(op, a);
	d.lit = lit;
	return d;
}

dex_insn db_branch(uint8_t op, uint32_t a, uint32_t b, int32_t target)
{
	dex_insn d = db_ab(op, a, b);
	d.target = target;
	return d;
}

dex_insn db_invoke(uint8_t op, uint32_t method, const uint16_t *regs, uint8_t n)
{
	dex_insn d = db_op(op);
	d.idx = method;
	d.nargs = n;
	if (d.fmt == DF_3rc)
		d.a = n ? regs[0] : 0;
	else
		if (n)
			memcpy(d.args, regs, n * sizeof *regs);
	return d;
}

dex_insn db_idx(uint8_t op, uint32_t a, uint32_t idx)
{
	dex_insn d = db_a(op, a);
	d.idx = idx;
	return d;
}

void db_bulk_methods(dex_file *d, const char *desc, uint32_t n)
{
	tc_error e;
	tc_error_clear(&e);
	uint32_t cls, proto;
	ok(dex_intern_type(d, desc, &cls, &e), &e);
	ok(dex_intern_proto(d, "()V", &proto, &e), &e);
	dex_str *sv = arena_array(d->a, d->strings.n + n, sizeof *sv);
	dex_mid *mv = arena_array(d->a, d->methods.n + n, sizeof *mv);
	cr_assert(sv && mv);
	memcpy(sv, d->strings.v, d->strings.n * sizeof *sv);
	memcpy(mv, d->methods.v, d->methods.n * sizeof *mv);
	for (uint32_t i = 0; i < n; i++) {
		char *name = arena_alloc(d->a, 12);
		snprintf(name, 12, "m%05u", i % 100000);
		sv[d->strings.n + i] = (dex_str){.data = (const uint8_t *)name, .len = 6, .utf16 = 6};
		mv[d->methods.n + i] = (dex_mid){cls, proto, d->strings.n + i};
	}
	d->strings.v = sv;
	d->strings.n = d->strings.cap = d->strings.n + n;
	d->methods.v = mv;
	d->methods.n = d->methods.cap = d->methods.n + n;
}

void db_bulk_types(dex_file *d, uint32_t n)
{
	dex_str *sv = arena_array(d->a, d->strings.n + n, sizeof *sv);
	uint32_t *tv = arena_array(d->a, d->types.n + n, sizeof *tv);
	cr_assert(sv && tv);
	memcpy(sv, d->strings.v, d->strings.n * sizeof *sv);
	memcpy(tv, d->types.v, d->types.n * sizeof *tv);
	for (uint32_t i = 0; i < n; i++) {
		char *desc = arena_alloc(d->a, 16);
		snprintf(desc, 16, "Lt/T%05u;", i % 100000);
		sv[d->strings.n + i] = (dex_str){.data = (const uint8_t *)desc, .len = 10, .utf16 = 10};
		tv[d->types.n + i] = d->strings.n + i;
	}
	d->strings.v = sv;
	d->strings.n = d->strings.cap = d->strings.n + n;
	d->types.v = tv;
	d->types.n = d->types.cap = d->types.n + n;
}

/* The dex writer: ids in file order, every index rewritten through the model->file
 * maps, items laid out section by section in the input's order, then the map list,
 * the signature and the checksum. A const-string pushed past string 65535 by added
 * strings is widened to const-string/jumbo first (the model then holds the new code).
 *
 * References written as u4 offsets are patched once everything is placed. The one
 * variable-length reference, class_data's uleb128 code_off, is exact when code comes
 * first (d8 and dx both put it first); otherwise the layout is repeated with the
 * previous pass's offsets until nothing moves. */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "dex.h"
#include "dex_edit.h"
#include "dex_ids.h"
#include "dex_op.h"
#include "dex_value.h"
#include "dex_sha1.h"

#define MAX_PASSES 8

enum list {
	L_STRING_DATA, L_TYPE_LIST, L_ANNOTATION, L_ENCODED_ARRAY, L_DEBUG_INFO, L_CODE,
	L_ANNOTATION_SET, L_ANNOTATION_SET_REF_LIST, L_ANNOTATIONS_DIRECTORY, L_CLASS_DATA, L_COUNT
};

static const uint16_t list_type[L_COUNT] = {
	DT_STRING_DATA, DT_TYPE_LIST, DT_ANNOTATION, DT_ENCODED_ARRAY, DT_DEBUG_INFO, DT_CODE,
	DT_ANNOTATION_SET, DT_ANNOTATION_SET_REF_LIST, DT_ANNOTATIONS_DIRECTORY, DT_CLASS_DATA,
};

/* Where a section type goes when the input had none of it: d8's order. */
static const uint16_t d8_order[] = {
	DT_HEADER, DT_STRING_ID, DT_TYPE_ID, DT_PROTO_ID, DT_FIELD_ID, DT_METHOD_ID, DT_CLASS_DEF,
	DT_CALL_SITE_ID, DT_METHOD_HANDLE, DT_CODE, DT_DEBUG_INFO, DT_TYPE_LIST, DT_STRING_DATA,
	DT_ANNOTATION, DT_CLASS_DATA, DT_ENCODED_ARRAY, DT_ANNOTATION_SET, DT_ANNOTATION_SET_REF_LIST,
	DT_ANNOTATIONS_DIRECTORY, DT_MAP_LIST,
};

typedef struct ilist {
	dex_item **v;
	uint32_t n, cap;
} ilist;

typedef struct patch {
	uint32_t pos;
	const dex_item *target;
} patch;

typedef struct forward {
	uint32_t used;
	const dex_code *code;
} forward;

typedef struct wr {
	dex_file *d;
	tc_error *err;
	tc_buf *out;
	arena tmp;
	uint32_t *maps[DEX_MAP_KINDS];
	uint32_t *perm[DEX_MAP_KINDS]; /* file index -> model index */
	dex_value_ctx vc;
	bool identity;                 /* no index moves: raw bytes are copied */
	ilist lists[L_COUNT];
	patch *patches;
	uint32_t npatches, cap_patches;
	forward *fwd;
	uint32_t nfwd, cap_fwd;
	uint32_t collected, emitted;   /* mark values of this write and this pass */
	uint32_t walked;               /* new items met so far by collect */
	uint16_t order[32];
	uint32_t norder;
	uint32_t sec_off[32], sec_count[32];
	tc_buf scratch;
} wr;

static int nomem(wr *w)
{
	return tc_fail(w->err, TC_ENOMEM, TC_NO_OFFSET, "dex writer", "no memory");
}

static uint32_t map(const wr *w, int kind, uint32_t v)
{
	return w->maps[kind] ? w->maps[kind][v] : v;
}

/* --- what is written ------------------------------------------------------------------ */

static bool add(wr *w, enum list l, dex_item *it)
{
	if (!it || it->mark == w->collected)
		return false;
	it->mark = w->collected;
	/* New items are placed in the order of this walk (ids, then classes in order):
	 * deterministic, whichever thread made them. */
	if (!it->off)
		it->seq = ++w->walked;
	ilist *v = &w->lists[l];
	if (v->n == v->cap) {
		uint32_t cap = v->cap ? v->cap * 2 : 256;
		dex_item **n = realloc(v->v, cap * sizeof *n);
		if (!n) {
			nomem(w);
			return false;
		}
		v->v = n;
		v->cap = cap;
	}
	v->v[v->n++] = it;
	return true;
}

static void add_set(wr *w, dex_aset *s)
{
	if (add(w, L_ANNOTATION_SET, &s->it))
		for (uint32_t i = 0; i < s->n; i++)
			add(w, L_ANNOTATION, &s->annos[i]->it);
}

static void add_code(wr *w, dex_emethod *m, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (m[i].code && add(w, L_CODE, &m[i].code->it) && m[i].code->debug)
			add(w, L_DEBUG_INFO, &m[i].code->debug->it);
}

static void collect(wr *w)
{
	dex_file *d = w->d;
	for (uint32_t i = 0; i < d->strings.n; i++)
		add(w, L_STRING_DATA, &d->strings.v[i].it);
	for (uint32_t i = 0; i < d->protos.n; i++)
		if (d->protos.v[i].params)
			add(w, L_TYPE_LIST, &d->protos.v[i].params->it);
	for (uint32_t i = 0; i < d->nclasses; i++) {
		dex_class *k = &d->classes[i];
		if (k->ifaces)
			add(w, L_TYPE_LIST, &k->ifaces->it);
		if (k->values)
			add(w, L_ENCODED_ARRAY, &k->values->it);
		if (k->data && add(w, L_CLASS_DATA, &k->data->it)) {
			add_code(w, k->data->dmethods, k->data->ndmethods);
			add_code(w, k->data->vmethods, k->data->nvmethods);
		}
		dex_adir *a = k->annos;
		if (!a || !add(w, L_ANNOTATIONS_DIRECTORY, &a->it))
			continue;
		if (a->cls)
			add_set(w, a->cls);
		for (uint32_t j = 0; j < a->nfields; j++)
			add_set(w, a->fields[j].set);
		for (uint32_t j = 0; j < a->nmethods; j++)
			add_set(w, a->methods[j].set);
		for (uint32_t j = 0; j < a->nparams; j++) {
			dex_asref *r = a->params[j].ref;
			if (!add(w, L_ANNOTATION_SET_REF_LIST, &r->it))
				continue;
			for (uint32_t k2 = 0; k2 < r->n; k2++)
				if (r->sets[k2])
					add_set(w, r->sets[k2]);
		}
	}
	for (uint32_t i = 0; i < d->ncall_sites; i++)
		add(w, L_ENCODED_ARRAY, &d->call_sites[i]->it);
}

/* Input items by their offset, then new ones in the order collect met them. */
static uint64_t key(const dex_item *it)
{
	return it->off ? it->off : ((uint64_t)1 << 32) + it->seq;
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = key(*(dex_item *const *)a), y = key(*(dex_item *const *)b);
	return x < y ? -1 : x > y;
}

static uint32_t list_count(const wr *w, uint16_t type)
{
	const dex_file *d = w->d;
	switch (type) {
	case DT_HEADER: return 1;
	case DT_STRING_ID: return d->strings.n;
	case DT_TYPE_ID: return d->types.n;
	case DT_PROTO_ID: return d->protos.n;
	case DT_FIELD_ID: return d->fields.n;
	case DT_METHOD_ID: return d->methods.n;
	case DT_CLASS_DEF: return d->nclasses;
	case DT_CALL_SITE_ID: return d->ncall_sites;
	case DT_METHOD_HANDLE: return d->nmhandles;
	case DT_MAP_LIST: return 1;
	}
	for (int l = 0; l < L_COUNT; l++)
		if (list_type[l] == type)
			return w->lists[l].n;
	return 0;
}

/* The input's section order, without what is now empty, with new kinds where d8 puts
 * them. */
static void plan_order(wr *w)
{
	const dex_file *d = w->d;
	w->norder = 0;
	for (uint32_t i = 0; i < d->norder; i++)
		if (list_count(w, d->order[i]))
			w->order[w->norder++] = d->order[i];
	for (size_t i = 0; i < sizeof d8_order / sizeof d8_order[0]; i++) {
		uint16_t t = d8_order[i];
		bool have = false;
		for (uint32_t k = 0; k < w->norder && !have; k++)
			have = w->order[k] == t;
		if (have || !list_count(w, t))
			continue;
		/* after the last section that d8 puts before it */
		uint32_t at = 0;
		for (uint32_t k = 0; k < w->norder; k++)
			for (size_t j = 0; j < i; j++)
				if (w->order[k] == d8_order[j])
					at = k + 1;
		memmove(w->order + at + 1, w->order + at, (w->norder - at) * sizeof w->order[0]);
		w->order[at] = t;
		w->norder++;
	}
}

/* --- encoding ----------------------------------------------------------------------------- */

static void ref(wr *w, const dex_item *target)
{
	if (w->npatches == w->cap_patches) {
		uint32_t cap = w->cap_patches ? w->cap_patches * 2 : 4096;
		patch *p = realloc(w->patches, cap * sizeof *p);
		if (!p) {
			w->out->err = TC_ENOMEM;
			return;
		}
		w->patches = p;
		w->cap_patches = cap;
	}
	w->patches[w->npatches++] = (patch){(uint32_t)w->out->len, target};
	buf_le4(w->out, 0);
}

static void place(wr *w, dex_item *it, uint32_t align)
{
	buf_pad(w->out, align);
	it->out = (uint32_t)w->out->len;
	it->mark = w->emitted;
}

static int put_blob(wr *w, const dex_blob *b, enum list l)
{
	if (w->identity) {
		buf_bytes(w->out, b->data, b->len);
		return TC_OK;
	}
	tc_reader r = rd_at(b->data, b->len, 0, w->err, "dex writer");
	switch (l) {
	case L_ANNOTATION:
		buf_u1(w->out, rd_u1(&r));
		return dex_value_annotation(&r, w->out, &w->vc, 0);
	case L_ENCODED_ARRAY: return dex_value_array(&r, w->out, &w->vc, 0);
	default: return dex_value_debug(&r, w->out, &w->vc, NULL, 0);
	}
}

static int put_insns(wr *w, const dex_code *c)
{
	buf_bytes(w->out, c->insns, 2 * (size_t)c->ninsns);
	if (w->identity || w->out->err)
		return TC_OK;
	uint8_t *p = w->out->data + w->out->len - 2 * (size_t)c->ninsns;
	dex_insn op;
	uint8_t code;
	for (uint32_t pc = 0, size; pc < c->ninsns; pc += size) {
		if (!(size = dex_op_length(c->insns, c->ninsns, pc, w->d->version, &code)))
			return tc_fail(w->err, TC_EOPCODE, TC_NO_OFFSET, "dex writer", "bad instruction at %u", pc);
		if (dex_op_table[code].idx == DI_NONE || (code == DEX_OP_NOP && size > 1))
			continue; /* no index to map, or a payload */
		dex_op_decode(c->insns, c->ninsns, pc, w->d->version, &op);
		uint8_t *u1 = p + 2 * ((size_t)pc + 1);
		uint32_t v;
		switch (dex_op_table[op.op].idx) {
		case DI_STRING:
			v = map(w, DEX_MAP_STRING, op.idx);
			if (op.fmt == DF_31c) {
				put_le4(u1, v);
				continue;
			}
			if (v > 0xffff)
				return tc_fail(w->err, TC_ELIMIT, TC_NO_OFFSET, "dex writer",
				               "const-string at %u needs const-string/jumbo (string index %u)", pc, v);
			put_le2(u1, (uint16_t)v);
			break;
		case DI_TYPE: put_le2(u1, (uint16_t)map(w, DEX_MAP_TYPE, op.idx)); break;
		case DI_FIELD: put_le2(u1, (uint16_t)map(w, DEX_MAP_FIELD, op.idx)); break;
		case DI_METHOD: put_le2(u1, (uint16_t)map(w, DEX_MAP_METHOD, op.idx)); break;
		case DI_PROTO: put_le2(u1, (uint16_t)map(w, DEX_MAP_PROTO, op.idx)); break;
		case DI_METHOD_PROTO:
			put_le2(u1, (uint16_t)map(w, DEX_MAP_METHOD, op.idx));
			put_le2(p + 2 * ((size_t)pc + 3), (uint16_t)map(w, DEX_MAP_PROTO, op.idx2));
			break;
		default: break;
		}
	}
	return TC_OK;
}

static int put_code(wr *w, dex_code *c)
{
	place(w, &c->it, 4);
	buf_le2(w->out, c->regs);
	buf_le2(w->out, c->ins);
	buf_le2(w->out, c->outs);
	buf_le2(w->out, (uint16_t)c->ntries);
	if (c->debug)
		ref(w, &c->debug->it);
	else
		buf_le4(w->out, 0);
	buf_le4(w->out, c->ninsns);
	if (put_insns(w, c) != TC_OK)
		return w->err->code;
	if (!c->ntries)
		return TC_OK;
	if (c->ninsns & 1)
		buf_le2(w->out, 0);
	/* the handler list first, into scratch, to learn each handler's byte offset */
	tc_buf *s = &w->scratch;
	buf_clear(s);
	uint32_t *hoff = arena_array(&w->tmp, c->nhandlers, sizeof *hoff);
	if (!hoff)
		return nomem(w);
	buf_uleb(s, c->nhandlers);
	for (uint32_t i = 0; i < c->nhandlers; i++) {
		const dex_handler *h = &c->handlers[i];
		hoff[i] = (uint32_t)s->len;
		buf_sleb(s, h->catch_all == DEX_NO_INDEX ? (int32_t)h->n : -(int32_t)h->n);
		for (uint32_t k = 0; k < h->n; k++) {
			buf_uleb(s, map(w, DEX_MAP_TYPE, h->catches[k].type));
			buf_uleb(s, h->catches[k].addr);
		}
		if (h->catch_all != DEX_NO_INDEX)
			buf_uleb(s, h->catch_all);
	}
	if (s->err)
		return nomem(w);
	for (uint32_t i = 0; i < c->ntries; i++) {
		const dex_try *t = &c->tries[i];
		if (hoff[t->handler] > 0xffff)
			return tc_fail(w->err, TC_ELIMIT, TC_NO_OFFSET, "dex writer", "catch handler list over 64 KiB");
		buf_le4(w->out, t->start);
		buf_le2(w->out, (uint16_t)t->count);
		buf_le2(w->out, (uint16_t)hoff[t->handler]);
	}
	buf_bytes(w->out, s->data, s->len);
	return TC_OK;
}

/* Indices of v[0..n) (of size esize, the index first) in the order of their file
 * index: usually the identity; new members sort in. */
static uint32_t *member_order(wr *w, const void *v, uint32_t n, size_t esize, int kind)
{
	uint32_t *o = arena_array(&w->tmp, n ? n : 1, sizeof *o);
	if (!o)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = map(w, kind, *(const uint32_t *)((const char *)v + i * esize)), j = i;
		/* insertion: linear on sorted input */
		while (j > 0 && map(w, kind, *(const uint32_t *)((const char *)v + o[j - 1] * esize)) > x) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = i;
	}
	return o;
}

static int put_members(wr *w, const void *v, uint32_t n, bool methods)
{
	size_t esize = methods ? sizeof(dex_emethod) : sizeof(dex_efield);
	int kind = methods ? DEX_MAP_METHOD : DEX_MAP_FIELD;
	uint32_t *o = member_order(w, v, n, esize, kind);
	if (!o)
		return nomem(w);
	uint32_t prev = 0;
	for (uint32_t i = 0; i < n; i++) {
		const char *e = (const char *)v + o[i] * esize;
		uint32_t idx = map(w, kind, *(const uint32_t *)e);
		if (i && idx == prev)
			return tc_fail(w->err, TC_EFORMAT, TC_NO_OFFSET, "dex writer", "member %u listed twice", idx);
		buf_uleb(w->out, idx - prev);
		prev = idx;
		if (!methods) {
			buf_uleb(w->out, ((const dex_efield *)e)->flags);
			continue;
		}
		const dex_emethod *m = (const dex_emethod *)e;
		buf_uleb(w->out, m->flags);
		if (!m->code) {
			buf_uleb(w->out, 0);
			continue;
		}
		uint32_t off = m->code->it.out;
		if (m->code->it.mark != w->emitted) {
			/* not placed yet in this pass: the previous pass's offset, checked after */
			if (w->nfwd == w->cap_fwd) {
				uint32_t cap = w->cap_fwd ? w->cap_fwd * 2 : 256;
				forward *f = realloc(w->fwd, cap * sizeof *f);
				if (!f)
					return nomem(w);
				w->fwd = f;
				w->cap_fwd = cap;
			}
			w->fwd[w->nfwd++] = (forward){off, m->code};
		}
		buf_uleb(w->out, off);
	}
	return TC_OK;
}

static int put_class_data(wr *w, dex_cdata *c)
{
	place(w, &c->it, 1);
	buf_uleb(w->out, c->nsfields);
	buf_uleb(w->out, c->nifields);
	buf_uleb(w->out, c->ndmethods);
	buf_uleb(w->out, c->nvmethods);
	if (put_members(w, c->sfields, c->nsfields, false) != TC_OK ||
	    put_members(w, c->ifields, c->nifields, false) != TC_OK ||
	    put_members(w, c->dmethods, c->ndmethods, true) != TC_OK ||
	    put_members(w, c->vmethods, c->nvmethods, true) != TC_OK)
		return w->err->code;
	return TC_OK;
}

static int put_adir(wr *w, dex_adir *a)
{
	place(w, &a->it, 4);
	if (a->cls)
		ref(w, &a->cls->it);
	else
		buf_le4(w->out, 0);
	buf_le4(w->out, a->nfields);
	buf_le4(w->out, a->nmethods);
	buf_le4(w->out, a->nparams);
	const struct {
		const void *v;
		uint32_t n;
		size_t esize;
		int kind;
	} parts[] = {{a->fields, a->nfields, sizeof(dex_amember), DEX_MAP_FIELD},
	             {a->methods, a->nmethods, sizeof(dex_amember), DEX_MAP_METHOD},
	             {a->params, a->nparams, sizeof(dex_aparam), DEX_MAP_METHOD}};
	for (int p = 0; p < 3; p++) {
		uint32_t *o = member_order(w, parts[p].v, parts[p].n, parts[p].esize, parts[p].kind);
		if (!o)
			return nomem(w);
		for (uint32_t i = 0; i < parts[p].n; i++) {
			const char *e = (const char *)parts[p].v + o[i] * parts[p].esize;
			buf_le4(w->out, map(w, parts[p].kind, *(const uint32_t *)e));
			if (p < 2)
				ref(w, &((const dex_amember *)e)->set->it);
			else
				ref(w, &((const dex_aparam *)e)->ref->it);
		}
	}
	return TC_OK;
}

static int put_item(wr *w, enum list l, dex_item *it)
{
	switch (l) {
	case L_STRING_DATA: {
		dex_str *s = (dex_str *)it;
		place(w, it, 1);
		buf_uleb(w->out, s->utf16);
		buf_bytes(w->out, s->data, s->len);
		buf_u1(w->out, 0);
		return TC_OK;
	}
	case L_TYPE_LIST: {
		dex_tlist *t = (dex_tlist *)it;
		place(w, it, 4);
		buf_le4(w->out, t->n);
		for (uint32_t i = 0; i < t->n; i++)
			buf_le2(w->out, (uint16_t)map(w, DEX_MAP_TYPE, t->types[i]));
		return TC_OK;
	}
	case L_ANNOTATION:
	case L_ENCODED_ARRAY:
	case L_DEBUG_INFO:
		place(w, it, 1);
		return put_blob(w, (dex_blob *)it, l);
	case L_CODE: return put_code(w, (dex_code *)it);
	case L_ANNOTATION_SET: {
		dex_aset *s = (dex_aset *)it;
		place(w, it, 4);
		buf_le4(w->out, s->n);
		for (uint32_t i = 0; i < s->n; i++)
			ref(w, &s->annos[i]->it);
		return TC_OK;
	}
	case L_ANNOTATION_SET_REF_LIST: {
		dex_asref *s = (dex_asref *)it;
		place(w, it, 4);
		buf_le4(w->out, s->n);
		for (uint32_t i = 0; i < s->n; i++) {
			if (s->sets[i])
				ref(w, &s->sets[i]->it);
			else
				buf_le4(w->out, 0);
		}
		return TC_OK;
	}
	case L_ANNOTATIONS_DIRECTORY: return put_adir(w, (dex_adir *)it);
	case L_CLASS_DATA: return put_class_data(w, (dex_cdata *)it);
	default: return TC_OK;
	}
}

static void put_ids(wr *w, uint16_t type)
{
	dex_file *d = w->d;
	tc_buf *o = w->out;
	switch (type) {
	case DT_STRING_ID:
		for (uint32_t i = 0; i < d->strings.n; i++)
			ref(w, &d->strings.v[w->perm[DEX_MAP_STRING] ? w->perm[DEX_MAP_STRING][i] : i].it);
		break;
	case DT_TYPE_ID:
		for (uint32_t i = 0; i < d->types.n; i++) {
			uint32_t m = w->perm[DEX_MAP_TYPE] ? w->perm[DEX_MAP_TYPE][i] : i;
			buf_le4(o, map(w, DEX_MAP_STRING, d->types.v[m]));
		}
		break;
	case DT_PROTO_ID:
		for (uint32_t i = 0; i < d->protos.n; i++) {
			const dex_proto *p = &d->protos.v[w->perm[DEX_MAP_PROTO] ? w->perm[DEX_MAP_PROTO][i] : i];
			buf_le4(o, map(w, DEX_MAP_STRING, p->shorty));
			buf_le4(o, map(w, DEX_MAP_TYPE, p->ret));
			if (p->params)
				ref(w, &p->params->it);
			else
				buf_le4(o, 0);
		}
		break;
	case DT_FIELD_ID:
		for (uint32_t i = 0; i < d->fields.n; i++) {
			const dex_fid *f = &d->fields.v[w->perm[DEX_MAP_FIELD] ? w->perm[DEX_MAP_FIELD][i] : i];
			buf_le2(o, (uint16_t)map(w, DEX_MAP_TYPE, f->cls));
			buf_le2(o, (uint16_t)map(w, DEX_MAP_TYPE, f->type));
			buf_le4(o, map(w, DEX_MAP_STRING, f->name));
		}
		break;
	case DT_METHOD_ID:
		for (uint32_t i = 0; i < d->methods.n; i++) {
			const dex_mid *m = &d->methods.v[w->perm[DEX_MAP_METHOD] ? w->perm[DEX_MAP_METHOD][i] : i];
			buf_le2(o, (uint16_t)map(w, DEX_MAP_TYPE, m->cls));
			buf_le2(o, (uint16_t)map(w, DEX_MAP_PROTO, m->proto));
			buf_le4(o, map(w, DEX_MAP_STRING, m->name));
		}
		break;
	case DT_CLASS_DEF:
		for (uint32_t i = 0; i < d->nclasses; i++) {
			const dex_class *k = &d->classes[i];
			buf_le4(o, map(w, DEX_MAP_TYPE, k->type));
			buf_le4(o, k->flags);
			buf_le4(o, k->super == DEX_NO_INDEX ? DEX_NO_INDEX : map(w, DEX_MAP_TYPE, k->super));
			if (k->ifaces)
				ref(w, &k->ifaces->it);
			else
				buf_le4(o, 0);
			buf_le4(o, k->source == DEX_NO_INDEX ? DEX_NO_INDEX : map(w, DEX_MAP_STRING, k->source));
			const dex_item *refs[] = {k->annos ? &k->annos->it : NULL, k->data ? &k->data->it : NULL,
			                          k->values ? &k->values->it : NULL};
			for (int r = 0; r < 3; r++) {
				if (refs[r])
					ref(w, refs[r]);
				else
					buf_le4(o, 0);
			}
		}
		break;
	case DT_CALL_SITE_ID:
		for (uint32_t i = 0; i < d->ncall_sites; i++)
			ref(w, &d->call_sites[i]->it);
		break;
	case DT_METHOD_HANDLE:
		for (uint32_t i = 0; i < d->nmhandles; i++) {
			const dex_mhandle *h = &d->mhandles[i];
			buf_le2(o, h->kind);
			buf_le2(o, 0);
			buf_le2(o, (uint16_t)map(w, h->kind <= 3 ? DEX_MAP_FIELD : DEX_MAP_METHOD, h->idx));
			buf_le2(o, 0);
		}
		break;
	}
}

/* Whether code holds a const-string whose string lands past 65535 in the file. */
static bool needs_jumbo(const wr *w, const dex_code *c)
{
	uint8_t op;
	for (uint32_t pc = 0, size; pc < c->ninsns; pc += size) {
		if (!(size = dex_op_length(c->insns, c->ninsns, pc, w->d->version, &op)))
			return false; /* put_insns reports it */
		/* a payload's first unit is nop-coded: op is 0 there */
		if (op == DEX_OP_CONST_STRING &&
		    map(w, DEX_MAP_STRING, get_le2(c->insns + 2 * (size_t)pc + 2)) > 0xffff)
			return true;
	}
	return false;
}

/* Added strings move later ones up; a const-string whose string passes 65535 becomes
 * const-string/jumbo, which takes one more code unit: the method is laid out again
 * (and the model points at the new code). */
static int widen(wr *w, dex_emethod *ms, uint32_t n, arena *scratch)
{
	for (uint32_t i = 0; i < n; i++) {
		dex_emethod *m = &ms[i];
		if (!m->code || !needs_jumbo(w, m->code))
			continue;
		arena_reset(scratch);
		dex_editor *e;
		dex_code *c;
		if (dex_edit_open(&e, w->d, m->code, m->idx, (m->flags & DACC_STATIC) != 0, scratch, w->err) != TC_OK)
			return w->err->code;
		for (uint32_t k = 0; k < dex_edit_count(e); k++) {
			dex_insn j = *dex_edit_insn(e, k);
			if (j.op != DEX_OP_CONST_STRING || map(w, DEX_MAP_STRING, j.idx) <= 0xffff)
				continue;
			j.op = DEX_OP_CONST_STRING_JUMBO;
			j.fmt = DF_31c;
			if (dex_edit_replace(e, k, &j, w->err) != TC_OK)
				return w->err->code;
		}
		if (dex_edit_commit(e, w->d->a, &c, w->err) != TC_OK)
			return w->err->code;
		m->code = c;
	}
	return TC_OK;
}

static int widen_all(wr *w)
{
	if (!w->maps[DEX_MAP_STRING])
		return TC_OK;
	arena scratch;
	arena_init(&scratch);
	int rc = TC_OK;
	for (uint32_t k = 0; k < w->d->nclasses && rc == TC_OK; k++) {
		dex_cdata *cd = w->d->classes[k].data;
		if (cd && (rc = widen(w, cd->dmethods, cd->ndmethods, &scratch)) == TC_OK)
			rc = widen(w, cd->vmethods, cd->nvmethods, &scratch);
	}
	arena_free(&scratch);
	return rc;
}

static bool is_data(uint16_t type)
{
	return type >= DT_MAP_LIST;
}

static int pass(wr *w)
{
	buf_clear(w->out);
	w->npatches = 0;
	w->nfwd = 0;
	for (uint32_t s = 0; s < w->norder; s++) {
		uint16_t type = w->order[s];
		uint32_t align = type == DT_STRING_DATA || type == DT_DEBUG_INFO || type == DT_ANNOTATION ||
		                 type == DT_ENCODED_ARRAY || type == DT_CLASS_DATA ? 1 : 4;
		buf_pad(w->out, align);
		w->sec_off[s] = (uint32_t)w->out->len;
		w->sec_count[s] = list_count(w, type);
		if (type == DT_HEADER) {
			for (int i = 0; i < 0x70; i++)
				buf_u1(w->out, 0);
		} else if (type == DT_MAP_LIST) {
			/* filled in at the end */
			for (uint32_t i = 0; i < 4 + 12 * w->norder; i++)
				buf_u1(w->out, 0);
		} else if (!is_data(type)) {
			put_ids(w, type);
		} else {
			for (int l = 0; l < L_COUNT; l++) {
				if (list_type[l] != type)
					continue;
				for (uint32_t i = 0; i < w->lists[l].n; i++)
					if (put_item(w, (enum list)l, w->lists[l].v[i]) != TC_OK)
						return w->err->code;
			}
		}
		if (w->out->err)
			return nomem(w);
	}
	return TC_OK;
}

static void finish(wr *w)
{
	tc_buf *o = w->out;
	uint8_t *p = o->data;
	for (uint32_t i = 0; i < w->npatches; i++)
		put_le4(p + w->patches[i].pos, w->patches[i].target ? w->patches[i].target->out : 0);
	uint32_t map_off = 0, data_off = 0, last_end = (uint32_t)o->len;
	for (uint32_t s = 0; s < w->norder; s++) {
		if (w->order[s] == DT_MAP_LIST)
			map_off = w->sec_off[s];
		if (is_data(w->order[s]) && !data_off)
			data_off = w->sec_off[s];
	}
	uint8_t *mp = p + map_off;
	put_le4(mp, w->norder);
	for (uint32_t s = 0; s < w->norder; s++) {
		put_le2(mp + 4 + 12 * s, w->order[s]);
		put_le2(mp + 6 + 12 * s, 0);
		put_le4(mp + 8 + 12 * s, w->sec_count[s]);
		put_le4(mp + 12 + 12 * s, w->sec_off[s]);
	}
	const dex_file *d = w->d;
	memcpy(p, "dex\n000", 8);
	p[4] = (uint8_t)('0' + d->version / 100);
	p[5] = (uint8_t)('0' + d->version / 10 % 10);
	p[6] = (uint8_t)('0' + d->version % 10);
	put_le4(p + 32, (uint32_t)o->len);
	put_le4(p + 36, 0x70);
	put_le4(p + 40, 0x12345678);
	put_le4(p + 52, map_off);
	static const uint16_t ids[] = {DT_STRING_ID, DT_TYPE_ID, DT_PROTO_ID, DT_FIELD_ID, DT_METHOD_ID,
	                               DT_CLASS_DEF};
	for (int i = 0; i < 6; i++) {
		uint32_t off = 0, count = 0;
		for (uint32_t s = 0; s < w->norder; s++)
			if (w->order[s] == ids[i]) {
				off = w->sec_off[s];
				count = w->sec_count[s];
			}
		put_le4(p + 56 + 8 * i, count);
		put_le4(p + 60 + 8 * i, off);
	}
	uint32_t data_end = d->data_to_end ? (uint32_t)o->len : last_end;
	put_le4(p + 104, data_off ? data_end - data_off : 0);
	put_le4(p + 108, data_off);
	dex_sha1(p + 32, o->len - 32, p + 12);
	put_le4(p + 8, dex_adler32(p, o->len));
}

int dex_write(dex_file *d, tc_buf *out, tc_error *err)
{
	wr w = {.d = d, .err = err, .out = out};
	arena_init(&w.tmp);
	buf_init(&w.scratch);
	int rc = TC_OK;
	if (dex_id_maps(d, &w.tmp, w.maps, err) != TC_OK) {
		rc = err->code;
		goto done;
	}
	w.identity = true;
	for (int k = 0; k < DEX_MAP_KINDS; k++) {
		w.vc.map[k] = w.maps[k];
		w.identity &= w.maps[k] == NULL;
		if (!w.maps[k])
			continue;
		uint32_t n = k == DEX_MAP_STRING ? d->strings.n : k == DEX_MAP_TYPE ? d->types.n
		           : k == DEX_MAP_PROTO ? d->protos.n : k == DEX_MAP_FIELD ? d->fields.n : d->methods.n;
		if (!(w.perm[k] = arena_array(&w.tmp, n, sizeof *w.perm[k]))) {
			rc = nomem(&w);
			goto done;
		}
		for (uint32_t i = 0; i < n; i++)
			w.perm[k][w.maps[k][i]] = i;
	}
	w.vc.limit[DEX_VALUE_STRING] = d->strings.n;
	w.vc.limit[DEX_VALUE_TYPE] = d->types.n;
	w.vc.limit[DEX_VALUE_PROTO] = d->protos.n;
	w.vc.limit[DEX_VALUE_FIELD] = d->fields.n;
	w.vc.limit[DEX_VALUE_METHOD] = d->methods.n;
	w.vc.limit[DEX_VALUE_MHANDLE] = d->nmhandles;
	if ((rc = widen_all(&w)) != TC_OK)
		goto done;
	d->gen += MAX_PASSES + 1;
	w.collected = d->gen;
	collect(&w);
	if (err->code) {
		rc = err->code;
		goto done;
	}
	for (int l = 0; l < L_COUNT; l++)
		if (w.lists[l].n)
			qsort(w.lists[l].v, w.lists[l].n, sizeof *w.lists[l].v, by_key);
	plan_order(&w);
	for (int p = 1;; p++) {
		w.emitted = d->gen + (uint32_t)p;
		if ((rc = pass(&w)) != TC_OK)
			goto done;
		bool moved = false;
		for (uint32_t i = 0; i < w.nfwd && !moved; i++)
			moved = w.fwd[i].used != w.fwd[i].code->it.out;
		if (!moved)
			break;
		if (p == MAX_PASSES) {
			rc = tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, "dex writer", "layout does not settle");
			goto done;
		}
	}
	finish(&w);
done:
	for (int l = 0; l < L_COUNT; l++)
		free(w.lists[l].v);
	free(w.patches);
	free(w.fwd);
	buf_free(&w.scratch);
	arena_free(&w.tmp);
	return rc;
}

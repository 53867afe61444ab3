/* Phase 1 (what each class is, which of its methods are traced) and the decisions made
 * between the phases (Activities, method ids, the mapping lists). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "classfile.h"
#include "opcodes.h"
#include "dex.h"
#include "dex_op.h"
#include "filter.h"
#include "pipeline/pipeline.h"

#define ASM_ACC_DEPRECATED 0x20000u

static const char FOCUS_NAME[] = "onWindowFocusChanged";
static const char FOCUS_DESC[] = "(Z)V";

/* Matrix's Activity roots (TraceBuildConstants). */
static const char *const ACTIVITY_ROOTS[] = {
	"android/app/Activity",
	"android/support/v4/app/FragmentActivity",
	"android/support/v7/app/AppCompatActivity",
	"androidx/appcompat/app/AppCompatActivity",
};

static void dotted(char *s)
{
	for (; *s; s++)
		if (*s == '/')
			*s = '.';
}

/* A constant-pool string as a C string in arena a (the keep arena for what lasts the
 * run, the class's for what only builds a line); NULL if it holds a NUL byte (modified
 * UTF-8 never does) or memory runs out. */
static const char *utf8_str(arena *a, const cf_class *cls, uint16_t idx)
{
	uint32_t len;
	const uint8_t *s = cp_utf8(&cls->cp, idx, &len);
	if (!s || memchr(s, 0, len))
		return NULL;
	char *p = arena_alloc(a, len + 1);
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

/* FNV-1a over the whole mapping key: the workers hash each one once; collect_decide() uses the value. */
static uint32_t fnv(uint32_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static uint32_t key_hash(const pl_meth *m)
{
	uint32_t h = fnv(2166136261u, m->cls, m->class_len);
	h = fnv(h, " ", 1);
	return fnv(h, m->rest, m->rest_len);
}

bool pl_meth_line(const pl_meth *m, char *buf, size_t size)
{
	if (pl_meth_line_len(m) >= size)
		return false;
	memcpy(buf, m->cls, m->class_len);
	buf[m->class_len] = ' ';
	memcpy(buf + m->class_len + 1, m->rest, m->rest_len);
	buf[pl_meth_line_len(m)] = '\0';
	return true;
}

static void malformed(pl_unit *u, pl_worker *w, const tc_error *cerr)
{
	char msg[600];
	tc_error e = *cerr;
	tc_error_format(&e, msg, sizeof msg);
	u->state = US_MALFORMED;
	u->error = pl_keep_str(w, msg, strlen(msg));
}

/* x's mapping key: the class (ocls, the class's original dotted name, kept once), the
 * method's name and its descriptor with dots, in original names when a ProGuard
 * mapping retraces them. */
static int set_line(pl_run *r, pl_worker *w, const pl_unit *u, const char *ocls, size_t olen, const char *name,
                    const char *desc, pl_meth *x, tc_error *cerr)
{
	char obuf[1024], dbuf[4096];
	const char *oname = name, *odesc = desc;
	if (r->pg) {
		if (!pg_method(r->pg, u->cls, name, desc, obuf, sizeof obuf, dbuf, sizeof dbuf))
			return tc_fail(cerr, TC_ELIMIT, TC_NO_OFFSET, "method", "name or descriptor too long");
		oname = obuf;
		odesc = dbuf;
	}
	size_t nlen = strlen(oname), dlen = strlen(odesc);
	if (nlen > UINT16_MAX)
		return tc_fail(cerr, TC_ELIMIT, TC_NO_OFFSET, "method", "name too long");
	char *rest = arena_alloc(&w->keep, nlen + dlen + 2);
	if (!rest)
		return tc_fail(cerr, TC_ENOMEM, TC_NO_OFFSET, "collect", "no memory");
	memcpy(rest, oname, nlen);
	rest[nlen] = ' ';
	char *d = rest + nlen + 1;
	for (size_t k = 0; k < dlen; k++)
		d[k] = odesc[k] == '/' ? '.' : odesc[k];
	d[dlen] = '\0';
	x->cls = ocls;
	x->class_len = (uint16_t)olen;
	x->rest = rest;
	x->rest_len = (uint32_t)(nlen + 1 + dlen);
	x->name_len = (uint16_t)nlen;
	x->hash = key_hash(x);
	return TC_OK;
}

/* The filter's verdict, then the -keepmethod rules on the mapping key and the
 * -keepregex rules on "a.b.C.name(desc)". */
static void set_verdict(pl_run *r, pl_meth *x, enum filter_verdict fv)
{
	static const uint8_t map[] = {[FILTER_TRACE] = V_TRACE, [FILTER_EMPTY] = V_EMPTY,
	                              [FILTER_GETSET] = V_GETSET, [FILTER_SINGLE] = V_SINGLE,
	                              [FILTER_INLINE] = V_INLINE};
	x->verdict = map[fv];
	if (x->verdict == V_TRACE && rules_have_keepmethod(r->rules)) {
		char key[6144];
		if (pl_meth_line(x, key, sizeof key) && rules_blocks_method_key(r->rules, key, pl_meth_line_len(x)))
			x->verdict = V_KEEPMETHOD;
	}
	if (x->verdict != V_TRACE || !rules_have_regex(r->rules))
		return;
	/* the key with its first space a dot and its second dropped: "a.b.C.name(desc)" */
	char subject[6144];
	if (pl_meth_line_len(x) >= sizeof subject)
		return;
	memcpy(subject, x->cls, x->class_len);
	subject[x->class_len] = '.';
	memcpy(subject + x->class_len + 1, x->rest, x->name_len);
	size_t k = x->class_len + 1 + x->name_len;
	memcpy(subject + k, x->rest + x->name_len + 1, x->rest_len - x->name_len - 1);
	k += x->rest_len - x->name_len - 1;
	subject[k] = '\0';
	if (rules_blocks_method(r->rules, subject, k))
		x->verdict = V_BLOCKED;
}

/* The class's name as the mapping files and the rules see it: original, dotted (at
 * most 1023 bytes); *kept is its copy in the keep arena, for the methods' keys. */
static size_t original_class(pl_run *r, const pl_unit *u, pl_worker *w, char *buf, size_t size, const char **kept)
{
	const char *orig = r->pg ? pg_class(r->pg, u->cls) : NULL;
	snprintf(buf, size, "%s", orig ? orig : u->cls);
	dotted(buf);
	size_t n = strlen(buf);
	*kept = pl_keep_str(w, buf, n);
	return n;
}

/* The id of a probe already in m (an earlier run of ours, or Matrix's plugin): a push
 * of a positive int constant (iconst, bipush, sipush, ldc of an Integer) right before
 * invokestatic BEAT.i(I)V, anywhere in the code (a constructor's comes after its
 * this()/super() call). 0 if there is none. The beat class's package is never traced,
 * so no method calls i() but through a probe; instrumenting it again would double it. */
static uint32_t probe_id(const pl_run *r, const cf_class *cls, const cf_member *m)
{
	cf_attr *at = cf_method_code(cls, m);
	if (!at)
		return 0;
	cf_code c;
	tc_error e;
	tc_error_clear(&e);
	if (cf_code_parse(cls, at, &c, &e) != TC_OK)
		return 0;
	int64_t pushed = 0; /* the previous instruction's constant, 0 when it pushed none */
	bool focus = false; /* calls BEAT.at: the focus call, in a method a run added if no probe */
	for (uint32_t off = 0; off < c.len;) {
		uint8_t op;
		uint32_t n = cf_insn_length(c.code, c.len, off, &op);
		if (!n)
			return 0;
		const uint8_t *p = c.code + off;
		int64_t val = 0;
		uint32_t idx;
		if (op >= OP_ICONST_0 && op <= OP_ICONST_5 && n == 1)
			val = op - OP_ICONST_0;
		else if (op == OP_BIPUSH && n == 2)
			val = (int8_t)p[1];
		else if (op == OP_SIPUSH && n == 3)
			val = (int16_t)(p[1] << 8 | p[2]);
		else if ((op == OP_LDC && n == 2) || (op == OP_LDC_W && n == 3)) {
			idx = op == OP_LDC ? p[1] : (uint32_t)(p[1] << 8 | p[2]);
			if (cp_tag(&cls->cp, idx) == CP_INTEGER)
				val = (int32_t)cls->cp.e[idx].v.u4;
		} else if (op == OP_INVOKESTATIC && n == 3) {
			cp_ref ref;
			idx = (uint32_t)(p[1] << 8 | p[2]);
			const char *beat = r->opt->beat;
			if (cp_tag(&cls->cp, idx) == CP_METHODREF && cp_member_ref(&cls->cp, idx, &ref) &&
			    ref.cls_len == strlen(beat) && !memcmp(ref.cls, beat, ref.cls_len)) {
				if (pushed > 0 && pushed < MM_ID_DISPATCH && ref.name_len == 1 && ref.name[0] == 'i' &&
				    ref.desc_len == 4 && !memcmp(ref.desc, "(I)V", 4))
					return (uint32_t)pushed;
				focus |= ref.name_len == 2 && !memcmp(ref.name, "at", 2);
			}
		}
		pushed = val;
		off += n;
	}
	return focus ? PRESET_ADDED : 0;
}

static int collect_methods(pl_run *r, pl_unit *u, pl_worker *w, const cf_class *cls, tc_error *cerr)
{
	char oclass[1024];
	const char *ocls;
	size_t olen = original_class(r, u, w, oclass, sizeof oclass, &ocls);
	if (!ocls)
		return tc_fail(cerr, TC_ENOMEM, TC_NO_OFFSET, "collect", "no memory");
	u->blocked = rules_blocks_class(r->rules, oclass);
	u->nmethods = cls->nmethods;
	u->methods = arena_array(&w->keep, cls->nmethods ? cls->nmethods : 1, sizeof(pl_meth));
	if (!u->methods)
		return tc_fail(cerr, TC_ENOMEM, TC_NO_OFFSET, "collect", "no memory");
	for (uint32_t i = 0; i < cls->nmethods; i++) {
		const cf_member *m = &cls->methods[i];
		pl_meth *x = &u->methods[i];
		memset(x, 0, sizeof *x);
		x->index = (uint16_t)i;
		x->access = m->access;
		/* Matrix writes the flags ASM reports, which fold two attributes in: Synthetic
		 * as ACC_SYNTHETIC and Deprecated as ASM's pseudo-flag 0x20000. */
		if (cf_find_attr(cls, m->attrs, m->nattrs, "Synthetic"))
			x->access |= ACC_SYNTHETIC;
		if (cf_find_attr(cls, m->attrs, m->nattrs, "Deprecated"))
			x->access |= ASM_ACC_DEPRECATED;
		const char *name = utf8_str(&w->cls, cls, m->name), *desc = utf8_str(&w->cls, cls, m->desc);
		if (!name || !desc)
			return tc_fail(cerr, TC_EFORMAT, m->off, "method", "name or descriptor holds a NUL byte");
		if (set_line(r, w, u, ocls, olen, name, desc, x, cerr) != TC_OK)
			return cerr->code;
		if (u->blocked) {
			x->verdict = V_BLOCKED;
			continue;
		}
		/* instrumented before: traced with the id its probe has, and left as it is */
		if ((x->preset = probe_id(r, cls, m)) != 0) {
			x->verdict = V_TRACE;
			u->already++;
			continue;
		}
		enum filter_verdict fv;
		if (filter_method(cls, m, rules_inline_limit(r->rules), &fv, cerr) != TC_OK) {
			char label[1024];
			cf_member_label(cls, m, label, sizeof label);
			tc_error_context(cerr, NULL, NULL, label);
			return cerr->code;
		}
		set_verdict(r, x, fv);
	}
	return TC_OK;
}

int collect_unit(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err)
{
	const uint8_t *data;
	size_t len;
	if (pl_unit_bytes(r, u, w, &data, &len, err) != TC_OK)
		return err->code;
	arena_reset(&w->cls);
	tc_error cerr;
	tc_error_clear(&cerr);
	cf_class cls;
	if (cf_parse(&cls, &w->cls, data, len, &cerr) != TC_OK) {
		malformed(u, w, &cerr);
		return TC_OK;
	}
	u->access = cls.access;
	u->major = cls.major;
	u->cls = utf8_str(&w->keep, &cls, cls.cp.e[cls.this_class].a);
	u->super = cls.super_class ? utf8_str(&w->keep, &cls, cls.cp.e[cls.super_class].a) : NULL;
	if (!u->cls || (cls.super_class && !u->super)) {
		tc_fail(&cerr, TC_EFORMAT, TC_NO_OFFSET, "class header", "class name holds a NUL byte");
		malformed(u, w, &cerr);
		return TC_OK;
	}
	beat_note_class(r, u, &cls);
	for (uint32_t i = 0; i < cls.nmethods; i++) {
		const cf_member *m = &cls.methods[i];
		if (!cp_utf8_eq(&cls.cp, m->name, FOCUS_NAME) || !cp_utf8_eq(&cls.cp, m->desc, FOCUS_DESC))
			continue;
		/* a static or private method overrides nothing (JVMS 5.4.5) */
		if (m->access & (ACC_STATIC | ACC_PRIVATE)) {
			u->focus_blocked = m->access & ACC_STATIC ? FOCUS_STATIC : FOCUS_PRIVATE;
		} else {
			u->focus_declared = true;
			u->focus_final = (m->access & ACC_FINAL) != 0;
		}
	}
	if (u->in->classpath || !u->candidate ||
	    (cls.access & (ACC_INTERFACE | ACC_ABSTRACT | ACC_MODULE)))
		return TC_OK;
	u->traceable = true;
	if (collect_methods(r, u, w, &cls, &cerr) != TC_OK) {
		if (cerr.code == TC_ENOMEM)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
		u->traceable = false;
		malformed(u, w, &cerr);
		return TC_OK;
	}
	/* Keep the class for phase 2 when it fits the budget: no second read or inflate.
	 * The arena goes back once every kept class has been used. */
	if (!u->data) {
		size_t before = atomic_fetch_add(&r->kept_bytes, len);
		if (before + len <= r->keep_limit && (u->data = arena_dup(&w->kept, data, len)))
			u->data_len = len;
		else
			atomic_fetch_sub(&r->kept_bytes, len);
	}
	return TC_OK;
}

/* --- dex classes ---------------------------------------------------------------------- */

/* A type descriptor "La/b/C;" as an internal name "a/b/C" in the keep arena. */
static const char *internal_of(pl_worker *w, const dex_file *d, uint32_t type)
{
	uint32_t len;
	const uint8_t *s = dex_type_desc(d, type, &len);
	if (!s || len < 3 || s[0] != 'L' || s[len - 1] != ';')
		return NULL;
	return pl_keep_str(w, (const char *)s + 1, len - 2);
}

/* onWindowFocusChanged(Z)V, whatever its flags */
static bool is_dex_focus(const dex_file *d, const dex_emethod *m)
{
	char desc[8];
	return dex_str_eq(d, d->methods.v[m->idx].name, FOCUS_NAME) &&
	       dex_proto_desc(d, d->methods.v[m->idx].proto, desc, sizeof desc) && !strcmp(desc, FOCUS_DESC);
}

/* The flags as Matrix prints them for the same method compiled to a class file: dex's
 * declared-synchronized is the class file's synchronized; the constructor flag has no
 * class-file twin; @Deprecated stands for the Deprecated attribute (ASM's 0x20000). */
static uint32_t matrix_flags(const dex_file *d, const dex_class *k, const dex_emethod *m)
{
	uint32_t f = m->flags & 0xffff;
	if (m->flags & DACC_DECLARED_SYNCHRONIZED)
		f |= DACC_SYNCHRONIZED;
	if (dex_member_annotated(d, k, m->idx, false, "Ljava/lang/Deprecated;"))
		f |= ASM_ACC_DEPRECATED;
	return f;
}

/* Whether method idx is BEAT.name (any descriptor when desc is NULL). */
static bool is_beat_method(const pl_run *r, const dex_file *d, uint32_t idx, const char *name, const char *desc)
{
	if (idx >= d->methods.n)
		return false;
	const dex_mid *mid = &d->methods.v[idx];
	uint32_t len;
	const uint8_t *cls = dex_type_desc(d, mid->cls, &len);
	size_t blen = strlen(r->opt->beat);
	char pdesc[8];
	return cls && len == blen + 2 && cls[0] == 'L' && !memcmp(cls + 1, r->opt->beat, blen) &&
	       dex_str_eq(d, mid->name, name) &&
	       (!desc || (dex_proto_desc(d, mid->proto, pdesc, sizeof pdesc) && !strcmp(pdesc, desc)));
}

/* probe_id for a dex method: "const vA, #id" (const/4, const/16, const, const/high16)
 * right before "invoke-static {vA}, BEAT.i(I)V" (or its /range form), as inject_dex.c
 * writes it; PRESET_ADDED for a method with no probe that calls BEAT.at. */
static uint32_t dex_probe_id(const pl_run *r, const dex_file *d, const dex_emethod *m)
{
	const dex_code *c = m->code;
	if (!c)
		return 0;
	int64_t lit = 0;        /* the previous instruction's constant, 0 when none */
	uint32_t reg = UINT32_MAX;
	bool focus = false;
	for (uint32_t pc = 0; pc < c->ninsns;) {
		dex_insn o;
		uint32_t n = dex_op_decode(c->insns, c->ninsns, pc, d->version, &o);
		if (!n)
			return 0;
		int64_t v = 0;
		uint32_t vr = UINT32_MAX;
		if (o.op == DEX_OP_CONST_4 || o.op == DEX_OP_CONST_16 || o.op == DEX_OP_CONST || o.op == DEX_OP_CONST_HIGH16) {
			v = o.lit;
			vr = o.a;
		} else if ((o.op == DEX_OP_INVOKE_STATIC || o.op == DEX_OP_INVOKE_STATIC_RANGE) && o.nargs == 1) {
			uint32_t arg = o.op == DEX_OP_INVOKE_STATIC ? o.args[0] : o.a;
			if (lit > 0 && lit < MM_ID_DISPATCH && arg == reg && is_beat_method(r, d, o.idx, "i", "(I)V"))
				return (uint32_t)lit;
		}
		if ((o.op == DEX_OP_INVOKE_STATIC || o.op == DEX_OP_INVOKE_STATIC_RANGE) && is_beat_method(r, d, o.idx, "at", NULL))
			focus = true;
		lit = v;
		reg = vr;
		pc += n;
	}
	return focus ? PRESET_ADDED : 0;
}

int collect_dex_class(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err)
{
	const dex_file *d = &u->dex->d;
	const dex_class *k = &d->classes[u->dex_class];
	tc_error cerr;
	tc_error_clear(&cerr);
	u->cls = internal_of(w, d, k->type);
	u->super = k->super != DEX_NO_INDEX ? internal_of(w, d, k->super) : NULL;
	if (!u->cls || (k->super != DEX_NO_INDEX && !u->super)) {
		tc_fail(&cerr, TC_EFORMAT, TC_NO_OFFSET, "class_defs", "class %u is not a class type", u->dex_class);
		malformed(u, w, &cerr);
		return TC_OK;
	}
	u->access = (uint16_t)k->flags;
	beat_note_dex(r, u, d, k);
	char fname[1100];
	snprintf(fname, sizeof fname, "%s.class", u->cls);
	u->candidate = filter_file(fname);
	const dex_cdata *cd = k->data;
	for (uint32_t i = 0; i < dex_cdata_nmethods(cd); i++) {
		const dex_emethod *m = dex_cdata_method(cd, i);
		if (!is_dex_focus(d, m))
			continue;
		/* a direct method (static or private) overrides nothing */
		if (m->flags & (DACC_STATIC | DACC_PRIVATE)) {
			u->focus_blocked = m->flags & DACC_STATIC ? FOCUS_STATIC : FOCUS_PRIVATE;
		} else {
			u->focus_declared = true;
			u->focus_final = (m->flags & DACC_FINAL) != 0;
		}
	}
	if (u->in->classpath || !u->candidate || (k->flags & (DACC_INTERFACE | DACC_ABSTRACT)))
		return TC_OK;
	u->traceable = true;
	char oclass[1024];
	const char *ocls;
	size_t olen = original_class(r, u, w, oclass, sizeof oclass, &ocls);
	if (!ocls)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	u->blocked = rules_blocks_class(r->rules, oclass);
	u->nmethods = dex_cdata_nmethods(cd);
	u->methods = arena_array(&w->keep, u->nmethods ? u->nmethods : 1, sizeof(pl_meth));
	if (!u->methods)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	filter_art art = {rules_dex_inline_limit(r->rules), rules_dex_inline_api(r->rules)};
	/* direct methods, then virtual ones: inject_dex.c walks them in the same order */
	for (uint32_t i = 0; i < u->nmethods; i++) {
		const dex_emethod *m = dex_cdata_method(cd, i);
		pl_meth *x = &u->methods[i];
		memset(x, 0, sizeof *x);
		x->index = (uint16_t)i;
		x->access = matrix_flags(d, k, m);
		const dex_mid *mid = &d->methods.v[m->idx];
		const dex_str *name = dex_string(d, mid->name);
		char desc[4096];
		if (!dex_proto_desc(d, mid->proto, desc, sizeof desc) || name->len >= 1024) {
			tc_fail(&cerr, TC_ELIMIT, TC_NO_OFFSET, "method", "name or descriptor too long");
		} else {
			char nbuf[1024];
			memcpy(nbuf, name->data, name->len);
			nbuf[name->len] = '\0';
			set_line(r, w, u, ocls, olen, nbuf, desc, x, &cerr);
		}
		if (cerr.code == TC_OK && u->blocked) {
			x->verdict = V_BLOCKED;
			continue;
		}
		/* instrumented before: traced with its probe's id, left as it is */
		if (cerr.code == TC_OK && (x->preset = dex_probe_id(r, d, m)) != 0) {
			x->verdict = V_TRACE;
			u->already++;
			continue;
		}
		enum filter_verdict fv = FILTER_TRACE;
		bool narrow = false;
		/* an override of onWindowFocusChanged(Z)V gets at() too, if its class is an
		 * Activity (not known yet: measured as if it were) */
		if (cerr.code == TC_OK)
			filter_dex_method(d, m, k->flags, &art, is_dex_focus(d, m) && !(m->flags & (DACC_STATIC | DACC_PRIVATE)),
			                  &w->scratch, &fv, &narrow, &cerr);
		if (cerr.code != TC_OK) {
			if (cerr.code == TC_ENOMEM)
				return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
			char label[1024];
			dex_method_label(d, m->idx, label, sizeof label);
			tc_error_context(&cerr, NULL, NULL, label);
			u->traceable = false;
			malformed(u, w, &cerr);
			return TC_OK;
		}
		set_verdict(r, x, fv);
		x->narrow = x->verdict == V_TRACE && narrow;
	}
	return TC_OK;
}

/* --- between the phases -------------------------------------------------------------- */

/* The class hierarchy by name (index_classes): open addressing over the entries (slot:
 * index + 1, 0 empty), each with the entry of its super class found once (sup), so that
 * the walks up the hierarchy follow pointers rather than look names up at every step. */
typedef struct cls_entry {
	const char *name;
	uint64_t hash;
	pl_unit *u;
	struct cls_entry *sup; /* the entry named u->super, or NULL: neither an input nor on the class path */
} cls_entry;

typedef struct cls_map {
	cls_entry *v;
	size_t n;
	uint32_t *slots;
	size_t mask;
} cls_map;

/* A set of mapping lines: open addressing over the methods of an array (slot: index + 1,
 * 0 empty), by the hash the workers computed. 4 bytes a slot where uthash took 64 an
 * entry: on 600,000 methods, 8 MB rather than 40. */
typedef struct line_set {
	uint32_t *slots;
	size_t mask;
	pl_meth **v; /* the members, in the order they were added */
} line_set;

static bool set_init(line_set *s, pl_meth **v, size_t n)
{
	size_t size = 16;
	while (size < 2 * n)
		size *= 2;
	s->slots = calloc(size, sizeof *s->slots);
	s->mask = size - 1;
	s->v = v;
	return s->slots != NULL;
}

/* The member with m's line, or the slot where it goes (*slot). */
static pl_meth *set_find(const line_set *s, const pl_meth *m, uint32_t **slot)
{
	for (size_t i = m->hash & s->mask;; i = (i + 1) & s->mask) {
		uint32_t k = s->slots[i];
		if (!k) {
			*slot = &s->slots[i];
			return NULL;
		}
		const pl_meth *x = s->v[k - 1];
		if (x->hash == m->hash && x->class_len == m->class_len && x->rest_len == m->rest_len &&
		    (x->cls == m->cls || !memcmp(x->cls, m->cls, m->class_len)) &&
		    !memcmp(x->rest, m->rest, m->rest_len))
			return s->v[k - 1];
	}
}

/* The entry named name, whose hash is h, or NULL; *slot (when not NULL) is where it goes
 * then. */
static cls_entry *find(const cls_map *m, const char *name, uint64_t h, uint32_t **slot)
{
	for (size_t i = h & m->mask;; i = (i + 1) & m->mask) {
		uint32_t k = m->slots[i];
		if (!k) {
			if (slot)
				*slot = &m->slots[i];
			return NULL;
		}
		cls_entry *e = &m->v[k - 1];
		if (e->hash == h && !strcmp(e->name, name))
			return e;
	}
}

static cls_entry *lookup(const cls_map *m, const char *name)
{
	return name ? find(m, name, XXH3_64bits(name, strlen(name)), NULL) : NULL;
}

static bool is_root(const char *name)
{
	for (size_t i = 0; i < sizeof ACTIVITY_ROOTS / sizeof ACTIVITY_ROOTS[0]; i++)
		if (!strcmp(name, ACTIVITY_ROOTS[i]))
			return true;
	return false;
}

/* Walks the super classes seen in the inputs and the class path (Matrix:
 * isActivityOrSubClass). A cycle in malformed input ends the walk. */
static bool is_activity(const cls_map *map, const char *name)
{
	const cls_entry *e = NULL;
	for (int depth = 0; name && depth < 1000; depth++) {
		if (is_root(name))
			return true;
		if (!(e = depth ? e->sup : lookup(map, name)))
			return false;
		name = e->u->super;
	}
	return false;
}

/* Whether an ancestor declares onWindowFocusChanged final: then no override can be
 * added (it would fail to load). Matrix added one regardless. */
static bool focus_final_above(const cls_map *map, const char *super)
{
	const cls_entry *e = NULL;
	for (int depth = 0; super && depth < 1000; depth++) {
		if (!(e = depth ? e->sup : lookup(map, super)))
			return false;
		if (e->u->focus_declared)
			return e->u->focus_final;
		super = e->u->super;
	}
	return false;
}

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = (*(pl_meth *const *)a)->id, y = (*(pl_meth *const *)b)->id;
	return x < y ? -1 : x > y;
}

/* By class name only, as Matrix sorts the ignore list; ties keep input order, which
 * `order` records because qsort is not stable. */
static int cmp_class(const void *a, const void *b)
{
	const pl_meth *x = *(pl_meth *const *)a, *y = *(pl_meth *const *)b;
	size_t n = x->class_len < y->class_len ? x->class_len : y->class_len;
	int c = memcmp(x->cls, y->cls, n);
	if (c)
		return c;
	if (x->class_len != y->class_len)
		return x->class_len < y->class_len ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool sorted(pl_meth **v, size_t n, int (*cmp)(const void *, const void *))
{
	for (size_t i = 1; i < n; i++)
		if (cmp(&v[i - 1], &v[i]) > 0)
			return false;
	return true;
}

/* m's id in the base mapping, 0 if none. */
static uint32_t base_id(const mapping *base, const pl_meth *m)
{
	char buf[8192], *line = buf;
	size_t n = pl_meth_line_len(m) + 1;
	if (n > sizeof buf && !(line = malloc(n)))
		return 0;
	pl_meth_line(m, line, n);
	uint32_t id = mapping_id(base, line);
	if (line != buf)
		free(line);
	return id;
}

/* The class hierarchy, by name: inputs first, then the class path; the first class of a
 * name wins, as on a class path. */
static bool index_classes(pl_run *r, cls_map *map)
{
	size_t size = 16;
	while (size < 2 * r->nunits)
		size *= 2;
	map->v = malloc((r->nunits ? r->nunits : 1) * sizeof *map->v);
	map->slots = calloc(size, sizeof *map->slots);
	map->mask = size - 1;
	map->n = 0;
	if (!map->v || !map->slots)
		return false;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < r->nunits; i++) {
			pl_unit *u = &r->units[i];
			if ((u->kind != UNIT_CLASS && u->kind != UNIT_DEXCLASS) || u->state != US_OK || !u->cls ||
			    u->in->classpath != (pass == 1))
				continue;
			uint32_t *slot;
			uint64_t h = XXH3_64bits(u->cls, strlen(u->cls));
			if (find(map, u->cls, h, &slot))
				continue;
			map->v[map->n] = (cls_entry){.name = u->cls, .hash = h, .u = u};
			*slot = (uint32_t)++map->n;
		}
	}
	for (size_t k = 0; k < map->n; k++)
		map->v[k].sup = lookup(map, map->v[k].u->super);
	return true;
}

/* The Activities among the traced classes, and which of them get an onWindowFocusChanged
 * added (or cannot: a super class declares it final). */
static void mark_activities(pl_run *r, const cls_map *map)
{
	for (size_t i = 0; i < r->nunits; i++) {
		pl_unit *u = &r->units[i];
		/* a class instrumented before got its focus call then */
		if (!u->traceable || u->blocked || u->state != US_OK || u->already || !is_activity(map, u->cls))
			continue;
		u->activity = true;
		if (!u->focus_declared && !u->focus_blocked) {
			if (focus_final_above(map, u->super))
				u->focus_refused = 1;
			else
				u->add_focus = true;
		}
	}
}

/* Where the super classes of class u lead: NULL when to a root Activity, to
 * java/lang/Object, to a class of the JDK or Kotlin (no Activity), or to one of the
 * framework's (android.jar) not named like one (Handler, View: ListActivity, TabActivity,
 * ActivityGroup are); else the first name neither an input nor on the class path. */
static const char *lost_super(const cls_map *map, const pl_unit *u)
{
	static const char *const none[] = {"java/", "javax/", "jdk/", "sun/", "kotlin/"};
	const char *name = u->super;
	const cls_entry *e = NULL;
	bool lost = false;
	for (int depth = 0; name && depth < 1000 && !lost; depth++) {
		if (is_root(name))
			return NULL;
		if (!(e = depth ? e->sup : lookup(map, name)))
			lost = true;
		else
			name = e->u->super;
	}
	/* a chain that ends, or goes on past any real hierarchy (a cycle: malformed input,
	 * its classes inputs all), leaves nothing out */
	if (!lost)
		return NULL;
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
		if (!strncmp(name, none[i], strlen(none[i])))
			return NULL;
	const char *simple = strrchr(name, '/');
	if (!strncmp(name, "android/", 8) && !strstr(simple ? simple : name, "Activity"))
		return NULL;
	return name;
}

/* Matrix knows an Activity by its super classes; one whose chain leaves the inputs and
 * the class path is silently none. Said once for the run, on the first such class: how
 * many, the first few names, and the option that fixes it. */
static void note_lost_supers(pl_run *r, const cls_map *map)
{
	enum { SHOWN = 3 };
	const pl_unit *first[SHOWN] = {0};
	const char *lost[SHOWN] = {0};
	size_t n = 0, shown = 0, at = 0;
	bool more = false;
	for (size_t i = 0; i < r->nunits; i++) {
		pl_unit *u = &r->units[i];
		u->supers_note = NULL;
		if (!u->traceable || u->state != US_OK || u->activity)
			continue;
		const char *name = lost_super(map, u);
		if (!name)
			continue;
		if (!n++)
			at = i;
		bool seen = false;
		for (size_t k = 0; k < shown; k++)
			seen |= !strcmp(lost[k], name);
		if (!seen && shown == SHOWN)
			more = true;
		else if (!seen) {
			first[shown] = u;
			lost[shown++] = name;
		}
	}
	if (!n)
		return;
	char list[3 * 2200] = "";
	for (size_t k = 0; k < shown; k++) {
		size_t len = strlen(list);
		snprintf(list + len, sizeof list - len, "%s%.1000s's %.1000s", k ? ", " : "", first[k]->cls, lost[k]);
	}
	char whose[64] = "its super classes are";
	if (n > 1)
		snprintf(whose, sizeof whose, "the super classes of %zu classes are", n);
	pl_unit *u = &r->units[at];
	pl_unit_report(u, &r->workers[0], "class %s: %s " PL_SUPERS_NOTE " (%.600s%s): an "
	               "Activity among them is not known as one (its onWindowFocusChanged gets no AppMethodBeat.at); "
	               "give the jars that define them (android.jar of the compile SDK, the app's libraries) with "
	               "--classpath", u->cls, whose, list, more ? ", ..." : "");
	for (pl_report *p = u->reports; p; p = p->next)
		u->supers_note = p->text;
}

/* The ids of probes already in the code, reserved first: they cannot change without
 * editing the code again. */
static void reserve_probe_ids(const pl_run *r, uint8_t *used)
{
	for (size_t i = 0; i < r->nunits; i++) {
		const pl_unit *u = &r->units[i];
		if (!u->traceable || u->state != US_OK || !u->already)
			continue;
		for (uint32_t k = 0; k < u->nmethods; k++) {
			uint32_t id = u->methods[k].preset;
			if (id && id != PRESET_ADDED && u->methods[k].verdict == V_TRACE)
				used[id / 8] |= (uint8_t)(1u << (id % 8));
		}
	}
}

/* Every method into its list, once each: an ignored one into pl_run.ignored; a traced one
 * into pl_run.traced with its id: its probe's, else the base mapping's, else a new one
 * in input order (input, entry, method). */
static int assign_ids(pl_run *r, line_set *traced_set, line_set *ignored_set, uint8_t *used, tc_error *err)
{
	uint32_t next = r->base ? mapping_max_id(r->base) + 1 : 1;
	/* new ids given, and wanted once they ran out (counted on, to say how many) */
	size_t fresh = 0, wanted = 0;
	for (size_t i = 0; i < r->nunits; i++) {
		pl_unit *u = &r->units[i];
		if (!u->traceable || u->state != US_OK)
			continue;
		for (uint32_t k = 0; k < u->nmethods; k++) {
			pl_meth *m = &u->methods[k];
			uint32_t *slot;
			if (m->preset == PRESET_ADDED)
				continue; /* an earlier run's: in no list, as then */
			r->by_verdict[m->verdict]++;
			if (m->verdict != V_TRACE) {
				if (!set_find(ignored_set, m, &slot)) {
					m->order = (uint32_t)r->nignored;
					r->ignored[r->nignored++] = m;
					*slot = (uint32_t)r->nignored;
				}
				continue;
			}
			const pl_meth *e = set_find(traced_set, m, &slot);
			if (e) { /* the same method again (another input, a multi-release copy) */
				m->id = m->preset ? m->preset : e->id;
				continue;
			}
			if (m->preset) {
				m->id = m->preset;
				r->traced[r->ntraced++] = m;
				*slot = (uint32_t)r->ntraced;
				continue;
			}
			uint32_t id = r->base ? base_id(r->base, m) : 0;
			if (id >= MM_ID_DISPATCH || (id && (used[id / 8] >> (id % 8) & 1)))
				id = 0; /* reserved, or given to another method (a probe's, a corrupt base) */
			bool took = !id; /* a new one */
			if (!id) {
				while (next < MM_ID_DISPATCH && (used[next / 8] >> (next % 8) & 1))
					next++;
				if (next >= MM_ID_DISPATCH || wanted) {
					wanted++; /* listed, to count the same method once */
					r->traced[r->ntraced++] = m;
					*slot = (uint32_t)r->ntraced;
					continue;
				}
				id = next++;
				fresh++;
			}
			if (m->narrow && id > INT16_MAX) {
				/* its probes' const past 32767 push it past -keepinlinable's limit */
				if (took) { /* given back: the next method gets it */
					next--;
					fresh--;
				}
				m->verdict = V_INLINE;
				r->by_verdict[V_TRACE]--;
				r->by_verdict[V_INLINE]++;
				if (!set_find(ignored_set, m, &slot)) {
					m->order = (uint32_t)r->nignored;
					r->ignored[r->nignored++] = m;
					*slot = (uint32_t)r->nignored;
				}
				continue;
			}
			used[id / 8] |= (uint8_t)(1u << (id % 8));
			m->id = id;
			r->traced[r->ntraced++] = m;
			*slot = (uint32_t)r->ntraced;
		}
	}
	if (!wanted)
		return TC_OK;
	/* Matrix's rule: new ids follow the base mapping's largest, gaps below stay free */
	if (r->base)
		return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, "method ids",
		               "exhausted: new ids follow the largest of --base-mapping %s (%u), which leaves %zu of the "
		               "%u ids for %zu methods new to this build: start the ids over by running without "
		               "--base-mapping (every method then gets a new id, in input order), or trace fewer methods "
		               "(--blocklist)",
		               r->opt->base_mapping, mapping_max_id(r->base), fresh, MM_ID_DISPATCH - 1, fresh + wanted);
	return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, "method ids",
	               "exhausted: %zu methods to trace, more than the %u ids a recording can name: trace fewer "
	               "methods (--blocklist)",
	               r->ntraced, MM_ID_DISPATCH - 1);
}

/* The mapping files' orders: the traced by id, the ignored by class. Without a base
 * mapping the ids are already in order; directory inputs often list classes in name
 * order too. Sort only what is not sorted. */
static void sort_traced(pl_run *r)
{
	if (!sorted(r->traced, r->ntraced, cmp_id))
		qsort(r->traced, r->ntraced, sizeof *r->traced, cmp_id);
}

void collect_sort_ignored(pl_run *r)
{
	if (!sorted(r->ignored, r->nignored, cmp_class))
		qsort(r->ignored, r->nignored, sizeof *r->ignored, cmp_class);
}

int collect_decide(pl_run *r, tc_error *err)
{
	int rc = TC_OK;
	cls_map map = {0};
	line_set traced_set = {0}, ignored_set = {0};
	uint8_t *used = calloc(MM_ID_MAX / 8 + 1, 1);
	size_t ntrace = 0, nother = 0;
	for (size_t i = 0; i < r->nunits; i++) {
		const pl_unit *u = &r->units[i];
		if (!u->traceable || u->state != US_OK)
			continue;
		for (uint32_t k = 0; k < u->nmethods; k++) {
			*(u->methods[k].verdict == V_TRACE ? &ntrace : &nother) += 1;
			nother += u->methods[k].narrow; /* may be ignored once it has its id */
		}
	}
	r->traced = calloc(ntrace ? ntrace : 1, sizeof *r->traced);
	r->ignored = calloc(nother ? nother : 1, sizeof *r->ignored);
	if (!index_classes(r, &map) || !used || !r->traced || !r->ignored || !set_init(&traced_set, r->traced, ntrace) ||
	    !set_init(&ignored_set, r->ignored, nother)) {
		rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "decide", "no memory");
		goto done;
	}
	mark_activities(r, &map);
	note_lost_supers(r, &map);
	reserve_probe_ids(r, used);
	if ((rc = assign_ids(r, &traced_set, &ignored_set, used, err)) != TC_OK)
		goto done;
	sort_traced(r);
done:
	free(map.v);
	free(map.slots);
	free(traced_set.slots);
	free(ignored_set.slots);
	free(used);
	return rc;
}

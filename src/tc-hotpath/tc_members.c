/* tc-members: every class, field and method a jar's code reaches outside itself, and
 * whether another jar has them. The runtime's member check (tests/runtime/members) runs
 * `sites` on the runtime jar and `lookup` on each android-all jar; it decides there.
 *
 *   tc-members sites JAR      one line per class, method and reference site, on stdout:
 *     class NAME SUPER ACCESS IFACE,...|-
 *     method CLASS NAME DESC ACCESS
 *     site CLASS NAME DESC OFF LO HI KIND OWNER MNAME MDESC CATCH,...|-
 *   KIND: class (ldc, checkcast, instanceof, anewarray, multianewarray), new, getfield,
 *   putfield, getstatic, putstatic, invokevirtual, invokespecial, invokestatic,
 *   invokeinterface; and by reflection: forname (Class.forName of a string constant),
 *   reflfield and reflmethod (the runtime's Reflection.field and .method: declared in the
 *   class or a superclass), refldeclfield and refldeclmethod (Class.getDeclaredField and
 *   Method: declared in the class), reflpubfield and reflpubmethod (Class.getField and
 *   getMethod: public, inherited too); a method's MDESC is its parameters "(...)" or "?",
 *   a field's "?". OWNER "?" when
 *   the class is not a constant (obj.getClass()); "-" stands for an empty name or desc.
 *   LO..HI: the range of Build.VERSION.SDK_INT on every path to the site, from the
 *   comparisons of SDK_INT (or a local that only ever holds it) with a constant that
 *   branch there (21..99 when nothing is known); "dead" when no path reaches it. CATCH:
 *   the catch types of the handlers that cover the site, innermost first ("any" for
 *   finally).
 *
 *   tc-members lookup JAR     reads queries "OWNER [NAME DESC]" from stdin, one a line
 *     (DESC of a method "(...)R", or "(...)" to match the parameters alone; of a field its
 *     type, or "?"), and answers each on a line: "found ACCESS DECLARING DESC" (the
 *     member resolved as the JVM does: the class, its superclasses, then its
 *     interfaces), "noclass", "missing", or "unresolved SUPER" when it is in none of the
 *     classes the jar has and the search met a supertype the jar lacks (android-all
 *     leaves most of libcore to the JDK: java/lang/Object is not in it).
 *
 * Exit status: 0 done, 2 usage or input errors. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "bytes.h"
#include "classfile.h"
#include "containers/jar.h"
#include "opcodes.h"

#define SDK_MIN 21
#define SDK_MAX 99
#define REFLECTION "com/tencent/matrix/trace/android/Reflection"

static void oom(void)
{
	fputs("tc-members: out of memory\n", stderr);
	exit(2);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		oom();
	return p;
}

/* ---- a jar's classes, parsed on demand ---- */

typedef struct entry {
	char *name; /* internal class name */
	uint64_t index;
	bool parsed, bad;
	cf_class cls;
	uint8_t *bytes;
} entry;

typedef struct jarset {
	tc_jar *jar;
	entry *e;
	size_t n;
	arena a;
	tc_buf buf;
	const char *path;
} jarset;

static int cmp_entry(const void *x, const void *y)
{
	return strcmp(((const entry *)x)->name, ((const entry *)y)->name);
}

static int jarset_open(jarset *j, const char *path)
{
	tc_error err;
	tc_error_clear(&err);
	memset(j, 0, sizeof *j);
	j->path = path;
	arena_init(&j->a);
	buf_init(&j->buf);
	if (jar_open(&j->jar, path, &err) != TC_OK) {
		char msg[1024];
		tc_error_format(&err, msg, sizeof msg);
		fprintf(stderr, "tc-members: %s\n", msg);
		return -1;
	}
	uint64_t n = jar_count(j->jar);
	j->e = xcalloc(n, sizeof *j->e);
	for (uint64_t i = 0; i < n; i++) {
		const char *name = jar_name(j->jar, i);
		size_t len = name ? strlen(name) : 0;
		if (len < 7 || strcmp(name + len - 6, ".class") || jar_is_dir(j->jar, i))
			continue;
		entry *e = &j->e[j->n++];
		e->name = xcalloc(len - 5, 1);
		memcpy(e->name, name, len - 6);
		e->index = i;
	}
	qsort(j->e, j->n, sizeof *j->e, cmp_entry);
	return 0;
}

static void jarset_close(jarset *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->e[i].name);
		free(j->e[i].bytes);
	}
	free(j->e);
	buf_free(&j->buf);
	if (j->jar)
		jar_close(j->jar);
	arena_free(&j->a);
}

static entry *jarset_load(jarset *j, entry *e)
{
	if (e->parsed)
		return e->bad ? NULL : e;
	e->parsed = true;
	tc_error err;
	tc_error_clear(&err);
	size_t len = 0;
	if (jar_read(j->jar, e->index, &j->buf, 1u << 24, NULL, &err) != TC_OK ||
	    !(e->bytes = buf_take(&j->buf, &len)) || cf_parse(&e->cls, &j->a, e->bytes, len, &err) != TC_OK) {
		char msg[1024];
		tc_error_context(&err, e->name, NULL, NULL);
		tc_error_format(&err, msg, sizeof msg);
		fprintf(stderr, "tc-members: %s: %s\n", j->path, msg);
		e->bad = true;
		return NULL;
	}
	return e;
}

static entry *jarset_find(jarset *j, const char *name)
{
	entry key = { .name = (char *)name };
	entry *e = bsearch(&key, j->e, j->n, sizeof *j->e, cmp_entry);
	return e ? jarset_load(j, e) : NULL;
}

static void copy_str(char *dst, size_t size, const uint8_t *s, uint32_t n)
{
	snprintf(dst, size, "%.*s", (int)n, s ? (const char *)s : "");
}

static void class_str(const cp_pool *cp, uint32_t idx, char *dst, size_t size)
{
	uint32_t n = 0;
	const uint8_t *s = cp_class_name(cp, idx, &n);
	copy_str(dst, size, s, n);
}

/* ---- lookup ---- */

static const cf_member *match(const cf_class *c, const char *name, const char *desc, bool field)
{
	uint16_t n = field ? c->nfields : c->nmethods;
	const cf_member *v = field ? c->fields : c->methods;
	size_t dl = strlen(desc);
	for (uint16_t i = 0; i < n; i++) {
		if (!cp_utf8_eq(&c->cp, v[i].name, name))
			continue;
		uint32_t len = 0;
		const uint8_t *d = cp_utf8(&c->cp, v[i].desc, &len);
		if (!strcmp(desc, "?") || (len == dl && !memcmp(d, desc, dl)) ||
		    (!field && desc[dl - 1] == ')' && len > dl && !memcmp(d, desc, dl)))
			return &v[i];
	}
	return NULL;
}

/* The member as the JVM resolves it (JVMS 5.4.3.2, 5.4.3.3): the class and its
 * superclasses, then the superinterfaces, depth first. */
static const cf_member *resolve(jarset *j, entry *e, const char *name, const char *desc, bool field, int depth,
                                entry **where, char *gap, size_t gap_size)
{
	if (!e || depth > 64)
		return NULL;
	for (entry *c = e; c; depth++) {
		const cf_member *m = match(&c->cls, name, desc, field);
		if (m) {
			*where = c;
			return m;
		}
		if (!c->cls.super_class || depth > 64)
			break;
		char super[512];
		class_str(&c->cls.cp, c->cls.super_class, super, sizeof super);
		c = jarset_find(j, super);
		if (!c && !*gap)
			snprintf(gap, gap_size, "%s", super);
	}
	for (entry *c = e; c; depth++) {
		for (uint16_t i = 0; i < c->cls.ninterfaces; i++) {
			char in[512];
			class_str(&c->cls.cp, c->cls.interfaces[i], in, sizeof in);
			entry *ie = jarset_find(j, in);
			if (!ie && !*gap)
				snprintf(gap, gap_size, "%s", in);
			const cf_member *m = resolve(j, ie, name, desc, field, depth + 1, where, gap, gap_size);
			if (m)
				return m;
		}
		if (!c->cls.super_class || depth > 64)
			break;
		char super[512];
		class_str(&c->cls.cp, c->cls.super_class, super, sizeof super);
		c = jarset_find(j, super);
	}
	return NULL;
}

static int lookup(const char *path)
{
	jarset j;
	if (jarset_open(&j, path))
		return 2;
	char line[2048];
	while (fgets(line, sizeof line, stdin)) {
		char owner[512], name[256], desc[1024];
		int got = sscanf(line, "%511s %255s %1023s", owner, name, desc);
		if (got <= 0)
			continue;
		entry *e = jarset_find(&j, owner);
		if (!e) {
			puts("noclass");
		} else if (got == 1) {
			printf("found %u %s -\n", e->cls.access, owner);
		} else if (got == 3) {
			bool field = desc[0] != '(';
			entry *where = NULL;
			char gap[512] = "";
			const cf_member *m = resolve(&j, e, name, desc, field, 0, &where, gap, sizeof gap);
			if (!m && *gap) {
				printf("unresolved %s\n", gap);
			} else if (!m) {
				puts("missing");
			} else {
				uint32_t len = 0;
				const uint8_t *d = cp_utf8(&where->cls.cp, m->desc, &len);
				printf("found %u %s %.*s\n", m->access, where->name, (int)len, (const char *)d);
			}
		} else {
			fprintf(stderr, "tc-members: lookup: expected \"OWNER [NAME DESC]\", got: %s", line);
			jarset_close(&j);
			return 2;
		}
		fflush(stdout);
	}
	jarset_close(&j);
	return 0;
}

/* ---- sites: the range of SDK_INT on the way to each instruction ---- */

typedef struct range {
	int lo, hi; /* lo > hi: no path seen yet */
} range;

typedef struct insn {
	cf_insn in;
	range r;
	int sdk_cmp;   /* the branch compares SDK_INT with sdk_val: 1 SDK op N, -1 N op SDK, 0 not */
	int sdk_val;
} insn;

typedef struct method_ctx {
	const cf_class *cls;
	cf_code code;
	insn *v;
	uint32_t n;
	int32_t *at; /* offset -> instruction index, -1 between */
	uint8_t *sdk_local; /* 1: every store to the local is of SDK_INT */
	uint32_t param_words; /* this and the parameters: slots 0..param_words-1 */
} method_ctx;

/* Local slots the parameters take (JVMS 2.6.1): long and double two. */
static uint32_t param_words(const char *desc, bool is_static)
{
	uint32_t n = is_static ? 0 : 1;
	for (const char *p = desc + 1; *p && *p != ')'; p++) {
		n += (*p == 'J' || *p == 'D') ? 2 : 1;
		while (*p == '[')
			p++;
		if (*p == 'L')
			p = strchr(p, ';');
		if (!p)
			break;
	}
	return n;
}

static bool is_sdk_int(const cf_class *cls, const cf_insn *in)
{
	static const char owner[] = "android/os/Build$VERSION";
	cp_ref r;
	return in->op == OP_GETSTATIC && cp_member_ref(&cls->cp, in->index, &r) && r.cls_len == sizeof owner - 1 &&
	       !memcmp(r.cls, owner, r.cls_len) && r.name_len == 7 && !memcmp(r.name, "SDK_INT", 7);
}

static bool const_int(const cf_insn *in, int *v)
{
	if (in->op >= OP_ICONST_M1 && in->op <= OP_ICONST_5) {
		*v = in->op - OP_ICONST_0;
		return true;
	}
	if (in->op == OP_BIPUSH || in->op == OP_SIPUSH) {
		*v = in->imm;
		return true;
	}
	return false;
}

static int load_local(const cf_insn *in)
{
	return in->op == OP_ILOAD || (in->op >= OP_ILOAD_0 && in->op <= OP_ILOAD_3) ? in->index : -1;
}

static int store_local(const cf_insn *in)
{
	return in->op == OP_ISTORE || (in->op >= OP_ISTORE_0 && in->op <= OP_ISTORE_3) ? in->index : -1;
}

static bool is_sdk(const method_ctx *c, uint32_t i)
{
	const cf_insn *in = &c->v[i].in;
	int l = load_local(in);
	return is_sdk_int(c->cls, in) || (l >= 0 && l < c->code.max_locals && c->sdk_local[l]);
}

/* The range on each edge of a conditional branch that compares SDK_INT. For "SDK op N"
 * (dir 1) taken means op holds; for "N op SDK" the comparison is mirrored. */
static void narrow(int op, int dir, int n, bool taken, range *r)
{
	/* normalise to SDK op' N */
	if (dir < 0) {
		switch (op) {
		case OP_IF_ICMPLT: op = OP_IF_ICMPGT; break;
		case OP_IF_ICMPGT: op = OP_IF_ICMPLT; break;
		case OP_IF_ICMPLE: op = OP_IF_ICMPGE; break;
		case OP_IF_ICMPGE: op = OP_IF_ICMPLE; break;
		default: break;
		}
	}
	if (!taken) { /* the negation */
		switch (op) {
		case OP_IF_ICMPLT: op = OP_IF_ICMPGE; break;
		case OP_IF_ICMPGE: op = OP_IF_ICMPLT; break;
		case OP_IF_ICMPGT: op = OP_IF_ICMPLE; break;
		case OP_IF_ICMPLE: op = OP_IF_ICMPGT; break;
		case OP_IF_ICMPEQ: op = OP_IF_ICMPNE; break;
		case OP_IF_ICMPNE: op = OP_IF_ICMPEQ; break;
		default: break;
		}
	}
	switch (op) {
	case OP_IF_ICMPLT: if (r->hi > n - 1) r->hi = n - 1; break;
	case OP_IF_ICMPLE: if (r->hi > n) r->hi = n; break;
	case OP_IF_ICMPGT: if (r->lo < n + 1) r->lo = n + 1; break;
	case OP_IF_ICMPGE: if (r->lo < n) r->lo = n; break;
	case OP_IF_ICMPEQ: if (r->lo < n) r->lo = n; if (r->hi > n) r->hi = n; break;
	default: break;
	}
}

static bool join(range *into, range r)
{
	if (r.lo > r.hi)
		return false; /* an impossible edge */
	if (into->lo > into->hi) {
		*into = r;
		return true;
	}
	range o = *into;
	if (r.lo < into->lo)
		into->lo = r.lo;
	if (r.hi > into->hi)
		into->hi = r.hi;
	return o.lo != into->lo || o.hi != into->hi;
}

static void flow(method_ctx *c)
{
	/* locals that only ever hold SDK_INT: every store is right after a getstatic of it */
	memset(c->sdk_local, 1, c->code.max_locals);
	for (uint32_t i = 0; i < c->n; i++) {
		int l = store_local(&c->v[i].in);
		if (l < 0 && c->v[i].in.op == OP_IINC)
			l = c->v[i].in.index;
		if (l >= 0 && l < c->code.max_locals && !(i > 0 && is_sdk_int(c->cls, &c->v[i - 1].in)))
			c->sdk_local[l] = 0;
	}
	/* the parameters' slots are written by the caller */
	for (uint32_t l = 0; l < c->param_words && l < c->code.max_locals; l++)
		c->sdk_local[l] = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		insn *x = &c->v[i];
		x->r = (range){ 1, 0 };
		if (!cf_op_has(x->in.op, OPF_COND) || x->in.op < OP_IF_ICMPEQ || x->in.op > OP_IF_ICMPLE || i < 2)
			continue;
		int v;
		if (is_sdk(c, i - 2) && const_int(&c->v[i - 1].in, &v)) {
			x->sdk_cmp = 1;
			x->sdk_val = v;
		} else if (const_int(&c->v[i - 2].in, &v) && is_sdk(c, i - 1)) {
			x->sdk_cmp = -1;
			x->sdk_val = v;
		}
	}
	if (c->n == 0)
		return;
	c->v[0].r = (range){ SDK_MIN, SDK_MAX };
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t i = 0; i < c->n; i++) {
			insn *x = &c->v[i];
			if (x->r.lo > x->r.hi)
				continue;
			uint8_t op = x->in.op;
			/* handlers: the state anywhere in their range reaches them */
			for (uint16_t e = 0; e < c->code.nexc; e++) {
				const cf_exc *h = &c->code.exc[e];
				if (x->in.off >= h->start && x->in.off < h->end && h->handler < c->code.len &&
				    c->at[h->handler] >= 0)
					changed |= join(&c->v[c->at[h->handler]].r, x->r);
			}
			uint32_t nt = cf_insn_ntargets(&x->in);
			for (uint32_t k = 0; k < nt; k++) {
				int64_t t = cf_insn_target(&x->in, k);
				if (t < 0 || t >= c->code.len || c->at[t] < 0)
					continue;
				range r = x->r;
				if (x->sdk_cmp)
					narrow(op, x->sdk_cmp, x->sdk_val, true, &r);
				changed |= join(&c->v[c->at[t]].r, r);
			}
			if (!cf_op_has(op, OPF_NOFALL) && i + 1 < c->n && !(op == OP_GOTO || op == OP_GOTO_W)) {
				range r = x->r;
				if (x->sdk_cmp)
					narrow(op, x->sdk_cmp, x->sdk_val, false, &r);
				changed |= join(&c->v[i + 1].r, r);
			}
		}
	}
}

static void put(const char *s)
{
	fputs(*s ? s : "-", stdout);
}

static void site(method_ctx *c, const char *cname, const char *mname, const char *mdesc, uint32_t i, const char *kind,
                 const char *owner, const char *name, const char *desc)
{
	const insn *x = &c->v[i];
	printf("site %s %s %s %u ", cname, mname, mdesc, x->in.off);
	if (x->r.lo > x->r.hi)
		printf("dead dead ");
	else
		printf("%d %d ", x->r.lo, x->r.hi);
	printf("%s ", kind);
	put(owner);
	putchar(' ');
	put(name);
	putchar(' ');
	put(desc);
	putchar(' ');
	bool any = false;
	for (uint16_t e = 0; e < c->code.nexc; e++) {
		const cf_exc *h = &c->code.exc[e];
		if (x->in.off < h->start || x->in.off >= h->end)
			continue;
		char t[512] = "any";
		if (h->type)
			class_str(&c->cls->cp, h->type, t, sizeof t);
		printf("%s%s", any ? "," : "", t);
		any = true;
	}
	puts(any ? "" : "-");
}

/* The string of an ldc, or NULL. */
static bool ldc_string(const cf_class *cls, const cf_insn *in, char *dst, size_t size)
{
	if ((in->op != OP_LDC && in->op != OP_LDC_W) || cp_tag(&cls->cp, in->index) != CP_STRING)
		return false;
	uint32_t n = 0;
	const uint8_t *s = cp_utf8(&cls->cp, cls->cp.e[in->index].a, &n);
	copy_str(dst, size, s, n);
	return s != NULL;
}

static bool ldc_class(const cf_class *cls, const cf_insn *in, char *dst, size_t size)
{
	if ((in->op != OP_LDC && in->op != OP_LDC_W) || cp_tag(&cls->cp, in->index) != CP_CLASS)
		return false;
	class_str(&cls->cp, in->index, dst, size);
	return true;
}

static bool invokes(const cf_class *cls, const cf_insn *in, const char *owner, const char *name)
{
	cp_ref r;
	return cf_op_has(in->op, OPF_INVOKE) && in->op != OP_INVOKEDYNAMIC && cp_member_ref(&cls->cp, in->index, &r) &&
	       r.cls_len == strlen(owner) && !memcmp(r.cls, owner, r.cls_len) && r.name_len == strlen(name) &&
	       !memcmp(r.name, name, r.name_len);
}

/* The class a reflective lookup's receiver holds: an ldc'd class, Class.forName of a
 * constant (directly, or through a local stored once), or "?" (e.g. obj.getClass()). */
static void receiver_class(method_ctx *c, uint32_t i, char *dst, size_t size)
{
	const cf_class *cls = c->cls;
	snprintf(dst, size, "?");
	if (ldc_class(cls, &c->v[i].in, dst, size))
		return;
	if (c->v[i].in.op == OP_GETSTATIC) { /* Long.TYPE and friends are no receivers we know */
		return;
	}
	uint32_t j = i;
	int l = c->v[i].in.op == OP_ALOAD ? c->v[i].in.index
	        : c->v[i].in.op >= OP_ALOAD_0 && c->v[i].in.op <= OP_ALOAD_3 ? c->v[i].in.op - OP_ALOAD_0 : -1;
	if (l >= 0) { /* the nearest store to that local before the load (straight-line code) */
		int found = -1;
		for (uint32_t k = 0; k < i; k++) {
			const cf_insn *s = &c->v[k].in;
			int sl = s->op == OP_ASTORE ? s->index : s->op >= OP_ASTORE_0 && s->op <= OP_ASTORE_3 ? s->op - OP_ASTORE_0 : -1;
			if (sl == l)
				found = (int)k;
		}
		if (found < 1)
			return;
		j = (uint32_t)found - 1;
		if (ldc_class(cls, &c->v[j].in, dst, size))
			return;
	}
	if (!invokes(cls, &c->v[j].in, "java/lang/Class", "forName"))
		return;
	/* forName(name) or forName(name, initialize, loader): the string a few before */
	for (uint32_t k = j; k > 0 && j - k < 8; k--) {
		if (ldc_string(cls, &c->v[k - 1].in, dst, size)) {
			for (char *p = dst; *p; p++)
				if (*p == '.')
					*p = '/';
			return;
		}
	}
}

/* The parameter types of a Class[] built in place: iconst n, anewarray Class, then
 * (dup, iconst k, <a class>, aastore) per element. */
static bool class_array(method_ctx *c, uint32_t from, uint32_t to, char *dst, size_t size)
{
	static const struct { const char *owner, *d; } prim[] = {
		{ "java/lang/Long", "J" }, { "java/lang/Integer", "I" }, { "java/lang/Boolean", "Z" },
		{ "java/lang/Byte", "B" }, { "java/lang/Short", "S" }, { "java/lang/Character", "C" },
		{ "java/lang/Float", "F" }, { "java/lang/Double", "D" }, { "java/lang/Void", "V" },
	};
	size_t n = 0;
	dst[n++] = '(';
	int count;
	if (from + 1 >= to || !const_int(&c->v[from].in, &count) || c->v[from + 1].in.op != OP_ANEWARRAY)
		return false;
	uint32_t i = from + 2;
	for (int k = 0; k < count; k++, i += 4) {
		if (i + 3 >= to + 1 || c->v[i].in.op != OP_DUP || c->v[i + 3].in.op != OP_AASTORE)
			return false;
		const cf_insn *t = &c->v[i + 2].in;
		char name[512];
		const char *d = NULL;
		if (t->op == OP_GETSTATIC) {
			cp_ref r;
			if (!cp_member_ref(&c->cls->cp, t->index, &r))
				return false;
			for (size_t p = 0; p < sizeof prim / sizeof *prim; p++)
				if (r.cls_len == strlen(prim[p].owner) && !memcmp(r.cls, prim[p].owner, r.cls_len))
					d = prim[p].d;
			if (!d)
				return false;
			n += (size_t)snprintf(dst + n, size - n, "%s", d);
		} else if (ldc_class(c->cls, t, name, sizeof name)) {
			n += (size_t)snprintf(dst + n, size - n, name[0] == '[' ? "%s" : "L%s;", name);
		} else {
			return false;
		}
		if (n >= size - 2)
			return false;
	}
	if (i != to)
		return false;
	snprintf(dst + n, size - n, ")");
	return true;
}

static void reflective(method_ctx *c, const char *cname, const char *mname, const char *mdesc, uint32_t i)
{
	const cf_class *cls = c->cls;
	const cf_insn *in = &c->v[i].in;
	char owner[512], name[512], params[1024];
	if (invokes(cls, in, "java/lang/Class", "forName")) {
		uint32_t k = i;
		while (k > 0 && i - k < 8 && !ldc_string(cls, &c->v[k - 1].in, owner, sizeof owner))
			k--;
		if (k > 0 && i - k < 8) {
			for (char *p = owner; *p; p++)
				if (*p == '.')
					*p = '/';
			site(c, cname, mname, mdesc, i, "forname", owner, "", "");
		} else {
			site(c, cname, mname, mdesc, i, "forname", "?", "", "");
		}
		return;
	}
	/* Reflection.field/method: declared members of the class or a superclass, any access;
	 * Class.getDeclared*: of the class alone; Class.getField/getMethod: public ones,
	 * inherited ones too */
	const char *kind = invokes(cls, in, REFLECTION, "field")                  ? "reflfield"
	                   : invokes(cls, in, REFLECTION, "method")               ? "reflmethod"
	                   : invokes(cls, in, "java/lang/Class", "getDeclaredField")  ? "refldeclfield"
	                   : invokes(cls, in, "java/lang/Class", "getDeclaredMethod") ? "refldeclmethod"
	                   : invokes(cls, in, "java/lang/Class", "getField")          ? "reflpubfield"
	                   : invokes(cls, in, "java/lang/Class", "getMethod")         ? "reflpubmethod"
	                                                                              : NULL;
	if (!kind)
		return;
	bool field = strstr(kind, "field") != NULL;
	/* the name: the nearest ldc string before; the receiver: the instruction before it */
	uint32_t s = i;
	while (s > 0 && !ldc_string(cls, &c->v[s - 1].in, name, sizeof name) && i - s < 64)
		s--;
	if (s == 0 || i - s >= 64) {
		site(c, cname, mname, mdesc, i, kind, "?", "?", "?");
		return;
	}
	s--; /* the ldc */
	if (s >= 1)
		receiver_class(c, s - 1, owner, sizeof owner);
	else
		snprintf(owner, sizeof owner, "?");
	if (field) {
		site(c, cname, mname, mdesc, i, kind, owner, name, "?");
	} else {
		if (!class_array(c, s + 1, i, params, sizeof params))
			snprintf(params, sizeof params, "?");
		site(c, cname, mname, mdesc, i, kind, owner, name, params);
	}
}

static const char *kind_of(uint8_t op)
{
	switch (op) {
	case OP_NEW: return "new";
	case OP_GETFIELD: return "getfield";
	case OP_PUTFIELD: return "putfield";
	case OP_GETSTATIC: return "getstatic";
	case OP_PUTSTATIC: return "putstatic";
	case OP_INVOKEVIRTUAL: return "invokevirtual";
	case OP_INVOKESPECIAL: return "invokespecial";
	case OP_INVOKESTATIC: return "invokestatic";
	case OP_INVOKEINTERFACE: return "invokeinterface";
	case OP_LDC: case OP_LDC_W: case OP_CHECKCAST: case OP_INSTANCEOF: case OP_ANEWARRAY: case OP_MULTIANEWARRAY:
		return "class";
	default: return NULL;
	}
}

static int method_sites(const cf_class *cls, const char *cname, const cf_member *m)
{
	char mname[256], mdesc[1024];
	uint32_t n = 0;
	const uint8_t *s = cp_utf8(&cls->cp, m->name, &n);
	copy_str(mname, sizeof mname, s, n);
	s = cp_utf8(&cls->cp, m->desc, &n);
	copy_str(mdesc, sizeof mdesc, s, n);
	printf("method %s %s %s %u\n", cname, mname, mdesc, m->access);
	cf_attr *at = cf_method_code(cls, m);
	if (!at)
		return 0;
	tc_error err;
	tc_error_clear(&err);
	method_ctx c = { .cls = cls };
	if (cf_code_parse(cls, at, &c.code, &err) != TC_OK) {
		fprintf(stderr, "tc-members: %s.%s%s: Code does not parse\n", cname, mname, mdesc);
		return -1;
	}
	c.v = xcalloc(c.code.len, sizeof *c.v);
	c.at = xcalloc(c.code.len, sizeof *c.at);
	c.sdk_local = xcalloc(c.code.max_locals, 1);
	for (uint32_t k = 0; k < c.code.len; k++)
		c.at[k] = -1;
	int rc = 0;
	for (uint32_t off = 0; off < c.code.len;) {
		if (cf_insn_decode(c.code.code, c.code.len, off, c.code.code_off, &c.v[c.n].in, &err) != TC_OK) {
			fprintf(stderr, "tc-members: %s.%s%s: bad instruction at %u\n", cname, mname, mdesc, off);
			rc = -1;
			goto cleanup;
		}
		c.at[off] = (int32_t)c.n;
		off += c.v[c.n++].in.len;
	}
	c.param_words = param_words(mdesc, m->access & ACC_STATIC);
	flow(&c);
	for (uint32_t i = 0; i < c.n; i++) {
		const cf_insn *in = &c.v[i].in;
		const char *kind = kind_of(in->op);
		if (!kind)
			continue;
		char owner[512] = "", name[256] = "", desc[1024] = "";
		if (!strcmp(kind, "class") || !strcmp(kind, "new")) {
			if (cp_tag(&cls->cp, in->index) != CP_CLASS)
				continue; /* ldc of a number or a string */
			class_str(&cls->cp, in->index, owner, sizeof owner);
		} else {
			cp_ref r;
			if (!cp_member_ref(&cls->cp, in->index, &r))
				continue;
			copy_str(owner, sizeof owner, r.cls, r.cls_len);
			copy_str(name, sizeof name, r.name, r.name_len);
			copy_str(desc, sizeof desc, r.desc, r.desc_len);
		}
		site(&c, cname, mname, mdesc, i, kind, owner, name, desc);
		if (cf_op_has(in->op, OPF_INVOKE))
			reflective(&c, cname, mname, mdesc, i);
	}
cleanup:
	free(c.v);
	free(c.at);
	free(c.sdk_local);
	return rc;
}

static int sites(const char *path)
{
	jarset j;
	if (jarset_open(&j, path))
		return 2;
	int rc = 0;
	for (size_t i = 0; i < j.n && rc == 0; i++) {
		entry *e = jarset_load(&j, &j.e[i]);
		if (!e) {
			rc = 2;
			break;
		}
		const cf_class *cls = &e->cls;
		char super[512] = "";
		if (cls->super_class)
			class_str(&cls->cp, cls->super_class, super, sizeof super);
		printf("class %s ", e->name);
		put(super);
		printf(" %u ", cls->access);
		for (uint16_t k = 0; k < cls->ninterfaces; k++) {
			char in[512];
			class_str(&cls->cp, cls->interfaces[k], in, sizeof in);
			printf("%s%s", k ? "," : "", in);
		}
		puts(cls->ninterfaces ? "" : "-");
		for (uint16_t k = 0; k < cls->nmethods && rc == 0; k++)
			if (method_sites(cls, e->name, &cls->methods[k]))
				rc = 2;
	}
	jarset_close(&j);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "sites"))
		return sites(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "lookup"))
		return lookup(argv[2]);
	fputs("usage: tc-members sites JAR | tc-members lookup JAR  (queries on stdin)\n", stderr);
	return 2;
}

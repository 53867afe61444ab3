/* tc-hotpath: what a call of a compiled Java method costs on ART, read from the class
 * files. From each root method (AppMethodBeat.i and o) it follows every invoke into the
 * jar's own classes, stopping at methods annotated as slow paths (called now and then,
 * not per event), and classifies each call it meets on the way: an ART intrinsic (a
 * native method ART's compiler turns into a few instructions), a Java method, or a JNI
 * call (any other native method). It fails when the path makes a JNI call, or calls a
 * member the oldest API level does not have; and when a class holding a method of the
 * path refers to such a member anywhere (ART verifies a class as a whole: one such
 * reference and its methods run with access checks). Members outside the jar are known
 * only from two pinned lists: ART's intrinsics (art/runtime/intrinsics_list.h) and the
 * platform members the runtime uses, with the API level each appeared at and whether it
 * is native (tests/runtime/hotpath/). A member in neither is an error: pin it first.
 *
 *   tc-hotpath --intrinsics FILE --api FILE [--min-api N] [--skip CLASS.NAME]... [--summary]
 *              JAR ROOT...
 *   ROOT: CLASS.NAMEDESC in internal form, e.g. com/x/AppMethodBeat.i(I)V
 *
 * Exit status: 0 the paths are clean, 1 a violation, 2 usage or input errors. */
#include <stdarg.h>
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

#define SLOW_PATH "Lcom/tencent/matrix/trace/core/SlowPath;"

static const char usage_text[] =
	"usage: tc-hotpath --intrinsics FILE --api FILE [--min-api N] [--skip CLASS.NAME]... [--summary]\n"
	"                  JAR ROOT...\n";

/* ---- the pinned lists ---- */

typedef struct pinned {
	char *owner, *name, *desc; /* desc "" for a class entry */
	char *what;                /* intrinsics: ART's name; api: "class", "java", "native" or "field" */
	int since;                 /* api: the API level it appeared at */
} pinned;

typedef struct pin_list {
	pinned *v;
	size_t n, cap;
} pin_list;

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (!d) {
		fputs("tc-hotpath: out of memory\n", stderr);
		exit(2);
	}
	return memcpy(d, s, n);
}

/* Reads a list: '#' comments; intrinsics lines "ID OWNER NAME DESC", api lines
 * "SINCE KIND OWNER [NAME DESC]". */
static int read_pins(const char *path, bool api, pin_list *out)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "tc-hotpath: %s: cannot open\n", path);
		return -1;
	}
	char line[1024];
	int lineno = 0, rc = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char a[256], b[512], c[256], d[512];
		int got = sscanf(line, "%255s %511s %255s %511s", a, b, c, d);
		if (got <= 0)
			continue;
		pinned p = { 0 };
		if (api && got >= 3 && strcmp(b, "class") == 0) {
			p = (pinned){ dup_str(c), dup_str(""), dup_str(""), dup_str(b), atoi(a) };
		} else if (api && got == 4) {
			/* SINCE KIND OWNER.NAME DESC */
			char *dot = strrchr(c, '.');
			if (!dot || atoi(a) <= 0 || (strcmp(b, "java") && strcmp(b, "native") && strcmp(b, "field"))) {
				rc = -1;
			} else {
				*dot = '\0';
				p = (pinned){ dup_str(c), dup_str(dot + 1), dup_str(d), dup_str(b), atoi(a) };
			}
		} else if (!api && got == 4) {
			p = (pinned){ dup_str(b), dup_str(c), dup_str(d), dup_str(a), 0 };
		} else {
			rc = -1;
		}
		if (rc) {
			fprintf(stderr, "tc-hotpath: %s:%d: expected %s\n", path, lineno,
			        api ? "\"SINCE class OWNER\" or \"SINCE java|native|field OWNER.NAME DESC\""
			            : "\"ID OWNER NAME DESC\"");
			break;
		}
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 64;
			out->v = realloc(out->v, out->cap * sizeof *out->v);
			if (!out->v) {
				fputs("tc-hotpath: out of memory\n", stderr);
				exit(2);
			}
		}
		out->v[out->n++] = p;
	}
	fclose(f);
	return rc;
}

static const pinned *find_pin(const pin_list *l, const char *owner, const char *name, const char *desc)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].owner, owner) && !strcmp(l->v[i].name, name) && !strcmp(l->v[i].desc, desc))
			return &l->v[i];
	return NULL;
}

/* ---- the jar's classes ---- */

typedef struct klass {
	char *name;
	cf_class cls;
	uint8_t *bytes;
	bool on_path; /* holds a method of a per-event path */
} klass;

typedef struct opts {
	pin_list intrinsics, api;
	int min_api;
	char **skip;
	size_t n_skip;
	bool summary;
	klass *k;
	size_t n_k;
	arena a;
} opts;

static klass *find_class(opts *o, const char *name)
{
	for (size_t i = 0; i < o->n_k; i++)
		if (!strcmp(o->k[i].name, name))
			return &o->k[i];
	return NULL;
}

static char *utf8_str(const cp_pool *cp, uint32_t idx)
{
	uint32_t n = 0;
	const uint8_t *s = cp_utf8(cp, idx, &n);
	char *d = malloc(n + 1);
	if (!d) {
		fputs("tc-hotpath: out of memory\n", stderr);
		exit(2);
	}
	if (s)
		memcpy(d, s, n);
	d[s ? n : 0] = '\0';
	return d;
}

static int load_jar(opts *o, const char *path)
{
	tc_error err;
	tc_error_clear(&err);
	tc_jar *jar;
	if (jar_open(&jar, path, &err) != TC_OK) {
		char msg[1024];
		tc_error_format(&err, msg, sizeof msg);
		fprintf(stderr, "tc-hotpath: %s\n", msg);
		return -1;
	}
	uint64_t n = jar_count(jar);
	o->k = calloc(n ? n : 1, sizeof *o->k);
	int rc = 0;
	tc_buf buf;
	buf_init(&buf);
	for (uint64_t i = 0; i < n && rc == 0 && o->k; i++) {
		const char *name = jar_name(jar, i);
		size_t len = name ? strlen(name) : 0;
		if (len < 7 || strcmp(name + len - 6, ".class") || jar_is_dir(jar, i))
			continue;
		if (jar_read(jar, i, &buf, 1u << 24, NULL, &err) != TC_OK) {
			rc = -1;
			break;
		}
		klass *k = &o->k[o->n_k];
		k->bytes = buf_take(&buf, &len);
		if (!k->bytes || cf_parse(&k->cls, &o->a, k->bytes, len, &err) != TC_OK) {
			tc_error_context(&err, name, NULL, NULL);
			rc = -1;
			free(k->bytes);
			break;
		}
		uint32_t nl = 0;
		const uint8_t *cn = cf_class_name(&k->cls, &nl);
		k->name = malloc(nl + 1);
		if (!k->name) {
			rc = -1;
			break;
		}
		memcpy(k->name, cn, nl);
		k->name[nl] = '\0';
		o->n_k++;
	}
	buf_free(&buf);
	jar_close(jar);
	if (!o->k || rc) {
		char msg[1024];
		tc_error_format(&err, msg, sizeof msg);
		fprintf(stderr, "tc-hotpath: %s: %s\n", path, o->k ? msg : "out of memory");
		return -1;
	}
	return 0;
}

/* The method name+desc of class k or, failing that, of its superclasses in the jar. */
static cf_member *find_method(opts *o, klass **k, const char *name, const char *desc)
{
	for (klass *c = *k; c;) {
		for (uint32_t i = 0; i < c->cls.nmethods; i++) {
			cf_member *m = &c->cls.methods[i];
			if (cp_utf8_eq(&c->cls.cp, m->name, name) && cp_utf8_eq(&c->cls.cp, m->desc, desc)) {
				*k = c;
				return m;
			}
		}
		uint32_t sl = 0;
		const uint8_t *s = c->cls.super_class ? cp_class_name(&c->cls.cp, c->cls.super_class, &sl) : NULL;
		char super[512];
		if (!s || sl >= sizeof super)
			break;
		memcpy(super, s, sl);
		super[sl] = '\0';
		c = find_class(o, super);
	}
	return NULL;
}

/* The reason of a slow-path annotation (RuntimeInvisibleAnnotations, JVMS 4.7.17), or
 * NULL. Reads are bounded by the attribute. */
static int skip_value(tc_reader *r);

static int skip_annotation(tc_reader *r)
{
	rd_u2(r);
	uint16_t pairs = rd_u2(r);
	for (uint32_t i = 0; i < pairs && rd_ok(r); i++) {
		rd_u2(r);
		skip_value(r);
	}
	return rd_ok(r) ? 0 : -1;
}

static int skip_value(tc_reader *r)
{
	uint8_t tag = rd_u1(r);
	switch (tag) {
	case 'e':
		rd_u2(r);
		rd_u2(r);
		break;
	case '@':
		return skip_annotation(r);
	case '[': {
		uint16_t n = rd_u2(r);
		for (uint32_t i = 0; i < n && rd_ok(r); i++)
			skip_value(r);
		break;
	}
	default: /* B C D F I J S Z s c: one constant-pool index */
		rd_u2(r);
	}
	return rd_ok(r) ? 0 : -1;
}

static char *slow_reason(const klass *k, const cf_member *m)
{
	cf_attr *at = cf_find_attr(&k->cls, m->attrs, m->nattrs, "RuntimeInvisibleAnnotations");
	if (!at)
		return NULL;
	tc_error err;
	tc_error_clear(&err);
	tc_reader r = rd_init(at->data, at->len, &err);
	uint16_t n = rd_u2(&r);
	for (uint32_t i = 0; i < n && rd_ok(&r); i++) {
		uint16_t type = rd_u2(&r);
		if (!cp_utf8_eq(&k->cls.cp, type, SLOW_PATH)) {
			r.pos -= 2;
			skip_annotation(&r);
			continue;
		}
		uint16_t pairs = rd_u2(&r);
		char *reason = NULL;
		for (uint32_t p = 0; p < pairs && rd_ok(&r); p++) {
			uint16_t name = rd_u2(&r);
			if (cp_utf8_eq(&k->cls.cp, name, "value") && r.pos < r.end && *r.pos == 's') {
				rd_u1(&r);
				free(reason);
				reason = utf8_str(&k->cls.cp, rd_u2(&r));
			} else {
				skip_value(&r);
			}
		}
		return reason ? reason : dup_str("(no reason given)");
	}
	return NULL;
}

/* ---- the walk ---- */

typedef struct visit {
	const klass *k;
	const cf_member *m;
} visit;

typedef struct walk {
	opts *o;
	visit *seen;
	size_t n_seen, cap_seen;
	unsigned intrinsic, java, jni, violations;
} walk;

static bool seen(walk *w, const klass *k, const cf_member *m)
{
	for (size_t i = 0; i < w->n_seen; i++)
		if (w->seen[i].k == k && w->seen[i].m == m)
			return true;
	if (w->n_seen == w->cap_seen) {
		w->cap_seen = w->cap_seen ? w->cap_seen * 2 : 32;
		w->seen = realloc(w->seen, w->cap_seen * sizeof *w->seen);
		if (!w->seen) {
			fputs("tc-hotpath: out of memory\n", stderr);
			exit(2);
		}
	}
	w->seen[w->n_seen++] = (visit){ k, m };
	return false;
}

static void say(const walk *w, int depth, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(const walk *w, int depth, const char *fmt, ...)
{
	if (w->o->summary)
		return;
	printf("%*s", 2 * depth, "");
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static bool skipped(const opts *o, const char *owner, const char *name)
{
	for (size_t i = 0; i < o->n_skip; i++) {
		size_t ol = strlen(owner);
		if (!strncmp(o->skip[i], owner, ol) && o->skip[i][ol] == '.' && !strcmp(o->skip[i] + ol + 1, name))
			return true;
	}
	return false;
}

static void walk_method(walk *w, klass *k, cf_member *m, int depth);

/* A call of owner.name desc from the path. */
static void call(walk *w, const char *owner, const char *name, const char *desc, int depth)
{
	opts *o = w->o;
	klass *k = find_class(o, owner);
	cf_member *m = k ? find_method(o, &k, name, desc) : NULL;
	if (m) {
		char *reason = slow_reason(k, m);
		if (reason) {
			say(w, depth, "slow path %s.%s%s: %s", k->name, name, desc, reason);
			free(reason);
			return;
		}
		if (skipped(o, k->name, name)) {
			say(w, depth, "skipped %s.%s%s", k->name, name, desc);
			return;
		}
		if (m->access & ACC_NATIVE) {
			w->jni++;
			w->violations++;
			say(w, depth, "JNI   %s.%s%s: a native method of the jar  <-- not allowed per event", owner, name, desc);
			return;
		}
		w->java++;
		say(w, depth, "java  %s.%s%s", k->name, name, desc);
		if (!seen(w, k, m))
			walk_method(w, k, m, depth + 1);
		return;
	}
	const pinned *p = find_pin(&o->api, owner, name, desc);
	if (!p) {
		w->violations++;
		say(w, depth, "?     %s.%s%s: not in the pinned API list  <-- pin it (and check it exists at API %d)", owner,
		    name, desc, o->min_api);
		return;
	}
	const char *missing = p->since > o->min_api ? "  <-- missing at the oldest API level" : "";
	if (*missing)
		w->violations++;
	if (!strcmp(p->what, "native")) {
		const pinned *in = find_pin(&o->intrinsics, owner, name, desc);
		if (in) {
			w->intrinsic++;
			say(w, depth, "intr  %s.%s%s: ART intrinsic %s (API %d)%s", owner, name, desc, in->what, p->since,
			    missing);
		} else {
			w->jni++;
			w->violations++;
			say(w, depth, "JNI   %s.%s%s: native, not an ART intrinsic (API %d)  <-- a JNI call per event%s", owner,
			    name, desc, p->since, missing);
		}
	} else {
		w->java++;
		say(w, depth, "java  %s.%s%s (API %d, Java code)%s", owner, name, desc, p->since, missing);
	}
}

static void walk_method(walk *w, klass *k, cf_member *m, int depth)
{
	k->on_path = true;
	cf_attr *at = cf_method_code(&k->cls, m);
	if (!at)
		return;
	tc_error err;
	tc_error_clear(&err);
	cf_code code;
	if (cf_code_parse(&k->cls, at, &code, &err) != TC_OK) {
		fprintf(stderr, "tc-hotpath: %s: Code does not parse\n", k->name);
		w->violations++;
		return;
	}
	for (uint32_t off = 0; off < code.len;) {
		cf_insn in;
		if (cf_insn_decode(code.code, code.len, off, code.code_off, &in, &err) != TC_OK) {
			fprintf(stderr, "tc-hotpath: %s: bad instruction at %u\n", k->name, off);
			w->violations++;
			return;
		}
		off += in.len;
		if (in.op == OP_INVOKEDYNAMIC) {
			w->violations++;
			say(w, depth, "indy  at %u: invokedynamic (a bootstrap, an allocation)  <-- not allowed per event", in.off);
			continue;
		}
		if (!cf_op_has(in.op, OPF_INVOKE))
			continue;
		cp_ref r;
		if (!cp_member_ref(&k->cls.cp, in.index, &r))
			continue;
		char owner[512], name[256], desc[512];
		snprintf(owner, sizeof owner, "%.*s", (int)r.cls_len, (const char *)r.cls);
		snprintf(name, sizeof name, "%.*s", (int)r.name_len, (const char *)r.name);
		snprintf(desc, sizeof desc, "%.*s", (int)r.desc_len, (const char *)r.desc);
		call(w, owner, name, desc, depth);
	}
}

/* Every member and class that k refers to outside the jar exists at min_api. */
static unsigned check_class(opts *o, const klass *k)
{
	unsigned bad = 0;
	const cp_pool *cp = &k->cls.cp;
	for (uint32_t i = 1; i < cp->count; i++) {
		uint8_t t = cp_tag(cp, i);
		char owner[512], name[256] = "", desc[512] = "";
		if (t == CP_CLASS) {
			uint32_t n = 0;
			const uint8_t *s = cp_class_name(cp, i, &n);
			if (!s)
				continue;
			snprintf(owner, sizeof owner, "%.*s", (int)n, (const char *)s);
		} else if (t == CP_METHODREF || t == CP_IMETHODREF || t == CP_FIELDREF) {
			cp_ref r;
			if (!cp_member_ref(cp, i, &r))
				continue;
			snprintf(owner, sizeof owner, "%.*s", (int)r.cls_len, (const char *)r.cls);
			snprintf(name, sizeof name, "%.*s", (int)r.name_len, (const char *)r.name);
			snprintf(desc, sizeof desc, "%.*s", (int)r.desc_len, (const char *)r.desc);
		} else {
			continue;
		}
		/* arrays: their element class; primitive arrays are everywhere */
		char *elem = owner;
		while (*elem == '[')
			elem++;
		if (elem != owner) {
			if (*elem != 'L')
				continue;
			elem++;
			elem[strcspn(elem, ";")] = '\0';
			memmove(owner, elem, strlen(elem) + 1);
		}
		if (find_class(o, owner))
			continue;
		const pinned *p = find_pin(&o->api, owner, name, desc);
		if (!p) {
			if (!o->summary)
				printf("  ?     %s refers to %s%s%s%s: not in the pinned API list\n", k->name, owner, *name ? "." : "",
				       name, desc);
			bad++;
		} else if (p->since > o->min_api) {
			if (!o->summary)
				printf("  new   %s refers to %s%s%s%s: API %d, missing at API %d\n", k->name, owner, *name ? "." : "",
				       name, desc, p->since, o->min_api);
			bad++;
		}
	}
	return bad;
}

static int run(opts *o, char **roots, int n_roots)
{
	unsigned violations = 0;
	for (int i = 0; i < n_roots; i++) {
		char owner[512];
		const char *dot = strrchr(roots[i], '.'), *paren = dot ? strchr(dot, '(') : NULL;
		if (!dot || !paren || (size_t)(dot - roots[i]) >= sizeof owner) {
			fprintf(stderr, "tc-hotpath: %s: expected CLASS.NAME(DESC)\n", roots[i]);
			return 2;
		}
		memcpy(owner, roots[i], (size_t)(dot - roots[i]));
		owner[dot - roots[i]] = '\0';
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(paren - dot - 1), dot + 1);
		klass *k = find_class(o, owner);
		cf_member *m = k ? find_method(o, &k, name, paren) : NULL;
		if (!m) {
			fprintf(stderr, "tc-hotpath: %s: no such method in the jar\n", roots[i]);
			return 2;
		}
		walk w = { o, NULL, 0, 0, 0, 0, 0, 0 };
		if (!o->summary)
			printf("%s\n", roots[i]);
		seen(&w, k, m);
		walk_method(&w, k, m, 1);
		violations += w.violations;
		printf("%s%s: %u calls per event: %u intrinsic, %u Java, %u JNI; %s\n", o->summary ? "" : "  = ", roots[i],
		       w.intrinsic + w.java + w.jni, w.intrinsic, w.java, w.jni,
		       w.violations ? "FAIL" : "ok");
		free(w.seen);
	}
	unsigned bad = 0;
	if (!o->summary)
		printf("classes on the paths, every reference outside the jar (API %d):\n", o->min_api);
	for (size_t i = 0; i < o->n_k; i++) {
		if (!o->k[i].on_path)
			continue;
		unsigned b = check_class(o, &o->k[i]);
		if (!o->summary)
			printf("  %s: %s\n", o->k[i].name, b ? "FAIL" : "ok");
		bad += b;
	}
	printf("verdict: %s\n", violations + bad ? "FAIL" : "ok");
	return violations + bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	opts o = { .min_api = 21 };
	arena_init(&o.a);
	const char *intrinsics = NULL, *api = NULL;
	o.skip = calloc((size_t)argc, sizeof *o.skip);
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--intrinsics") && i + 1 < argc)
			intrinsics = argv[++i];
		else if (!strcmp(argv[i], "--api") && i + 1 < argc)
			api = argv[++i];
		else if (!strcmp(argv[i], "--min-api") && i + 1 < argc)
			o.min_api = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--skip") && i + 1 < argc)
			o.skip[o.n_skip++] = argv[++i];
		else if (!strcmp(argv[i], "--summary"))
			o.summary = true;
		else {
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (!intrinsics || !api || argc - i < 2 || !o.skip) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (read_pins(intrinsics, false, &o.intrinsics) || read_pins(api, true, &o.api) || load_jar(&o, argv[i]))
		return 2;
	int rc = run(&o, argv + i + 1, argc - i - 1);
	for (size_t k = 0; k < o.n_k; k++) {
		free(o.k[k].name);
		free(o.k[k].bytes);
	}
	free(o.k);
	free(o.skip);
	for (pin_list *l = &o.intrinsics; l; l = l == &o.intrinsics ? &o.api : NULL) {
		for (size_t k = 0; k < l->n; k++) {
			free(l->v[k].owner);
			free(l->v[k].name);
			free(l->v[k].desc);
			free(l->v[k].what);
		}
		free(l->v);
	}
	arena_free(&o.a);
	return rc;
}

#include "maps/proguard.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "containers/walk.h"
#include "file.h"

typedef struct pg_method_entry {
	UT_hash_handle hh;
	char *key;   /* obf class "." obf name obf desc */
	char *name;  /* original */
	char *desc;  /* original, internal form */
} pg_method_entry;

typedef struct pg_class_entry {
	UT_hash_handle hh;     /* by obfuscated name */
	UT_hash_handle hh_fwd; /* by original name */
	char *orig, *obf;      /* internal form */
} pg_class_entry;

/* Methods as read, before the forward class map exists to compute obf descriptors. */
typedef struct raw_method {
	pg_class_entry *cls;
	char *orig_name, *orig_desc, *obf_name;
} raw_method;

struct pg_map {
	pg_class_entry *by_obf, *by_orig;
	pg_method_entry *methods;
	raw_method *raw;
	size_t nraw, capraw, nclasses;
};

static void internal(char *s)
{
	for (; *s; s++)
		if (*s == '.')
			*s = '/';
}

void pg_free(pg_map *m)
{
	if (!m)
		return;
	pg_method_entry *me, *mt;
	HASH_ITER(hh, m->methods, me, mt) {
		HASH_DEL(m->methods, me);
		free(me->key);
		free(me->name);
		free(me->desc);
		free(me);
	}
	HASH_CLEAR(hh_fwd, m->by_orig);
	pg_class_entry *ce, *ct;
	HASH_ITER(hh, m->by_obf, ce, ct) {
		HASH_DEL(m->by_obf, ce);
		free(ce->orig);
		free(ce->obf);
		free(ce);
	}
	for (size_t i = 0; i < m->nraw; i++) {
		free(m->raw[i].orig_name);
		free(m->raw[i].orig_desc);
		free(m->raw[i].obf_name);
	}
	free(m->raw);
	free(m);
}

/* Appends the descriptor of a Java source type ("int", "a.b.C[]") to out. */
static bool type_desc(const char *t, size_t n, char *out, size_t size, size_t *len)
{
	size_t dims = 0;
	while (n >= 2 && t[n - 2] == '[' && t[n - 1] == ']') {
		dims++;
		n -= 2;
	}
	static const struct { const char *name; char d; } prims[] = {
		{"int", 'I'}, {"boolean", 'Z'}, {"byte", 'B'}, {"char", 'C'}, {"short", 'S'},
		{"long", 'J'}, {"float", 'F'}, {"double", 'D'}, {"void", 'V'}};
	char prim = 0;
	for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
		if (strlen(prims[i].name) == n && memcmp(prims[i].name, t, n) == 0)
			prim = prims[i].d;
	size_t need = dims + (prim ? 1 : n + 2);
	if (n == 0 || *len + need + 1 > size)
		return false;
	for (size_t i = 0; i < dims; i++)
		out[(*len)++] = '[';
	if (prim) {
		out[(*len)++] = prim;
	} else {
		out[(*len)++] = 'L';
		for (size_t i = 0; i < n; i++)
			out[(*len)++] = t[i] == '.' ? '/' : t[i];
		out[(*len)++] = ';';
	}
	out[*len] = '\0';
	return true;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* "[a:b:]ret name(args)[:c[:d]] -> obf" */
static int method_line(pg_map *m, pg_class_entry *cls, char *s)
{
	char *arrow = strstr(s, " -> ");
	char *open = strchr(s, '(');
	char *close = open ? strchr(open, ')') : NULL;
	if (!arrow || !open || !close || close > arrow)
		return 0; /* a field, or something we do not need */
	char *obf = trim(arrow + 4);
	*arrow = '\0';
	/* Skip the indentation, then an "a:b:" line range (ProGuard and R8). */
	char *p = s;
	while (*p == ' ' || *p == '\t')
		p++;
	while (isdigit((unsigned char)*p)) {
		char *q = p;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q != ':')
			break;
		p = q + 1;
	}
	*open = '\0';
	char *head = trim(p); /* "ret name" */
	char *sp = strrchr(head, ' ');
	if (!sp)
		return 0;
	*sp = '\0';
	char *ret = trim(head), *name = trim(sp + 1);
	/* "void a.b.C.m()" is a frame inlined from another method: not a method here. */
	if (strchr(name, '.'))
		return 0;
	char desc[2048];
	size_t len = 0;
	desc[len++] = '(';
	char *args = open + 1;
	*close = '\0';
	while (*args) {
		char *comma = strchr(args, ',');
		size_t n = comma ? (size_t)(comma - args) : strlen(args);
		while (n && args[0] == ' ') {
			args++;
			n--;
		}
		while (n && args[n - 1] == ' ')
			n--;
		if (!type_desc(args, n, desc, sizeof desc, &len))
			return 0;
		if (!comma)
			break;
		args = comma + 1;
	}
	desc[len++] = ')';
	desc[len] = '\0';
	if (!type_desc(ret, strlen(ret), desc, sizeof desc, &len))
		return 0;
	if (m->nraw == m->capraw) {
		size_t cap = m->capraw ? m->capraw * 2 : 1024;
		raw_method *r = realloc(m->raw, cap * sizeof *r);
		if (!r)
			return -1;
		m->raw = r;
		m->capraw = cap;
	}
	raw_method *r = &m->raw[m->nraw];
	r->cls = cls;
	r->orig_name = strdup(name);
	r->orig_desc = strdup(desc);
	r->obf_name = strdup(obf);
	if (!r->orig_name || !r->orig_desc || !r->obf_name) {
		free(r->orig_name);
		free(r->orig_desc);
		free(r->obf_name);
		return -1;
	}
	m->nraw++;
	return 0;
}

static int class_line(pg_map *m, char *s, pg_class_entry **cur)
{
	*cur = NULL;
	char *arrow = strstr(s, " -> ");
	size_t n = strlen(s);
	if (!arrow || n == 0 || s[n - 1] != ':')
		return 0;
	s[n - 1] = '\0';
	char *orig = trim(s);
	*arrow = '\0';
	orig = trim(orig);
	char *obf = trim(arrow + 4);
	if (!*orig || !*obf)
		return 0;
	pg_class_entry *c = calloc(1, sizeof *c);
	if (!c || !(c->orig = strdup(orig)) || !(c->obf = strdup(obf))) {
		if (c) {
			free(c->orig);
			free(c);
		}
		return -1;
	}
	internal(c->orig);
	internal(c->obf);
	pg_class_entry *old = NULL;
	HASH_FIND(hh, m->by_obf, c->obf, strlen(c->obf), old);
	if (old) { /* a second mapping for one obfuscated name: keep the first */
		free(c->orig);
		free(c->obf);
		free(c);
		*cur = old;
		return 0;
	}
	HASH_ADD_KEYPTR(hh, m->by_obf, c->obf, strlen(c->obf), c);
	HASH_ADD_KEYPTR(hh_fwd, m->by_orig, c->orig, strlen(c->orig), c);
	m->nclasses++;
	*cur = c;
	return 0;
}

/* Maps the class names in a descriptor through one of the two class tables. */
static bool map_desc(const pg_map *m, const char *desc, char *out, size_t size, bool forward)
{
	size_t o = 0;
	for (const char *p = desc; *p;) {
		if (*p != 'L') {
			if (o + 2 > size)
				return false;
			out[o++] = *p++;
			continue;
		}
		const char *end = strchr(p, ';');
		if (!end)
			return false;
		size_t n = (size_t)(end - p - 1);
		pg_class_entry *c = NULL;
		if (forward)
			HASH_FIND(hh_fwd, m->by_orig, p + 1, n, c);
		else
			HASH_FIND(hh, m->by_obf, p + 1, n, c);
		const char *name = c ? (forward ? c->obf : c->orig) : NULL;
		size_t nl = name ? strlen(name) : n;
		if (o + nl + 3 > size)
			return false;
		out[o++] = 'L';
		memcpy(out + o, name ? name : p + 1, nl);
		o += nl;
		out[o++] = ';';
		p = end + 1;
	}
	out[o] = '\0';
	return true;
}

static int index_methods(pg_map *m)
{
	for (size_t i = 0; i < m->nraw; i++) {
		raw_method *r = &m->raw[i];
		char obf_desc[2048], key[4096];
		if (!map_desc(m, r->orig_desc, obf_desc, sizeof obf_desc, true))
			continue;
		int n = snprintf(key, sizeof key, "%s.%s%s", r->cls->obf, r->obf_name, obf_desc);
		if (n < 0 || (size_t)n >= sizeof key)
			continue;
		/* R8 lists frames inlined into a method before the method itself, under the
		 * same obfuscated name: the last line with a given signature is the method. */
		pg_method_entry *e = NULL;
		HASH_FIND_STR(m->methods, key, e);
		if (e) {
			free(e->name);
			free(e->desc);
		} else {
			if (!(e = calloc(1, sizeof *e)) || !(e->key = strdup(key))) {
				free(e);
				return -1;
			}
			HASH_ADD_KEYPTR(hh, m->methods, e->key, strlen(e->key), e);
		}
		e->name = r->orig_name;
		e->desc = r->orig_desc;
		r->orig_name = r->orig_desc = NULL;
	}
	return 0;
}

int pg_parse(pg_map **out, const char *text, size_t len, const char *label, tc_error *err)
{
	*out = NULL;
	pg_map *m = calloc(1, sizeof *m);
	char *copy = malloc(len + 1);
	if (!m || !copy) {
		free(m);
		free(copy);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	pg_class_entry *cur = NULL;
	unsigned line = 0;
	int rc = 0;
	for (char *s = copy, *next; s && *s && rc == 0; s = next) {
		next = strchr(s, '\n');
		if (next)
			*next++ = '\0';
		line++;
		if (*s == '#' || *trim(s) == '#' || *trim(s) == '\0')
			continue;
		if (*s == ' ' || *s == '\t') {
			if (cur)
				rc = method_line(m, cur, s);
		} else {
			rc = class_line(m, s, &cur);
		}
	}
	free(copy);
	if (rc == 0)
		rc = index_methods(m);
	if (rc != 0) {
		pg_free(m);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory (line %u)", line);
	}
	if (m->nclasses == 0 && len > 0) {
		pg_free(m);
		return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label,
		               "no \"original -> obfuscated:\" class line: not a ProGuard or R8 mapping");
	}
	*out = m;
	return TC_OK;
}

int pg_load(pg_map **out, const char *path, tc_error *err)
{
	tc_buf buf;
	buf_init(&buf);
	int rc = tc_file_read(path, &buf, TC_MAX_INPUT_BYTES, TC_LIMIT_OPTION, err);
	if (rc == TC_OK)
		rc = pg_parse(out, (const char *)buf.data, buf.len, path, err);
	buf_free(&buf);
	return rc;
}

const char *pg_class(const pg_map *m, const char *obf)
{
	pg_class_entry *c = NULL;
	HASH_FIND(hh, m->by_obf, obf, strlen(obf), c);
	return c ? c->orig : NULL;
}

const char *pg_obfuscate_class(const pg_map *m, const char *orig)
{
	pg_class_entry *c = NULL;
	HASH_FIND(hh_fwd, m->by_orig, orig, strlen(orig), c);
	return c ? c->obf : NULL;
}

bool pg_desc(const pg_map *m, const char *desc, char *out, size_t size)
{
	return map_desc(m, desc, out, size, false);
}

bool pg_method(const pg_map *m, const char *cls, const char *name, const char *desc,
               char *name_out, size_t name_size, char *desc_out, size_t desc_size)
{
	char key[4096];
	int n = snprintf(key, sizeof key, "%s.%s%s", cls, name, desc);
	pg_method_entry *e = NULL;
	if (n > 0 && (size_t)n < sizeof key)
		HASH_FIND_STR(m->methods, key, e);
	const char *nm = e ? e->name : name;
	if (strlen(nm) + 1 > name_size)
		return false;
	strcpy(name_out, nm);
	if (e) {
		if (strlen(e->desc) + 1 > desc_size)
			return false;
		strcpy(desc_out, e->desc);
		return true;
	}
	return pg_desc(m, desc, desc_out, desc_size);
}

size_t pg_class_count(const pg_map *m)
{
	return m->nclasses;
}

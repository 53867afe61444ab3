#define PCRE2_CODE_UNIT_WIDTH 8

#include "rules.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "method_mapping.h"

extern const char tc_default_rules[];
extern const size_t tc_default_rules_len;

typedef struct class_rule {
	UT_hash_handle hh;
	char name[]; /* dotted */
} class_rule;

typedef struct method_rule {
	UT_hash_handle hh;
	char key[]; /* "a.b.C name (desc)", dotted */
} method_rule;

typedef struct regex_rule {
	pcre2_code *code;
	char *source; /* for messages */
} regex_rule;

struct tc_rules {
	class_rule *classes;  /* uthash set */
	method_rule *methods; /* uthash set */
	char **packages;      /* dotted prefixes ending in '.' */
	size_t npackages;
	regex_rule *regexes;
	size_t nregexes;
	size_t count;
	uint32_t inline_limit; /* -keepinlinable N; 0: none */
	uint32_t dex_inline_limit; /* its M, or ART's default with N; 0: none */
	uint32_t dex_inline_api;   /* the ART it models, as an API level */
};

int rules_new_empty(tc_rules **out, tc_error *err)
{
	*out = calloc(1, sizeof **out);
	if (!*out)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "rules", "no memory");
	return TC_OK;
}

int rules_new(tc_rules **out, tc_error *err)
{
	if (rules_new_empty(out, err) != TC_OK)
		return err->code;
	if (rules_parse(*out, tc_default_rules, tc_default_rules_len, "default.rules", err) != TC_OK) {
		rules_free(*out);
		*out = NULL;
		return err->code;
	}
	return TC_OK;
}

void rules_free(tc_rules *r)
{
	if (!r)
		return;
	class_rule *c, *tmp;
	HASH_ITER(hh, r->classes, c, tmp) {
		HASH_DEL(r->classes, c);
		free(c);
	}
	method_rule *m, *mtmp;
	HASH_ITER(hh, r->methods, m, mtmp) {
		HASH_DEL(r->methods, m);
		free(m);
	}
	for (size_t i = 0; i < r->npackages; i++)
		free(r->packages[i]);
	free(r->packages);
	for (size_t i = 0; i < r->nregexes; i++) {
		pcre2_code_free(r->regexes[i].code);
		free(r->regexes[i].source);
	}
	free(r->regexes);
	free(r);
}

static void dotted(char *s)
{
	for (; *s; s++)
		if (*s == '/')
			*s = '.';
}

static int add_class(tc_rules *r, const char *name, size_t len)
{
	class_rule *c = NULL;
	HASH_FIND(hh, r->classes, name, len, c);
	if (c)
		return 0;
	if (!(c = malloc(sizeof *c + len + 1)))
		return -1;
	memcpy(c->name, name, len);
	c->name[len] = '\0';
	dotted(c->name);
	HASH_ADD_KEYPTR(hh, r->classes, c->name, len, c);
	r->count++;
	return 0;
}

static int add_package(tc_rules *r, const char *pkg, size_t len)
{
	char **p = realloc(r->packages, (r->npackages + 1) * sizeof *p);
	if (!p)
		return -1;
	r->packages = p;
	char *s = malloc(len + 2);
	if (!s)
		return -1;
	memcpy(s, pkg, len);
	s[len] = '\0';
	dotted(s);
	/* "a.b" and "a.b." both mean the package a.b (Matrix's prefix test made "a.b"
	 * also block "a.bc"). */
	if (len == 0 || s[len - 1] != '.') {
		s[len] = '.';
		s[len + 1] = '\0';
	}
	r->packages[r->npackages++] = s;
	r->count++;
	return 0;
}

int rules_block_package(tc_rules *r, const char *pkg, tc_error *err)
{
	if (add_package(r, pkg, strlen(pkg)) != 0)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "rules", "no memory");
	return TC_OK;
}

static int add_regex(tc_rules *r, const char *pat, size_t len, const char *label, unsigned line,
                     tc_error *err)
{
	int code;
	PCRE2_SIZE at;
	/* Whole-name match: a rule describes names, not fragments of them. */
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, len, PCRE2_ANCHORED | PCRE2_ENDANCHORED,
	                               &code, &at, NULL);
	if (!re) {
		PCRE2_UCHAR msg[160];
		pcre2_get_error_message(code, msg, sizeof msg);
		return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label,
		               "line %u: bad -keepregex pattern at character %zu: %s", line,
		               (size_t)at + 1, (const char *)msg);
	}
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* optional: falls back to the interpreter */
	regex_rule *n = realloc(r->regexes, (r->nregexes + 1) * sizeof *n);
	char *src = malloc(len + 1);
	if (!n || !src) {
		free(src);
		pcre2_code_free(re);
		if (n)
			r->regexes = n;
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
	}
	memcpy(src, pat, len);
	src[len] = '\0';
	r->regexes = n;
	r->regexes[r->nregexes++] = (regex_rule){re, src};
	r->count++;
	return TC_OK;
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

/* A class or package argument: one word of name characters. */
static bool valid_name(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] == ' ' || s[i] == '\t' || s[i] == ';' || s[i] == '[' || s[i] == '(')
			return false;
	return true;
}

/* A -keepmethod argument, read as the mapping's key (mapfile/: one reader of method
 * names for both). 1 when it is not a method, -1 without memory. */
static int add_method(tc_rules *r, const char *s, size_t len)
{
	method_rule *m = malloc(sizeof *m + len + 1);
	if (!m)
		return -1;
	size_t klen = mm_parse_key(s, len, m->key);
	if (klen == 0) {
		free(m);
		return 1;
	}
	method_rule *old = NULL;
	HASH_FIND(hh, r->methods, m->key, klen, old);
	if (old) {
		free(m);
		return 0;
	}
	HASH_ADD_KEYPTR(hh, r->methods, m->key, klen, m);
	r->count++;
	return 0;
}

int rules_parse(tc_rules *r, const char *text, size_t len, const char *label, tc_error *err)
{
	unsigned line = 0;
	for (size_t pos = 0; pos < len;) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		line++;
		const char *s = text + pos;
		size_t n = end - pos;
		pos = end + 1;
		while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		while (n && (*s == ' ' || *s == '\t')) {
			s++;
			n--;
		}
		if (n == 0 || *s == '#' || *s == '[')
			continue;
		static const struct { const char *word; int kind; } words[] = {
			{"-keepclass", 0}, {"-keeppackage", 1}, {"-keepregex", 2}, {MM_KEEPMETHOD, 3},
			{"-keepinlinable", 4}};
		int kind = -1;
		size_t skip = 0;
		for (size_t k = 0; k < sizeof words / sizeof *words && kind < 0; k++) {
			size_t w = strlen(words[k].word);
			if (starts(s, n, words[k].word) && n > w && (s[w] == ' ' || s[w] == '\t')) {
				kind = words[k].kind;
				skip = w;
			}
		}
		if (kind < 0)
			return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label,
			               "line %u: unknown rule \"%.*s\" (expected -keepclass, -keeppackage, "
			               "-keepregex, -keepmethod or -keepinlinable)", line, (int)(n > 60 ? 60 : n), s);
		const char *arg = s + skip;
		size_t alen = n - skip;
		while (alen && (*arg == ' ' || *arg == '\t')) {
			arg++;
			alen--;
		}
		if (kind == 2) {
			if (add_regex(r, arg, alen, label, line, err) != TC_OK)
				return err->code;
			continue;
		}
		if (kind == 4) {
			/* N, then optionally M (0 turns the dex side off), then optionally the API
			 * level of the ART modelled */
			uint32_t v[3] = {0, RULES_ART_INLINE_MAX_CODE_UNITS, RULES_ART_INLINE_API};
			size_t k = 0;
			int nv = 0;
			bool bad = false;
			while (nv < 3 && k < alen && !bad) {
				size_t at = k;
				uint32_t x = 0;
				while (k < alen && arg[k] >= '0' && arg[k] <= '9' && x <= 65535)
					x = x * 10 + (uint32_t)(arg[k++] - '0');
				bad = k == at || x > 65535 || (nv != 1 && x == 0) ||
				      (k < alen && arg[k] != ' ' && arg[k] != '\t');
				v[nv++] = x;
				while (k < alen && (arg[k] == ' ' || arg[k] == '\t'))
					k++;
			}
			if (bad || k != alen)
				return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label,
				               "line %u: -keepinlinable takes a size in bytes for class files, 1 to 65535 "
				               "(HotSpot's MaxInlineSize is 35), then optionally one in code units for dex, "
				               "0 to 65535 (ART's inline_max_code_units is %u), then optionally the API level "
				               "of the ART modelled, 1 to 65535 (default %u), not \"%.*s\"", line,
				               RULES_ART_INLINE_MAX_CODE_UNITS, RULES_ART_INLINE_API, (int)(alen > 60 ? 60 : alen),
				               arg);
			r->inline_limit = v[0]; /* the last one given */
			r->dex_inline_limit = v[1];
			r->dex_inline_api = v[2];
			r->count++;
			continue;
		}
		if (kind == 3) {
			int rc = add_method(r, arg, alen);
			if (rc < 0)
				return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
			if (rc > 0)
				return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label,
				               "line %u: \"%.*s\" is not a method (expected \"a.b.C name (desc)\", "
				               "as in methodMapping.txt)", line, (int)(alen > 60 ? 60 : alen), arg);
			continue;
		}
		if (!valid_name(arg, alen))
			return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label,
			               "line %u: \"%.*s\" is not a %s name", line, (int)(alen > 60 ? 60 : alen),
			               arg, kind == 0 ? "class" : "package");
		if ((kind == 0 ? add_class(r, arg, alen) : add_package(r, arg, alen)) != 0)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
	}
	return TC_OK;
}

bool rules_blocks_class(const tc_rules *r, const char *name)
{
	char buf[1024];
	size_t len = strlen(name);
	if (len >= sizeof buf)
		len = sizeof buf - 1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	dotted(buf);
	for (size_t i = 0; i < r->npackages; i++)
		if (strncmp(buf, r->packages[i], strlen(r->packages[i])) == 0)
			return true;
	/* The class itself, or any enclosing class of a nested one. */
	for (size_t n = len; n > 0;) {
		class_rule *c = NULL;
		HASH_FIND(hh, r->classes, buf, n, c);
		if (c)
			return true;
		while (n > 0 && buf[n - 1] != '$')
			n--;
		if (n > 0)
			n--; /* drop the '$' */
	}
	return false;
}

bool rules_blocks_method(const tc_rules *r, const char *subject, size_t len)
{
	for (size_t i = 0; i < r->nregexes; i++) {
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(r->regexes[i].code, NULL);
		if (!md)
			return false;
		int rc = pcre2_match(r->regexes[i].code, (PCRE2_SPTR)subject, len, 0, 0, md, NULL);
		pcre2_match_data_free(md);
		if (rc >= 0)
			return true;
	}
	return false;
}

bool rules_blocks_method_key(const tc_rules *r, const char *key, size_t len)
{
	method_rule *m = NULL;
	HASH_FIND(hh, r->methods, key, len, m);
	return m != NULL;
}

bool rules_have_keepmethod(const tc_rules *r)
{
	return r->methods != NULL;
}

bool rules_have_regex(const tc_rules *r)
{
	return r->nregexes > 0;
}

uint32_t rules_inline_limit(const tc_rules *r)
{
	return r->inline_limit;
}

uint32_t rules_dex_inline_limit(const tc_rules *r)
{
	return r->dex_inline_limit;
}

uint32_t rules_dex_inline_api(const tc_rules *r)
{
	return r->dex_inline_api ? r->dex_inline_api : RULES_ART_INLINE_API;
}

size_t rules_count(const tc_rules *r)
{
	return r->count;
}

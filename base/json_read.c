/* json_read.c: a recursive-descent reader over {base, pos, end}. Children
 * of an open container are collected on one scratch stack and copied into
 * the arena when it closes, so each container is one exact allocation. */
#include "json_read.h"
#include "try.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "utf8.h"

typedef struct reader {
	const unsigned char *base;
	size_t pos, end;
	arena *arena;
	/* scratch: values (arrays) and members (objects) of open containers */
	json_val *vals;
	size_t nvals, capvals;
	json_member *mems;
	size_t nmems, capmems;
	tc_buf str; /* the string being decoded */
	size_t err_off;
	char *why;
	size_t why_cap;
} reader;

static int fail(reader *r, size_t off, const char *fmt, const char *arg)
{
	r->err_off = off;
	if (r->why_cap)
		snprintf(r->why, r->why_cap, fmt, arg ? arg : "");
	return TC_EFORMAT;
}

static int oom(reader *r)
{
	r->err_off = r->pos;
	if (r->why_cap)
		snprintf(r->why, r->why_cap, "out of memory");
	return TC_ENOMEM;
}

static void skip_ws(reader *r)
{
	while (r->pos < r->end) {
		unsigned char c = r->base[r->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		r->pos++;
	}
}

static const char *describe(reader *r, char *buf, size_t cap)
{
	if (r->pos >= r->end)
		return "end of input";
	unsigned char c = r->base[r->pos];
	if (c >= 0x20 && c < 0x7F)
		snprintf(buf, cap, "'%c'", c);
	else
		snprintf(buf, cap, "byte 0x%02x", c);
	return buf;
}

static int unexpected(reader *r, const char *wanted)
{
	char d[16], msg[96];
	snprintf(msg, sizeof msg, "expected %s, found %s", wanted, describe(r, d, sizeof d));
	return fail(r, r->pos, "%s", msg);
}

static int literal(reader *r, const char *word)
{
	size_t n = strlen(word);
	if (r->end - r->pos < n || memcmp(r->base + r->pos, word, n) != 0)
		return unexpected(r, "a value");
	r->pos += n;
	return TC_OK;
}

static int hex4(reader *r, uint32_t *out)
{
	if (r->end - r->pos < 4)
		return fail(r, r->pos, "%s", "truncated \\u escape");
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned char c = r->base[r->pos + (size_t)i];
		v <<= 4;
		if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
		else return fail(r, r->pos + (size_t)i, "%s", "bad hex digit in \\u escape");
	}
	r->pos += 4;
	*out = v;
	return TC_OK;
}

/* The reader's output is modified UTF-8 (see the header): U+0000 as C0 80. */
static void put_utf8(tc_buf *sb, uint32_t cp)
{
	char b[4];
	if (cp == 0)
		buf_putn(sb, "\xC0\x80", 2);
	else
		buf_putn(sb, b, utf8_encode(cp, b));
}

/* A string; r->pos is at the opening quote. The text lands in the arena. */
static int string(reader *r, const char **out, size_t *len)
{
	size_t start = r->pos++;
	r->str.len = 0;
	r->str.err = 0;
	for (;;) {
		if (r->pos >= r->end)
			return fail(r, start, "%s", "unterminated string");
		unsigned char c = r->base[r->pos];
		if (c == '"') {
			r->pos++;
			break;
		}
		if (c < 0x20)
			return fail(r, r->pos, "%s", "control character in a string (must be escaped)");
		if (c != '\\') {
			/* copy a run of plain bytes at once */
			size_t run = r->pos;
			while (run < r->end && r->base[run] >= 0x20 && r->base[run] < 0x80 && r->base[run] != '"' &&
			       r->base[run] != '\\')
				run++;
			if (run > r->pos) {
				buf_putn(&r->str, (const char *)r->base + r->pos, run - r->pos);
				r->pos = run;
				continue;
			}
			uint32_t cp;
			size_t n = utf8_decode(r->base + r->pos, r->end - r->pos, &cp);
			if (n == 0)
				return fail(r, r->pos, "%s", "invalid UTF-8 in a string");
			buf_putn(&r->str, (const char *)r->base + r->pos, n);
			r->pos += n;
			continue;
		}
		size_t esc = r->pos++;
		if (r->pos >= r->end)
			return fail(r, start, "%s", "unterminated string");
		c = r->base[r->pos++];
		switch (c) {
		case '"': buf_putc(&r->str, '"'); break;
		case '\\': buf_putc(&r->str, '\\'); break;
		case '/': buf_putc(&r->str, '/'); break;
		case 'b': buf_putc(&r->str, '\b'); break;
		case 'f': buf_putc(&r->str, '\f'); break;
		case 'n': buf_putc(&r->str, '\n'); break;
		case 'r': buf_putc(&r->str, '\r'); break;
		case 't': buf_putc(&r->str, '\t'); break;
		case 'u': {
			uint32_t cp;
			TRY(hex4(r, &cp));
			if (cp >= 0xDC00 && cp <= 0xDFFF)
				return fail(r, esc, "%s", "lone low surrogate in \\u escape");
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				uint32_t lo;
				if (r->end - r->pos < 2 || r->base[r->pos] != '\\' || r->base[r->pos + 1] != 'u')
					return fail(r, esc, "%s", "high surrogate not followed by a low one");
				r->pos += 2;
				TRY(hex4(r, &lo));
				if (lo < 0xDC00 || lo > 0xDFFF)
					return fail(r, esc, "%s", "high surrogate not followed by a low one");
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			}
			put_utf8(&r->str, cp);
			break;
		}
		default:
			return fail(r, esc, "%s", "invalid escape in a string");
		}
	}
	if (r->str.err)
		return oom(r);
	char *s = arena_strndup(r->arena, r->str.len ? r->str.str : "", r->str.len);
	if (!s)
		return oom(r);
	*out = s;
	*len = r->str.len;
	return TC_OK;
}

static int number(reader *r, json_val *v)
{
	size_t start = r->pos;
	const unsigned char *b = r->base;
	if (r->pos < r->end && b[r->pos] == '-')
		r->pos++;
	if (r->pos >= r->end || b[r->pos] < '0' || b[r->pos] > '9')
		return fail(r, r->pos, "%s", "expected a digit");
	if (b[r->pos] == '0') {
		r->pos++;
		if (r->pos < r->end && b[r->pos] >= '0' && b[r->pos] <= '9')
			return fail(r, start, "%s", "leading zero in a number");
	} else {
		while (r->pos < r->end && b[r->pos] >= '0' && b[r->pos] <= '9')
			r->pos++;
	}
	if (r->pos < r->end && b[r->pos] == '.') {
		r->pos++;
		if (r->pos >= r->end || b[r->pos] < '0' || b[r->pos] > '9')
			return fail(r, r->pos, "%s", "expected a digit after the decimal point");
		while (r->pos < r->end && b[r->pos] >= '0' && b[r->pos] <= '9')
			r->pos++;
	}
	if (r->pos < r->end && (b[r->pos] == 'e' || b[r->pos] == 'E')) {
		r->pos++;
		if (r->pos < r->end && (b[r->pos] == '+' || b[r->pos] == '-'))
			r->pos++;
		if (r->pos >= r->end || b[r->pos] < '0' || b[r->pos] > '9')
			return fail(r, r->pos, "%s", "expected a digit in the exponent");
		while (r->pos < r->end && b[r->pos] >= '0' && b[r->pos] <= '9')
			r->pos++;
	}
	v->type = JSON_NUM;
	v->len = r->pos - start;
	v->s = arena_strndup(r->arena, (const char *)b + start, v->len);
	return v->s ? TC_OK : oom(r);
}

static int push_val(reader *r, const json_val *v)
{
	if (r->nvals == r->capvals) {
		size_t cap = r->capvals ? r->capvals * 2 : 64;
		json_val *p = cap > SIZE_MAX / sizeof *p ? NULL : realloc(r->vals, cap * sizeof *p);
		if (!p)
			return oom(r);
		r->vals = p;
		r->capvals = cap;
	}
	r->vals[r->nvals++] = *v;
	return TC_OK;
}

static int push_mem(reader *r, const json_member *m)
{
	if (r->nmems == r->capmems) {
		size_t cap = r->capmems ? r->capmems * 2 : 64;
		json_member *p = cap > SIZE_MAX / sizeof *p ? NULL : realloc(r->mems, cap * sizeof *p);
		if (!p)
			return oom(r);
		r->mems = p;
		r->capmems = cap;
	}
	r->mems[r->nmems++] = *m;
	return TC_OK;
}

static int cmp_member(const void *a, const void *b)
{
	const json_member *x = *(const json_member *const *)a, *y = *(const json_member *const *)b;
	size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c = memcmp(x->key, y->key, n);
	return c ? c : (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

/* Duplicate keys: pairwise for small objects, by sorting for large ones. */
static int check_unique(reader *r, const json_member *m, size_t n, size_t obj_off)
{
	const json_member *dup = NULL;
	if (n <= 16) {
		for (size_t i = 1; i < n && !dup; i++)
			for (size_t j = 0; j < i && !dup; j++)
				if (m[i].key_len == m[j].key_len && memcmp(m[i].key, m[j].key, m[i].key_len) == 0)
					dup = &m[i];
	} else {
		const json_member **p = malloc(n * sizeof *p);
		if (!p)
			return oom(r);
		for (size_t i = 0; i < n; i++)
			p[i] = &m[i];
		qsort(p, n, sizeof *p, cmp_member);
		for (size_t i = 1; i < n && !dup; i++)
			if (cmp_member(&p[i - 1], &p[i]) == 0)
				dup = p[i];
		free(p);
	}
	if (dup) {
		char msg[96];
		snprintf(msg, sizeof msg, "duplicate key \"%.60s\" in an object", dup->key);
		return fail(r, obj_off, "%s", msg);
	}
	return TC_OK;
}

static int value(reader *r, json_val *v, int depth);

static int array(reader *r, json_val *v, int depth)
{
	size_t mark = r->nvals;
	r->pos++; /* '[' */
	skip_ws(r);
	if (r->pos < r->end && r->base[r->pos] == ']') {
		r->pos++;
	} else {
		for (;;) {
			json_val item;
			skip_ws(r);
			TRY(value(r, &item, depth + 1));
			TRY(push_val(r, &item));
			skip_ws(r);
			if (r->pos < r->end && r->base[r->pos] == ',') {
				r->pos++;
				continue;
			}
			if (r->pos < r->end && r->base[r->pos] == ']') {
				r->pos++;
				break;
			}
			return unexpected(r, "',' or ']'");
		}
	}
	v->type = JSON_ARR;
	v->n = r->nvals - mark;
	if (v->n) {
		v->items = arena_array(r->arena, v->n, sizeof *v->items);
		if (!v->items)
			return oom(r);
		memcpy(v->items, r->vals + mark, v->n * sizeof *v->items);
	}
	r->nvals = mark;
	return TC_OK;
}

static int object(reader *r, json_val *v, int depth)
{
	size_t mark = r->nmems, start = r->pos;
	r->pos++; /* '{' */
	skip_ws(r);
	if (r->pos < r->end && r->base[r->pos] == '}') {
		r->pos++;
	} else {
		for (;;) {
			json_member m = { 0 };
			skip_ws(r);
			if (r->pos >= r->end || r->base[r->pos] != '"')
				return unexpected(r, "a key string");
			TRY(string(r, &m.key, &m.key_len));
			skip_ws(r);
			if (r->pos >= r->end || r->base[r->pos] != ':')
				return unexpected(r, "':'");
			r->pos++;
			skip_ws(r);
			TRY(value(r, &m.val, depth + 1));
			TRY(push_mem(r, &m));
			skip_ws(r);
			if (r->pos < r->end && r->base[r->pos] == ',') {
				r->pos++;
				continue;
			}
			if (r->pos < r->end && r->base[r->pos] == '}') {
				r->pos++;
				break;
			}
			return unexpected(r, "',' or '}'");
		}
	}
	v->type = JSON_OBJ;
	v->n = r->nmems - mark;
	if (v->n) {
		TRY(check_unique(r, r->mems + mark, v->n, start));
		v->members = arena_array(r->arena, v->n, sizeof *v->members);
		if (!v->members)
			return oom(r);
		memcpy(v->members, r->mems + mark, v->n * sizeof *v->members);
	}
	r->nmems = mark;
	return TC_OK;
}

static int value(reader *r, json_val *v, int depth)
{
	memset(v, 0, sizeof *v);
	if (r->pos >= r->end)
		return unexpected(r, "a value");
	unsigned char c = r->base[r->pos];
	if ((c == '{' || c == '[') && depth >= JSON_READ_MAX_DEPTH)
		return fail(r, r->pos, "nested deeper than %s levels", "64");
	switch (c) {
	case '{': return object(r, v, depth);
	case '[': return array(r, v, depth);
	case '"': v->type = JSON_STR; return string(r, &v->s, &v->len);
	case 't': v->type = JSON_BOOL; v->b = true; return literal(r, "true");
	case 'f': v->type = JSON_BOOL; v->b = false; return literal(r, "false");
	case 'n': v->type = JSON_NULL; return literal(r, "null");
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return number(r, v);
		return unexpected(r, "a value");
	}
}

int json_parse(json_doc *doc, const char *text, size_t n, size_t *err_off, char *why, size_t cap)
{
	memset(doc, 0, sizeof *doc);
	reader r = { 0 };
	r.base = (const unsigned char *)text;
	r.end = n;
	r.arena = &doc->arena;
	r.why = why;
	r.why_cap = cap;
	buf_init(&r.str);
	if (cap)
		why[0] = '\0';
	skip_ws(&r);
	int rc = value(&r, &doc->root, 0);
	if (rc == TC_OK) {
		skip_ws(&r);
		if (r.pos < r.end)
			rc = unexpected(&r, "the end of the line after the value");
	}
	free(r.vals);
	free(r.mems);
	buf_free(&r.str);
	if (rc != TC_OK) {
		if (err_off)
			*err_off = r.err_off;
		json_doc_dispose(doc);
	}
	return rc;
}

void json_doc_dispose(json_doc *doc)
{
	arena_free(&doc->arena);
	memset(&doc->root, 0, sizeof doc->root);
}

const json_val *json_get(const json_val *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJ)
		return NULL;
	size_t n = strlen(key);
	for (size_t i = 0; i < obj->n; i++)
		if (obj->members[i].key_len == n && memcmp(obj->members[i].key, key, n) == 0)
			return &obj->members[i].val;
	return NULL;
}

bool json_get_int(const json_val *v, int64_t *out)
{
	if (!v || v->type != JSON_NUM || strpbrk(v->s, ".eE"))
		return false;
	errno = 0;
	char *end;
	long long x = strtoll(v->s, &end, 10);
	if (errno || *end)
		return false;
	*out = x;
	return true;
}

/* Depth-first with an explicit stack would be needed only past
 * JSON_READ_MAX_DEPTH, which the reader refuses; recursion is bounded. */
void json_put(tc_buf *sb, const json_val *v)
{
	switch (v->type) {
	case JSON_NULL: buf_puts(sb, "null"); break;
	case JSON_BOOL: buf_puts(sb, v->b ? "true" : "false"); break;
	case JSON_NUM: buf_putn(sb, v->s, v->len); break;
	case JSON_STR: json_escape(sb, v->s); break;
	case JSON_ARR:
		buf_putc(sb, '[');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				buf_putc(sb, ',');
			json_put(sb, &v->items[i]);
		}
		buf_putc(sb, ']');
		break;
	case JSON_OBJ:
		buf_putc(sb, '{');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				buf_putc(sb, ',');
			json_escape(sb, v->members[i].key);
			buf_putc(sb, ':');
			json_put(sb, &v->members[i].val);
		}
		buf_putc(sb, '}');
		break;
	}
}

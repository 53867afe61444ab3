/* json.c: RFC 8259 output. Strings are escaped byte-exactly; invalid UTF-8
 * (a truncated thread name, a corrupt class name) becomes U+FFFD so the
 * report stays parseable.
 *
 * Characters outside the BMP are written as \ud83d\ude00 escape pairs, and
 * the output is plain ASCII plus 1- to 3-byte UTF-8: valid JSON that is also
 * valid "modified UTF-8", which JNI's NewStringUTF requires (ART aborts on a
 * 4-byte sequence under CheckJNI). Input from GetStringUTFChars is modified
 * UTF-8 itself: its NUL (C0 80) and its surrogate pairs (two 3-byte
 * sequences) are read as what they stand for. */
#include "json.h"

#include <stdint.h>

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

void json_init(json *j)
{
	memset(j, 0, sizeof *j);
	buf_init(&j->sb);
}

void json_init_pretty(json *j)
{
	json_init(j);
	j->pretty = true;
}

void json_dispose(json *j)
{
	buf_free(&j->sb);
	json_init(j);
}

static void newline(json *j, int depth)
{
	buf_putc(&j->sb, '\n');
	for (int i = 0; i < depth; i++)
		buf_puts(&j->sb, "  ");
}

static void value_prefix(json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0) {
		if (j->need_comma[j->depth])
			buf_putc(&j->sb, ',');
		j->need_comma[j->depth] = true;
		if (j->pretty)
			newline(j, j->depth);
	}
}

static void begin(json *j, char open)
{
	value_prefix(j);
	assert(j->depth + 1 < JSON_MAX_DEPTH);
	buf_putc(&j->sb, open);
	j->depth++;
	j->need_comma[j->depth] = false;
}

static void end(json *j, char close)
{
	assert(j->depth > 0 && !j->after_key);
	bool empty = !j->need_comma[j->depth];
	j->depth--;
	if (j->pretty && !empty)
		newline(j, j->depth);
	buf_putc(&j->sb, close);
	if (j->pretty && j->depth == 0)
		buf_putc(&j->sb, '\n');
}

void json_begin_object(json *j) { begin(j, '{'); }
void json_end_object(json *j) { end(j, '}'); }
void json_begin_array(json *j) { begin(j, '['); }
void json_end_array(json *j) { end(j, ']'); }

void json_key(json *j, const char *key)
{
	assert(j->depth > 0 && !j->after_key);
	value_prefix(j);
	json_escape(&j->sb, key);
	buf_puts(&j->sb, j->pretty ? ": " : ":");
	j->after_key = true;
}

/* Decodes one 3-byte surrogate (ED A0..BF xx) of modified UTF-8. */
static uint32_t surrogate_at(const unsigned char *s)
{
	if (s[0] != 0xED || (s[1] & 0xE0) != 0xA0 || (s[2] & 0xC0) != 0x80)
		return 0;
	return 0xD000u | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
}

void json_escape(tc_buf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	buf_putc(sb, '"');
	while (*s) {
		unsigned char c = *s;
		switch (c) {
		case '"': buf_puts(sb, "\\\""); s++; continue;
		case '\\': buf_puts(sb, "\\\\"); s++; continue;
		case '\n': buf_puts(sb, "\\n"); s++; continue;
		case '\r': buf_puts(sb, "\\r"); s++; continue;
		case '\t': buf_puts(sb, "\\t"); s++; continue;
		case '\b': buf_puts(sb, "\\b"); s++; continue;
		case '\f': buf_puts(sb, "\\f"); s++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7F) {
			buf_printf(sb, "\\u%04x", c);
			s++;
			continue;
		}
		if (c == 0xC0 && s[1] == 0x80) { /* modified UTF-8 NUL */
			buf_puts(sb, "\\u0000");
			s += 2;
			continue;
		}
		uint32_t hi = surrogate_at(s), lo = hi ? surrogate_at(s + 3) : 0;
		if (hi >= 0xD800 && hi <= 0xDBFF && lo >= 0xDC00 && lo <= 0xDFFF) {
			buf_printf(sb, "\\u%04x\\u%04x", (unsigned)hi, (unsigned)lo);
			s += 6;
			continue;
		}
		uint32_t cp;
		size_t n = utf8_decode(s, SIZE_MAX, &cp);
		if (n == 0) {
			buf_puts(sb, "\\ufffd");
			s++;
			continue;
		}
		if (n == 4) { /* outside the BMP: a surrogate pair of escapes */
			cp -= 0x10000;
			buf_printf(sb, "\\u%04x\\u%04x", (unsigned)(0xD800 + (cp >> 10)), (unsigned)(0xDC00 + (cp & 0x3FF)));
		} else {
			buf_putn(sb, (const char *)s, n);
		}
		s += n;
	}
	buf_putc(sb, '"');
}

void json_string(json *j, const char *s)
{
	value_prefix(j);
	if (s)
		json_escape(&j->sb, s);
	else
		buf_puts(&j->sb, "null");
}

void json_int(json *j, int64_t v)
{
	value_prefix(j);
	buf_printf(&j->sb, "%lld", (long long)v);
}

void json_uint(json *j, uint64_t v)
{
	value_prefix(j);
	buf_printf(&j->sb, "%llu", (unsigned long long)v);
}

/* %f and %g follow LC_NUMERIC; a host app may have set a locale with a decimal comma.
 * JSON wants a point. */
static void point(char *s)
{
	for (; *s; s++)
		if (*s == ',')
			*s = '.';
}

void json_fixed(json *j, double v, int decimals)
{
	value_prefix(j);
	if (!isfinite(v)) {
		buf_puts(&j->sb, "null");
		return;
	}
	char buf[400];
	snprintf(buf, sizeof buf, "%.*f", decimals, v);
	point(buf);
	buf_puts(&j->sb, buf);
}

void json_double(json *j, double v)
{
	value_prefix(j);
	if (!isfinite(v)) {
		buf_puts(&j->sb, "null");
		return;
	}
	char buf[64];
	snprintf(buf, sizeof buf, "%.10g", v);
	point(buf);
	/* keep it a floating-point literal, as Java's JSONObject writes a float */
	if (!strpbrk(buf, ".eEn"))
		strcat(buf, ".0");
	buf_puts(&j->sb, buf);
}

void json_bool(json *j, bool v)
{
	value_prefix(j);
	buf_puts(&j->sb, v ? "true" : "false");
}

void json_kv_string(json *j, const char *k, const char *s) { json_key(j, k); json_string(j, s); }
void json_kv_int(json *j, const char *k, int64_t v) { json_key(j, k); json_int(j, v); }
void json_kv_uint(json *j, const char *k, uint64_t v) { json_key(j, k); json_uint(j, v); }
void json_kv_fixed(json *j, const char *k, double v, int decimals) { json_key(j, k); json_fixed(j, v, decimals); }
void json_kv_double(json *j, const char *k, double v) { json_key(j, k); json_double(j, v); }
void json_kv_bool(json *j, const char *k, bool v) { json_key(j, k); json_bool(j, v); }

char *json_take(json *j)
{
	assert(j->depth == 0);
	char *s = buf_take_str(&j->sb);
	json_init(j);
	return s;
}

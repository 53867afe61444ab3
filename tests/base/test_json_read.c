/* The strict JSON reader: values, strings, numbers, the writer of what it
 * read, and malformed input (each error with its offset). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

static json_doc doc;
static size_t off;
static char why[128];

static int parse_n(const char *s, size_t n)
{
	return json_parse(&doc, s, n, &off, why, sizeof why);
}

static int parse(const char *s)
{
	return parse_n(s, strlen(s));
}

static char *put(const json_val *v)
{
	tc_buf sb;
	buf_init(&sb);
	json_put(&sb, v);
	return buf_take_str(&sb);
}

static void teardown(void)
{
	json_doc_dispose(&doc);
}

TestSuite(json, .fini = teardown);

Test(json, a_report_line)
{
	const char *line = "{\"machine\":\"HIGH\",\"cpu_app\":1.5,\"mem\":6442450944,\"detail\":\"NORMAL\",\"cost\":720,"
	                   "\"stack\":\"0,1048574,1,720\\n1,100,1,720\\n\",\"stackKey\":\"100|\",\"ok\":true,"
	                   "\"none\":null,\"memory\":{\"vm_size\":8192},\"list\":[1,-2,3e5,[]]}";
	cr_assert_eq(parse(line), TC_OK, "%s at %zu", why, off);
	cr_assert_eq(doc.root.type, JSON_OBJ);
	cr_assert_eq(doc.root.n, 11);
	const json_val *st = json_get(&doc.root, "stack");
	cr_assert_str_eq(st->s, "0,1048574,1,720\n1,100,1,720\n");
	cr_assert_eq(st->len, 28);
	int64_t v;
	cr_assert(json_get_int(json_get(&doc.root, "mem"), &v));
	cr_assert_eq(v, INT64_C(6442450944));
	cr_assert_not(json_get_int(json_get(&doc.root, "cpu_app"), &v));
	cr_assert_str_eq(json_get(&doc.root, "cpu_app")->s, "1.5");
	cr_assert(json_get(&doc.root, "ok")->b);
	cr_assert_eq(json_get(&doc.root, "none")->type, JSON_NULL);
	cr_assert(json_get_int(json_get(json_get(&doc.root, "memory"), "vm_size"), &v));
	cr_assert_eq(v, 8192);
	const json_val *list = json_get(&doc.root, "list");
	cr_assert_eq(list->n, 4);
	cr_assert_str_eq(list->items[2].s, "3e5");
	cr_assert_eq(list->items[3].type, JSON_ARR);
	cr_assert_null(json_get(&doc.root, "missing"));
	char *back = put(&doc.root);
	cr_assert_str_eq(back, line); /* compact input comes back byte for byte */
	free(back);
}

Test(json, whitespace_around_and_inside)
{
	cr_assert_eq(parse(" \t{ \"a\" : [ 1 , 2 ] ,\r\n\"b\":{} }\n "), TC_OK, "%s", why);
	char *back = put(&doc.root);
	cr_assert_str_eq(back, "{\"a\":[1,2],\"b\":{}}");
	free(back);
}

Test(json, scalars_at_the_top)
{
	cr_assert_eq(parse("42"), TC_OK);
	cr_assert_eq(doc.root.type, JSON_NUM);
	json_doc_dispose(&doc);
	cr_assert_eq(parse("\"x\""), TC_OK);
	cr_assert_str_eq(doc.root.s, "x");
	json_doc_dispose(&doc);
	cr_assert_eq(parse("-0.5e-3"), TC_OK);
	cr_assert_str_eq(doc.root.s, "-0.5e-3");
}

Test(json, escapes_decode_to_utf8)
{
	cr_assert_eq(parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u20ac\\ud83d\\ude00\""), TC_OK, "%s", why);
	cr_assert_str_eq(doc.root.s, "a\"b\\c/d\b\f\n\r\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	char *back = put(&doc.root);
	/* written back by the runtime's escaper: the pair as escapes */
	cr_assert_str_eq(back, "\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\xc3\xa9\xe2\x82\xac\\ud83d\\ude00\"");
	free(back);
}

Test(json, nul_in_a_string_survives)
{
	cr_assert_eq(parse("{\"k\\u0000\":\"a\\u0000b\"}"), TC_OK, "%s", why);
	const json_member *mb = &doc.root.members[0];
	cr_assert_eq(mb->key_len, 3);
	cr_assert_eq(memcmp(mb->key, "k\xC0\x80", 3), 0);
	cr_assert_eq(mb->val.len, 4);
	char *back = put(&doc.root);
	cr_assert_str_eq(back, "{\"k\\u0000\":\"a\\u0000b\"}");
	free(back);
}

Test(json, raw_utf8_is_kept)
{
	cr_assert_eq(parse("\"\xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80\""), TC_OK, "%s", why);
	cr_assert_str_eq(doc.root.s, "\xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80");
}

Test(json, sixty_four_levels_but_not_sixty_five)
{
	char buf[200];
	memset(buf, '[', 64);
	memset(buf + 64, ']', 64);
	cr_assert_eq(parse_n(buf, 128), TC_OK, "%s", why);
	json_doc_dispose(&doc);
	memset(buf, '[', 65);
	memset(buf + 65, ']', 65);
	cr_assert_eq(parse_n(buf, 130), TC_EFORMAT);
	cr_assert_eq(off, 64);
	cr_assert(strstr(why, "nested deeper than 64"), "%s", why);
}

struct bad {
	const char *text;
	size_t off;
	const char *why;
};

Test(json, malformed_input_names_the_offset)
{
	static const struct bad cases[] = {
		{ "", 0, "expected a value, found end of input" },
		{ "   ", 3, "expected a value" },
		{ "{", 1, "expected a key string, found end of input" },
		{ "{\"a\":1,}", 7, "expected a key string, found '}'" },
		{ "{\"a\" 1}", 5, "expected ':', found '1'" },
		{ "{\"a\":1 \"b\":2}", 7, "expected ',' or '}'" },
		{ "{a:1}", 1, "expected a key string, found 'a'" },
		{ "{'a':1}", 1, "expected a key string, found '''" },
		{ "[1,]", 3, "expected a value, found ']'" },
		{ "[1 2]", 3, "expected ',' or ']'" },
		{ "[", 1, "expected a value, found end of input" },
		{ "01", 0, "leading zero" },
		{ "-01", 0, "leading zero" },
		{ "1.", 2, "expected a digit after the decimal point" },
		{ ".5", 0, "expected a value, found '.'" },
		{ "1e", 2, "expected a digit in the exponent" },
		{ "1e+", 3, "expected a digit in the exponent" },
		{ "-", 1, "expected a digit" },
		{ "+1", 0, "expected a value, found '+'" },
		{ "NaN", 0, "expected a value, found 'N'" },
		{ "tru", 0, "expected a value" },
		{ "nul", 0, "expected a value" },
		{ "True", 0, "expected a value" },
		{ "\"abc", 0, "unterminated string" },
		{ "\"abc\\", 0, "unterminated string" },
		{ "\"\\x\"", 1, "invalid escape" },
		{ "\"\\u12x4\"", 5, "bad hex digit" },
		{ "\"\\u12", 3, "truncated \\u escape" },
		{ "\"\\ud800\"", 1, "high surrogate not followed by a low one" },
		{ "\"\\ud800\\u0041\"", 1, "high surrogate not followed by a low one" },
		{ "\"\\udc00\"", 1, "lone low surrogate" },
		{ "\"a\x01\"", 2, "control character in a string" },
		{ "\"a\tb\"", 2, "control character in a string" },
		{ "\"\xff\"", 1, "invalid UTF-8" },
		{ "\"\xc0\x80\"", 1, "invalid UTF-8" },         /* overlong NUL */
		{ "\"\xed\xa0\x80\"", 1, "invalid UTF-8" },     /* encoded surrogate */
		{ "\"\xe2\x82\"", 1, "invalid UTF-8" },         /* cut sequence */
		{ "\"\xf4\x90\x80\x80\"", 1, "invalid UTF-8" }, /* past U+10FFFF */
		{ "{\"a\":1,\"a\":2}", 0, "duplicate key \"a\"" },
		{ "1 2", 2, "expected the end of the line" },
		{ "{} x", 3, "expected the end of the line" },
		{ "/* c */ 1", 0, "expected a value, found '/'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_assert_eq(parse(cases[i].text), TC_EFORMAT, "case %zu: %s", i, cases[i].text);
		cr_expect_eq(off, cases[i].off, "case %zu (%s): offset %zu", i, cases[i].text, off);
		cr_expect(strstr(why, cases[i].why), "case %zu (%s): %s", i, cases[i].text, why);
		cr_assert_eq(doc.root.type, JSON_NULL);
		json_doc_dispose(&doc);
	}
}

Test(json, nul_byte_inside_the_line)
{
	static const char text[] = "{\"a\":1}\0";
	cr_assert_eq(parse_n(text, sizeof text - 1), TC_EFORMAT);
	cr_assert_eq(off, 7);
	cr_assert(strstr(why, "byte 0x00"), "%s", why);
}

Test(json, duplicate_keys_in_a_large_object)
{
	char *text = malloc(100 * 16);
	size_t len = 0;
	text[len++] = '{';
	for (int i = 0; i < 100; i++)
		len += (size_t)sprintf(text + len, "%s\"k%d\":%d", i ? "," : "", i == 77 ? 5 : i, i);
	text[len++] = '}';
	cr_assert_eq(parse_n(text, len), TC_EFORMAT);
	cr_assert(strstr(why, "duplicate key \"k5\""), "%s", why);
	free(text);
}

/* Every prefix and many one-byte changes of a valid line: an error or a
 * value, never a crash or a read past the end (checked under ASan). */
Test(json, prefixes_and_mutations_never_crash)
{
	const char *line = "{\"machine\":\"HIGH\",\"cost\":720,\"stack\":\"0,1048574,1,720\\n\",\"s\":\"\\ud83d\\ude00\\u00e9\","
	                   "\"memory\":{\"a\":[1,2.5e-3,true,false,null]},\"x\":\"\xe4\xb8\xad\"}";
	size_t n = strlen(line);
	for (size_t k = 0; k < n; k++) {
		char *copy = malloc(k ? k : 1); /* exact size, so ASan sees any overread */
		memcpy(copy, line, k);
		int rc = parse_n(copy, k);
		cr_assert_eq(rc, TC_EFORMAT, "prefix %zu", k);
		json_doc_dispose(&doc);
		free(copy);
	}
	unsigned seed = 12345;
	static const char alphabet[] = "{}[]\",:\\u0123456789abcdefe+-.tfn \x01\x7f\x80\xc3\xed\xff";
	for (int iter = 0; iter < 20000; iter++) {
		char *copy = malloc(n);
		memcpy(copy, line, n);
		for (int j = 0; j < 3; j++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = (seed >> 8) % n;
			seed = seed * 1103515245u + 12345u;
			copy[at] = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
		}
		if (parse_n(copy, n) == TC_OK) {
			char *back = put(&doc.root);
			json_doc again;
			size_t o2;
			char w2[128];
			/* what the reader accepted, the writer writes as valid JSON */
			cr_assert_eq(json_parse(&again, back, strlen(back), &o2, w2, sizeof w2), TC_OK, "%s: %s", back, w2);
			json_doc_dispose(&again);
			free(back);
		}
		json_doc_dispose(&doc);
		free(copy);
	}
}

/* json_read.h: the JSON reader (RFC 8259), small and strict, for tc-trace's report
 * lines, and the writer of what it read (json_put; the writer of new JSON is json.h).
 *
 * Strict: one value with optional whitespace around it; no comments,
 * trailing commas, NaN, leading zeros, raw control characters, invalid
 * UTF-8, lone surrogates or duplicate keys; nesting at most JSON_READ_MAX_DEPTH.
 * Every read is bounded by the input's length, which may hold NUL bytes.
 *
 * A document owns all it points to (one arena; it does not borrow the
 * input). Strings are UTF-8; U+0000 is stored as the two bytes C0 80
 * (modified UTF-8), so every string is also a C string and json_escape
 * writes it back as \u0000. Numbers keep their text, so they
 * are written back exactly. */
#ifndef TC_JSON_READ_H
#define TC_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "arena.h"
#include "tc_error.h"

#define JSON_READ_MAX_DEPTH 64

typedef enum json_type { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ } json_type;

typedef struct json_val json_val;
typedef struct json_member json_member;

struct json_val {
	json_type type;
	bool b;            /* JSON_BOOL */
	const char *s;     /* JSON_STR: the decoded text; JSON_NUM: the number as written */
	size_t len;        /* of s */
	json_val *items;    /* JSON_ARR */
	json_member *members; /* JSON_OBJ, in input order */
	size_t n;          /* items or members */
};

struct json_member {
	const char *key;
	size_t key_len;
	json_val val;
};

typedef struct json_doc {
	json_val root;
	arena arena;
} json_doc;

/* Parses text[0..n). On error returns TC_EFORMAT (or TC_ENOMEM), with the
 * byte offset of the problem in *err_off and a message in why (cap bytes);
 * doc is then empty. Either way release the doc with json_doc_dispose. */
int json_parse(json_doc *doc, const char *text, size_t n, size_t *err_off, char *why, size_t cap);
void json_doc_dispose(json_doc *doc);

/* The member of an object by key, or NULL. */
const json_val *json_get(const json_val *obj, const char *key);
/* The value as an integer if it is a number without fraction or exponent
 * that fits; returns false otherwise. */
bool json_get_int(const json_val *v, int64_t *out);

/* Appends v as JSON (compact; numbers as they were written). */
void json_put(tc_buf *sb, const json_val *v);

#endif

/* json.h: a small JSON writer over a strbuf. Commas are placed by the
 * writer; a nesting mistake is a broken invariant and asserts. */
#ifndef TC_JSON_H
#define TC_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

#define JSON_MAX_DEPTH 16

typedef struct json {
	strbuf sb;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
} json;

void json_init(json *j);
void json_dispose(json *j);
void json_begin_object(json *j);
void json_end_object(json *j);
void json_key(json *j, const char *key);
void json_string(json *j, const char *s); /* NULL writes null */
void json_int(json *j, int64_t v);
void json_double(json *j, double v);      /* NaN and infinities write null */
void json_bool(json *j, bool v);
/* key + value in one call */
void json_kv_string(json *j, const char *key, const char *s);
void json_kv_int(json *j, const char *key, int64_t v);
void json_kv_double(json *j, const char *key, double v);
void json_kv_bool(json *j, const char *key, bool v);
/* The text, malloc'd (NULL if out of memory); the writer is reset. */
char *json_take(json *j);

/* Appends s as a JSON string literal: quotes, escapes for " \ and control
 * characters, and U+FFFD for bytes that are not UTF-8. */
void json_escape(strbuf *sb, const char *s);

#endif

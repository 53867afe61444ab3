/* json.h: a small JSON writer over a tc_buf. Commas are placed by the
 * writer; a nesting mistake is a broken invariant and asserts. */
#ifndef TC_JSON_H
#define TC_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "bytes.h"

#define JSON_MAX_DEPTH 16

typedef struct json {
	tc_buf sb;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
	bool pretty;
} json;

/* Compact: no whitespace at all (one report per line). */
void json_init(json *j);
/* Pretty: one member or item per line, indented by two spaces a level, "key": value,
 * and a newline after the outermost value (files people read). */
void json_init_pretty(json *j);
void json_dispose(json *j);
void json_begin_object(json *j);
void json_end_object(json *j);
void json_begin_array(json *j);
void json_end_array(json *j);
void json_key(json *j, const char *key);
void json_string(json *j, const char *s); /* NULL writes null */
void json_int(json *j, int64_t v);
void json_uint(json *j, uint64_t v);
/* v with exactly `decimals` digits after the point (NaN and infinities write null). */
void json_fixed(json *j, double v, int decimals);
void json_double(json *j, double v);      /* NaN and infinities write null */
void json_bool(json *j, bool v);
/* key + value in one call */
void json_kv_string(json *j, const char *key, const char *s);
void json_kv_int(json *j, const char *key, int64_t v);
void json_kv_uint(json *j, const char *key, uint64_t v);
void json_kv_fixed(json *j, const char *key, double v, int decimals);
void json_kv_double(json *j, const char *key, double v);
void json_kv_bool(json *j, const char *key, bool v);
/* The text, malloc'd (NULL if out of memory); the writer is reset. */
char *json_take(json *j);

/* Appends s as a JSON string literal: quotes, escapes for " \ and control
 * characters, and U+FFFD for bytes that are not UTF-8. */
void json_escape(tc_buf *sb, const char *s);

#endif

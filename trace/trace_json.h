/* trace_json.h: a small, strict JSON reader (RFC 8259) for one report line,
 * and the writer of what it read.
 *
 * Strict: one value with optional whitespace around it; no comments,
 * trailing commas, NaN, leading zeros, raw control characters, invalid
 * UTF-8, lone surrogates or duplicate keys; nesting at most TR_JSON_MAX_DEPTH.
 * Every read is bounded by the input's length, which may hold NUL bytes.
 *
 * A document owns all it points to (one arena; it does not borrow the
 * input). Strings are UTF-8; U+0000 is stored as the two bytes C0 80
 * (modified UTF-8), so every string is also a C string and the runtime's
 * json_escape writes it back as \u0000. Numbers keep their text, so they
 * are written back exactly. */
#ifndef TR_JSON_H
#define TR_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "arena.h"
#include "tc_runtime.h" /* TC_E* codes */

#define TR_JSON_MAX_DEPTH 64

typedef enum tr_jtype { TR_JNULL, TR_JBOOL, TR_JNUM, TR_JSTR, TR_JARR, TR_JOBJ } tr_jtype;

typedef struct tr_jval tr_jval;
typedef struct tr_jmember tr_jmember;

struct tr_jval {
	tr_jtype type;
	bool b;            /* TR_JBOOL */
	const char *s;     /* TR_JSTR: the decoded text; TR_JNUM: the number as written */
	size_t len;        /* of s */
	tr_jval *items;    /* TR_JARR */
	tr_jmember *members; /* TR_JOBJ, in input order */
	size_t n;          /* items or members */
};

struct tr_jmember {
	const char *key;
	size_t key_len;
	tr_jval val;
};

typedef struct tr_jdoc {
	tr_jval root;
	arena arena;
} tr_jdoc;

/* Parses text[0..n). On error returns TC_EFORMAT (or TC_ENOMEM), with the
 * byte offset of the problem in *err_off and a message in why (cap bytes);
 * doc is then empty. Either way release the doc with tr_json_dispose. */
int tr_json_parse(tr_jdoc *doc, const char *text, size_t n, size_t *err_off, char *why, size_t cap);
void tr_json_dispose(tr_jdoc *doc);

/* The member of an object by key, or NULL. */
const tr_jval *tr_json_get(const tr_jval *obj, const char *key);
/* The value as an integer if it is a number without fraction or exponent
 * that fits; returns false otherwise. */
bool tr_json_int(const tr_jval *v, int64_t *out);

/* Appends v as JSON (compact; numbers as they were written). */
void tr_json_put(cf_buf *sb, const tr_jval *v);

#endif

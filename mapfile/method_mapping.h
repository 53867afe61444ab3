/* Matrix's mapping formats, one reader and one writer for tc-instrument (which writes them
 * and reads an earlier build's), `tc-instrument diff` and tc-trace (which decodes ids).
 *
 * methodMapping.txt: one "id,accessFlags,class method desc" per line, names with '.'
 * ("5,4,sample.MainActivity onResume ()V"), '#' comment lines and blank lines; the key of
 * a method is the part after the second comma. ignoreMethodMapping.txt: the line
 * "ignore methods:", then one "class method desc" per method left untraced.
 *
 * Only the lines: what a program keeps of them (by key, by id) is its own. */
#ifndef TC_METHOD_MAPPING_H
#define TC_METHOD_MAPPING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"

/* Matrix's reserved ids (see shared/reference/matrix-runtime.md): ids are below
 * METHOD_ID_MAX (events carry 20 bits, and AppMethodBeat.i/o ignore METHOD_ID_MAX
 * itself); the dispatch pseudo-method has the one below it. */
#define MM_ID_MAX 0xFFFFFu
#define MM_ID_DISPATCH 0xFFFFEu
#define MM_DISPATCH_LINE "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V"
#define MM_IGNORE_HEADER "ignore methods:"

typedef struct mm_line {
	uint32_t id;
	uint32_t access;
	const char *key; /* "class method desc", borrowed from the line */
	size_t key_len;
} mm_line;

/* The length of line s[0..n) (without its "\n") once trailing spaces and '\r' are
 * dropped; 0 for a line that holds no entry (blank, or a '#' comment). */
size_t mm_line_len(const char *s, size_t n);
/* Reads one entry line (as mm_line_len left it). Returns 0, or -1 with why (cap bytes)
 * saying what is wrong, for the caller to put after its file and line. */
int mm_parse_line(mm_line *out, const char *s, size_t n, char *why, size_t cap);

/* The block list's rule for one method (tc-trace hot writes it, tc-instrument
 * --blocklist reads it through rules/): "-keepmethod KEY". */
#define MM_KEEPMETHOD "-keepmethod"

/* Reads a method named as a user writes it, "a.b.C name (desc)" with '/' or '.' in
 * the class and the descriptor and blanks between the three fields, and writes the
 * mapping's key for it to out (dotted, one space apart; at most n bytes, plus a NUL:
 * out holds n + 1). Returns the key's length, or 0 when s is not of that form. */
size_t mm_parse_key(const char *s, size_t n, char *out);
/* Appends "-keepmethod KEY\n". */
void mm_put_keepmethod(tc_buf *b, const char *key, size_t key_len);

/* Appends "id,access,cls rest\n" (rest: "method desc"). */
void mm_put_entry(tc_buf *b, uint32_t id, uint32_t access, const char *cls, size_t cls_len,
                  const char *rest, size_t rest_len);
/* Appends "cls rest\n", a line of ignoreMethodMapping.txt. */
void mm_put_ignored(tc_buf *b, const char *cls, size_t cls_len, const char *rest, size_t rest_len);

/* The build id: what binds a recording to the mapping that decodes it. tc-instrument
 * computes it from the methodMapping.txt it writes and puts it in its outputs (the
 * runtime records it in the ring and its reports); tc-trace computes it from the mapping
 * it is given and compares. It hashes the entry lines as mm_line_len leaves them
 * (comments, blank lines, trailing spaces and '\r' dropped), each followed by '\n', in
 * file order: exactly what decoding an id depends on, so a comment added by hand does
 * not change it, and any changed id, flag or name does. 64-bit FNV-1a with a final
 * mix; never 0, which means "no id" everywhere. */
typedef struct mm_build_id {
	uint64_t h;
} mm_build_id;

#define MM_BUILD_ID_HEX 17 /* 16 hex digits and a NUL */
#define MM_BUILD_ID_FILE "buildId"

void mm_build_id_init(mm_build_id *b);
/* Adds one line s[0..n) (without its '\n'); lines mm_line_len gives 0 are left out. */
void mm_build_id_line(mm_build_id *b, const char *s, size_t n);
/* Adds every line of a whole methodMapping.txt text. */
void mm_build_id_text(mm_build_id *b, const char *s, size_t n);
uint64_t mm_build_id_final(const mm_build_id *b);
/* 16 lowercase hex digits. */
void mm_build_id_hex(uint64_t id, char out[MM_BUILD_ID_HEX]);
/* Reads 1 to 16 hex digits (any case, nothing else); 0 on success. */
int mm_build_id_parse(const char *s, size_t n, uint64_t *out);

#endif

/* Shared helpers of the class-file unit tests: parse, find, write, re-read, and hand
 * edited classes to HotSpot (see tc_emit). */
#ifndef TC_TEST_HELPERS_H
#define TC_TEST_HELPERS_H

#include <criterion/criterion.h>

#include "builder.h"
#include "classfile.h"
#include "code.h"
#include "smt.h"

/* A parsed class that owns its input bytes and arena. */
typedef struct tcls {
	arena a;
	uint8_t *bytes;
	size_t len;
	cf_class cls;
	tc_error err;
	int rc;
} tcls;

/* Parses bytes (taking ownership). Returns the status; t->err holds the error. */
int tc_parse(tcls *t, uint8_t *bytes, size_t len);
/* bld_finish + tc_parse + bld_free; the parse must succeed. */
void tc_build(tcls *t, bld *b);
void tc_drop(tcls *t);

/* The first method named `name`, or matching `name(desc)` when it has a '('. */
cf_member *tc_method(tcls *t, const char *name);
/* Writes the class (must succeed); the caller frees. */
uint8_t *tc_write(tcls *t, size_t *len);
/* Writes t and parses the result into out (must succeed). */
void tc_reparse(tcls *t, tcls *out);

/* Opens the editor on method `name` with a fresh scratch arena kept in t. */
code_editor *tc_open(tcls *t, arena *scratch, const char *name);

/* Decoded frames of a method of a class (the scratch arena holds them). */
uint32_t tc_frames(tcls *t, arena *scratch, const char *name, smt_frame **frames);

/* The body of the Code attribute of `name`, decoded. */
cf_code tc_code(tcls *t, const char *name);
/* A nested attribute of the Code of `name`, or NULL. */
const cf_attr *tc_code_attr(tcls *t, const char *name, const char *attr);

/* When TC_VERIFY_OUT names a directory, writes the class there as NAME.class (NAME is
 * the class's own name) for HotSpot to verify (suite corpus, editor-verify). */
void tc_emit(tcls *t);

/* Reads a file into memory (NULL when it cannot); the caller frees. */
uint8_t *tc_read_file(const char *path, size_t *len);

#define expect_ok(rc, err)                                                                 \
	cr_assert_eq((rc), TC_OK, "expected success, got %d: %s (part %s, offset %u)", (rc), \
	             (err).message, (err).part, (err).offset)

#define expect_err(rc, err, code_, part_, off_)                                                 \
	do {                                                                                        \
		cr_assert_eq((rc), (code_), "status %d, want %d (%s; part '%s' offset %u)", (rc),   \
		             (code_), (err).message, (err).part, (err).offset);                         \
		cr_assert_eq((err).code, (code_));                                                  \
		cr_assert_str_eq((err).part, (part_), "part '%s', want '%s' (%s)", (err).part, \
		                 (part_), (err).message);                                               \
		cr_assert_eq((err).offset, (uint32_t)(off_), "offset %u, want %u (%s)",             \
		             (err).offset, (uint32_t)(off_), (err).message);                            \
	} while (0)

#endif

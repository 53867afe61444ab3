#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tc_parse(tcls *t, uint8_t *bytes, size_t len)
{
	memset(t, 0, sizeof *t);
	arena_init(&t->a);
	t->bytes = bytes;
	t->len = len;
	tc_error_clear(&t->err);
	t->rc = cf_parse(&t->cls, &t->a, bytes, len, &t->err);
	return t->rc;
}

void tc_build(tcls *t, bld *b)
{
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	bld_free(b);
	int rc = tc_parse(t, bytes, len);
	cr_assert_eq(rc, TC_OK, "built class does not parse: %s (%s at %u)", t->err.message, t->err.part,
	             t->err.offset);
}

void tc_drop(tcls *t)
{
	arena_free(&t->a);
	free(t->bytes);
	memset(t, 0, sizeof *t);
}

cf_member *tc_method(tcls *t, const char *name)
{
	bool with_desc = strchr(name, '(') != NULL;
	for (uint32_t i = 0; i < t->cls.nmethods; i++) {
		const cf_member *m = &t->cls.methods[i];
		if (with_desc) {
			uint32_t nl, dl;
			const uint8_t *n = cp_utf8(&t->cls.cp, m->name, &nl);
			const uint8_t *d = cp_utf8(&t->cls.cp, m->desc, &dl);
			if (n && d && strlen(name) == nl + dl && !memcmp(name, n, nl) &&
			    !memcmp(name + nl, d, dl))
				return &t->cls.methods[i];
		} else if (cp_utf8_eq(&t->cls.cp, m->name, name)) {
			return &t->cls.methods[i];
		}
	}
	cr_assert_fail("no method %s", name);
	return NULL;
}

uint8_t *tc_write(tcls *t, size_t *len)
{
	tc_buf out;
	buf_init(&out);
	tc_error err;
	tc_error_clear(&err);
	int rc = cf_write(&t->cls, &out, &err);
	cr_assert_eq(rc, TC_OK, "write failed: %s", err.message);
	return buf_take(&out, len);
}

void tc_reparse(tcls *t, tcls *out)
{
	size_t len;
	uint8_t *bytes = tc_write(t, &len);
	int rc = tc_parse(out, bytes, len);
	cr_assert_eq(rc, TC_OK, "written class does not parse: %s (%s at %u)", out->err.message,
	             out->err.part, out->err.offset);
}

code_editor *tc_open(tcls *t, arena *scratch, const char *name)
{
	code_editor *ed = NULL;
	tc_error_clear(&t->err);
	int rc = code_open(&ed, &t->cls, tc_method(t, name), scratch, &t->err);
	cr_assert_eq(rc, TC_OK, "code_open(%s): %s (%s at %u)", name, t->err.message, t->err.part,
	             t->err.offset);
	return ed;
}

uint32_t tc_frames(tcls *t, arena *scratch, const char *name, smt_frame **frames)
{
	cf_member *m = tc_method(t, name);
	cf_code c = tc_code(t, name);
	const cf_attr *at = tc_code_attr(t, name, "StackMapTable");
	cr_assert_not_null(at, "%s has no StackMapTable", name);
	smt_vtype *init;
	uint16_t ninit;
	uint32_t n = 0;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(smt_initial(&t->cls, m, scratch, &init, &ninit, &err), TC_OK);
	int rc = smt_decode(&t->cls, at, c.len, init, ninit, scratch, frames, &n, &err);
	cr_assert_eq(rc, TC_OK, "frames of %s: %s", name, err.message);
	return n;
}

cf_code tc_code(tcls *t, const char *name)
{
	cf_member *m = tc_method(t, name);
	cf_attr *ca = cf_method_code(&t->cls, m);
	cr_assert_not_null(ca);
	cf_code c;
	tc_error err;
	tc_error_clear(&err);
	int rc = cf_code_parse(&t->cls, ca, &c, &err);
	cr_assert_eq(rc, TC_OK, "Code of %s: %s", name, err.message);
	return c;
}

const cf_attr *tc_code_attr(tcls *t, const char *name, const char *attr)
{
	cf_code c = tc_code(t, name);
	return cf_find_attr(&t->cls, c.attrs, c.nattrs, attr);
}

void tc_emit(tcls *t)
{
	const char *dir = getenv("TC_VERIFY_OUT");
	if (!dir || !*dir)
		return;
	uint32_t nl;
	const uint8_t *n = cf_class_name(&t->cls, &nl);
	cr_assert_not_null(n);
	char path[1024];
	snprintf(path, sizeof path, "%s/%.*s.class", dir, (int)nl, (const char *)n);
	size_t len;
	uint8_t *bytes = tc_write(t, &len);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "cannot write %s", path);
	cr_assert_eq(fwrite(bytes, 1, len, f), len);
	fclose(f);
	free(bytes);
}

uint8_t *tc_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, got;
	uint8_t *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *p = realloc(buf, cap * 2);
			if (!p) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = p;
			cap *= 2;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

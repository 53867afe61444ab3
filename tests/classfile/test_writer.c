/* The writer (unedited classes come back byte for byte), constant-pool find-or-add,
 * the 65535-entry limit, adding methods and attributes, and the error record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static bld *rich(void)
{
	bld *b = bld_new(61, 0);
	uint16_t mr = bld_methodref(b, "p/C", "m", "(J)V");
	bld_methodhandle(b, 6, mr);
	bld_long(b, -1);
	bld_double_bits(b, 0x7ff8000000000000ull);
	bld_float_bits(b, 0x7fc00000u);
	bld_dynamic(b, 0, "d", "Ljava/lang/Object;");
	bld_indy(b, 0, "run", "()V");
	bld_module(b, "m");
	bld_package(b, "p");
	bld_methodtype(b, "()V");
	bld_access(b, ACC_PUBLIC | ACC_FINAL | ACC_SUPER);
	bld_interface(b, bld_class(b, "java/io/Serializable"));
	bld_interface(b, bld_class(b, "java/lang/Cloneable"));
	bld_field(b, ACC_PRIVATE | ACC_STATIC, "a", "J");
	bld_field(b, ACC_PUBLIC, "b", "[Ljava/lang/String;");
	bld_default_init(b);
	bld_method *m = bld_method_code(b, ACC_STATIC, "f", "(I)I", 1, 1, BYTES(OP_ILOAD_0, OP_IRETURN));
	bld_code_attr(m, "LineNumberTable", BYTES(0, 1, 0, 0, 0, 3));
	bld_code_attr(m, "Vendor", BYTES(9, 9, 9));
	bld_method_attr(m, "Signature", BYTES(U2(1)));
	bld_method_attr(m, "Empty", NULL, 0);
	bld_method_nocode(b, ACC_ABSTRACT | ACC_PUBLIC, "g", "()V");
	bld_class_attr(b, "SourceFile", BYTES(U2(1)));
	bld_class_attr(b, "Whatever", BYTES(1, 2, 3, 4, 5));
	return b;
}

Test(writer, unedited_is_identical)
{
	tcls t;
	tc_build(&t, rich());
	cr_assert_eq(t.cls.ninterfaces, 2);
	cr_assert_eq(t.cls.nfields, 2);
	cr_assert_eq(t.cls.nmethods, 3);
	cr_assert_eq(t.cls.nattrs, 2);
	size_t n;
	uint8_t *out = tc_write(&t, &n);
	cr_assert(n == t.len && !memcmp(out, t.bytes, n));
	free(out);
	/* cf_write appends to what the buffer holds */
	tc_buf buf;
	buf_init(&buf);
	buf_bytes(&buf, "xyz", 3);
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(cf_write(&t.cls, &buf, &err), TC_OK);
	cr_assert(buf.len == t.len + 3 && !memcmp(buf.data, "xyz", 3) && !memcmp(buf.data + 3, t.bytes, t.len));
	buf_free(&buf);
	tc_drop(&t);
}

/* --- find-or-add --------------------------------------------------------------------------- */

Test(cp, find_returns_existing_entries)
{
	/* A pool without duplicates, as compilers write them (find-or-add compares
	 * structured entries by the indices they hold), plus one duplicate Utf8. */
	bld *b = bld_new(52, 0);
	uint16_t u = bld_utf8(b, "hello");
	uint16_t cu = bld_utf8(b, "p/C");
	uint16_t c = bld_cp_raw(b, BYTES(CP_CLASS, U2(cu)), 1);
	uint16_t su = bld_utf8(b, "str");
	uint16_t s = bld_cp_raw(b, BYTES(CP_STRING, U2(su)), 1);
	uint16_t un = bld_utf8(b, "n"), uv = bld_utf8(b, "()V"), um = bld_utf8(b, "m");
	uint16_t nt = bld_cp_raw(b, BYTES(CP_NAMETYPE, U2(un), U2(uv)), 1);
	uint16_t ntm = bld_cp_raw(b, BYTES(CP_NAMETYPE, U2(um), U2(uv)), 1);
	uint16_t mr = bld_cp_raw(b, BYTES(CP_METHODREF, U2(c), U2(ntm)), 1);
	uint16_t ciu = bld_utf8(b, "p/I");
	uint16_t ci = bld_cp_raw(b, BYTES(CP_CLASS, U2(ciu)), 1);
	uint16_t imr = bld_cp_raw(b, BYTES(CP_IMETHODREF, U2(ci), U2(ntm)), 1);
	uint16_t uf = bld_utf8(b, "f"), ui = bld_utf8(b, "I");
	uint16_t ntf = bld_cp_raw(b, BYTES(CP_NAMETYPE, U2(uf), U2(ui)), 1);
	uint16_t fr = bld_cp_raw(b, BYTES(CP_FIELDREF, U2(c), U2(ntf)), 1);
	uint16_t i = bld_int(b, -7);
	uint16_t dup = bld_utf8(b, "hello"); /* a duplicate: the lowest index wins */
	bld_default_init(b);
	tcls t;
	tc_build(&t, b);
	tc_error err;
	tc_error_clear(&err);
	cp_pool *cp = &t.cls.cp;
	uint32_t count = cp->count;
	cr_assert_neq(dup, u);
	cr_assert_eq(cp_add_utf8(cp, "hello", 5, &err), u);
	cr_assert_eq(cp_add_utf8(cp, "p/C", 3, &err), cu);
	cr_assert_eq(cp_add_class(cp, "p/C", 3, &err), c);
	cr_assert_eq(cp_add_string(cp, "str", 3, &err), s);
	cr_assert_eq(cp_add_nametype(cp, "n", "()V", &err), nt);
	cr_assert_eq(cp_add_methodref(cp, "p/C", "m", "()V", false, &err), mr);
	cr_assert_eq(cp_add_methodref(cp, "p/I", "m", "()V", true, &err), imr);
	cr_assert_eq(cp_add_fieldref(cp, "p/C", "f", "I", &err), fr);
	cr_assert_eq(cp_add_integer(cp, -7, &err), i);
	cr_assert_eq(err.code, TC_OK);
	cr_assert_eq(cp->count, count, "nothing added");
	size_t n;
	uint8_t *out = tc_write(&t, &n);
	cr_assert(n == t.len && !memcmp(out, t.bytes, n), "the pool is written unchanged");
	free(out);
	tc_drop(&t);
}

Test(cp, add_appends_new_entries)
{
	bld *b = bld_new(52, 0);
	uint16_t c = bld_class(b, "p/C");
	bld_long(b, 5); /* two slots: added entries must not land in the second */
	uint16_t f = bld_float_bits(b, 0x3f800000u);
	uint16_t str = bld_string(b, "q/D");
	bld_methodref(b, "p/C", "m", "()V");
	bld_default_init(b);
	tcls t;
	tc_build(&t, b);
	tc_error err;
	tc_error_clear(&err);
	cp_pool *cp = &t.cls.cp;
	uint16_t count = (uint16_t)cp->count;
	/* a Class of a name that exists as a String's Utf8: only the Class is new */
	uint16_t qd = cp_add_class(cp, "q/D", 3, &err);
	cr_assert_eq(qd, count);
	cr_assert_eq(cp->e[qd].a, cp->e[str].a, "the Utf8 is shared");
	/* an Integer with the Float's bits is a different constant */
	uint16_t ii = cp_add_integer(cp, 0x3f800000, &err);
	cr_assert_eq(ii, count + 1);
	cr_assert_neq(ii, f);
	/* a new method on an existing class: Utf8 name, Utf8 desc, NameAndType, Methodref */
	uint16_t m2 = cp_add_methodref(cp, "p/C", "m2", "(I)V", false, &err);
	cr_assert_eq(m2, count + 5);
	cr_assert_eq(cp->e[m2].a, c);
	/* the same name and type as an interface method is a new InterfaceMethodref */
	uint16_t im = cp_add_methodref(cp, "p/C", "m2", "(I)V", true, &err);
	cr_assert_eq(im, count + 6);
	cr_assert_eq(cp_tag(cp, im), CP_IMETHODREF);
	cr_assert_eq(cp->e[im].b, cp->e[m2].b);
	uint16_t fr = cp_add_fieldref(cp, "r/E", "x", "J", &err);
	cr_assert_eq(cp_tag(cp, fr), CP_FIELDREF);
	uint16_t s2 = cp_add_string(cp, "", 0, &err);
	cr_assert_eq(cp_tag(cp, s2), CP_STRING);
	uint16_t nul = cp_add_utf8(cp, "a\0b", 3, &err);
	cr_assert_eq(cp_add_utf8(cp, "a\0b", 3, &err), nul, "found again, NUL and all");
	cr_assert_neq(cp_add_utf8(cp, "a", 1, &err), nul);
	cr_assert_eq(err.code, TC_OK);
	/* written and read back: every added entry is there */
	tcls u;
	tc_reparse(&t, &u);
	cp_ref ref;
	cr_assert(cp_member_ref(&u.cls.cp, m2, &ref));
	cr_assert(ref.cls_len == 3 && !memcmp(ref.cls, "p/C", 3) && ref.name_len == 2 && ref.desc_len == 4);
	cr_assert(cp_member_ref(&u.cls.cp, fr, &ref) && ref.desc[0] == 'J');
	cr_assert_eq(cp_tag(&u.cls.cp, ii), CP_INTEGER);
	cr_assert_eq(u.cls.cp.e[ii].v.u4, 0x3f800000u);
	uint32_t len;
	const uint8_t *p = cp_utf8(&u.cls.cp, nul, &len);
	cr_assert(len == 3 && !memcmp(p, "a\0b", 3));
	cr_assert_eq(u.cls.cp.count, t.cls.cp.count);
	cr_assert_eq(u.cls.cp.orig_count, t.cls.cp.count);
	cr_assert_eq(t.cls.cp.orig_count, count);
	tc_drop(&u);
	tc_drop(&t);
}

Test(cp, utf8_longer_than_65535)
{
	tcls t;
	bld *b = bld_new(52, 0);
	bld_default_init(b);
	tc_build(&t, b);
	static char big[70000];
	memset(big, 'x', sizeof big);
	tc_error err;
	tc_error_clear(&err);
	uint32_t count = t.cls.cp.count;
	cr_assert_eq(cp_add_utf8(&t.cls.cp, big, 65536, &err), 0);
	cr_assert_eq(err.code, TC_ELIMIT);
	cr_assert_eq(t.cls.cp.count, count);
	tc_error_clear(&err);
	cr_assert_neq(cp_add_utf8(&t.cls.cp, big, 65535, &err), 0);
	tcls u;
	tc_reparse(&t, &u);
	tc_drop(&u);
	tc_drop(&t);
}

/* A pool of `count` entries: the class's own, then Integers from 1000000 on, the first
 * at the index returned. */
static uint16_t full_pool(tcls *t, uint32_t count, const char *name)
{
	bld *b = bld_new(52, 0);
	bld_this(b, bld_class(b, name));
	bld_super(b, bld_class(b, "java/lang/Object"));
	bld_code_name(b);
	bld_default_init(b);
	uint16_t g = bld_methodref(b, name, "g", "()V");
	uint16_t sm = bld_utf8(b, "StackMapTable");
	(void)sm;
	/* 0 iload_0 1 ifeq ->5 4 nop 5 invokestatic g 8 return; a frame at 5 */
	bld_method *m = bld_method_code(b, ACC_STATIC, "f", "(I)V", 1, 1,
	                                BYTES(OP_ILOAD_0, OP_IFEQ, U2(4), OP_NOP, OP_INVOKESTATIC, U2(g), OP_RETURN));
	bld_code_attr(m, "StackMapTable", BYTES(0, 1, 5));
	bld_method_code(b, ACC_STATIC, "g", "()V", 0, 0, BYTES(OP_RETURN));
	int32_t v = 1000000;
	uint16_t first = bld_cp_next(b);
	while (bld_cp_next(b) < count)
		bld_int(b, v++);
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	bld_free(b);
	cr_assert_eq(tc_parse(t, bytes, len), TC_OK, "%s", t->err.message);
	cr_assert_eq(t->cls.cp.count, count);
	return first;
}

Test(cp, full_pool_refuses_with_elimit)
{
	tcls t;
	uint16_t first = full_pool(&t, 65535, "Full");
	cp_pool *cp = &t.cls.cp;
	cr_assert_eq(cp_free_slots(cp), 0);
	tc_error err;
	tc_error_clear(&err);
	/* finding still works */
	uint16_t code = cp_add_utf8(cp, "Code", 4, &err);
	cr_assert(code > 0 && cp_tag(cp, code) == CP_UTF8);
	cr_assert_eq(cp_add_integer(cp, 1000000, &err), first);
	cr_assert_eq(cp_add_integer(cp, 1000001, &err), first + 1);
	cr_assert_eq(err.code, TC_OK);
	/* adding does not */
	cr_assert_eq(cp_add_integer(cp, -1, &err), 0);
	cr_assert_eq(err.code, TC_ELIMIT);
	tc_error_clear(&err);
	cr_assert_eq(cp_add_methodref(cp, "x/Y", "m", "()V", false, &err), 0);
	cr_assert_eq(err.code, TC_ELIMIT);
	cr_assert_eq(cp->count, 65535);
	tcls u;
	tc_reparse(&t, &u);
	cr_assert_eq(u.cls.cp.count, 65535);
	tc_drop(&u);
	tc_drop(&t);
}

/* With 3 free slots a Methodref needing 6 entries stops half way: the entries added
 * stay, unused, and the class is still valid. */
Test(cp, nearly_full_pool_stays_valid)
{
	tcls t;
	full_pool(&t, 65532, "Nearly");
	cp_pool *cp = &t.cls.cp;
	cr_assert_eq(cp_free_slots(cp), 3);
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(cp_add_methodref(cp, "x/Y", "m", "()V", false, &err), 0);
	cr_assert_eq(err.code, TC_ELIMIT);
	cr_assert_eq(cp->count, 65535);
	tcls u;
	tc_reparse(&t, &u);
	cr_assert_eq(u.cls.cp.count, 65535);
	tc_drop(&u);
	tc_drop(&t);
}

/* An edit whose StackMapTable needs a new Class entry fails on a full pool with
 * TC_ELIMIT and leaves the method as it was. */
Test(cp, full_pool_edit_refused_method_untouched)
{
	tcls t;
	full_pool(&t, 65535, "FullEdit");
	arena s;
	arena_init(&s);
	code_editor *ed = tc_open(&t, &s, "f");
	cf_attr *ca = cf_method_code(&t.cls, tc_method(&t, "f"));
	const uint8_t *data = ca->data;
	uint32_t len = ca->len;
	tc_error err;
	tc_error_clear(&err);
	/* the handler's frame names java/lang/Throwable, which is not in the pool */
	expect_ok(code_add_handler(ed, 0, code_ninsns(ed), 0, BYTES(OP_ATHROW), &err), err);
	int rc = code_commit(ed, &err);
	cr_assert_eq(rc, TC_ELIMIT, "%d %s", rc, err.message);
	cr_assert(ca->data == data && ca->len == len);
	/* insertions alone need no entry and succeed */
	arena_reset(&s);
	ed = tc_open(&t, &s, "f");
	tc_error_clear(&err);
	expect_ok(code_insert(ed, 0, CODE_FALLTHROUGH, BYTES(OP_NOP), &err), err);
	expect_ok(code_commit(ed, &err), err);
	/* a method without a StackMapTable that needs one for its handler also needs
	 * the attribute name: "g" has no branches */
	arena_reset(&s);
	ed = tc_open(&t, &s, "g");
	tc_error_clear(&err);
	cf_attr *ga = cf_method_code(&t.cls, tc_method(&t, "g"));
	data = ga->data;
	expect_ok(code_add_handler(ed, 0, 1, 0, BYTES(OP_ATHROW), &err), err);
	rc = code_commit(ed, &err);
	cr_assert_eq(rc, TC_ELIMIT, "%d %s", rc, err.message);
	cr_assert(ga->data == data);
	tcls u;
	tc_reparse(&t, &u);
	cr_assert_eq(tc_code(&u, "f").code[0], OP_NOP);
	tc_drop(&u);
	arena_free(&s);
	tc_drop(&t);
}

/* --- members and attributes ------------------------------------------------------------------ */

Test(writer, add_method_and_attributes)
{
	tcls t;
	tc_build(&t, rich());
	tc_error err;
	tc_error_clear(&err);
	cf_member m = {.access = ACC_PUBLIC | ACC_STATIC};
	m.name = cp_add_utf8(&t.cls.cp, "added", 5, &err);
	m.desc = cp_add_utf8(&t.cls.cp, "()V", 3, &err);
	expect_ok(cf_add_method(&t.cls, &m, &err), err);
	cf_member *am = &t.cls.methods[t.cls.nmethods - 1];
	uint8_t *code = arena_dup(&t.a, (uint8_t[]){0, 0, 0, 0, U4(1), OP_RETURN, 0, 0, 0, 0}, 13);
	expect_ok(cf_set_attr(&t.cls, &am->attrs, &am->nattrs, NULL, "Code", code, 13, &err), err);
	uint8_t *sf = arena_dup(&t.a, (uint8_t[]){U2(1)}, 2);
	cf_attr *old = cf_find_attr(&t.cls, t.cls.attrs, t.cls.nattrs, "SourceFile");
	cr_assert_not_null(old);
	uint8_t *nsf = arena_dup(&t.a, (uint8_t[]){U2(2)}, 2);
	expect_ok(cf_set_attr(&t.cls, &t.cls.attrs, &t.cls.nattrs, old, "SourceFile", nsf, 2, &err), err);
	expect_ok(cf_set_attr(&t.cls, &t.cls.attrs, &t.cls.nattrs, NULL, "NewOne", sf, 2, &err), err);
	tcls u;
	tc_reparse(&t, &u);
	cr_assert_eq(u.cls.nmethods, 4);
	cf_code c = tc_code(&u, "added");
	cr_assert(c.len == 1 && c.code[0] == OP_RETURN);
	cr_assert_eq(u.cls.nattrs, 3);
	cf_attr *a = cf_find_attr(&u.cls, u.cls.attrs, u.cls.nattrs, "SourceFile");
	cr_assert(a && a->len == 2 && get_u2(a->data) == 2);
	a = cf_find_attr(&u.cls, u.cls.attrs, u.cls.nattrs, "NewOne");
	cr_assert(a && a->len == 2 && get_u2(a->data) == 1);
	cr_assert_null(cf_find_attr(&u.cls, u.cls.attrs, u.cls.nattrs, "Missing"));
	uint32_t nl;
	const uint8_t *nm = cf_class_name(&u.cls, &nl);
	cr_assert(nl == 1 && nm[0] == 'T');
	char label[64];
	cf_member_label(&u.cls, &u.cls.methods[3], label, sizeof label);
	cr_assert_str_eq(label, "added()V");
	tc_drop(&u);
	tc_drop(&t);
}

/* --- errors ------------------------------------------------------------------------------ */

Test(errors, first_error_wins_and_context_fills_blanks)
{
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(err.offset, TC_NO_OFFSET);
	cr_assert_eq(tc_fail(&err, TC_ETRUNC, 12, "constant pool #3", "needs %d more bytes", 2), TC_ETRUNC);
	cr_assert_eq(tc_fail(&err, TC_EFORMAT, 99, "other", "later"), TC_EFORMAT, "returns its code");
	cr_assert_eq(err.code, TC_ETRUNC);
	cr_assert_eq(err.offset, 12);
	cr_assert_str_eq(err.part, "constant pool #3");
	cr_assert_str_eq(err.message, "needs 2 more bytes");
	tc_error_context(&err, "a.jar!p/C.class", "p/C", NULL);
	tc_error_context(&err, "other.jar", "q/D", "m()V");
	cr_assert_str_eq(err.file, "a.jar!p/C.class");
	cr_assert_str_eq(err.cls, "p/C");
	cr_assert_str_eq(err.member, "m()V");
	char buf[512];
	tc_error_format(&err, buf, sizeof buf);
	cr_assert_str_eq(buf, "a.jar!p/C.class: class p/C: m()V: constant pool #3 at offset 12: needs 2 more bytes");
	/* truncated output stays terminated */
	char small[10];
	size_t n = tc_error_format(&err, small, sizeof small);
	cr_assert_eq(n, 9);
	cr_assert_eq(small[9], '\0');
	cr_assert_eq(tc_fail(NULL, TC_ENOMEM, 0, "x", "y"), TC_ENOMEM, "no record: code only");
}

Test(errors, format_without_parts)
{
	tc_error err;
	tc_error_clear(&err);
	tc_fail(&err, TC_ENOMEM, TC_NO_OFFSET, "", "%s", "");
	char buf[128];
	tc_error_format(&err, buf, sizeof buf);
	cr_assert_str_eq(buf, "out of memory");
	tc_error_clear(&err);
	tc_fail(&err, TC_EIO, 7, "", "cannot read");
	tc_error_format(&err, buf, sizeof buf);
	cr_assert_str_eq(buf, "at offset 7: cannot read");
}

Test(errors, strerror_names_every_code)
{
	int codes[] = {TC_OK, TC_ETRUNC, TC_EFORMAT, TC_EVERSION, TC_EOPCODE, TC_EBRANCH, TC_ELIMIT,
	               TC_EUNSUPPORTED, TC_ENOMEM, TC_EIO, TC_EARG};
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		const char *s = tc_strerror(codes[i]);
		cr_assert(s && *s && strcmp(s, "unknown error") != 0, "code %d", codes[i]);
		for (size_t k = 0; k < i; k++)
			cr_assert_str_neq(s, tc_strerror(codes[k]));
	}
	cr_assert_str_eq(tc_strerror(-99), "unknown error");
}

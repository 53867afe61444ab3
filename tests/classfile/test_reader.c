/* The reader: constant pool tags, versions, the pre-45.3 Code format, and for each kind
 * of malformed input the exact error code, part and byte offset. Offsets are computed
 * from the builder's own layout record and the JVMS structure sizes, never taken from
 * the library under test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* A small valid class: public class T { public T() { super(); } } at the given version. */
static bld *base(uint16_t major)
{
	bld *b = bld_new(major, 0);
	bld_default_init(b);
	return b;
}

static int parse_bytes(const uint8_t *p, size_t len, tc_error *err, arena *a, cf_class *cls)
{
	tc_error_clear(err);
	return cf_parse(cls, a, p, len, err);
}

/* --- constant pool ------------------------------------------------------------------ */

Test(reader, every_constant_pool_tag)
{
	bld *b = bld_new(61, 0);
	uint16_t u = bld_utf8(b, "hello");
	uint16_t i = bld_int(b, -5);
	uint16_t f = bld_float_bits(b, 0x3f800000u);
	uint16_t l = bld_long(b, (int64_t)0x123456789abcdef0ll);
	uint16_t d = bld_double_bits(b, 0x400921fb54442d18ull);
	uint16_t after = bld_int(b, 7);
	uint16_t c = bld_class(b, "p/C");
	uint16_t s = bld_string(b, "str");
	uint16_t fr = bld_fieldref(b, "p/C", "f", "I");
	uint16_t mr = bld_methodref(b, "p/C", "m", "(J)V");
	uint16_t imr = bld_imethodref(b, "p/I", "im", "()I");
	uint16_t nt = bld_nametype(b, "x", "Ljava/lang/String;");
	uint16_t mh = bld_methodhandle(b, 6, mr);
	uint16_t mhf = bld_methodhandle(b, 1, fr);
	uint16_t mhi = bld_methodhandle(b, 9, imr);
	uint16_t mt = bld_methodtype(b, "()V");
	uint16_t dyn = bld_dynamic(b, 0, "d", "I");
	uint16_t indy = bld_indy(b, 1, "run", "()Ljava/lang/Runnable;");
	uint16_t mod = bld_module(b, "m.x");
	uint16_t pkg = bld_package(b, "p/q");
	cr_assert_eq(d, l + 2, "a long takes two indices");
	cr_assert_eq(after, d + 2, "a double takes two indices");
	tcls t;
	tc_build(&t, b);
	const cp_pool *cp = &t.cls.cp;

	cr_assert_eq(cp_tag(cp, u), CP_UTF8);
	uint32_t len;
	const uint8_t *p = cp_utf8(cp, u, &len);
	cr_assert(len == 5 && memcmp(p, "hello", 5) == 0);
	cr_assert_eq(cp_tag(cp, i), CP_INTEGER);
	cr_assert_eq((int32_t)cp->e[i].v.u4, -5);
	cr_assert_eq(cp_tag(cp, f), CP_FLOAT);
	cr_assert_eq(cp->e[f].v.u4, 0x3f800000u);
	cr_assert_eq(cp_tag(cp, l), CP_LONG);
	cr_assert_eq(cp->e[l].v.u8, 0x123456789abcdef0ull);
	cr_assert_eq(cp_tag(cp, l + 1), 0, "the slot after a Long is unusable");
	cr_assert_eq(cp_tag(cp, d), CP_DOUBLE);
	cr_assert_eq(cp->e[d].v.u8, 0x400921fb54442d18ull);
	cr_assert_eq(cp_tag(cp, d + 1), 0);
	cr_assert_eq(cp_tag(cp, after), CP_INTEGER);
	cr_assert_eq(cp->e[after].v.u4, 7u);
	cr_assert_eq(cp_tag(cp, c), CP_CLASS);
	p = cp_class_name(cp, c, &len);
	cr_assert(len == 3 && memcmp(p, "p/C", 3) == 0);
	cr_assert_null(cp_class_name(cp, u, &len), "a Utf8 is no Class");
	cr_assert_eq(cp_tag(cp, s), CP_STRING);
	cr_assert(cp_utf8_eq(cp, cp->e[s].a, "str"));

	cp_ref ref;
	cr_assert(cp_member_ref(cp, fr, &ref));
	cr_assert(ref.cls_len == 3 && !memcmp(ref.cls, "p/C", 3));
	cr_assert(ref.name_len == 1 && ref.name[0] == 'f' && ref.desc_len == 1 && ref.desc[0] == 'I');
	cr_assert_eq(cp_tag(cp, fr), CP_FIELDREF);
	cr_assert(cp_member_ref(cp, mr, &ref) && cp_tag(cp, mr) == CP_METHODREF);
	cr_assert(ref.desc_len == 4 && !memcmp(ref.desc, "(J)V", 4));
	cr_assert(cp_member_ref(cp, imr, &ref) && cp_tag(cp, imr) == CP_IMETHODREF);
	cr_assert(ref.cls_len == 3 && !memcmp(ref.cls, "p/I", 3));
	cr_assert_not(cp_member_ref(cp, nt, &ref), "a NameAndType is no member reference");
	cr_assert_eq(cp_tag(cp, nt), CP_NAMETYPE);
	cr_assert(cp_utf8_eq(cp, cp->e[nt].a, "x") && cp_utf8_eq(cp, cp->e[nt].b, "Ljava/lang/String;"));

	cr_assert_eq(cp_tag(cp, mh), CP_METHODHANDLE);
	cr_assert(cp->e[mh].kind == 6 && cp->e[mh].b == mr);
	cr_assert(cp->e[mhf].kind == 1 && cp->e[mhf].b == fr);
	cr_assert(cp->e[mhi].kind == 9 && cp->e[mhi].b == imr);
	cr_assert_eq(cp_tag(cp, mt), CP_METHODTYPE);
	cr_assert(cp_utf8_eq(cp, cp->e[mt].a, "()V"));
	cr_assert_eq(cp_tag(cp, dyn), CP_DYNAMIC);
	cr_assert(cp_dynamic_ref(cp, dyn, &ref) && ref.name_len == 1 && ref.name[0] == 'd');
	cr_assert_eq(cp->e[dyn].a, 0, "bootstrap_method_attr_index");
	cr_assert_eq(cp_tag(cp, indy), CP_INVOKEDYNAMIC);
	cr_assert_eq(cp->e[indy].a, 1);
	cr_assert(cp_dynamic_ref(cp, indy, &ref) && ref.desc_len == 22);
	cr_assert_not(cp_dynamic_ref(cp, mr, &ref));
	cr_assert_eq(cp_tag(cp, mod), CP_MODULE);
	cr_assert(cp_utf8_eq(cp, cp->e[mod].a, "m.x"));
	cr_assert_eq(cp_tag(cp, pkg), CP_PACKAGE);
	cr_assert(cp_utf8_eq(cp, cp->e[pkg].a, "p/q"));

	/* Out-of-range indices are refused by every accessor. */
	cr_assert_eq(cp_tag(cp, 0), 0);
	cr_assert_eq(cp_tag(cp, cp->count), 0);
	cr_assert_eq(cp_tag(cp, 65535), 0);
	cr_assert_null(cp_utf8(cp, 0, &len));
	cr_assert_null(cp_utf8(cp, cp->count, &len));

	cr_assert_str_eq(cp_tag_name(CP_METHODHANDLE), "MethodHandle");
	cr_assert_str_eq(cp_tag_name(CP_PACKAGE), "Package");
	cr_assert_str_eq(cp_tag_name(2), "invalid");

	size_t n;
	uint8_t *out = tc_write(&t, &n);
	cr_assert(n == t.len && memcmp(out, t.bytes, n) == 0, "round trip of every tag");
	free(out);
	tc_drop(&t);
}

Test(reader, empty_utf8_and_modified_utf8_bytes)
{
	bld *b = bld_new(61, 0);
	uint16_t e = bld_utf8(b, "");
	/* Modified UTF-8 (JVMS 4.4.7): NUL as C0 80, a supplementary character as a
	 * surrogate pair; bytes are kept as they are. */
	uint16_t m = bld_utf8_raw(b, "\xc0\x80\xed\xa0\xbd\xed\xb8\x80", 8);
	tcls t;
	tc_build(&t, b);
	uint32_t len = 99;
	const uint8_t *p = cp_utf8(&t.cls.cp, e, &len);
	cr_assert_not_null(p);
	cr_assert_eq(len, 0);
	p = cp_utf8(&t.cls.cp, m, &len);
	cr_assert(len == 8 && memcmp(p, "\xc0\x80\xed\xa0\xbd\xed\xb8\x80", 8) == 0);
	size_t n;
	uint8_t *out = tc_write(&t, &n);
	cr_assert(n == t.len && !memcmp(out, t.bytes, n));
	free(out);
	tc_drop(&t);
}

/* --- versions ------------------------------------------------------------------------ */

Test(reader, versions_45_to_69_accepted)
{
	for (uint16_t major = 45; major <= 69; major++) {
		uint16_t minors[] = {0, 3, 65535};
		for (int k = 0; k < 3; k++) {
			bld *b = bld_new(major, minors[k]);
			bld_default_init(b);
			size_t len;
			uint8_t *bytes = bld_finish(b, &len);
			bld_free(b);
			tcls t;
			int rc = tc_parse(&t, bytes, len);
			cr_assert_eq(rc, TC_OK, "%u.%u: %s", major, minors[k], t.err.message);
			cr_assert(t.cls.major == major && t.cls.minor == minors[k]);
			size_t n;
			uint8_t *out = tc_write(&t, &n);
			cr_assert(n == len && !memcmp(out, bytes, n), "%u.%u round trip", major, minors[k]);
			free(out);
			tc_drop(&t);
		}
	}
}

Test(reader, versions_outside_rejected)
{
	uint16_t bad[] = {0, 1, 44, 70, 71, 0xffff};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		bld *b = base(52);
		size_t len;
		uint8_t *bytes = bld_finish(b, &len);
		bld_free(b);
		bytes[6] = (uint8_t)(bad[k] >> 8);
		bytes[7] = (uint8_t)bad[k];
		tcls t;
		int rc = tc_parse(&t, bytes, len);
		expect_err(rc, t.err, TC_EVERSION, "version", 4);
		tc_drop(&t);
	}
}

/* JDK 1.0.2 class files (before 45.3) have u1 max_stack, u1 max_locals and a u2
 * code_length (HotSpot classFileParser: the "old" Code layout). */
Test(reader, pre_45_3_code_format)
{
	for (uint16_t minor = 0; minor <= 3; minor++) {
		bld *b = bld_new(45, minor);
		bld_method_code(b, ACC_STATIC, "m", "()I", 2, 3, BYTES(OP_ICONST_1, OP_ICONST_2, OP_IADD, OP_IRETURN));
		tcls t;
		tc_build(&t, b);
		cf_code c = tc_code(&t, "m");
		cr_assert_eq(c.old_format, minor < 3, "45.%u", minor);
		cr_assert_eq(c.max_stack, 2);
		cr_assert_eq(c.max_locals, 3);
		cr_assert_eq(c.len, 4);
		cr_assert_eq(c.code[3], OP_IRETURN);
		cf_attr *ca = cf_method_code(&t.cls, tc_method(&t, "m"));
		/* u1 u1 u2 code(4) u2 u2 = 12 bytes, or u2 u2 u4 code u2 u2 = 16 */
		cr_assert_eq(ca->len, minor < 3 ? 12u : 16u);
		cr_assert_eq(c.code_off, ca->off + (minor < 3 ? 4u : 8u));
		/* Rewriting the body through the editor keeps the old layout. */
		arena s;
		arena_init(&s);
		code_editor *ed = tc_open(&t, &s, "m");
		tc_error err;
		tc_error_clear(&err);
		expect_ok(code_insert(ed, 0, CODE_FALLTHROUGH, BYTES(OP_NOP), &err), err);
		expect_ok(code_commit(ed, &err), err);
		tcls u;
		tc_reparse(&t, &u);
		cf_code c2 = tc_code(&u, "m");
		cr_assert_eq(c2.old_format, minor < 3);
		cr_assert_eq(c2.len, 5);
		cr_assert_eq(c2.code[0], OP_NOP);
		cr_assert_eq(cf_method_code(&u.cls, tc_method(&u, "m"))->len, minor < 3 ? 13u : 17u);
		tc_drop(&u);
		arena_free(&s);
		tc_drop(&t);
	}
}

/* A 45.2 class whose Code uses the new layout is misread, and the reader says so
 * instead of inventing a method. */
Test(reader, pre_45_3_with_new_layout_is_an_error)
{
	bld *b = bld_new(45, 2);
	bld_method *m = bld_method_code(b, ACC_STATIC, "m", "()V", 0, 0, NULL, 0);
	/* New layout: u2 max_stack 0, u2 max_locals 0, u4 code_length 1, return */
	bld_code_raw(m, BYTES(0, 0, 0, 0, 0, 0, 0, 1, OP_RETURN, 0, 0, 0, 0));
	tcls t;
	tc_build(&t, b);
	cf_code c;
	tc_error err;
	tc_error_clear(&err);
	cf_attr *ca = cf_method_code(&t.cls, tc_method(&t, "m"));
	int rc = cf_code_parse(&t.cls, ca, &c, &err);
	/* Old layout reads max_stack 0, max_locals 0, code_length 0: not 1..65535. */
	expect_err(rc, err, TC_EFORMAT, "Code", ca->off + 2);
	tc_drop(&t);
}

/* --- truncation ------------------------------------------------------------------------ */

static bld *rich(void)
{
	bld *b = bld_new(52, 0);
	bld_long(b, 1);
	bld_field(b, ACC_PRIVATE, "x", "I");
	bld_default_init(b);
	uint16_t fr = bld_fieldref(b, "T", "x", "I");
	bld_method *m = bld_method_code(b, 0, "get", "()I", 1, 1, BYTES(OP_ALOAD_0, OP_GETFIELD, U2(fr), OP_IRETURN));
	bld_code_attr(m, "LineNumberTable", BYTES(0, 1, 0, 0, 0, 7));
	bld_method_attr(m, "Deprecated", NULL, 0);
	bld_class_attr(b, "SourceFile", BYTES(U2(1)));
	return b;
}

Test(reader, every_prefix_is_truncated)
{
	bld *b = rich();
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	bld_free(b);
	arena a;
	arena_init(&a);
	for (size_t k = 0; k < len; k++) {
		uint8_t *copy = malloc(k ? k : 1);
		memcpy(copy, bytes, k);
		cf_class cls;
		tc_error err;
		arena_reset(&a);
		int rc = parse_bytes(copy, k, &err, &a, &cls);
		cr_assert_eq(rc, TC_ETRUNC, "prefix %zu: %d %s", k, rc, err.message);
		cr_assert_eq(err.code, TC_ETRUNC);
		/* The offset is where the structure that does not fit starts: inside the
		 * prefix, at most 4 bytes before its end unless a declared length (Utf8
		 * bytes, an attribute body) reaches past it. */
		cr_assert_leq(err.offset, k, "prefix %zu: offset %u", k, err.offset);
		cr_assert_neq(err.part[0], '\0');
		free(copy);
	}
	tcls t;
	cr_assert_eq(tc_parse(&t, bytes, len), TC_OK);
	tc_drop(&t);
	arena_free(&a);
}

struct cut {
	size_t at;          /* prefix length */
	const char *part;
	size_t off;
};

Test(reader, truncation_points)
{
	bld *b = rich();
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	const bld_layout *L = bld_last_layout(b);
	/* Entry #1 is the Long (tag, 8 bytes), #3 the first Utf8 "x": tag, u2 length 1, 'x'. */
	cr_assert_eq(L->cp_entry[1], 10);
	cr_assert_eq(L->cp_entry[3], 19);
	size_t attr0 = L->method[1] + 8; /* access, name, descriptor, attributes_count */
	struct cut cuts[] = {
		{0, "magic", 0},
		{3, "magic", 0},
		{4, "version", 4},
		{6, "version", 6},
		{9, "constant_pool_count", 8},
		{10, "constant pool #1", 10},
		{14, "constant pool #1", 11},     /* the Long's first u4 needs 4 at 11 */
		{18, "constant pool #1", 15},     /* its second u4 */
		{21, "constant pool #3", 20},     /* Utf8 length at 20 */
		{22, "constant pool #3", 22},     /* one byte of text at 22 */
		{L->header + 1, "class header", L->header},
		{L->header + 7, "class header", L->header + 6},
		{L->fields + 1, "fields", L->fields},
		{L->fields + 5, "fields[0]", L->fields + 4},
		{L->methods, "methods", L->methods},
		{L->method[1] + 3, "methods[1]", L->method[1] + 2},
		{attr0 + 5, "attribute 0 of get()I", attr0 + 2},   /* attribute_length */
		{attr0 + 10, "attribute 0 of get()I", attr0},      /* body shorter than declared */
		{L->class_attrs + 1, "attributes of the class", L->class_attrs},
		{len - 1, "attribute 0 of the class", L->class_attrs + 2},
	};
	arena a;
	arena_init(&a);
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		cf_class cls;
		tc_error err;
		arena_reset(&a);
		int rc = parse_bytes(bytes, cuts[i].at, &err, &a, &cls);
		cr_assert_eq(rc, TC_ETRUNC, "cut %zu at %zu", i, cuts[i].at);
		cr_assert_str_eq(err.part, cuts[i].part, "cut %zu at %zu: part '%s' (%s)", i, cuts[i].at,
		                 err.part, err.message);
		cr_assert_eq(err.offset, cuts[i].off, "cut %zu at %zu: offset %u, want %zu (%s)", i,
		             cuts[i].at, err.offset, cuts[i].off, err.message);
	}
	arena_free(&a);
	bld_free(b);
	free(bytes);
}

/* --- constant-pool malformations ---------------------------------------------------------- */

static void expect_parse_err(bld *b, int code, const char *part, size_t off)
{
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	bld_free(b);
	tcls t;
	int rc = tc_parse(&t, bytes, len);
	expect_err(rc, t.err, code, part, off);
	tc_drop(&t);
}

Test(reader, bad_tags)
{
	uint8_t tags[] = {0, 2, 13, 14, 21, 255};
	for (size_t k = 0; k < sizeof tags; k++) {
		bld *b = base(52);
		uint16_t u = bld_utf8(b, "ok");
		uint16_t bad = bld_cp_raw(b, BYTES(tags[k], 0, 1), 1);
		cr_assert_eq(bad, u + 1);
		size_t len;
		uint8_t *bytes = bld_finish(b, &len);
		size_t off = bld_last_layout(b)->cp_entry[bad];
		bld_free(b);
		tcls t;
		int rc = tc_parse(&t, bytes, len);
		char part[48];
		snprintf(part, sizeof part, "constant pool #%u", bad);
		expect_err(rc, t.err, TC_EFORMAT, part, off);
		cr_assert(strstr(t.err.message, "unknown tag"), "%s", t.err.message);
		tc_drop(&t);
	}
}

Test(reader, count_zero)
{
	bld *b = base(52);
	bld_cp_count(b, 0);
	expect_parse_err(b, TC_EFORMAT, "constant_pool_count", 8);
}

Test(reader, long_in_last_slot)
{
	bld *b = base(52);
	bld_this_index(b);
	bld_super(b, bld_class(b, "java/lang/Object"));
	bld_utf8(b, "Code");
	/* The Long is the last entry and the count says it has a single slot. */
	uint16_t l = bld_long(b, 5);
	bld_cp_count(b, l + 1u);
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	size_t off = bld_last_layout(b)->cp_entry[l];
	bld_free(b);
	tcls t;
	int rc = tc_parse(&t, bytes, len);
	char part[48];
	snprintf(part, sizeof part, "constant pool #%u", l);
	expect_err(rc, t.err, TC_EFORMAT, part, off);
	tc_drop(&t);
}

struct badref {
	const char *what;
	uint8_t bytes[5];
	size_t len;
};

Test(reader, bad_indices_inside_the_pool)
{
	/* Index 1 is a Utf8, 2 an Integer, 3 a Class, 4 a NameAndType, 5 a Fieldref, 6 a
	 * Methodref; the entry under test is 7. The class's own entries follow. */
	struct badref cases[] = {
		{"Class -> 0", {7, U2(0)}, 3},
		{"Class -> Integer", {7, U2(2)}, 3},
		{"Class -> past the end", {7, U2(999)}, 3},
		{"String -> Class", {8, U2(3)}, 3},
		{"MethodType -> Integer", {16, U2(2)}, 3},
		{"Module -> Class", {19, U2(3)}, 3},
		{"Package -> 0", {20, U2(0)}, 3},
		{"Fieldref class -> Utf8", {9, U2(1), U2(4)}, 5},
		{"Methodref nat -> Class", {10, U2(3), U2(3)}, 5},
		{"InterfaceMethodref nat -> 0", {11, U2(3), U2(0)}, 5},
		{"NameAndType name -> Integer", {12, U2(2), U2(1)}, 5},
		{"NameAndType desc -> Class", {12, U2(1), U2(3)}, 5},
		{"InvokeDynamic nat -> Utf8", {18, U2(0), U2(1)}, 5},
		{"Dynamic nat -> Methodref", {17, U2(0), U2(6)}, 5},
		{"MethodHandle kind 0", {15, 0, U2(5)}, 4},
		{"MethodHandle kind 10", {15, 10, U2(6)}, 4},
		{"MethodHandle getfield -> Methodref", {15, 1, U2(6)}, 4},
		{"MethodHandle invokevirtual -> Fieldref", {15, 5, U2(5)}, 4},
		{"MethodHandle invokeinterface -> Methodref", {15, 9, U2(6)}, 4},
		{"MethodHandle -> past the end", {15, 6, U2(4000)}, 4},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		bld *b = bld_new(52, 0);
		cr_assert_eq(bld_utf8(b, "I"), 1);
		cr_assert_eq(bld_int(b, 1), 2);
		cr_assert_eq(bld_cp_raw(b, BYTES(7, U2(1)), 1), 3);
		cr_assert_eq(bld_cp_raw(b, BYTES(12, U2(1), U2(1)), 1), 4);
		cr_assert_eq(bld_cp_raw(b, BYTES(9, U2(3), U2(4)), 1), 5);
		cr_assert_eq(bld_cp_raw(b, BYTES(10, U2(3), U2(4)), 1), 6);
		cr_assert_eq(bld_cp_raw(b, cases[k].bytes, cases[k].len, 1), 7);
		bld_default_init(b);
		size_t len;
		uint8_t *bytes = bld_finish(b, &len);
		size_t off = bld_last_layout(b)->cp_entry[7];
		bld_free(b);
		tcls t;
		int rc = tc_parse(&t, bytes, len);
		cr_assert_eq(rc, TC_EFORMAT, "%s: %d %s", cases[k].what, rc, t.err.message);
		cr_assert_str_eq(t.err.part, "constant pool #7", "%s: %s", cases[k].what, t.err.part);
		cr_assert_eq(t.err.offset, off, "%s: offset %u want %zu", cases[k].what, t.err.offset, off);
		tc_drop(&t);
	}
}

Test(reader, bad_indices_in_the_class)
{
	size_t len;
	uint8_t *bytes;
	tcls t;
	/* this_class names a Utf8 */
	{
		bld *b = base(52);
		bld_this(b, bld_utf8(b, "T"));
		bytes = bld_finish(b, &len);
		size_t hdr = bld_last_layout(b)->header;
		bld_free(b);
		expect_err(tc_parse(&t, bytes, len), t.err, TC_EFORMAT, "this_class", hdr + 2);
		tc_drop(&t);
	}
	/* super_class past the pool */
	{
		bld *b = base(52);
		bld_super(b, 4000);
		bytes = bld_finish(b, &len);
		size_t hdr = bld_last_layout(b)->header;
		bld_free(b);
		expect_err(tc_parse(&t, bytes, len), t.err, TC_EFORMAT, "super_class", hdr + 4);
		tc_drop(&t);
	}
	/* super_class 0 is allowed (java/lang/Object, module-info) */
	{
		bld *b = base(52);
		bld_super(b, 0);
		bytes = bld_finish(b, &len);
		bld_free(b);
		cr_assert_eq(tc_parse(&t, bytes, len), TC_OK);
		cr_assert_eq(t.cls.super_class, 0);
		tc_drop(&t);
	}
	/* the second interface is a String */
	{
		bld *b = base(52);
		bld_interface(b, bld_class(b, "I"));
		bld_interface(b, bld_string(b, "J"));
		bytes = bld_finish(b, &len);
		size_t hdr = bld_last_layout(b)->header;
		bld_free(b);
		expect_err(tc_parse(&t, bytes, len), t.err, TC_EFORMAT, "interfaces", hdr + 8 + 2);
		tc_drop(&t);
	}
	/* a method's descriptor index names a Class */
	{
		bld *b = base(52);
		bld_method *m = bld_method_nocode(b, ACC_ABSTRACT, "m", "()V");
		(void)m;
		bytes = bld_finish(b, &len);
		size_t at = bld_last_layout(b)->method[1];
		/* method[1]: access, name, descriptor: point the descriptor at this_class */
		uint16_t this_idx = (uint16_t)(bytes[bld_last_layout(b)->header + 2] << 8 |
		                               bytes[bld_last_layout(b)->header + 3]);
		bytes[at + 4] = (uint8_t)(this_idx >> 8);
		bytes[at + 5] = (uint8_t)this_idx;
		bld_free(b);
		expect_err(tc_parse(&t, bytes, len), t.err, TC_EFORMAT, "methods[1]", at);
		tc_drop(&t);
	}
	/* a field's attribute name is an Integer */
	{
		bld *b = base(52);
		uint16_t i = bld_int(b, 3);
		bld_field(b, 0, "f", "I");
		bytes = bld_finish(b, &len);
		size_t f0 = bld_last_layout(b)->fields + 2;
		bld_free(b);
		/* The builder writes fields without attributes: splice one in by hand. */
		uint8_t *nb = malloc(len + 6);
		memcpy(nb, bytes, f0 + 6);
		nb[f0 + 6] = 0;
		nb[f0 + 7] = 1;
		nb[f0 + 8] = (uint8_t)(i >> 8);
		nb[f0 + 9] = (uint8_t)i;
		memset(nb + f0 + 10, 0, 4);
		memcpy(nb + f0 + 14, bytes + f0 + 8, len - (f0 + 8));
		free(bytes);
		expect_err(tc_parse(&t, nb, len + 6), t.err, TC_EFORMAT, "attribute 0 of fI", f0 + 8);
		tc_drop(&t);
	}
}

Test(reader, trailing_bytes)
{
	bld *b = base(52);
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	bld_free(b);
	bytes = realloc(bytes, len + 3);
	memset(bytes + len, 0, 3);
	tcls t;
	expect_err(tc_parse(&t, bytes, len + 3), t.err, TC_EFORMAT, "class file", len);
	tc_drop(&t);
}

Test(reader, bad_magic)
{
	bld *b = base(52);
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	bld_free(b);
	bytes[3] = 0xBF;
	tcls t;
	expect_err(tc_parse(&t, bytes, len), t.err, TC_EFORMAT, "magic", 0);
	tc_drop(&t);
}

/* --- Code attributes ------------------------------------------------------------------ */

/* A class whose method "m" has the given Code body; parse must succeed (the class
 * reader does not decode Code). */
static void code_class(tcls *t, uint16_t major, const uint8_t *body, size_t len, size_t *body_off)
{
	bld *b = bld_new(major, 0);
	bld_default_init(b);
	bld_method *m = bld_method_code(b, ACC_STATIC, "m", "()V", 0, 0, NULL, 0);
	bld_code_raw(m, body, len);
	size_t n;
	uint8_t *bytes = bld_finish(b, &n);
	*body_off = bld_last_layout(b)->code[1];
	bld_free(b);
	cr_assert_eq(tc_parse(t, bytes, n), TC_OK, "%s", t->err.message);
}

static int parse_code(tcls *t, cf_code *c)
{
	tc_error_clear(&t->err);
	return cf_code_parse(&t->cls, cf_method_code(&t->cls, tc_method(t, "m")), c, &t->err);
}

Test(reader, code_length_limits)
{
	tcls t;
	size_t at;
	cf_code c;
	code_class(&t, 52, BYTES(0, 1, 0, 1, U4(0), 0, 0, 0, 0), &at);
	expect_err(parse_code(&t, &c), t.err, TC_EFORMAT, "Code", at + 4);
	tc_drop(&t);
	code_class(&t, 52, BYTES(0, 1, 0, 1, U4(65536), 0, 0, 0, 0), &at);
	expect_err(parse_code(&t, &c), t.err, TC_EFORMAT, "Code", at + 4);
	tc_drop(&t);
	/* code_length past the attribute */
	code_class(&t, 52, BYTES(0, 1, 0, 1, U4(5), OP_RETURN, 0, 0), &at);
	expect_err(parse_code(&t, &c), t.err, TC_ETRUNC, "Code", at + 8);
	tc_drop(&t);
}

Test(reader, code_attribute_lengths)
{
	tcls t;
	size_t at;
	cf_code c;
	/* Two bytes inside the declared length after the last nested attribute. */
	code_class(&t, 52, BYTES(0, 0, 0, 0, U4(1), OP_RETURN, 0, 0, 0, 0, 0xAA, 0xBB), &at);
	expect_err(parse_code(&t, &c), t.err, TC_EFORMAT, "Code", at + 13);
	tc_drop(&t);
	/* A nested attribute declares more than the Code attribute holds. */
	code_class(&t, 52, BYTES(0, 0, 0, 0, U4(1), OP_RETURN, 0, 0, 0, 1, U2(1), U4(100), 1, 2), &at);
	expect_err(parse_code(&t, &c), t.err, TC_ETRUNC, "attribute 0 of Code", at + 13);
	tc_drop(&t);
	/* An exception table that does not fit. */
	code_class(&t, 52, BYTES(0, 0, 0, 0, U4(1), OP_RETURN, 0, 2, 0, 0, 0, 1), &at);
	expect_err(parse_code(&t, &c), t.err, TC_ETRUNC, "exception table", at + 15);
	tc_drop(&t);
	/* The header itself cut off. */
	code_class(&t, 52, BYTES(0, 0, 0), &at);
	expect_err(parse_code(&t, &c), t.err, TC_ETRUNC, "Code", at + 2);
	tc_drop(&t);
}

Test(reader, exception_range_outside_code)
{
	struct {
		uint16_t start, end, handler;
	} bad[] = {{0, 5, 0}, {1, 1, 0}, {2, 1, 0}, {0, 1, 4}, {0, 1, 100}};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		tcls t;
		size_t at;
		cf_code c;
		/* code: nop nop nop return (4 bytes); one entry */
		code_class(&t, 52,
		           BYTES(0, 1, 0, 1, U4(4), OP_NOP, OP_NOP, OP_NOP, OP_RETURN, 0, 1,
		                 U2(bad[k].start), U2(bad[k].end), U2(bad[k].handler), U2(0), 0, 0),
		           &at);
		expect_err(parse_code(&t, &c), t.err, TC_EFORMAT, "exception table", at + 14);
		tc_drop(&t);
	}
}

Test(reader, exception_catch_type_not_a_class)
{
	tcls t;
	size_t at;
	cf_code c;
	/* #1 is the Utf8 "java/lang/Object" (bld_default_init adds it first). */
	code_class(&t, 52, BYTES(0, 1, 0, 1, U4(2), OP_NOP, OP_RETURN, 0, 1, U2(0), U2(1), U2(1), U2(1), 0, 0), &at);
	cr_assert_eq(cp_tag(&t.cls.cp, 1), CP_UTF8);
	expect_err(parse_code(&t, &c), t.err, TC_EFORMAT, "exception table", at + 12 + 6);
	tc_drop(&t);
}

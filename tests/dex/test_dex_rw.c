/* The dex reader and writer: string order, ids added and sorted in, the layout, the
 * limits, const-string/jumbo widening, and the reader's errors on damaged files. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "dex.h"
#include "bytes.h"
#include "dexbuild.h"

static arena A, A2;
static tc_buf B;

static void setup(void)
{
	arena_init(&A);
	arena_init(&A2);
	buf_init(&B);
}

static void teardown(void)
{
	arena_free(&A);
	arena_free(&A2);
	buf_free(&B);
}

TestSuite(dex_rw, .init = setup, .fini = teardown);

static int cmp(const char *a, size_t la, const char *b, size_t lb)
{
	return dex_mutf8_cmp((const uint8_t *)a, (uint32_t)la, (const uint8_t *)b, (uint32_t)lb);
}

Test(dex_rw, strings_compare_as_utf16_code_units)
{
	/* U+10000 is a surrogate pair (D800 DC00), below U+FFFF as UTF-16 units, though
	 * above it as a code point and above it byte-wise in MUTF-8 */
	cr_expect_lt(cmp("a\xed\xa0\x80\xed\xb0\x80", 7, "a\xef\xbf\xbf", 4), 0);
	/* U+0000 is C0 80 and sorts before U+0001 */
	cr_expect_lt(cmp("\xc0\x80", 2, "\x01", 1), 0);
	cr_expect_lt(cmp("ab", 2, "abc", 3), 0, "a prefix first");
	cr_expect_eq(cmp("\xc3\xa9", 2, "\xc3\xa9", 2), 0);
	cr_expect_gt(cmp("\xc3\xa9", 2, "z", 1), 0, "U+00E9 after z");
}

Test(dex_rw, mutf8_is_checked_as_art_does)
{
	uint32_t n;
	cr_expect(dex_mutf8_check((const uint8_t *)"\xc0\x80", 2, &n) && n == 1, "C0 80 is U+0000");
	cr_expect(!dex_mutf8_check((const uint8_t *)"\xc1\x81", 2, &n), "overlong");
	cr_expect(!dex_mutf8_check((const uint8_t *)"\xf0\x90\x80\x80", 4, &n), "four-byte form");
	cr_expect(!dex_mutf8_check((const uint8_t *)"\x80", 1, &n), "stray continuation byte");
	cr_expect(!dex_mutf8_check((const uint8_t *)"a\0b", 3, &n), "a raw NUL");
	cr_expect(dex_mutf8_check((const uint8_t *)"\xed\xa0\x80\xed\xb0\x80", 6, &n) && n == 2, "a pair");
}

/* A small model: one class, a constructor and a method calling a static. */
static void small(dex_file *d)
{
	db_init(d, &A);
	uint32_t k = db_class(d, "Lp/Main;", DACC_PUBLIC);
	tc_error e;
	tc_error_clear(&e);
	uint32_t init, log;
	cr_assert_eq(dex_intern_method(d, "Ljava/lang/Object;", "<init>", "()V", &init, &e), TC_OK);
	cr_assert_eq(dex_intern_method(d, "Lp/Log;", "log", "(Ljava/lang/String;)V", &log, &e), TC_OK);
	uint16_t r0[] = {0};
	dex_insn ctor[] = {db_invoke(DEX_OP_INVOKE_DIRECT, init, r0, 1), db_op(DEX_OP_RETURN_VOID)};
	db_method(d, k, "<init>", "()V", DACC_PUBLIC | DACC_CONSTRUCTOR, db_code(d, 1, 1, 1, ctor, 2));
	uint32_t s;
	cr_assert_eq(dex_intern_string(d, "hello", 5, &s, &e), TC_OK);
	dex_insn run[] = {db_idx(DEX_OP_CONST_STRING, 0, s), db_invoke(DEX_OP_INVOKE_STATIC, log, r0, 1),
	             db_op(DEX_OP_RETURN_VOID)};
	db_method(d, k, "run", "()V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 0, 1, run, 3));
}

Test(dex_rw, a_model_made_from_scratch_is_written_sorted_and_read_back)
{
	dex_file d, again;
	small(&d);
	db_rewrite(&d, &B, &again, &A2);
	cr_expect_eq(again.nclasses, 1u);
	/* the reader refuses unsorted ids, so reading back proves the order */
	cr_expect_neq(db_find(&again, "Lp/Main;", "run", "()V"), DEX_NO_INDEX);
	cr_expect_neq(db_find(&again, "Ljava/lang/Object;", "<init>", "()V"), DEX_NO_INDEX);
	/* written again, the same bytes */
	size_t len = B.len;
	uint8_t *first = malloc(len);
	memcpy(first, B.data, len);
	tc_error e;
	tc_error_clear(&e);
	buf_clear(&B);
	cr_assert_eq(dex_write(&again, &B, &e), TC_OK);
	cr_expect_eq(B.len, len);
	cr_expect(!memcmp(B.data, first, len), "a read-back file is written back byte for byte");
	free(first);
	/* header facts ART checks */
	dex_header h;
	cr_assert_eq(dex_read_header(B.data, B.len, &h, &e), TC_OK);
	cr_expect_eq(h.file_size, B.len);
	cr_expect_eq(h.checksum, dex_adler32(B.data, B.len));
	cr_expect_eq(h.header_size, 0x70u);
	cr_expect(!memcmp(h.magic, "dex\n038", 8));
}

Test(dex_rw, strings_added_in_any_order_land_in_utf16_order)
{
	dex_file d, again;
	small(&d);
	static const char *const add[] = {"a\xef\xbf\xbf", "a\xed\xa0\x80\xed\xb0\x80", "\xc0\x80", "Zebra", "zebra",
	                                  "a", ""};
	tc_error e;
	tc_error_clear(&e);
	for (size_t i = 0; i < sizeof add / sizeof add[0]; i++) {
		uint32_t x;
		cr_assert_eq(dex_intern_string(&d, add[i], strlen(add[i]), &x, &e), TC_OK, "%s", e.message);
		uint32_t y;
		cr_assert_eq(dex_intern_string(&d, add[i], strlen(add[i]), &y, &e), TC_OK);
		cr_expect_eq(x, y, "interning twice gives the same index");
	}
	db_rewrite(&d, &B, &again, &A2);
	for (uint32_t i = 1; i < again.strings.n; i++) {
		const dex_str *p = &again.strings.v[i - 1], *q = &again.strings.v[i];
		cr_assert_lt(dex_mutf8_cmp(p->data, p->len, q->data, q->len), 0, "strings %u and %u", i - 1, i);
	}
	cr_expect_eq(again.strings.n, d.strings.n);
}

Test(dex_rw, ids_past_the_limits_are_refused_and_can_be_taken_back)
{
	dex_file d;
	small(&d);
	tc_error e;
	tc_error_clear(&e);
	dex_mark m;
	dex_mark_ids(&d, &m);
	char name[32];
	for (uint32_t i = d.methods.n; i <= 65536; i++) {
		uint32_t x;
		snprintf(name, sizeof name, "m%05u", i);
		cr_assert_eq(dex_intern_method(&d, "Lp/Many;", name, "()V", &x, &e), TC_OK);
	}
	cr_expect(!dex_ids_fit(&d), "65,537 method ids");
	cr_expect_eq(dex_write(&d, &B, &e), TC_ELIMIT);
	cr_expect(strstr(e.message, "method") != NULL, "%s", e.message);
	dex_rollback_ids(&d, &m);
	cr_expect(dex_ids_fit(&d));
	dex_file again;
	db_rewrite(&d, &B, &again, &A2);
	cr_expect_eq(again.methods.n, m.methods);
}

Test(dex_rw, a_const_string_pushed_past_65535_becomes_jumbo)
{
	dex_file d, again;
	db_init(&d, &A);
	uint32_t k = db_class(&d, "Lp/Main;", DACC_PUBLIC);
	tc_error e;
	tc_error_clear(&e);
	/* "~last" is made first (a small model index) but sorts after 65,536 others */
	uint32_t last, x;
	cr_assert_eq(dex_intern_string(&d, "~last", 5, &last, &e), TC_OK);
	cr_assert_lt(last, 65536u);
	char s[16];
	for (uint32_t i = 0; i < 65536; i++) {
		snprintf(s, sizeof s, "s%05u", i);
		cr_assert_eq(dex_intern_string(&d, s, strlen(s), &x, &e), TC_OK);
	}
	/* a branch over the const-string: the widening moves its target */
	dex_insn code[] = {db_branch(DEX_OP_IF_EQZ, 0, 0, 4), db_idx(DEX_OP_CONST_STRING, 0, last), db_a(DEX_OP_RETURN_OBJECT, 0)};
	db_method(&d, k, "get", "(I)Ljava/lang/Object;", DACC_PUBLIC | DACC_STATIC, db_code(&d, 1, 1, 0, code, 3));
	db_rewrite(&d, &B, &again, &A2);
	const dex_code *c = again.classes[0].data->dmethods[0].code;
	dex_insn op;
	cr_assert_eq(dex_op_decode(c->insns, c->ninsns, 2, again.version, &op), 3u);
	cr_expect_eq(op.op, DEX_OP_CONST_STRING_JUMBO);
	cr_expect_gt(op.idx, 65535u);
	cr_expect(dex_str_eq(&again, op.idx, "~last"));
	cr_assert(dex_op_decode(c->insns, c->ninsns, 0, again.version, &op));
	cr_expect_eq(op.target, 5, "the if-eqz still reaches the return");
}

/* Damaged copies of a valid file. */
static size_t valid(uint8_t **out)
{
	dex_file d, again;
	small(&d);
	db_rewrite(&d, &B, &again, &A2);
	*out = malloc(B.len);
	memcpy(*out, B.data, B.len);
	return B.len;
}

static void refix(uint8_t *p, size_t len)
{
	put_le4(p + 8, dex_adler32(p, len));
}

static int parse(const uint8_t *p, size_t len, tc_error *e)
{
	dex_file d;
	arena a;
	arena_init(&a);
	tc_error_clear(e);
	int rc = dex_parse(&d, &a, p, len, e);
	arena_free(&a);
	return rc;
}

Test(dex_rw, damaged_files_are_errors_with_their_offsets)
{
	uint8_t *p;
	size_t len = valid(&p);
	tc_error e;
	cr_assert_eq(parse(p, len, &e), TC_OK);
	/* a flipped byte: the checksum no longer matches */
	p[len - 1] ^= 1;
	cr_expect_eq(parse(p, len, &e), TC_EFORMAT);
	cr_expect_eq(e.offset, 8u);
	cr_expect(strstr(e.message, "checksum") != NULL, "%s", e.message);
	p[len - 1] ^= 1;
	/* cut short */
	cr_expect_neq(parse(p, len - 10, &e), TC_OK);
	/* not a dex file, and the versions we refuse */
	static const uint8_t zip[128] = "PK\3\4abcd";
	cr_expect_eq(parse(zip, sizeof zip, &e), TC_EFORMAT);
	cr_expect(strstr(e.message, "bad magic") != NULL, "%s", e.message);
	memcpy(p + 4, "041", 3);
	cr_expect_eq(parse(p, len, &e), TC_EUNSUPPORTED);
	memcpy(p + 4, "036", 3);
	cr_expect_eq(parse(p, len, &e), TC_EVERSION);
	memcpy(p + 4, "038", 3);
	/* class_data_off one byte into its item: not the start of a class_data_item */
	dex_header h;
	tc_error_clear(&e);
	cr_assert_eq(dex_read_header(p, len, &h, &e), TC_OK);
	uint8_t *cd = p + h.class_defs_off + 24;
	put_le4(cd, get_le4(cd) + 1);
	refix(p, len);
	cr_expect_eq(parse(p, len, &e), TC_EFORMAT);
	cr_expect_eq(e.offset, h.class_defs_off + 24);
	cr_expect(strstr(e.message, "class_data_item") != NULL, "%s", e.message);
	put_le4(cd, get_le4(cd) - 1);
	/* a type index out of range in type_ids */
	put_le4(p + h.type_ids_off, 0xffff);
	refix(p, len);
	cr_expect_eq(parse(p, len, &e), TC_EFORMAT);
	cr_expect_eq(e.offset, h.type_ids_off);
	free(p);
}

Test(dex_rw, an_unknown_opcode_in_code_is_an_error_at_its_offset)
{
	dex_file d, again;
	db_init(&d, &A);
	uint32_t k = db_class(&d, "Lp/Main;", DACC_PUBLIC);
	/* a marker (const/16 v0, #0x7e57) then return-void; the marker becomes 0x73 */
	uint16_t units[] = {0x0013, 0x7e57, 0x000e};
	db_method(&d, k, "f", "()V", DACC_STATIC, db_code_units(&d, 1, 0, 0, units, 3));
	db_rewrite(&d, &B, &again, &A2);
	uint8_t *p = B.data;
	size_t at = 0;
	while (at + 4 <= B.len && memcmp(p + at, "\x13\x00\x57\x7e", 4))
		at++;
	cr_assert_lt(at + 4, B.len);
	p[at] = 0x73;
	put_le4(p + 8, dex_adler32(p, B.len));
	tc_error e;
	tc_error_clear(&e);
	arena_reset(&A2);
	cr_expect_eq(dex_parse(&again, &A2, p, B.len, &e), TC_EOPCODE);
	cr_expect_eq(e.offset, at, "the error names the instruction's byte offset");
}

#include "dex_sha1.h"

Test(dex_rw, the_checksum_is_adler32_of_what_follows_it)
{
	/* RFC 1950's adler32 of "Wikipedia" is 0x11E60398; the 12 bytes before it (the
	 * magic and the checksum field) are not summed */
	uint8_t b[12 + 9];
	memset(b, 0xAB, 12);
	memcpy(b + 12, "Wikipedia", 9);
	cr_expect_eq(dex_adler32(b, sizeof b), 0x11E60398u);
	cr_expect_eq(dex_adler32(b, 12), 1u, "nothing after the field: adler32's start");
	cr_expect_eq(dex_adler32(b, 3), 1u, "shorter than the header's first fields");
}

Test(dex_rw, the_signature_is_sha1)
{
	/* FIPS 180 test vectors: empty, "abc", the two-block message, a million 'a' */
	static const char *const in[] = {"", "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"};
	static const char *const want[] = {"da39a3ee5e6b4b0d3255bfef95601890afd80709",
	                                   "a9993e364706816aba3e25717850c26c9cd0d89d",
	                                   "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
	                                   "34aa973cd4c4daa4f61eeb2bdbad27316534016f"};
	uint8_t *million = malloc(1000000);
	memset(million, 'a', 1000000);
	/* OpenSSL's, and the portable rounds it falls back to */
	for (int i = 0; i < 8; i++) {
		uint8_t out[20];
		char hex[41];
		void (*sha1)(const uint8_t *, size_t, uint8_t[20]) = i < 4 ? dex_sha1 : dex_sha1_portable;
		if (i % 4 < 3)
			sha1((const uint8_t *)in[i % 4], strlen(in[i % 4]), out);
		else
			sha1(million, 1000000, out);
		for (int k = 0; k < 20; k++)
			snprintf(hex + 2 * k, 3, "%02x", out[k]);
		cr_expect_str_eq(hex, want[i % 4], "%s of vector %d", i < 4 ? "dex_sha1" : "dex_sha1_portable", i % 4);
	}
	free(million);
}

/* --- ART's file verifier rules on names, classes and code items ---------------------- */

/* A model that breaks one rule, written by our writer (which does not judge), then read. */
typedef struct bad_case {
	const char *what;
	void (*make)(dex_file *d);
	const char *msg;        /* in the reader's message */
	const char *from, *to;  /* bytes replaced in the written file, where the model API refuses */
} bad_case;

static void one_class(dex_file *d, const char *desc)
{
	uint32_t k = db_class(d, desc, DACC_PUBLIC);
	dex_insn ret[] = {db_op(DEX_OP_RETURN_VOID)};
	db_method(d, k, "run", "()V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 0, 0, ret, 1));
}

static void mk_primitive_class(dex_file *d)
{
	db_class(d, "I", DACC_PUBLIC);
}

static void mk_array_class(dex_file *d)
{
	db_class(d, "[Lp/A;", DACC_PUBLIC);
}

static void mk_bad_descriptor(dex_file *d)
{
	one_class(d, "Lp/A;");
	tc_error e;
	tc_error_clear(&e);
	uint32_t t;
	cr_assert_eq(dex_intern_type(d, "Lp//B;", &t, &e), TC_OK);
}

static void mk_dot(dex_file *d)
{
	db_class(d, "Lp.A;", DACC_PUBLIC);
}

static void mk_void_array(dex_file *d)
{
	one_class(d, "Lp/A;");
	tc_error e;
	tc_error_clear(&e);
	uint32_t t;
	cr_assert_eq(dex_intern_type(d, "[Z", &t, &e), TC_OK);
}

static void mk_twice(dex_file *d)
{
	db_class(d, "Lp/A;", DACC_PUBLIC);
	db_class(d, "Lp/A;", DACC_PUBLIC);
}

static void mk_outs(dex_file *d)
{
	uint32_t k = db_class(d, "Lp/A;", DACC_PUBLIC);
	dex_insn ret[] = {db_op(DEX_OP_RETURN_VOID)};
	db_method(d, k, "run", "()V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 0, 65535, ret, 1));
}

static void mk_space_name(dex_file *d)
{
	uint32_t k = db_class(d, "Lp/A;", DACC_PUBLIC);
	dex_insn ret[] = {db_op(DEX_OP_RETURN_VOID)};
	db_method(d, k, "a b", "()V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 0, 0, ret, 1));
}

static void mk_empty_angle(dex_file *d)
{
	uint32_t k = db_class(d, "Lp/A;", DACC_PUBLIC);
	dex_insn ret[] = {db_op(DEX_OP_RETURN_VOID)};
	db_method(d, k, "<>", "()V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 0, 0, ret, 1));
}

static void mk_void_field(dex_file *d)
{
	one_class(d, "Lp/A;");
	tc_error e;
	tc_error_clear(&e);
	uint32_t cls, type, name;
	cr_assert_eq(dex_intern_type(d, "Lp/A;", &cls, &e), TC_OK);
	cr_assert_eq(dex_intern_type(d, "V", &type, &e), TC_OK);
	cr_assert_eq(dex_intern_string(d, "f", 1, &name, &e), TC_OK);
	if (d->fields.n == d->fields.cap) {
		d->fields.cap = d->fields.cap * 2 + 4;
		dex_fid *v = arena_array(d->a, d->fields.cap, sizeof *v);
		if (d->fields.n)
			memcpy(v, d->fields.v, d->fields.n * sizeof *v);
		d->fields.v = v;
	}
	d->fields.v[d->fields.n++] = (dex_fid){cls, type, name};
}

static void mk_own_super(dex_file *d)
{
	db_class_super(d, "Lp/A;", "Lp/A;", DACC_PUBLIC);
}

static void mk_super_after(dex_file *d)
{
	db_class_super(d, "Lp/B;", "Lp/A;", DACC_PUBLIC);
	db_class(d, "Lp/A;", DACC_PUBLIC);
}

static void mk_array_super(dex_file *d)
{
	db_class_super(d, "Lp/A;", "[Lp/B;", DACC_PUBLIC);
}

static void mk_foreign_method(dex_file *d)
{
	uint32_t k = db_class(d, "Lp/A;", DACC_PUBLIC);
	tc_error e;
	tc_error_clear(&e);
	uint32_t m;
	cr_assert_eq(dex_intern_method(d, "Lp/B;", "run", "()V", &m, &e), TC_OK);
	dex_insn ret[] = {db_op(DEX_OP_RETURN_VOID)};
	dex_cdata *cd = d->classes[k].data = arena_zalloc(d->a, sizeof *cd);
	cd->ndmethods = 1;
	cd->dmethods = arena_zalloc(d->a, sizeof *cd->dmethods);
	cd->dmethods[0] = (dex_emethod){m, DACC_STATIC, db_code(d, 1, 0, 0, ret, 1)};
}

static void mk_class_flags(dex_file *d)
{
	db_class(d, "Lp/A;", DACC_PUBLIC | 0x10000);
}

static const bad_case bad_cases[] = {
	{"a class_def naming a primitive type", mk_primitive_class, "not a class type", NULL, NULL},
	{"a class_def naming an array type", mk_array_class, "not a class type", NULL, NULL},
	{"an empty path segment", mk_bad_descriptor, "invalid descriptor \"Lp//B;\"", NULL, NULL},
	{"a '.' in a class name", mk_dot, "invalid descriptor \"Lp.A;\"", NULL, NULL},
	{"an array of void", mk_void_array, "invalid descriptor \"[V\"", "\x02[Z", "\x02[V"},
	{"a class defined twice", mk_twice, "class Lp/A; defined twice (class_defs 0 and 1)", NULL, NULL},
	{"outs_size 65535 past registers_size 1", mk_outs, "outs_size 65535 exceeds registers_size 1", NULL, NULL},
	{"a space in a name before 040", mk_space_name, "invalid name \"a b\"", NULL, NULL},
	{"the name <>", mk_empty_angle, "invalid name \"<>\"", NULL, NULL},
	{"a field of type void", mk_void_field, "of type void", NULL, NULL},
	{"a class its own super class", mk_own_super, "is its own super class", NULL, NULL},
	{"a class before its super class", mk_super_after, "defined before its super class", NULL, NULL},
	{"an array as super class", mk_array_super, "super class is not a class type", NULL, NULL},
	{"class data holding another class's method", mk_foreign_method, "method 0 of another class", NULL, NULL},
	{"runtime access flags on a class", mk_class_flags, "access flags 0x10001", NULL, NULL},
};

Test(dex_rw, art_file_verifier_rules_on_names_classes_and_code)
{
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		arena_reset(&A);
		dex_file d;
		db_init(&d, &A);
		bad_cases[i].make(&d);
		tc_error e;
		tc_error_clear(&e);
		buf_clear(&B);
		cr_assert_eq(dex_write(&d, &B, &e), TC_OK, "%s: the writer: %s", bad_cases[i].what, e.message);
		if (bad_cases[i].from) {
			size_t n = strlen(bad_cases[i].from), at = 0;
			while (at + n <= B.len && memcmp(B.data + at, bad_cases[i].from, n))
				at++;
			cr_assert_leq(at + n, B.len, "%s: the bytes to replace", bad_cases[i].what);
			memcpy(B.data + at, bad_cases[i].to, n);
			refix(B.data, B.len);
		}
		int rc = parse(B.data, B.len, &e);
		cr_expect_eq(rc, TC_EFORMAT, "%s: refused (got %d: %s)", bad_cases[i].what, rc, e.message);
		cr_expect(strstr(e.message, bad_cases[i].msg), "%s: \"%s\" wanted in \"%s\"", bad_cases[i].what,
		          bad_cases[i].msg, e.message);
		cr_expect_neq(e.offset, TC_NO_OFFSET, "%s: an offset", bad_cases[i].what);
	}
	/* the same names are fine where the rules allow them */
	arena_reset(&A);
	dex_file d, again;
	db_init(&d, &A);
	d.version = 40;
	mk_space_name(&d);
	db_class(&d, "Lp/\xc2\xa0\xe2\x80\x80x$-_0;", DACC_PUBLIC); /* U+00A0, U+2000: 040 */
	uint32_t k = db_class_super(&d, "Lp/C;", "Lp/A;", DACC_PUBLIC);
	dex_insn ret[] = {db_op(DEX_OP_RETURN_VOID)};
	db_method(&d, k, "<init>", "()V", DACC_PUBLIC | DACC_CONSTRUCTOR, db_code(&d, 1, 1, 5, ret, 1));
	db_method(&d, k, "caf\xc3\xa9\xed\xa0\xbd\xed\xb8\x80", "()V", DACC_STATIC, db_code(&d, 1, 0, 0, ret, 1));
	db_rewrite(&d, &B, &again, &A2);
	cr_expect_eq(again.nclasses, 3u);
}

Test(dex_rw, a_map_count_past_its_section_is_refused_before_allocating)
{
	uint8_t *p;
	size_t len = valid(&p);
	dex_header h;
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(dex_read_header(p, len, &h, &e), TC_OK);
	uint32_t n = get_le4(p + h.map_off), at = 0;
	for (uint32_t i = 0; i < n; i++)
		if (get_le2(p + h.map_off + 4 + 12 * i) == DT_STRING_DATA)
			at = h.map_off + 4 + 12 * i;
	cr_assert_neq(at, 0u);
	put_le4(p + at + 4, 0x7fffffff);
	refix(p, len);
	cr_expect_eq(parse(p, len, &e), TC_EFORMAT);
	cr_expect(strstr(e.message, "2147483647 items of at least 2 bytes do not fit"), "%s", e.message);
	cr_expect_eq(e.offset, get_le4(p + at + 8));
	free(p);
}

Test(dex_rw, a_dex_shorter_than_its_header_says_so)
{
	tc_error e;
	static const uint8_t seven[7] = "dex\n038";
	cr_expect_eq(parse(seven, 7, &e), TC_ETRUNC);
	cr_expect_str_eq(e.message, "dex file too short (7 bytes, header is 112)");
	cr_expect_eq(parse(seven, 0, &e), TC_ETRUNC);
	cr_expect_str_eq(e.message, "dex file too short (0 bytes, header is 112)");
}

Test(dex_rw, overlapping_sections_are_refused)
{
	uint8_t *p;
	size_t len = valid(&p);
	dex_header h;
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(dex_read_header(p, len, &h, &e), TC_OK);
	/* one string id more, in the header and the map: the string_ids run into the type_ids */
	cr_assert_eq(h.string_ids_off + 4 * h.string_ids_size, h.type_ids_off);
	put_le4(p + 56, h.string_ids_size + 1);
	uint32_t n = get_le4(p + h.map_off);
	for (uint32_t i = 0; i < n; i++)
		if (get_le2(p + h.map_off + 4 + 12 * i) == DT_STRING_ID)
			put_le4(p + h.map_off + 8 + 12 * i, h.string_ids_size + 1);
	refix(p, len);
	cr_expect_eq(parse(p, len, &e), TC_EFORMAT);
	cr_expect(strstr(e.message, "past the start of section 0x0002"), "%s", e.message);
	cr_expect_eq(e.offset, h.type_ids_off);
	free(p);
}

/* The dex reader and writer: string order, ids added and sorted in, the layout, the
 * limits, const-string/jumbo widening, and the reader's errors on damaged files. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "dex.h"
#include "dex_le.h"
#include "dexbuild.h"

static arena A, A2;
static cf_buf B;

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
	cf_error e;
	cf_error_clear(&e);
	uint32_t init, log;
	cr_assert_eq(dex_intern_method(d, "Ljava/lang/Object;", "<init>", "()V", &init, &e), CF_OK);
	cr_assert_eq(dex_intern_method(d, "Lp/Log;", "log", "(Ljava/lang/String;)V", &log, &e), CF_OK);
	uint16_t r0[] = {0};
	dop ctor[] = {db_invoke(DOP_INVOKE_DIRECT, init, r0, 1), db_op(DOP_RETURN_VOID)};
	db_method(d, k, "<init>", "()V", DACC_PUBLIC | DACC_CONSTRUCTOR, db_code(d, 1, 1, 1, ctor, 2));
	uint32_t s;
	cr_assert_eq(dex_intern_string(d, "hello", 5, &s, &e), CF_OK);
	dop run[] = {db_idx(DOP_CONST_STRING, 0, s), db_invoke(DOP_INVOKE_STATIC, log, r0, 1),
	             db_op(DOP_RETURN_VOID)};
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
	cf_error e;
	cf_error_clear(&e);
	buf_clear(&B);
	cr_assert_eq(dex_write(&again, &B, &e), CF_OK);
	cr_expect_eq(B.len, len);
	cr_expect(!memcmp(B.data, first, len), "a read-back file is written back byte for byte");
	free(first);
	/* header facts ART checks */
	dex_header h;
	cr_assert_eq(dex_read_header(B.data, B.len, &h, &e), CF_OK);
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
	cf_error e;
	cf_error_clear(&e);
	for (size_t i = 0; i < sizeof add / sizeof add[0]; i++) {
		uint32_t x;
		cr_assert_eq(dex_intern_string(&d, add[i], strlen(add[i]), &x, &e), CF_OK, "%s", e.msg);
		uint32_t y;
		cr_assert_eq(dex_intern_string(&d, add[i], strlen(add[i]), &y, &e), CF_OK);
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
	cf_error e;
	cf_error_clear(&e);
	dex_mark m;
	dex_mark_ids(&d, &m);
	char name[32];
	for (uint32_t i = d.methods.n; i <= 65536; i++) {
		uint32_t x;
		snprintf(name, sizeof name, "m%05u", i);
		cr_assert_eq(dex_intern_method(&d, "Lp/Many;", name, "()V", &x, &e), CF_OK);
	}
	cr_expect(!dex_ids_fit(&d), "65,537 method ids");
	cr_expect_eq(dex_write(&d, &B, &e), CF_ELIMIT);
	cr_expect(strstr(e.msg, "method") != NULL, "%s", e.msg);
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
	cf_error e;
	cf_error_clear(&e);
	/* "~last" is made first (a small model index) but sorts after 65,536 others */
	uint32_t last, x;
	cr_assert_eq(dex_intern_string(&d, "~last", 5, &last, &e), CF_OK);
	cr_assert_lt(last, 65536u);
	char s[16];
	for (uint32_t i = 0; i < 65536; i++) {
		snprintf(s, sizeof s, "s%05u", i);
		cr_assert_eq(dex_intern_string(&d, s, strlen(s), &x, &e), CF_OK);
	}
	/* a branch over the const-string: the widening moves its target */
	dop code[] = {db_branch(DOP_IF_EQZ, 0, 0, 4), db_idx(DOP_CONST_STRING, 0, last), db_a(DOP_RETURN_OBJECT, 0)};
	db_method(&d, k, "get", "(I)Ljava/lang/Object;", DACC_PUBLIC | DACC_STATIC, db_code(&d, 1, 1, 0, code, 3));
	db_rewrite(&d, &B, &again, &A2);
	const dex_code *c = again.classes[0].data->dmethods[0].code;
	dop op;
	cr_assert_eq(dop_decode(c->insns, c->ninsns, 2, again.version, &op), 3u);
	cr_expect_eq(op.op, DOP_CONST_STRING_JUMBO);
	cr_expect_gt(op.idx, 65535u);
	cr_expect(dex_str_eq(&again, op.idx, "~last"));
	cr_assert(dop_decode(c->insns, c->ninsns, 0, again.version, &op));
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
	le_put4(p + 8, dex_adler32(p, len));
}

static int parse(const uint8_t *p, size_t len, cf_error *e)
{
	dex_file d;
	arena a;
	arena_init(&a);
	cf_error_clear(e);
	int rc = dex_parse(&d, &a, p, len, e);
	arena_free(&a);
	return rc;
}

Test(dex_rw, damaged_files_are_errors_with_their_offsets)
{
	uint8_t *p;
	size_t len = valid(&p);
	cf_error e;
	cr_assert_eq(parse(p, len, &e), CF_OK);
	/* a flipped byte: the checksum no longer matches */
	p[len - 1] ^= 1;
	cr_expect_eq(parse(p, len, &e), CF_EFORMAT);
	cr_expect_eq(e.offset, 8u);
	cr_expect(strstr(e.msg, "checksum") != NULL, "%s", e.msg);
	p[len - 1] ^= 1;
	/* cut short */
	cr_expect_neq(parse(p, len - 10, &e), CF_OK);
	/* not a dex file, and the versions we refuse */
	cr_expect_eq(parse((const uint8_t *)"PK\3\4abcd", 8, &e), CF_EFORMAT);
	memcpy(p + 4, "041", 3);
	cr_expect_eq(parse(p, len, &e), CF_EUNSUPPORTED);
	memcpy(p + 4, "036", 3);
	cr_expect_eq(parse(p, len, &e), CF_EVERSION);
	memcpy(p + 4, "038", 3);
	/* class_data_off one byte into its item: not the start of a class_data_item */
	dex_header h;
	cf_error_clear(&e);
	cr_assert_eq(dex_read_header(p, len, &h, &e), CF_OK);
	uint8_t *cd = p + h.class_defs_off + 24;
	le_put4(cd, le_u4(cd) + 1);
	refix(p, len);
	cr_expect_eq(parse(p, len, &e), CF_EFORMAT);
	cr_expect_eq(e.offset, h.class_defs_off + 24);
	cr_expect(strstr(e.msg, "class_data_item") != NULL, "%s", e.msg);
	le_put4(cd, le_u4(cd) - 1);
	/* a type index out of range in type_ids */
	le_put4(p + h.type_ids_off, 0xffff);
	refix(p, len);
	cr_expect_eq(parse(p, len, &e), CF_EFORMAT);
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
	le_put4(p + 8, dex_adler32(p, B.len));
	cf_error e;
	cf_error_clear(&e);
	arena_reset(&A2);
	cr_expect_eq(dex_parse(&again, &A2, p, B.len, &e), CF_EOPCODE);
	cr_expect_eq(e.offset, at, "the error names the instruction's byte offset");
}

#include "sha1.h"

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
	for (int i = 0; i < 4; i++) {
		uint8_t out[20];
		char hex[41];
		if (i < 3)
			sha1((const uint8_t *)in[i], strlen(in[i]), out);
		else
			sha1(million, 1000000, out);
		for (int k = 0; k < 20; k++)
			snprintf(hex + 2 * k, 3, "%02x", out[k]);
		cr_expect_str_eq(hex, want[i]);
	}
	free(million);
}

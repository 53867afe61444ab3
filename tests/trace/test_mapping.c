/* The mapping reader: methodMapping.txt lines, comments, names, errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tc_event.h"
#include "method_mapping.h"
#include "trace_mapping.h"

static tr_mapping *m;
static tc_error err;

static int load_text(const char *text, size_t n)
{
	FILE *f = fmemopen((void *)text, n, "rb");
	cr_assert_not_null(f);
	int rc = tr_mapping_read(&m, f, "map.txt", &err);
	fclose(f);
	return rc;
}

static int load(const char *text)
{
	return load_text(text, strlen(text));
}

static char *name(uint32_t id, tr_name_style style)
{
	static char buf[256];
	tc_buf sb;
	buf_init(&sb);
	tr_name_put(&sb, m, id, style);
	snprintf(buf, sizeof buf, "%s", sb.str ? sb.str : "");
	buf_free(&sb);
	return buf;
}

static void teardown(void)
{
	tr_mapping_free(m);
	m = NULL;
	memset(&err, 0, sizeof err);
}

TestSuite(mapping, .fini = teardown);

Test(mapping, reads_tc_instrument_output)
{
	cr_assert_eq(load("# comment\n"
	                  "5,4,sample.MainActivity onResume ()V\n"
	                  "\n"
	                  "7,1,sample.Main <init> (I)V\r\n"
	                  "6,9,sample.Util max (II)I   \n"
	                  "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n"),
	             TC_OK, "%s", err.message);
	cr_assert_eq(tr_mapping_size(m), 4);
	cr_assert_str_eq(tr_mapping_lookup(m, 5), "sample.MainActivity onResume ()V");
	cr_assert_str_eq(tr_mapping_lookup(m, 7), "sample.Main <init> (I)V");
	cr_assert_str_eq(tr_mapping_lookup(m, 6), "sample.Util max (II)I");
	cr_assert_null(tr_mapping_lookup(m, 8));
	cr_assert_str_eq(name(TC_ID_DISPATCH, TR_NAME_FULL), "android.os.Handler.dispatchMessage (Landroid.os.Message;)V");
	cr_assert_str_eq(name(TC_ID_DISPATCH, TR_NAME_SHORT), "android.os.Handler.dispatchMessage");
	cr_assert_str_eq(name(7, TR_NAME_FULL), "sample.Main.<init> (I)V");
}

Test(mapping, flags_beyond_16_bits_are_asm_pseudo_flags)
{
	/* ASM folds the Deprecated attribute in as 0x20000 (and records as 0x10000), and
	 * Matrix's mapping prints ASM's flags: javac's own classes have such lines. */
	cr_assert_eq(load("328,131073,com.sun.tools.javac.api.ClientCodeWrapper close ()V\n"), TC_OK, "%s",
	             err.message);
	cr_assert_str_eq(tr_mapping_lookup(m, 328), "com.sun.tools.javac.api.ClientCodeWrapper close ()V");
}

Test(mapping, unknown_ids_show_as_hash_id)
{
	cr_assert_eq(load("1,1,a.B c ()V\n"), TC_OK);
	cr_assert_str_eq(name(2, TR_NAME_FULL), "#2");
	tr_mapping_free(m);
	m = NULL; /* no mapping at all */
	cr_assert_str_eq(name(1, TR_NAME_SHORT), "#1");
}

Test(mapping, a_name_without_descriptor_is_accepted)
{
	cr_assert_eq(load("3,1,a.B run\n"), TC_OK, "%s", err.message);
	cr_assert_str_eq(name(3, TR_NAME_FULL), "a.B.run");
	cr_assert_str_eq(name(3, TR_NAME_SHORT), "a.B.run");
}

Test(mapping, empty_file_and_comments_only)
{
	cr_assert_eq(load(""), TC_OK);
	cr_assert_eq(tr_mapping_size(m), 0);
	tr_mapping_free(m);
	cr_assert_eq(load("# only\n#\n\n"), TC_OK);
	cr_assert_eq(tr_mapping_size(m), 0);
}

Test(mapping, lookups_after_sorting_many_ids)
{
	char *text = malloc(40 * 5000);
	size_t len = 0;
	for (int i = 5000; i >= 1; i--)
		len += (size_t)sprintf(text + len, "%d,1,p.C m%d ()V\n", i, i);
	cr_assert_eq(load_text(text, len), TC_OK, "%s", err.message);
	free(text);
	cr_assert_str_eq(tr_mapping_lookup(m, 1), "p.C m1 ()V");
	cr_assert_str_eq(tr_mapping_lookup(m, 4321), "p.C m4321 ()V");
	cr_assert_str_eq(tr_mapping_lookup(m, 5000), "p.C m5000 ()V");
	cr_assert_null(tr_mapping_lookup(m, 5001));
}

struct bad {
	const char *text, *message;
};

Test(mapping, malformed_lines_name_file_and_line)
{
	static const struct bad cases[] = {
		{ "1,1,a.B c ()V\nx,1,a.B d ()V\n", "map.txt:2: expected \"id,accessFlags,class method desc\", got \"x,1,a.B d ()V\"" },
		{ "1;1;a.B c ()V\n", "map.txt:1: expected \"id,accessFlags" },
		{ "1,1\n", "map.txt:1: expected \"id,accessFlags" },
		{ ",1,a.B c ()V\n", "map.txt:1: expected" },
		{ "1,,a.B c ()V\n", "map.txt:1: expected" },
		{ "-1,1,a.B c ()V\n", "map.txt:1: expected" },
		{ "1,4294967296,a.B c ()V\n", "map.txt:1: expected" },
		{ "99999999999,1,a.B c ()V\n", "map.txt:1: expected" },
		{ "0,1,a.B c ()V\n", "map.txt:1: method id 0 is outside 1..1048574" },
		{ "1048575,1,a.B c ()V\n", "map.txt:1: method id 1048575 is outside" },
		{ "5,1,a.B\n", "map.txt:1: expected \"class method desc\"" },
		{ "5,1, a.B c\n", "map.txt:1: expected \"class method desc\"" },
		{ "5,1,a.B  c\n", "map.txt:1: expected \"class method desc\"" },
		{ "5,1,\n", "map.txt:1: expected \"class method desc\"" },
		{ "# a\n2,1,a.B c ()V\n\n2,1,a.B d ()V\n", "map.txt:4: method id 2 was listed before on line 2" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_assert_eq(load(cases[i].text), TC_EFORMAT, "case %zu", i);
		cr_assert_null(m);
		cr_expect(strstr(err.message, cases[i].message), "case %zu: %s", i, err.message);
	}
}

Test(mapping, nul_byte_is_an_error)
{
	static const char text[] = "1,1,a.B c\0d ()V\n";
	cr_assert_eq(load_text(text, sizeof text - 1), TC_EFORMAT);
	cr_assert(strstr(err.message, "map.txt:1: NUL byte"), "%s", err.message);
}

Test(mapping, overlong_line_is_an_error)
{
	size_t n = (2u << 20) + 16;
	char *text = malloc(n);
	memcpy(text, "1,1,a.B ", 8);
	memset(text + 8, 'x', n - 9);
	text[n - 1] = '\n';
	cr_assert_eq(load_text(text, n), TC_EFORMAT);
	free(text);
	cr_assert(strstr(err.message, "map.txt:1: line longer than"), "%s", err.message);
}

Test(mapping, missing_file)
{
	cr_assert_eq(tr_mapping_load(&m, "/nonexistent/methodMapping.txt", &err), TC_EIO);
	cr_assert(strstr(err.message, "/nonexistent/methodMapping.txt: "), "%s", err.message);
}

/* The line reader under the mapping and report readers. */
#include "trace_lines.h"

Test(lines, splits_lines_across_blocks)
{
	size_t n = 200000;
	char *text = malloc(n);
	size_t len = 0;
	len += (size_t)sprintf(text + len, "first\r\n\n");
	memset(text + len, 'a', 100000); /* spans two read blocks */
	len += 100000;
	text[len++] = '\n';
	memcpy(text + len, "nul\0byte", 8);
	len += 8;
	text[len++] = '\n';
	len += (size_t)sprintf(text + len, "last without newline");
	FILE *f = fmemopen(text, len, "rb");
	tr_lines lr;
	tr_lines_init(&lr, f, "t.txt", 0);
	const char *s;
	size_t k;
	cr_assert_eq(tr_lines_next(&lr, &s, &k, &err), 1);
	cr_assert_eq(k, 5);
	cr_assert_str_eq(s, "first");
	cr_assert_eq(tr_lines_next(&lr, &s, &k, &err), 1);
	cr_assert_eq(k, 0);
	cr_assert_eq(lr.line_no, 2);
	cr_assert_eq(lr.offset, 7);
	cr_assert_eq(tr_lines_next(&lr, &s, &k, &err), 1);
	cr_assert_eq(k, 100000);
	cr_assert_eq(s[99999], 'a');
	cr_assert_eq(tr_lines_next(&lr, &s, &k, &err), 1);
	cr_assert_eq(k, 8);
	cr_assert_eq(memcmp(s, "nul\0byte", 8), 0);
	cr_assert_eq(tr_lines_next(&lr, &s, &k, &err), 1);
	cr_assert_str_eq(s, "last without newline");
	cr_assert_eq(lr.line_no, 5);
	cr_assert_eq(tr_lines_next(&lr, &s, &k, &err), 0);
	cr_assert_eq(tr_lines_next(&lr, &s, &k, &err), 0);
	cr_assert_eq(lr.line_no, 5);
	tr_lines_dispose(&lr);
	fclose(f);
	free(text);
}

Test(lines, a_line_over_the_limit_is_an_error)
{
	static const char text[] = "short\nthis one is too long\n";
	FILE *f = fmemopen((void *)text, sizeof text - 1, "rb");
	tr_lines lr;
	tr_lines_init(&lr, f, "t.txt", 10);
	const char *s;
	size_t k;
	cr_assert_eq(tr_lines_next(&lr, &s, &k, &err), 1);
	cr_assert_eq(tr_lines_next(&lr, &s, &k, &err), TC_EFORMAT);
	cr_assert_str_eq(err.message, "t.txt:2: line longer than 10 bytes");
	tr_lines_dispose(&lr);
	fclose(f);
}

/* The build id (mapfile/method_mapping.h): tc-trace's, from the file, is tc-instrument's
 * (tests/compiler/cli/build_id.sh checks the two agree on a real run). */
static uint64_t id_of(const char *text)
{
	cr_assert_eq(load(text), TC_OK, "%s", err.message);
	uint64_t id = tr_mapping_build_id(m);
	tr_mapping_free(m);
	m = NULL;
	return id;
}

Test(mapping, build_id_is_the_hash_of_the_entry_lines)
{
	const char *base = "1,1,a.B run ()V\n2,9,a.B stop (I)V\n" MM_DISPATCH_LINE "\n";
	uint64_t id = id_of(base);
	cr_assert_neq(id, 0);
	mm_build_id h;
	mm_build_id_init(&h);
	mm_build_id_text(&h, base, strlen(base));
	cr_assert_eq(mm_build_id_final(&h), id, "the file's id is mm_build_id's of its text");
	/* comments, blank lines, CRs and trailing spaces: decoding does not depend on them */
	cr_assert_eq(id_of("# made by hand\n\n1,1,a.B run ()V\r\n2,9,a.B stop (I)V  \n" MM_DISPATCH_LINE), id);
	/* any id, flag, name or order changed: another build */
	cr_assert_neq(id_of("1,1,a.B run ()V\n3,9,a.B stop (I)V\n" MM_DISPATCH_LINE "\n"), id);
	cr_assert_neq(id_of("1,1,a.B run ()V\n2,8,a.B stop (I)V\n" MM_DISPATCH_LINE "\n"), id);
	cr_assert_neq(id_of("1,1,a.B run ()V\n2,9,a.B stop (J)V\n" MM_DISPATCH_LINE "\n"), id);
	cr_assert_neq(id_of("2,9,a.B stop (I)V\n1,1,a.B run ()V\n" MM_DISPATCH_LINE "\n"), id);
	cr_assert_eq(tr_mapping_build_id(NULL), 0);
}

Test(mapping, build_id_hex_round_trip)
{
	char hex[MM_BUILD_ID_HEX];
	uint64_t v = 0;
	mm_build_id_hex(UINT64_C(0x0123456789abcdef), hex);
	cr_assert_str_eq(hex, "0123456789abcdef");
	cr_assert_eq(mm_build_id_parse(hex, 16, &v), 0);
	cr_assert_eq(v, UINT64_C(0x0123456789abcdef));
	cr_assert_eq(mm_build_id_parse("0123456789ABCDEF", 16, &v), 0);
	cr_assert_eq(v, UINT64_C(0x0123456789abcdef));
	cr_assert_neq(mm_build_id_parse("", 0, &v), 0);
	cr_assert_neq(mm_build_id_parse("12x4", 4, &v), 0);
	cr_assert_neq(mm_build_id_parse("0123456789abcdef0", 17, &v), 0);
}

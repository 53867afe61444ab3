/* methodMapping.txt (src/maps/base_mapping.h): loading, ids and the diff. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctest.h"
#include "maps/base_mapping.h"

static char *dir;

static void setup(void)
{
	dir = ct_tmpdir();
}

static void teardown(void)
{
	ct_rm_rf(dir);
	free(dir);
}

TestSuite(mapping, .init = setup, .fini = teardown);

static mapping *load(const char *name, const char *text)
{
	char *path = ct_path(dir, name);
	ct_write_str(path, text);
	mapping *m = NULL;
	tc_error err;
	tc_error_clear(&err);
	int rc = mapping_load(&m, path, &err);
	cr_assert_eq(rc, TC_OK, "%s: %s", name, ct_err(&err));
	free(path);
	return m;
}

/* Loads text expecting failure; returns the formatted error. */
static const char *load_err(const char *text)
{
	char *path = ct_path(dir, "bad.txt");
	ct_write_str(path, text);
	mapping *m = (mapping *)1;
	tc_error err;
	tc_error_clear(&err);
	int rc = mapping_load(&m, path, &err);
	cr_assert_lt(rc, 0, "accepted: %s", text);
	cr_expect_eq(rc, err.code);
	cr_expect_null(m);
	free(path);
	const char *msg = ct_err(&err);
	cr_expect(strstr(msg, "bad.txt"), "the message does not name the file: %s", msg);
	return msg;
}

Test(mapping, load_matrix_format)
{
	mapping *m = load("m.txt", "1,1,a.b.C <init> ()V\n"
	                           "2,9,a.b.C main ([Ljava.lang.String;)V\n"
	                           "7,4,a.b.C$D run (IJ)La.b.C;\n"
	                           "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n");
	cr_expect_eq(mapping_size(m), 4);
	cr_expect_eq(mapping_id(m, "a.b.C <init> ()V"), 1);
	cr_expect_eq(mapping_id(m, "a.b.C main ([Ljava.lang.String;)V"), 2);
	cr_expect_eq(mapping_id(m, "a.b.C$D run (IJ)La.b.C;"), 7);
	cr_expect_eq(mapping_id(m, "android.os.Handler dispatchMessage (Landroid.os.Message;)V"),
	             1048574);
	cr_expect_eq(mapping_id(m, "a.b.C main ()V"), 0);
	cr_expect_eq(mapping_id(m, "a.b.C"), 0);
	cr_expect_eq(mapping_max_id(m), 7, "the dispatch id is not a method id");
	mapping_free(m);
}

Test(mapping, flags_past_16_bits_as_our_own_files_write_them)
{
	/* methodMapping.txt prints ASM's flags, whose Deprecated pseudo-flag is 0x20000: a
	 * mapping file we wrote must load as a base mapping */
	mapping *m = load("m.txt", "5,131105,a.B old (Ljava.lang.Object;)J\n");
	cr_expect_eq(mapping_id(m, "a.B old (Ljava.lang.Object;)J"), 5);
	mapping_free(m);
}

Test(mapping, comments_blank_lines_and_crlf)
{
	mapping *m = load("m.txt", "# written by hand\n"
	                           "\n"
	                           "3,1,a.B m ()V\r\n"
	                           "#9,1,a.B gone ()V\n"
	                           "4,1,a.B n (I)V   \n"
	                           "\r\n"
	                           "5,8,a.B last ()V");
	cr_expect_eq(mapping_size(m), 3);
	cr_expect_eq(mapping_id(m, "a.B m ()V"), 3);
	cr_expect_eq(mapping_id(m, "a.B n (I)V"), 4);
	cr_expect_eq(mapping_id(m, "a.B last ()V"), 5, "a last line without newline counts");
	cr_expect_eq(mapping_id(m, "a.B gone ()V"), 0);
	cr_expect_eq(mapping_max_id(m), 5);
	mapping_free(m);
}

Test(mapping, native_keys_without_descriptor)
{
	/* Matrix keys native methods "class.name": their lines have no descriptor. */
	mapping *m = load("m.txt", "12,257,a.B nat\n");
	cr_expect_eq(mapping_id(m, "a.B nat"), 12);
	mapping_free(m);
}

Test(mapping, empty_and_dispatch_only)
{
	mapping *m = load("e.txt", "");
	cr_expect_eq(mapping_size(m), 0);
	cr_expect_eq(mapping_max_id(m), 0);
	mapping_free(m);
	m = load("d.txt", MM_DISPATCH_LINE "\n");
	cr_expect_eq(mapping_size(m), 1);
	cr_expect_eq(mapping_max_id(m), 0, "the dispatch id is ignored");
	mapping_free(m);
}

Test(mapping, max_id_ignores_only_the_dispatch_id)
{
	mapping *m = load("m.txt", "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n"
	                           "1048573,1,a.B big ()V\n"
	                           "5,1,a.B small ()V\n");
	cr_expect_eq(mapping_max_id(m), 1048573);
	mapping_free(m);
}

Test(mapping, malformed_lines_are_errors_with_line_numbers)
{
	static const char *const bad[] = {
		"x,1,a.B m ()V\n",       /* id not a number */
		"1,a.B m ()V\n",         /* one comma */
		"1,1\n",                 /* nothing after the flags */
		"1,1,a.B\n",             /* no method name */
		"1,1,a.B \n",            /* empty method name (trailing space trimmed) */
		"1,1, m ()V\n",          /* empty class */
		"0,1,a.B m ()V\n",       /* id 0 */
		"-1,1,a.B m ()V\n",      /* negative */
		"1,4294967296,a.B m ()V\n", /* flags past 32 bits */
		"99999999999,1,a.B m ()V\n",
		"1,,a.B m ()V\n",
		",1,a.B m ()V\n",
		"1 ,1,a.B m ()V\n",
		"1048575,1,a.B m ()V\n", /* Matrix's METHOD_ID_MAX: AppMethodBeat ignores it */
		"4294967295,1,a.B m ()V\n", /* the next id would wrap to 0 */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[256];
		snprintf(text, sizeof text, "# header\n1,1,ok.A a ()V\n\n%s2,1,ok.A b ()V\n", bad[i]);
		const char *msg = load_err(text);
		cr_expect(strstr(msg, "line 4"), "case %zu (%s): no line number in: %s", i, bad[i], msg);
	}
}

Test(mapping, duplicate_key_is_an_error_naming_both_lines)
{
	const char *msg = load_err("1,1,a.B m ()V\n2,1,a.B n ()V\n3,1,a.B m ()V\n");
	cr_expect(strstr(msg, "line 3"), "%s", msg);
	cr_expect(strstr(msg, "line 1"), "the first occurrence is not named: %s", msg);
}

Test(mapping, same_id_twice_is_accepted_by_the_loader)
{
	/* Two keys sharing an id: the loader keeps both (the pipeline deals with it). */
	mapping *m = load("m.txt", "4,1,a.B m ()V\n4,1,a.B n ()V\n");
	cr_expect_eq(mapping_id(m, "a.B m ()V"), 4);
	cr_expect_eq(mapping_id(m, "a.B n ()V"), 4);
	mapping_free(m);
}

Test(mapping, missing_file_is_an_error_naming_it)
{
	char *path = ct_path(dir, "none.txt");
	mapping *m = NULL;
	tc_error err;
	tc_error_clear(&err);
	cr_expect_eq(mapping_load(&m, path, &err), TC_EIO);
	cr_expect(strstr(ct_err(&err), path), "%s", ct_err(&err));
	free(path);
}

/* Runs mapping_diff into memory. */
static char *diff(const mapping *a, const mapping *b, size_t *changed)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert(f);
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(mapping_diff(a, b, f, changed, &err), TC_OK);
	fclose(f);
	return buf;
}

Test(mapping, diff_reports_changed_added_removed)
{
	mapping *a = load("a.txt", "1,1,a.B keep ()V\n"
	                           "2,1,a.B moved ()V\n"
	                           "3,1,a.B gone ()V\n"
	                           "4,1,a.B also ()V\n"
	                           MM_DISPATCH_LINE "\n");
	mapping *b = load("b.txt", "1,1,a.B keep ()V\n"
	                           "5,1,a.B moved ()V\n"
	                           "4,1,a.B also ()V\n"
	                           "6,1,a.B fresh ()V\n"
	                           MM_DISPATCH_LINE "\n");
	size_t changed = 99;
	char *out = diff(a, b, &changed);
	cr_expect_eq(changed, 1);
	cr_expect(strstr(out, "changed 2 -> 5 a.B moved ()V\n"), "%s", out);
	cr_expect(strstr(out, "added 6 a.B fresh ()V\n"), "%s", out);
	cr_expect(strstr(out, "removed 3 a.B gone ()V\n"), "%s", out);
	cr_expect_null(strstr(out, "keep"), "unchanged methods are not listed: %s", out);
	cr_expect_null(strstr(out, "dispatchMessage"), "%s", out);
	cr_expect(strstr(out, "3 unchanged, 1 changed, 1 added, 1 removed"), "%s", out);
	free(out);

	/* Flags do not count: only ids. */
	mapping *c = load("c.txt", "1,9,a.B keep ()V\n");
	mapping *d = load("d.txt", "1,1,a.B keep ()V\n");
	out = diff(c, d, &changed);
	cr_expect_eq(changed, 0);
	cr_expect(strstr(out, "1 unchanged, 0 changed, 0 added, 0 removed"), "%s", out);
	free(out);
	mapping_free(a);
	mapping_free(b);
	mapping_free(c);
	mapping_free(d);
}

Test(mapping, diff_of_identical_mappings_is_empty)
{
	mapping *a = load("a.txt", "1,1,a.B x ()V\n2,1,a.B y ()V\n");
	mapping *b = load("b.txt", "2,1,a.B y ()V\n1,1,a.B x ()V\n");
	size_t changed = 99;
	char *out = diff(a, b, &changed);
	cr_expect_eq(changed, 0);
	cr_expect_str_eq(out, "2 unchanged, 0 changed, 0 added, 0 removed\n");
	free(out);
	mapping_free(a);
	mapping_free(b);
}

Test(mapping, diff_counts_every_change)
{
	mapping *a = load("a.txt", "1,1,a.B x ()V\n2,1,a.B y ()V\n3,1,a.B z ()V\n");
	mapping *b = load("b.txt", "3,1,a.B x ()V\n1,1,a.B y ()V\n2,1,a.B z ()V\n");
	size_t changed = 0;
	char *out = diff(a, b, &changed);
	cr_expect_eq(changed, 3);
	cr_expect(strstr(out, "0 unchanged, 3 changed, 0 added, 0 removed"), "%s", out);
	free(out);
	mapping_free(a);
	mapping_free(b);
}

/* A key holding a NUL byte (a corrupt file): the loader must either refuse the line or
 * keep lookups consistent with it. `tc-instrument diff X X` must never report a change.
 * Found by fuzz_text.c (regressions-text/mapping-nul-key.bin). */
Test(mapping, nul_byte_in_a_key)
{
	static const char text[] = "1,1,a.B m ()V\n2,1,a.B m ()V\0x\n";
	char *path = ct_path(dir, "nul.txt");
	ct_write(path, text, sizeof text - 1);
	mapping *m = NULL;
	tc_error err;
	tc_error_clear(&err);
	int rc = mapping_load(&m, path, &err);
	free(path);
	if (rc != TC_OK) {
		cr_expect(strstr(ct_err(&err), "line 2"), "%s", ct_err(&err));
		return;
	}
	size_t changed = 99;
	char *out = diff(m, m, &changed);
	cr_expect_eq(changed, 0, "a mapping differs from itself:\n%s", out);
	free(out);
	mapping_free(m);
}

/* mapfile/: the one reader and writer of Matrix's mapping lines, and the block list's
 * method rule. The programs' own tests (tests/compiler/mapping, tests/trace) cover what
 * each keeps of the lines. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "method_mapping.h"

static int parse(const char *s, mm_line *l, char *why)
{
	return mm_parse_line(l, s, mm_line_len(s, strlen(s)), why, 200);
}

Test(mapping_line, reads_a_line_as_the_plugin_writes_it)
{
	mm_line l;
	char why[200];
	cr_assert_eq(parse("5,4,sample.MainActivity onResume ()V\r", &l, why), 0, "%s", why);
	cr_assert_eq(l.id, 5);
	cr_assert_eq(l.access, 4);
	cr_assert_eq(l.key_len, strlen("sample.MainActivity onResume ()V"));
	cr_assert_eq(memcmp(l.key, "sample.MainActivity onResume ()V", l.key_len), 0);
	cr_assert_eq(parse(MM_DISPATCH_LINE, &l, why), 0);
	cr_assert_eq(l.id, MM_ID_DISPATCH);
}

Test(mapping_line, comments_and_blanks_hold_no_entry)
{
	cr_assert_eq(mm_line_len("# a comment", 11), 0);
	cr_assert_eq(mm_line_len("   \r", 4), 0);
	cr_assert_eq(mm_line_len("1,1,a b ()V  ", 13), 11);
}

Test(mapping_line, says_what_is_wrong)
{
	mm_line l;
	char why[200];
	cr_assert_eq(parse("x,1,a b ()V", &l, why), -1);
	cr_assert(strstr(why, "id,accessFlags"), "%s", why);
	cr_assert_eq(parse("0,1,a b ()V", &l, why), -1);
	cr_assert(strstr(why, "outside 1..1048574"), "%s", why);
	cr_assert_eq(parse("1048575,1,a b ()V", &l, why), -1, "METHOD_ID_MAX is none of Matrix's ids");
	cr_assert_eq(parse("99999999999,1,a b ()V", &l, why), -1, "past 32 bits");
	cr_assert_eq(parse("-1,1,a b ()V", &l, why), -1, "no sign");
	cr_assert_eq(parse("1,1,ab", &l, why), -1);
	cr_assert(strstr(why, "class method desc"), "%s", why);
	cr_assert_eq(mm_parse_line(&l, "1,1,a\0b ()V", 11, why, sizeof why), -1);
	cr_assert(strstr(why, "NUL"), "%s", why);
}

Test(mapping_line, writers_write_what_the_reader_reads)
{
	tc_buf b;
	buf_init(&b);
	mm_put_entry(&b, 1048573, 9, "a.B", 3, "run ()V", 7);
	mm_put_ignored(&b, "a.B", 3, "get ()I", 7);
	buf_putc(&b, '\0');
	cr_assert_str_eq(b.str, "1048573,9,a.B run ()V\na.B get ()I\n");
	mm_line l;
	char why[200];
	cr_assert_eq(mm_parse_line(&l, b.str, mm_line_len(b.str, strcspn(b.str, "\n")), why, sizeof why), 0);
	cr_assert_eq(l.id, 1048573);
	cr_assert_eq(l.access, 9);
	buf_free(&b);
}

static char *key(const char *s)
{
	char *out = malloc(strlen(s) + 1);
	size_t n = mm_parse_key(s, strlen(s), out);
	if (n == 0) {
		free(out);
		return NULL;
	}
	cr_assert_eq(strlen(out), n);
	return out;
}

Test(mapping_key, a_user_written_method_reads_as_the_mapping_key)
{
	char *k = key("a/b/C$In \t  <init>\t([Ljava/lang/String;)V");
	cr_assert_str_eq(k, "a.b.C$In <init> ([Ljava.lang.String;)V");
	free(k);
	k = key("a.b.C parse (Ljava.lang.String;)La.b.D;");
	cr_assert_str_eq(k, "a.b.C parse (Ljava.lang.String;)La.b.D;");
	free(k);
}

Test(mapping_key, what_is_not_a_method)
{
	cr_assert_null(key("a.b.C parse"), "no descriptor");
	cr_assert_null(key("a.b.C parse ()V extra"), "a fourth field");
	cr_assert_null(key("a.b.C parse V"), "a descriptor without (");
	cr_assert_null(key("a.b.C pa(rse ()V"), "a name with (");
	cr_assert_null(key("a;b.C parse ()V"), "a class with ;");
	cr_assert_null(key(""), "nothing");
}

Test(mapping_key, the_block_list_rule_round_trips)
{
	tc_buf b;
	buf_init(&b);
	mm_put_keepmethod(&b, "a.b.C run ()V", 13);
	buf_putc(&b, '\0');
	cr_assert_str_eq(b.str, MM_KEEPMETHOD " a.b.C run ()V\n");
	b.str[b.len - 2] = '\0'; /* the line without its newline, as rules/ reads it */
	char *k = key(b.str + strlen(MM_KEEPMETHOD));
	cr_assert_not_null(k);
	cr_assert_str_eq(k, "a.b.C run ()V");
	free(k);
	buf_free(&b);
}

/* The block list (rules/rules.h): parsing and matching. Expectations come from the
 * header's documented format and from shared/reference/matrix-build.md. */
#include <criterion/criterion.h>
#include <string.h>

#include "ctest.h"
#include "rules.h"

static tc_rules *parse_ok(const char *text)
{
	tc_rules *r;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(rules_new_empty(&r, &err), TC_OK);
	int rc = rules_parse(r, text, strlen(text), "test.rules", &err);
	cr_assert_eq(rc, TC_OK, "parse failed: %s", ct_err(&err));
	return r;
}

/* Parses text expecting an error; returns the formatted message. */
static const char *parse_err(const char *text, const char *label)
{
	tc_rules *r;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(rules_new_empty(&r, &err), TC_OK);
	int rc = rules_parse(r, text, strlen(text), label, &err);
	cr_assert_lt(rc, 0, "\"%s\" was accepted", text);
	cr_assert_eq(rc, err.code);
	rules_free(r);
	return ct_err(&err);
}

static bool blocks(const tc_rules *r, const char *cls)
{
	return rules_blocks_class(r, cls);
}

static bool blocks_m(const tc_rules *r, const char *subject)
{
	return rules_blocks_method(r, subject, strlen(subject));
}

/* --- parsing ---------------------------------------------------------------------- */

Test(rules_parse, comments_headers_and_blank_lines_are_skipped)
{
	tc_rules *r = parse_ok("# a comment -keepclass not.Me\n"
	                       "\n"
	                       "[package]\n"
	                       "-keeppackage p/q/\n"
	                       "[class]\n"
	                       "#-keepclass also.not.Me\n"
	                       "-keepclass a.b.C\n");
	cr_expect_eq(rules_count(r), 2);
	cr_expect(blocks(r, "a.b.C"));
	cr_expect(blocks(r, "p.q.Any"));
	cr_expect_not(blocks(r, "not.Me"));
	cr_expect_not(blocks(r, "also.not.Me"));
	rules_free(r);
}

Test(rules_parse, carriage_returns_are_ignored)
{
	tc_rules *r = parse_ok("# windows\r\n-keepclass a.b.C\r\n-keeppackage x.y\r\n\r\n[h]\r\n");
	cr_expect_eq(rules_count(r), 2);
	cr_expect(blocks(r, "a.b.C"), "the \\r must not become part of the name");
	cr_expect(blocks(r, "x.y.Z"));
	rules_free(r);
}

Test(rules_parse, last_line_without_newline)
{
	tc_rules *r = parse_ok("-keepclass a.b.C");
	cr_expect(blocks(r, "a.b.C"));
	rules_free(r);
}

Test(rules_parse, empty_text_is_no_rule)
{
	tc_rules *r = parse_ok("");
	cr_expect_eq(rules_count(r), 0);
	cr_expect_not(blocks(r, "a.b.C"));
	rules_free(r);
}

Test(rules_parse, slash_and_dot_are_interchangeable)
{
	tc_rules *r = parse_ok("-keepclass a/b/C\n-keeppackage d.e\n-keeppackage f/g/\n");
	cr_expect(blocks(r, "a.b.C"));
	cr_expect(blocks(r, "a/b/C"));
	cr_expect(blocks(r, "d.e.F"));
	cr_expect(blocks(r, "d/e/F"));
	cr_expect(blocks(r, "f.g.H"));
	cr_expect(blocks(r, "f/g/H"));
	cr_expect_not(blocks(r, "a.b.D"));
	rules_free(r);
}

Test(rules_parse, unknown_directive_names_file_and_line)
{
	const char *msg = parse_err("# fine\n-keepclass a.b.C\n-keepfoo a.b.D\n", "my-block.txt");
	cr_expect(strstr(msg, "my-block.txt"), "no file name in: %s", msg);
	cr_expect(strstr(msg, "line 3"), "no line number in: %s", msg);
	cr_expect(strstr(msg, "-keepfoo"), "does not quote the rule: %s", msg);
}

Test(rules_parse, directive_without_argument_is_an_error)
{
	const char *msg = parse_err("-keepclass\n", "x.rules");
	cr_expect(strstr(msg, "line 1"), "%s", msg);
	msg = parse_err("\n\n-keeppackage   \n", "x.rules");
	cr_expect(strstr(msg, "line 3"), "%s", msg);
}

Test(rules_parse, directive_glued_to_its_argument_is_unknown)
{
	const char *msg = parse_err("-keepclassa.b.C\n", "x.rules");
	cr_expect(strstr(msg, "line 1"), "%s", msg);
}

Test(rules_parse, bad_class_name_is_an_error)
{
	const char *msg = parse_err("-keepclass a.b.C d.e.F\n", "x.rules");
	cr_expect(strstr(msg, "x.rules") && strstr(msg, "line 1"), "%s", msg);
}

Test(rules_parse, bad_regex_is_an_error_naming_file_and_line)
{
	const char *msg = parse_err("-keepclass ok.Fine\n\n-keepregex a.b.C.m(\n", "re.rules");
	cr_expect(strstr(msg, "re.rules"), "no file name in: %s", msg);
	cr_expect(strstr(msg, "line 3"), "no line number in: %s", msg);
	parse_err("-keepregex [abc\n", "re.rules");
	parse_err("-keepregex *x\n", "re.rules");
}

Test(rules_parse, crlf_lines_and_errors_name_the_label_and_line)
{
	tc_rules *r;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(rules_new_empty(&r, &err), TC_OK);
	const char *good = "[package]\r\n-keeppackage com/x/\r\n#c\r\n-keepclass a.B\r\n";
	cr_assert_eq(rules_parse(r, good, strlen(good), "good.txt", &err), TC_OK, "%s", ct_err(&err));
	cr_expect(blocks(r, "com.x.Y"));
	cr_expect(blocks(r, "a.B"));
	const char *bad = "-keepclass a.B\n-keep a.C\n";
	int rc = rules_parse(r, bad, strlen(bad), "/some/dir/bad.txt", &err);
	cr_expect_eq(rc, TC_EFORMAT);
	cr_expect(strstr(ct_err(&err), "/some/dir/bad.txt") && strstr(ct_err(&err), "line 2"), "%s", ct_err(&err));
	rules_free(r);
}

/* --- matching --------------------------------------------------------------------- */

Test(rules_match, keepclass_blocks_the_class_and_its_nested_classes)
{
	tc_rules *r = parse_ok("-keepclass a.b.C\n");
	cr_expect(blocks(r, "a.b.C"));
	cr_expect(blocks(r, "a/b/C"));
	cr_expect(blocks(r, "a.b.C$Inner"));
	cr_expect(blocks(r, "a/b/C$Inner$Deeper"));
	cr_expect(blocks(r, "a.b.C$1"));
	cr_expect_not(blocks(r, "a.b.D"));
	cr_expect_not(blocks(r, "a.b"));
	cr_expect_not(blocks(r, "x.a.b.C"));
	cr_expect_not(blocks(r, "a.b.c.C"));
	rules_free(r);
}

Test(rules_match, keepclass_of_a_nested_class_does_not_block_its_outer_class)
{
	tc_rules *r = parse_ok("-keepclass a.b.C$D\n");
	cr_expect(blocks(r, "a.b.C$D"));
	cr_expect(blocks(r, "a.b.C$D$E"));
	cr_expect_not(blocks(r, "a.b.C"));
	cr_expect_not(blocks(r, "a.b.C$Dx"));
	cr_expect_not(blocks(r, "a.b.C$E"));
	rules_free(r);
}

/* Matrix compared by string prefix: -keepclass a.b.C also blocked a.b.Cat. */
Test(rules_match, quirk_keepclass_is_not_a_prefix)
{
	tc_rules *r = parse_ok("-keepclass a.b.C\n");
	cr_expect(blocks(r, "a.b.C"));
	cr_expect_not(blocks(r, "a.b.Cat"), "-keepclass a.b.C must not block a.b.Cat");
	cr_expect_not(blocks(r, "a.b.CFoo$C"));
	cr_expect_not(blocks(r, "a.b.C2"));
	cr_expect_not(blocks(r, "a.b.C.d.E"), "a class rule is no package rule");
	rules_free(r);
}

/* Matrix's prefix test made -keeppackage a.b also block a.bc. */
Test(rules_match, quirk_keeppackage_needs_no_trailing_dot)
{
	static const char *const forms[] = {"-keeppackage a.b\n", "-keeppackage a.b.\n",
	                                    "-keeppackage a/b\n", "-keeppackage a/b/\n"};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		tc_rules *r = parse_ok(forms[i]);
		cr_expect(blocks(r, "a.b.C"), "%s", forms[i]);
		cr_expect(blocks(r, "a/b/C$D"), "%s", forms[i]);
		cr_expect(blocks(r, "a.b.c.D"), "%s: sub-packages are blocked too", forms[i]);
		cr_expect_not(blocks(r, "a.bc.D"), "%s blocks a.bc.D", forms[i]);
		cr_expect_not(blocks(r, "a.bC"), "%s blocks the class a.bC", forms[i]);
		cr_expect_not(blocks(r, "x.a.b.C"), "%s", forms[i]);
		rules_free(r);
	}
}

Test(rules_match, block_package_api_takes_both_forms)
{
	tc_rules *r;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(rules_new_empty(&r, &err), TC_OK);
	cr_assert_eq(rules_block_package(r, "com/x/", &err), TC_OK);
	cr_assert_eq(rules_block_package(r, "org.y", &err), TC_OK);
	cr_expect(blocks(r, "com.x.A"));
	cr_expect(blocks(r, "org/y/z/B"));
	cr_expect_not(blocks(r, "com.xy.A"));
	cr_expect_not(blocks(r, "org.yz.B"));
	rules_free(r);
}

Test(rules_match, keepregex_matches_the_whole_subject)
{
	tc_rules *r = parse_ok("-keepregex a\\.b\\.C\\.m\\(.*\n");
	cr_expect(rules_have_regex(r));
	cr_expect(blocks_m(r, "a.b.C.m(I)V"));
	cr_expect(blocks_m(r, "a.b.C.m()Ljava.lang.String;"));
	cr_expect_not(blocks_m(r, "a.b.C.mm(I)V"));
	cr_expect_not(blocks_m(r, "x.a.b.C.m(I)V"), "the match is anchored at the start");
	cr_expect_not(blocks(r, "a.b.C"), "a method rule blocks no class");
	rules_free(r);

	r = parse_ok("-keepregex C\\.m\n");
	cr_expect_not(blocks_m(r, "a.b.C.m(I)V"), "a fragment must not match");
	cr_expect_not(blocks_m(r, "C.m(I)V"), "the match is anchored at the end");
	cr_expect(blocks_m(r, "C.m"));
	rules_free(r);
}

Test(rules_match, keepregex_over_dotted_descriptors)
{
	/* The subject's descriptor is written with dots, as in the mapping files. */
	tc_rules *r = parse_ok("-keepregex .*\\.log\\(Ljava\\.lang\\.String;\\)V\n"
	                       "-keepregex com\\.x\\.Util\\.[a-z]+\\(\\[\\[I\\)I\n");
	cr_expect(blocks_m(r, "a.b.C.log(Ljava.lang.String;)V"));
	cr_expect(blocks_m(r, "a.b.C$D.log(Ljava.lang.String;)V"));
	cr_expect_not(blocks_m(r, "a.b.C.log(Ljava/lang/String;)V"));
	cr_expect_not(blocks_m(r, "a.b.C.log(Ljava.lang.Object;)V"));
	cr_expect(blocks_m(r, "com.x.Util.sum([[I)I"));
	cr_expect_not(blocks_m(r, "com.x.Util.sum([I)I"));
	cr_expect_not(blocks_m(r, "com.x.Util.Sum([[I)I"));
	rules_free(r);
}

Test(rules_match, keepregex_with_alternatives_is_still_whole_name)
{
	/* PCRE2_ANCHORED alone would let the second alternative match a prefix. */
	tc_rules *r = parse_ok("-keepregex a\\.B\\.x\\(\\)V|a\\.B\\.y\n");
	cr_expect(blocks_m(r, "a.B.x()V"));
	cr_expect(blocks_m(r, "a.B.y"));
	cr_expect_not(blocks_m(r, "a.B.y()V"));
	cr_expect_not(blocks_m(r, "a.B.x()VV"));
	rules_free(r);
}

static bool blocks_key(const tc_rules *r, const char *key)
{
	return rules_blocks_method_key(r, key, strlen(key));
}

Test(rules_match, keepmethod_names_one_method_by_its_mapping_key)
{
	tc_rules *r = parse_ok("-keepmethod a.b.C parse (Ljava.lang.String;)La.b.D;\n"
	                       "-keepmethod\ta/b/C$In   <init>\t([I)V\n"
	                       "-keepmethod x/y/Z run ()V\n");
	cr_expect_eq(rules_count(r), 3);
	cr_expect(blocks_key(r, "a.b.C parse (Ljava.lang.String;)La.b.D;"));
	cr_expect_not(blocks_key(r, "a.b.C parse (Ljava.lang.String;)La.b.E;"), "another overload");
	cr_expect_not(blocks_key(r, "a.b.C parse2 (Ljava.lang.String;)La.b.D;"));
	cr_expect_not(blocks_key(r, "a.b.C parse (Ljava.lang.String;)La.b.D"), "exact, not a prefix");
	cr_expect(blocks_key(r, "x.y.Z run ()V"), "'/' in the class is stored dotted");
	cr_expect(blocks_key(r, "a.b.C$In <init> ([I)V"));
	cr_expect_not(blocks(r, "a.b.C$In"));
	cr_expect_not(blocks(r, "a.b.C"), "a method rule blocks no class");
	cr_expect_not(blocks_m(r, "a.b.C.parse(Ljava.lang.String;)La.b.D;"), "nor is it a regex");
	rules_free(r);
}

Test(rules_match, keepmethod_normalizes_slashes_in_the_descriptor_and_blanks)
{
	tc_rules *r = parse_ok("-keepmethod  a/b/C \t m   (La/b/D;[Ljava/lang/String;)V  \r\n"
	                       "-keepmethod a.b.C m (La.b.D;[Ljava.lang.String;)V\n");
	cr_expect_eq(rules_count(r), 1, "the same method twice is one rule");
	cr_expect(blocks_key(r, "a.b.C m (La.b.D;[Ljava.lang.String;)V"));
	rules_free(r);
}

Test(rules_parse, keepmethod_needs_class_name_and_descriptor)
{
	const char *msg = parse_err("-keepclass ok.Fine\n-keepmethod a.b.C m\n", "hot.rules");
	cr_expect(strstr(msg, "hot.rules") && strstr(msg, "line 2"), "%s", msg);
	cr_expect(strstr(msg, "a.b.C name (desc)"), "does not say the form: %s", msg);
	parse_err("-keepmethod a.b.C m ()V extra\n", "hot.rules");
	parse_err("-keepmethod a.b.C m ( [I )V\n", "hot.rules");
	parse_err("-keepmethod a.b.C m V()\n", "hot.rules");
	parse_err("-keepmethod a.b.C;x m ()V\n", "hot.rules");
	parse_err("-keepmethod\n", "hot.rules");
}

Test(rules_match, no_regex_rule_blocks_no_method)
{
	tc_rules *r = parse_ok("-keepclass a.b.C\n-keeppackage d\n");
	cr_expect_not(rules_have_regex(r));
	cr_expect_not(blocks_m(r, "a.b.C.m()V"));
	rules_free(r);
}

Test(rules_match, defaults_block_android_and_matrix)
{
	tc_rules *r;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(rules_new(&r, &err), TC_OK, "%s", ct_err(&err));
	cr_expect(blocks(r, "android.app.Activity"));
	cr_expect(blocks(r, "android/os/Handler"));
	cr_expect(blocks(r, "android.support.v7.app.AppCompatActivity$1"));
	cr_expect(blocks(r, "com.tencent.matrix.trace.core.AppMethodBeat"));
	cr_expect(blocks(r, "com/tencent/matrix/Matrix"));
	cr_expect_not(blocks(r, "androidx.appcompat.app.AppCompatActivity"));
	cr_expect_not(blocks(r, "com.tencent.matrixx.A"));
	cr_expect_not(blocks(r, "com.tencent.mm.A"));
	cr_expect_not(blocks(r, "a.android.B"));
	cr_expect_not(blocks(r, "java.lang.String"));
	cr_expect_not(rules_have_regex(r));
	rules_free(r);

	cr_assert_eq(rules_new_empty(&r, &err), TC_OK);
	cr_expect_not(blocks(r, "android.app.Activity"), "the empty rule set has no defaults");
	rules_free(r);
}

Test(rules_match, user_rules_add_to_the_defaults)
{
	tc_rules *r;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(rules_new(&r, &err), TC_OK);
	const char *text = "-keepclass my.App\n";
	cr_assert_eq(rules_parse(r, text, strlen(text), "user", &err), TC_OK);
	cr_expect(blocks(r, "my.App"));
	cr_expect(blocks(r, "android.view.View"));
	rules_free(r);
}

/* -keepinlinable N: the inlining filter's limit (rules.h, filter.h); the last one counts. */
Test(rules_parse, keepinlinable_sets_the_inline_limit)
{
	tc_rules *r = parse_ok("-keepclass a.b.C\n");
	cr_expect_eq(rules_inline_limit(r), 0, "no rule, no limit");
	rules_free(r);
	r = parse_ok("# HotSpot's MaxInlineSize\n-keepinlinable 35\n");
	cr_expect_eq(rules_inline_limit(r), 35);
	cr_expect_not(blocks(r, "a.b.C"), "a size is not a class");
	rules_free(r);
	r = parse_ok("-keepinlinable 35\n-keepinlinable\t325 \n");
	cr_expect_eq(rules_inline_limit(r), 325);
	rules_free(r);
}

Test(rules_parse, keepinlinable_needs_a_size)
{
	const char *msg = parse_err("-keepclass ok.Fine\n-keepinlinable 35b\n", "fast.rules");
	cr_expect(strstr(msg, "fast.rules") && strstr(msg, "line 2"), "%s", msg);
	cr_expect(strstr(msg, "35b"), "does not quote the value: %s", msg);
	parse_err("-keepinlinable 0\n", "fast.rules");
	parse_err("-keepinlinable 65536\n", "fast.rules");
	parse_err("-keepinlinable 99999999999\n", "fast.rules");
	parse_err("-keepinlinable -1\n", "fast.rules");
	parse_err("-keepinlinable\n", "fast.rules");
}

/* -keepinlinable N [M [API]]: M is the dex limit in code units, ART's default
 * inline_max_code_units (32) when only N is given, 0 to filter no dex method. */
Test(rules_parse, keepinlinable_has_a_dex_limit_in_code_units)
{
	tc_rules *r = parse_ok("-keepclass a.b.C\n");
	cr_expect_eq(rules_dex_inline_limit(r), 0, "no rule, no limit");
	rules_free(r);
	r = parse_ok("-keepinlinable 35\n");
	cr_expect_eq(rules_inline_limit(r), 35);
	cr_expect_eq(rules_dex_inline_limit(r), RULES_ART_INLINE_MAX_CODE_UNITS);
	cr_expect_eq(RULES_ART_INLINE_MAX_CODE_UNITS, 32u, "ART's kDefaultInlineMaxCodeUnits");
	rules_free(r);
	r = parse_ok("-keepinlinable 35 20\n");
	cr_expect_eq(rules_inline_limit(r), 35);
	cr_expect_eq(rules_dex_inline_limit(r), 20);
	rules_free(r);
	r = parse_ok("-keepinlinable 35\t 0 \n");
	cr_expect_eq(rules_inline_limit(r), 35);
	cr_expect_eq(rules_dex_inline_limit(r), 0, "M = 0: dex methods are not filtered");
	rules_free(r);
	r = parse_ok("-keepinlinable 35 20\n-keepinlinable 40\n");
	cr_expect_eq(rules_inline_limit(r), 40, "the last one counts");
	cr_expect_eq(rules_dex_inline_limit(r), 32, "its M too");
	rules_free(r);
	const char *msg = parse_err("-keepinlinable 35 2x\n", "fast.rules");
	cr_expect(strstr(msg, "line 1") && strstr(msg, "code units"), "%s", msg);
	parse_err("-keepinlinable 35 65536\n", "fast.rules");
	parse_err("-keepinlinable 35 20 34 1\n", "fast.rules");
	parse_err("-keepinlinable 0 20\n", "fast.rules");
}

/* -keepinlinable N M API: the API level of the ART whose inliner is modelled, ART 14's
 * (34, the first that inlines a callee with a try item) when not given. */
Test(rules_parse, keepinlinable_names_the_art_it_models)
{
	tc_rules *r = parse_ok("-keepinlinable 35\n");
	cr_expect_eq(rules_dex_inline_api(r), RULES_ART_INLINE_API);
	cr_expect_eq(RULES_ART_INLINE_API, 34u);
	rules_free(r);
	r = parse_ok("-keepinlinable 35 32 33\n");
	cr_expect_eq(rules_dex_inline_limit(r), 32);
	cr_expect_eq(rules_dex_inline_api(r), 33);
	rules_free(r);
	r = parse_ok("-keepinlinable 35 32 24\n-keepinlinable 35 30\n");
	cr_expect_eq(rules_dex_inline_limit(r), 30);
	cr_expect_eq(rules_dex_inline_api(r), RULES_ART_INLINE_API, "the last one counts, its API too");
	rules_free(r);
	const char *msg = parse_err("-keepinlinable 35 32 0\n", "fast.rules");
	cr_expect(strstr(msg, "line 1") && strstr(msg, "API level"), "%s", msg);
	parse_err("-keepinlinable 35 32 3x\n", "fast.rules");
	parse_err("-keepinlinable 35 32 65536\n", "fast.rules");
}

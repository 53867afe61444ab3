/* ProGuard / R8 mapping files (src/maps/proguard.h). The mappings below are written by hand
 * in the formats ProGuard 6 and R8 produce; the expected retraced names are read off
 * them by hand. */
#include <criterion/criterion.h>
#include <string.h>

#include "ctest.h"
#include "maps/proguard.h"

static pg_map *load_text(const char *text)
{
	pg_map *m = NULL;
	tc_error err;
	tc_error_clear(&err);
	int rc = pg_parse(&m, text, strlen(text), "mapping.txt", &err);
	cr_assert_eq(rc, TC_OK, "pg_parse: %s", ct_err(&err));
	cr_assert(m);
	return m;
}

/* Retraces a method and checks name and descriptor. */
static void expect_method(const pg_map *m, const char *cls, const char *name, const char *desc,
                          const char *want_name, const char *want_desc)
{
	char n[256], d[1024];
	cr_assert(pg_method(m, cls, name, desc, n, sizeof n, d, sizeof d), "%s.%s%s: buffer", cls,
	          name, desc);
	cr_expect_str_eq(n, want_name, "%s.%s%s: name %s, want %s", cls, name, desc, n, want_name);
	cr_expect_str_eq(d, want_desc, "%s.%s%s: desc %s, want %s", cls, name, desc, d, want_desc);
}

static const char proguard_map[] =
	"com.example.app.Main -> com.example.app.a:\n"
	"    int count -> a\n"
	"    java.lang.String name -> b\n"
	"    36:37:void <init>() -> <init>\n"
	"    40:45:void run(int,java.lang.String[]) -> a\n"
	"    int helper(long[][],boolean) -> b\n"
	"    java.lang.String toString() -> toString\n"
	"com.example.app.Util -> com.example.app.b:\n"
	"    void log(java.lang.String) -> a\n"
	"    com.example.app.Main make(com.example.app.Util[],int) -> a\n"
	"    void log(java.lang.Object) -> b\n"
	"com.example.app.Util$Inner -> com.example.app.b$a:\n"
	"    void go() -> a\n"
	"com.example.keep.Api -> com.example.keep.Api:\n"
	"    void call() -> call\n";

Test(proguard, classes_both_ways)
{
	pg_map *m = load_text(proguard_map);
	cr_expect_eq(pg_class_count(m), 4);
	cr_expect_str_eq(pg_class(m, "com/example/app/a"), "com/example/app/Main");
	cr_expect_str_eq(pg_class(m, "com/example/app/b"), "com/example/app/Util");
	cr_expect_str_eq(pg_class(m, "com/example/app/b$a"), "com/example/app/Util$Inner");
	cr_expect_str_eq(pg_class(m, "com/example/keep/Api"), "com/example/keep/Api");
	cr_expect_null(pg_class(m, "com/example/app/c"));
	cr_expect_null(pg_class(m, "com/example/app/Main"), "an original name is no obfuscated one");
	cr_expect_str_eq(pg_obfuscate_class(m, "com/example/app/Util"), "com/example/app/b");
	cr_expect_str_eq(pg_obfuscate_class(m, "com/example/app/Util$Inner"), "com/example/app/b$a");
	cr_expect_null(pg_obfuscate_class(m, "com/example/app/a"));
	pg_free(m);
}

Test(proguard, proguard_format_methods)
{
	pg_map *m = load_text(proguard_map);
	expect_method(m, "com/example/app/a", "<init>", "()V", "<init>", "()V");
	expect_method(m, "com/example/app/a", "a", "(I[Ljava/lang/String;)V", "run",
	              "(I[Ljava/lang/String;)V");
	expect_method(m, "com/example/app/a", "b", "([[JZ)I", "helper", "([[JZ)I");
	expect_method(m, "com/example/app/a", "toString", "()Ljava/lang/String;", "toString",
	              "()Ljava/lang/String;");
	/* Overloads share an obfuscated name; the descriptor tells them apart. */
	expect_method(m, "com/example/app/b", "a", "(Ljava/lang/String;)V", "log", "(Ljava/lang/String;)V");
	expect_method(m, "com/example/app/b", "a", "([Lcom/example/app/b;I)Lcom/example/app/a;", "make",
	              "([Lcom/example/app/Util;I)Lcom/example/app/Main;");
	expect_method(m, "com/example/app/b", "b", "(Ljava/lang/Object;)V", "log", "(Ljava/lang/Object;)V");
	expect_method(m, "com/example/app/b$a", "a", "()V", "go", "()V");
	pg_free(m);
}

Test(proguard, unlisted_methods_keep_their_name_but_retrace_their_descriptor)
{
	pg_map *m = load_text(proguard_map);
	expect_method(m, "com/example/app/a", "zz", "(Lcom/example/app/a;Lcom/example/app/b$a;[[Lcom/example/app/b;)V",
	              "zz", "(Lcom/example/app/Main;Lcom/example/app/Util$Inner;[[Lcom/example/app/Util;)V");
	/* A class the mapping does not list: only the descriptor changes. */
	expect_method(m, "org/other/X", "m", "(Lcom/example/app/a;)Lcom/example/app/b;", "m",
	              "(Lcom/example/app/Main;)Lcom/example/app/Util;");
	/* The field "a" of Main is no method. */
	expect_method(m, "com/example/app/a", "a", "()I", "a", "()I");
	pg_free(m);
}

Test(proguard, descriptor_retrace)
{
	pg_map *m = load_text(proguard_map);
	char out[512];
	cr_assert(pg_desc(m, "(IJ[D[[ZBCSF)V", out, sizeof out));
	cr_expect_str_eq(out, "(IJ[D[[ZBCSF)V");
	cr_assert(pg_desc(m, "([[Lcom/example/app/a;Ljava/lang/String;J)[Lcom/example/app/b$a;", out,
	                  sizeof out));
	cr_expect_str_eq(out, "([[Lcom/example/app/Main;Ljava/lang/String;J)[Lcom/example/app/Util$Inner;");
	cr_assert(pg_desc(m, "Lcom/example/app/b;", out, sizeof out));
	cr_expect_str_eq(out, "Lcom/example/app/Util;");
	cr_expect_not(pg_desc(m, "(Lcom/example/app/a;)V", out, 8), "a short buffer must be refused");
	pg_free(m);
}

Test(proguard, method_retrace_refuses_short_buffers)
{
	pg_map *m = load_text(proguard_map);
	char n[4], d[256];
	cr_expect_not(pg_method(m, "com/example/app/a", "b", "([[JZ)I", n, sizeof n, d, sizeof d));
	char n2[64], d2[4];
	cr_expect_not(pg_method(m, "com/example/app/a", "b", "([[JZ)I", n2, sizeof n2, d2, sizeof d2));
	pg_free(m);
}

/* R8: line ranges before and after the signature, '#' metadata lines, inlined frames. */
static const char r8_map[] =
	"# compiler: R8\n"
	"# compiler_version: 8.1.56\n"
	"# min_api: 24\n"
	"# pg_map_id: 4a2d1b3\n"
	"# common_typos_disable\n"
	"# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}\n"
	"com.example.app.Main -> a:\n"
	"# {\"id\":\"sourceFile\",\"fileName\":\"Main.java\"}\n"
	"    int count -> a\n"
	"    1:5:void <init>():10:14 -> <init>\n"
	"    1:5:void m():10:14 -> a\n"
	"    6:6:void run(int,java.lang.String[]):20:20 -> b\n"
	"    7:9:void run(int,java.lang.String[]):22 -> b\n"
	"      # {\"id\":\"com.android.tools.r8.synthesized\"}\n"
	"    1:1:java.lang.String[][] matrix(byte,char,short,float,double):30 -> c\n"
	"com.example.app.Util -> b:\n"
	"    1:3:void log(java.lang.String):5:7 -> a\n"
	"    4:4:void com.example.app.Other.inlined(int):40:40 -> b\n"
	"    4:4:void helper(int):12 -> b\n"
	"    5:5:void inlinedSameSig():50:50 -> c\n"
	"    6:6:void alsoInlined():55:55 -> c\n"
	"    5:6:void outer():60 -> c\n"
	"com.example.app.Other -> c:\n"
	"    1:1:void inlined(int):40:40 -> a\n";

Test(proguard, r8_line_ranges_and_metadata)
{
	pg_map *m = load_text(r8_map);
	cr_expect_eq(pg_class_count(m), 3);
	cr_expect_str_eq(pg_class(m, "a"), "com/example/app/Main");
	expect_method(m, "a", "<init>", "()V", "<init>", "()V");
	expect_method(m, "a", "a", "()V", "m", "()V");
	expect_method(m, "a", "b", "(I[Ljava/lang/String;)V", "run", "(I[Ljava/lang/String;)V");
	expect_method(m, "a", "c", "(BCSFD)[[Ljava/lang/String;", "matrix", "(BCSFD)[[Ljava/lang/String;");
	expect_method(m, "b", "a", "(Ljava/lang/String;)V", "log", "(Ljava/lang/String;)V");
	expect_method(m, "c", "a", "(I)V", "inlined", "(I)V");
	pg_free(m);
}

Test(proguard, r8_inlined_frames)
{
	pg_map *m = load_text(r8_map);
	/* "void com.example.app.Other.inlined(int)" is a frame inlined from another
	 * class, with the same obfuscated name and descriptor as helper(int): the method
	 * is helper. */
	expect_method(m, "b", "b", "(I)V", "helper", "(I)V");
	/* Same-signature frames of one class: the last line for ()V -> c is the method. */
	expect_method(m, "b", "c", "()V", "outer", "()V");
	pg_free(m);
}

/* -repackageclasses '': obfuscated names have no package (Matrix issue #458 crashed
 * on these), and original classes may be in the default package too. */
Test(proguard, repackaged_into_the_default_package)
{
	static const char map[] =
		"Main -> a:\n"
		"    void main(java.lang.String[]) -> main\n"
		"    void work(Main,p.Q) -> a\n"
		"p.Q -> b:\n"
		"    p.Q self() -> a\n"
		"p.Q$R -> c:\n"
		"p.deep.er.S -> d:\n"
		"    p.Q$R[] rs() -> a\n";
	pg_map *m = load_text(map);
	cr_expect_eq(pg_class_count(m), 4);
	cr_expect_str_eq(pg_class(m, "a"), "Main");
	cr_expect_str_eq(pg_class(m, "c"), "p/Q$R");
	cr_expect_str_eq(pg_obfuscate_class(m, "p/deep/er/S"), "d");
	expect_method(m, "a", "main", "([Ljava/lang/String;)V", "main", "([Ljava/lang/String;)V");
	expect_method(m, "a", "a", "(La;Lb;)V", "work", "(LMain;Lp/Q;)V");
	expect_method(m, "b", "a", "()Lb;", "self", "()Lp/Q;");
	expect_method(m, "d", "a", "()[Lc;", "rs", "()[Lp/Q$R;");
	pg_free(m);
}

Test(proguard, crlf_line_endings)
{
	static const char map[] = "# c\r\n"
	                          "x.Y -> a:\r\n"
	                          "    int f -> a\r\n"
	                          "    1:2:void m(int):3:4 -> b\r\n"
	                          "x.Z -> b:\r\n";
	pg_map *m = load_text(map);
	cr_expect_eq(pg_class_count(m), 2);
	cr_expect_str_eq(pg_class(m, "a"), "x/Y");
	cr_expect_str_eq(pg_class(m, "b"), "x/Z");
	expect_method(m, "a", "b", "(I)V", "m", "(I)V");
	pg_free(m);
}

Test(proguard, odd_lines_do_not_crash)
{
	static const char map[] =
		"x.Y -> a:\n"
		"    void broken( -> a\n"
		"    void alsoBroken) -> b\n"
		"    -> \n"
		"    1:2: -> c\n"
		"    :::: -> d\n"
		"    void m(int,,int) -> e\n"
		"    void n() ->\n"
		"    int -> f\n"
		"    \n"
		"no arrow here:\n"
		" -> b:\n"
		"y.Z -> :\n"
		"    void late() -> a\n"
		"z.W -> c:\n"
		"    void ok() -> a\n";
	pg_map *m = load_text(map);
	cr_expect_str_eq(pg_class(m, "a"), "x/Y");
	cr_expect_str_eq(pg_class(m, "c"), "z/W");
	expect_method(m, "c", "a", "()V", "ok", "()V");
	pg_free(m);
}

Test(proguard, not_a_mapping_is_an_error)
{
	pg_map *m = NULL;
	tc_error err;
	tc_error_clear(&err);
	const char *text = "hello world\nthis is no mapping\n";
	int rc = pg_parse(&m, text, strlen(text), "notes.txt", &err);
	cr_expect_lt(rc, 0);
	cr_expect_null(m);
	cr_expect(strstr(ct_err(&err), "notes.txt"), "%s", ct_err(&err));
}

Test(proguard, empty_mapping_is_empty)
{
	pg_map *m = load_text("");
	cr_expect_eq(pg_class_count(m), 0);
	cr_expect_null(pg_class(m, "a"));
	expect_method(m, "a", "b", "(La;)V", "b", "(La;)V");
	pg_free(m);
}

Test(proguard, load_from_file)
{
	char *dir = ct_tmpdir();
	char *path = ct_path(dir, "mapping.txt");
	ct_write_str(path, r8_map);
	pg_map *m = NULL;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(pg_load(&m, path, &err), TC_OK, "%s", ct_err(&err));
	cr_expect_str_eq(pg_class(m, "b"), "com/example/app/Util");
	pg_free(m);
	m = NULL;
	char *missing = ct_path(dir, "missing.txt");
	cr_expect_eq(pg_load(&m, missing, &err), TC_EIO);
	cr_expect(strstr(ct_err(&err), missing), "%s", ct_err(&err));
	ct_rm_rf(dir);
	free(path);
	free(missing);
	free(dir);
}

Test(proguard, first_mapping_of_an_obfuscated_name_wins)
{
	static const char map[] = "x.First -> a:\n"
	                          "    void m() -> a\n"
	                          "x.Second -> a:\n"
	                          "    void n() -> b\n";
	pg_map *m = load_text(map);
	cr_expect_str_eq(pg_class(m, "a"), "x/First");
	pg_free(m);
}

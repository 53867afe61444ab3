/* tc_instrument() (src/pipeline/instrument.h) on small classes assembled by hand, where every
 * method, id and byte offset is known in advance: ids, the block list in original
 * names, -keepregex subjects, malformed classes and base mappings. The command line
 * and real javac / ProGuard output are covered by the cli suite. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena.h"
#include "builder.h"
#include "classfile.h"
#include "ctest.h"
#include "pipeline/instrument.h"

#define BEAT "com/tencent/matrix/trace/core/AppMethodBeat"

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

TestSuite(pipeline, .init = setup, .fini = teardown);

enum { ALOAD_0 = 0x2a, ILOAD_0 = 0x1a, IRETURN = 0xac, RETURN = 0xb1, INVOKESTATIC = 0xb8,
       INVOKESPECIAL = 0xb7, POP2 = 0x58, GETFIELD = 0xb4 };

/* A concrete class `name` (internal form) whose methods all call System.nanoTime (so
 * they are traced) except "get" methods (accessors); methods named in `names`, with
 * descriptor "()V" unless the name holds '(' ("m(I)V"). */
static void write_class(const char *rel, const char *name, const char *const *names, size_t n)
{
	bld *b = bld_new(52, 0);
	bld_this(b, bld_class(b, name));
	uint16_t nano = bld_methodref(b, "java/lang/System", "nanoTime", "()J");
	uint16_t f = bld_fieldref(b, name, "v", "I");
	bld_field(b, 0x0002, "v", "I");
	for (size_t i = 0; i < n; i++) {
		char mname[128], desc[128] = "()V";
		snprintf(mname, sizeof mname, "%s", names[i]);
		char *paren = strchr(mname, '(');
		if (paren) {
			snprintf(desc, sizeof desc, "%s", paren);
			*paren = '\0';
		}
		uint16_t args = 4; /* this and a few arguments: enough for the tests */
		if (!strncmp(mname, "get", 3))
			bld_method_code(b, 0x0001, mname, desc, 1, args,
			                BYTES(ALOAD_0, GETFIELD, U2(f), IRETURN));
		else
			bld_method_code(b, 0x0001, mname, desc, 2, args,
			                BYTES(INVOKESTATIC, U2(nano), POP2, RETURN));
	}
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	bld_free(b);
	char *path = ct_path(dir, rel);
	ct_write(path, bytes, len);
	free(path);
	free(bytes);
}

typedef struct job {
	const char *in, *out;
	const char *blocklist, *proguard, *base;
	bool strict;
	int threads;
} job;

static int run(job j, tc_error *err)
{
	char *in = ct_path(dir, j.in), *out = ct_path(dir, j.out), *map = ct_path(dir, "map");
	char *bl = j.blocklist ? ct_path(dir, j.blocklist) : NULL;
	char *pg = j.proguard ? ct_path(dir, j.proguard) : NULL;
	char *base = j.base ? ct_path(dir, j.base) : NULL;
	tc_pair pair = {in, out, false};
	tc_options o = {.pairs = &pair, .npairs = 1, .mapping_dir = map, .blocklist = bl,
	                .proguard = pg, .base_mapping = base, .beat = BEAT,
	                .threads = j.threads ? j.threads : 1, .deflate_level = 6, .strict = j.strict,
	                .quiet = true};
	tc_error_clear(err);
	int rc = tc_instrument(&o, err);
	free(in);
	free(out);
	free(map);
	free(bl);
	free(pg);
	free(base);
	return rc;
}

static void run_ok(job j)
{
	tc_error err;
	int rc = run(j, &err);
	cr_assert_eq(rc, TC_OK, "tc_instrument: %s", ct_err(&err));
}

static char *read_rel(const char *rel)
{
	char *p = ct_path(dir, rel);
	char *text = ct_read(p, NULL);
	cr_assert(text, "cannot read %s", p);
	free(p);
	return text;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

#define expect_line(text, line) cr_expect(has_line((text), (line)), "no line \"%s\" in:\n%s", (line), (text))
#define expect_no_line(text, line) cr_expect(!has_line((text), (line)), "unexpected line \"%s\" in:\n%s", (line), (text))

Test(pipeline, ids_are_dense_in_input_order)
{
	/* Directory order is byte order of the relative paths: p/A, p/B, q/A. */
	write_class("in/q/A.class", "q/A", (const char *[]){"z", "a"}, 2);
	write_class("in/p/B.class", "p/B", (const char *[]){"one", "getX()I", "two(I)V"}, 3);
	write_class("in/p/A.class", "p/A", (const char *[]){"m", "n"}, 2);
	run_ok((job){.in = "in", .out = "out"});
	char *mm = read_rel("map/methodMapping.txt");
	const char *want = "1,1,p.A m ()V\n"
	                   "2,1,p.A n ()V\n"
	                   "3,1,p.B one ()V\n"
	                   "4,1,p.B two (I)V\n"
	                   "5,1,q.A z ()V\n"
	                   "6,1,q.A a ()V\n"
	                   "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";
	cr_expect_str_eq(mm, want);
	char *ig = read_rel("map/ignoreMethodMapping.txt");
	cr_expect_str_eq(ig, "ignore methods:\np.B getX ()I\n");
	free(mm);
	free(ig);
}

Test(pipeline, same_ids_for_any_thread_count)
{
	for (int c = 0; c < 40; c++) {
		char rel[64], name[32];
		snprintf(rel, sizeof rel, "in/c%02d/K.class", c);
		snprintf(name, sizeof name, "c%02d/K", c);
		write_class(rel, name, (const char *[]){"a", "b", "c"}, 3);
	}
	run_ok((job){.in = "in", .out = "out1", .threads = 1});
	char *one = read_rel("map/methodMapping.txt");
	for (int t = 2; t <= 8; t *= 2) {
		char out[16];
		snprintf(out, sizeof out, "out%d", t);
		run_ok((job){.in = "in", .out = out, .threads = t});
		char *other = read_rel("map/methodMapping.txt");
		cr_expect_str_eq(other, one, "threads %d", t);
		free(other);
	}
	cr_expect(has_line(one, "1,1,c00.K a ()V"));
	cr_expect(has_line(one, "120,1,c39.K c ()V"));
	free(one);
}

Test(pipeline, base_mapping_keeps_ids_and_continues_after_the_largest)
{
	write_class("in/p/A.class", "p/A", (const char *[]){"old", "fresh", "other"}, 3);
	char *base = ct_path(dir, "base.txt");
	ct_write_str(base, "# an earlier build\n"
	                   "17,1,p.A old ()V\n"
	                   "40,1,p.A removed ()V\n"
	                   "3,1,p.A other ()V\n"
	                   "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n");
	free(base);
	run_ok((job){.in = "in", .out = "out", .base = "base.txt"});
	char *mm = read_rel("map/methodMapping.txt");
	expect_line(mm, "17,1,p.A old ()V");
	expect_line(mm, "3,1,p.A other ()V");
	expect_line(mm, "41,1,p.A fresh ()V");
	free(mm);
}

Test(pipeline, keepregex_subject_has_a_dotted_descriptor)
{
	write_class("in/p/A.class", "p/A",
	            (const char *[]){"log(Ljava/lang/String;)V", "log(I)V", "keep(Ljava/lang/String;)V"}, 3);
	char *bl = ct_path(dir, "block.txt");
	ct_write_str(bl, "-keepregex p\\.A\\.log\\(Ljava\\.lang\\.String;\\)V\n");
	free(bl);
	run_ok((job){.in = "in", .out = "out", .blocklist = "block.txt"});
	char *mm = read_rel("map/methodMapping.txt");
	char *ig = read_rel("map/ignoreMethodMapping.txt");
	expect_line(ig, "p.A log (Ljava.lang.String;)V");
	expect_no_line(mm, "1,1,p.A log (Ljava.lang.String;)V");
	expect_line(mm, "1,1,p.A log (I)V");
	expect_line(mm, "2,1,p.A keep (Ljava.lang.String;)V");
	free(mm);
	free(ig);
}

Test(pipeline, keepmethod_keeps_out_exactly_the_listed_methods_and_counts_them)
{
	write_class("in/p/A.class", "p/A",
	            (const char *[]){"log(Ljava/lang/String;)V", "log(I)V", "run", "getV()I"}, 4);
	char *bl = ct_path(dir, "hot.rules");
	/* an accessor is ignored by the filter first: the rule does not count it */
	ct_write_str(bl, "# hot\n-keepmethod p.A log (Ljava.lang.String;)V\n-keepmethod p/A run ()V\n"
	                 "-keepmethod p.A getV ()I\n-keepmethod p.Gone run ()V\n");
	free(bl);
	run_ok((job){.in = "in", .out = "out", .blocklist = "hot.rules"});
	char *mm = read_rel("map/methodMapping.txt");
	char *ig = read_rel("map/ignoreMethodMapping.txt");
	char *st = read_rel("map/instrument-stats.json");
	expect_line(mm, "1,1,p.A log (I)V");
	expect_line(ig, "p.A log (Ljava.lang.String;)V");
	expect_line(ig, "p.A run ()V");
	cr_expect(strstr(st, "\"keepmethod\": 2"), "%s", st);
	cr_expect(strstr(st, "\"getset\": 1"), "%s", st);
	free(mm);
	free(ig);
	free(st);
}

/* The code length of method `name` in the class file at rel. */
static uint32_t code_len(const char *rel, const char *name)
{
	char *p = ct_path(dir, rel);
	size_t len;
	uint8_t *bytes = (uint8_t *)ct_read(p, &len);
	cr_assert(bytes, "cannot read %s", p);
	free(p);
	arena a;
	arena_init(&a);
	cf_class cls;
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(cf_parse(&cls, &a, bytes, len, &err), TC_OK, "%s", ct_err(&err));
	uint32_t n = UINT32_MAX;
	for (uint32_t i = 0; i < cls.nmethods; i++) {
		cf_code code;
		cf_attr *at = cf_method_code(&cls, &cls.methods[i]);
		if (at && cp_utf8_eq(&cls.cp, cls.methods[i].name, name) &&
		    cf_code_parse(&cls, at, &code, &err) == TC_OK)
			n = code.len;
	}
	arena_free(&a);
	free(bytes);
	cr_assert_neq(n, UINT32_MAX, "no method %s with code in %s", name, rel);
	return n;
}

/* -keepinlinable N (rules/filter.h): write_class's calling methods have 5 bytes of code,
 * at most 5 + 6 + 6 + 7 = 24 with their probes. Past N they are left out, listed in the
 * ignore mapping and counted as "inline"; at 24 they are traced and fit. */
Test(pipeline, keepinlinable_keeps_out_methods_their_probes_push_past_the_limit)
{
	write_class("in/p/A.class", "p/A", (const char *[]){"run", "walk(I)V", "getV()I"}, 3);
	char *bl = ct_path(dir, "inline.rules");
	ct_write_str(bl, "-keepinlinable 23\n");
	run_ok((job){.in = "in", .out = "out", .blocklist = "inline.rules"});
	char *mm = read_rel("map/methodMapping.txt");
	char *ig = read_rel("map/ignoreMethodMapping.txt");
	char *st = read_rel("map/instrument-stats.json");
	expect_line(ig, "p.A run ()V");
	expect_line(ig, "p.A walk (I)V");
	expect_no_line(mm, "1,1,p.A run ()V");
	cr_expect(strstr(st, "\"inline\": 2"), "%s", st);
	cr_expect(strstr(st, "\"getset\": 1"), "%s", st);
	cr_expect_eq(code_len("out/p/A.class", "run"), 5, "a method left out is not changed");
	free(mm);
	free(ig);
	free(st);
	ct_write_str(bl, "-keepinlinable 24\n");
	free(bl);
	run_ok((job){.in = "in", .out = "out2", .blocklist = "inline.rules"});
	mm = read_rel("map/methodMapping.txt");
	st = read_rel("map/instrument-stats.json");
	expect_line(mm, "1,1,p.A run ()V");
	expect_line(mm, "2,1,p.A walk (I)V");
	cr_expect(strstr(st, "\"inline\": 0"), "%s", st);
	uint32_t traced = code_len("out2/p/A.class", "run");
	cr_expect(traced > 5 && traced <= 24, "traced run has %u bytes of code, not 6 to 24", traced);
	free(mm);
	free(st);
}

Test(pipeline, block_list_and_mappings_use_original_names)
{
	/* Obfuscated classes a (com.x.Secret), b (com.x.Open) and c$a (com.x.Open$In). */
	write_class("in/a.class", "a", (const char *[]){"a", "b(La;)V"}, 2);
	write_class("in/b.class", "b", (const char *[]){"a", "b(Lb;)La;"}, 2);
	write_class("in/c$a.class", "c$a", (const char *[]){"a"}, 1);
	char *p = ct_path(dir, "mapping.txt");
	ct_write_str(p, "# compiler: R8\n"
	                "com.x.Secret -> a:\n"
	                "    1:1:void hidden():3:3 -> a\n"
	                "    1:1:void take(com.x.Secret):5 -> b\n"
	                "com.x.Open -> b:\n"
	                "    1:1:void visible():3:3 -> a\n"
	                "    void link(com.x.Open) -> c\n"
	                "com.x.Open$In -> c$a:\n"
	                "    void run() -> a\n");
	free(p);
	p = ct_path(dir, "block.txt");
	ct_write_str(p, "-keepclass com.x.Secret\n");
	free(p);
	run_ok((job){.in = "in", .out = "out", .blocklist = "block.txt", .proguard = "mapping.txt"});
	char *mm = read_rel("map/methodMapping.txt");
	char *ig = read_rel("map/ignoreMethodMapping.txt");
	expect_line(ig, "com.x.Secret hidden ()V");
	expect_line(ig, "com.x.Secret take (Lcom.x.Secret;)V");
	/* b's method b(Lb;)La; is not in the mapping: its name stays, its types retrace. */
	expect_line(mm, "1,1,com.x.Open visible ()V");
	expect_line(mm, "2,1,com.x.Open b (Lcom.x.Open;)Lcom.x.Secret;");
	/* c$a has its own class line. */
	expect_line(mm, "3,1,com.x.Open$In run ()V");
	cr_expect_null(strstr(mm, "Secret hidden"), "%s", mm);
	free(mm);
	free(ig);
	/* The blocked class is copied unchanged. */
	size_t la, lb;
	char *pa = ct_path(dir, "in/a.class"), *pb = ct_path(dir, "out/a.class");
	char *a = ct_read(pa, &la), *b = ct_read(pb, &lb);
	cr_assert(a && b);
	cr_expect(la == lb && !memcmp(a, b, la), "the blocked class was rewritten");
	free(a);
	free(b);
	free(pa);
	free(pb);
}

Test(pipeline, beat_class_package_is_blocked)
{
	write_class("in/x/y/Beat.class", "x/y/Beat", (const char *[]){"i(I)V", "o(I)V"}, 2);
	write_class("in/x/y/z/Log.class", "x/y/z/Log", (const char *[]){"w"}, 1);
	write_class("in/x/yz/App.class", "x/yz/App", (const char *[]){"run"}, 1);
	char *in = ct_path(dir, "in"), *out = ct_path(dir, "out"), *map = ct_path(dir, "map");
	tc_pair pair = {in, out, false};
	tc_options o = {.pairs = &pair, .npairs = 1, .mapping_dir = map, .beat = "x/y/Beat",
	                .threads = 1, .deflate_level = 6, .quiet = true};
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(tc_instrument(&o, &err), TC_OK, "%s", ct_err(&err));
	char *mm = read_rel("map/methodMapping.txt");
	char *ig = read_rel("map/ignoreMethodMapping.txt");
	expect_line(mm, "1,1,x.yz.App run ()V");
	expect_line(ig, "x.y.Beat i (I)V");
	expect_line(ig, "x.y.Beat o (I)V");
	expect_line(ig, "x.y.z.Log w ()V");
	cr_expect_eq(ct_lines(mm), 2, "%s", mm);
	free(mm);
	free(ig);
	free(in);
	free(out);
	free(map);
}

/* A malformed class is copied unchanged and reported with its file and byte offset. */
Test(pipeline, malformed_class_is_copied_and_reported_with_its_offset)
{
	write_class("in/p/Good.class", "p/Good", (const char *[]){"m"}, 1);
	/* Constant-pool entry 4 has the undefined tag 2. */
	bld *b = bld_new(52, 0);
	bld_this(b, bld_class(b, "p/Bad"));
	bld_utf8(b, "x");
	uint8_t bad_tag[] = {2, 0, 0};
	uint16_t idx = bld_cp_raw(b, bad_tag, sizeof bad_tag, 1);
	bld_default_init(b);
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	size_t tag_off = bld_last_layout(b)->cp_entry[idx];
	bld_free(b);
	char *p = ct_path(dir, "in/p/Bad.class");
	ct_write(p, bytes, len);
	free(p);
	run_ok((job){.in = "in", .out = "out"});

	p = ct_path(dir, "out/p/Bad.class");
	size_t olen;
	char *copy = ct_read(p, &olen);
	cr_assert(copy, "the malformed class was not copied");
	cr_expect(olen == len && !memcmp(copy, bytes, len), "the malformed class was changed");
	free(copy);
	free(p);
	char *stats = read_rel("map/instrument-stats.json");
	const char *at = strstr(stats, "\"problems\"");
	cr_assert(at, "%s", stats);
	cr_expect(strstr(at, "p/Bad.class"), "the file is not named:\n%s", at);
	char want[64];
	snprintf(want, sizeof want, "offset %zu", tag_off);
	cr_expect(strstr(at, want), "no \"%s\" in:\n%s", want, at);
	cr_expect(strstr(stats, "\"malformed\": 1"), "%s", stats);
	char *mm = read_rel("map/methodMapping.txt");
	expect_line(mm, "1,1,p.Good m ()V");
	free(mm);
	free(stats);
	free(bytes);
}

Test(pipeline, truncated_class_is_reported_within_its_bounds)
{
	bld *b = bld_new(52, 0);
	bld_this(b, bld_class(b, "p/Cut"));
	uint16_t nano = bld_methodref(b, "java/lang/System", "nanoTime", "()J");
	bld_method_code(b, 0x0001, "a", "()V", 2, 1, BYTES(INVOKESTATIC, U2(nano), POP2, RETURN));
	bld_method_code(b, 0x0001, "b", "()V", 2, 1, BYTES(INVOKESTATIC, U2(nano), POP2, RETURN));
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	size_t m1 = bld_last_layout(b)->method[1];
	bld_free(b);
	size_t cut = m1 + 3; /* inside the second method's header */
	char *p = ct_path(dir, "in/p/Cut.class");
	ct_write(p, bytes, cut);
	free(p);
	run_ok((job){.in = "in", .out = "out"});
	char *stats = read_rel("map/instrument-stats.json");
	const char *at = strstr(stats, "p/Cut.class");
	cr_assert(at, "the truncated class is not reported:\n%s", stats);
	const char *off = strstr(at, "offset ");
	cr_assert(off, "no offset in:\n%s", at);
	unsigned long o = strtoul(off + 7, NULL, 10);
	cr_expect(o >= m1 && o <= cut, "offset %lu is outside the cut method header [%zu, %zu]", o, m1,
	          cut);
	free(stats);
	free(bytes);
}

Test(pipeline, strict_makes_a_malformed_class_fatal_and_writes_nothing)
{
	write_class("in/p/Good.class", "p/Good", (const char *[]){"m"}, 1);
	char *p = ct_path(dir, "in/p/Bad.class");
	ct_write(p, "\xca\xfe\xba\xbe\x00\x00", 6);
	free(p);
	tc_error err;
	int rc = run((job){.in = "in", .out = "out", .strict = true}, &err);
	cr_expect_lt(rc, 0);
	cr_expect(strstr(ct_err(&err), "Bad.class"), "%s", ct_err(&err));
	p = ct_path(dir, "out");
	cr_expect_not(ct_exists(p), "an output was written");
	free(p);
	p = ct_path(dir, "map/methodMapping.txt");
	cr_expect_not(ct_exists(p), "a mapping was written");
	free(p);
}

Test(pipeline, missing_input_names_the_path)
{
	tc_error err;
	int rc = run((job){.in = "nothing-here", .out = "out"}, &err);
	cr_expect_lt(rc, 0);
	cr_expect(strstr(ct_err(&err), "nothing-here"), "%s", ct_err(&err));
}

/* Issue 29, item 5: an output is what its input is (tc_check_paths): a directory
 * becomes a directory, a jar a jar, an APK an APK, a dex file a dex file; several --in
 * joined make one jar. A mismatch is a usage error naming --out, found before anything
 * is read or written. */
typedef struct kind_case {
	const char *in, *in2, *out; /* in2: joined into the same --out */
	const char *refusal;        /* NULL: accepted */
} kind_case;

Test(pipeline, an_output_is_of_its_inputs_kind)
{
	char *d = ct_path(dir, "empty"), *sub = ct_path(dir, "outdir");
	cr_assert(!mkdir(d, 0755) && !mkdir(sub, 0755));
	/* a dex by its whole magic, "dex\n035\0" (dex_is_dex: what the run then reads it as) */
	const char *const files[][2] = {{"lib.jar", "PK\003\004"}, {"app.apk", "PK\003\004"},
	                                {"classes.dex", "dex\n035"}, {"renamed", "dex\n035"}, {"file", "old"}};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *p = ct_path(dir, files[i][0]);
		ct_write(p, files[i][1], strlen(files[i][1]) + 1);
		free(p);
	}
	const kind_case cases[] = {
		{"empty", NULL, "out", NULL},
		{"empty", NULL, "out/", NULL},
		{"empty", NULL, "outdir", NULL},
		{"lib.jar", NULL, "o.jar", NULL},
		{"lib.jar", NULL, "o.ZIP", NULL},
		{"lib.jar", NULL, "o", NULL},
		{"lib.jar", NULL, "file", NULL},
		{"app.apk", NULL, "o.apk", NULL},
		{"app.apk", NULL, "o", NULL},
		{"classes.dex", NULL, "o.dex", NULL},
		{"renamed", NULL, "o.dex", NULL},
		{"classes.dex", NULL, "o", NULL},
		{"empty", "lib.jar", "all.jar", NULL},
		{"empty", "lib.jar", "all", NULL},
		{"lib.jar", "empty", "file", NULL},
		{"empty", NULL, "o.jar", "--out names a jar (.jar), but --in %s/empty is a directory, and an output is what "
		                         "its input is: give a directory (several --in given before one --out ending in .jar "
		                         "are joined into it)"},
		{"empty", NULL, "o.apk", "--out names an APK (.apk), but --in %s/empty "},
		{"empty", NULL, "o.dex", "--out names a dex file (.dex), but --in %s/empty "},
		{"empty", NULL, "file", "--out is a file, but --in %s/empty "},
		{"lib.jar", NULL, "outdir", "--out is a directory, but --in %s/lib.jar is a jar, and an output is what its "
		                            "input is: give a jar's path (.jar)"},
		{"lib.jar", NULL, "o/", "--out names a directory (a final '/'), but --in %s/lib.jar is a jar"},
		{"lib.jar", NULL, "o.apk", "--out names an APK (.apk), but --in %s/lib.jar is a jar"},
		{"lib.jar", NULL, "o.dex", "--out names a dex file (.dex), but --in %s/lib.jar is a jar"},
		{"app.apk", NULL, "o.jar", "--out names a jar (.jar), but --in %s/app.apk is an APK, and an output is "
		                           "what its input is: give an APK's path (.apk)"},
		{"app.apk", NULL, "o.dex", "--out names a dex file (.dex), but --in %s/app.apk is an APK"},
		{"classes.dex", NULL, "o.jar", "--out names a jar (.jar), but --in %s/classes.dex is a dex file, and an "
		                               "output is what its input is: give a dex file's path (.dex)"},
		{"renamed", NULL, "o.apk", "--out names an APK (.apk), but --in %s/renamed is a dex file"},
		{"classes.dex", NULL, "outdir", "--out is a directory, but --in %s/classes.dex is a dex file"},
		{"empty", "lib.jar", "all.dex", "--out names a dex file (.dex), but several --in joined into one --out "
		                                "make a jar: give a jar's path (.jar)"},
		{"empty", "lib.jar", "all.apk", "--out names an APK (.apk), but several --in joined"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const kind_case *c = &cases[i];
		char *in = ct_path(dir, c->in), *in2 = c->in2 ? ct_path(dir, c->in2) : NULL, *out = ct_path(dir, c->out);
		tc_pair pairs[2] = {{in, out, false}, {in2, out, true}};
		tc_options o = {.pairs = pairs, .npairs = in2 ? 2 : 1, .beat = BEAT};
		tc_error err;
		tc_error_clear(&err);
		int rc = tc_check_paths(&o, &err);
		if (!c->refusal) {
			cr_expect_eq(rc, TC_OK, "%s -> %s: %s", c->in, c->out, ct_err(&err));
		} else {
			char want[1024];
			snprintf(want, sizeof want, c->refusal, dir);
			cr_expect_eq(rc, TC_EARG, "%s -> %s refused", c->in, c->out);
			cr_expect(strstr(ct_err(&err), want), "%s -> %s: %s\nwant: %s", c->in, c->out, ct_err(&err), want);
			cr_expect(strstr(ct_err(&err), out), "names the --out: %s", ct_err(&err));
		}
		free(in);
		free(in2);
		free(out);
	}
	char *left = ct_path(dir, "out");
	cr_expect_not(ct_exists(left), "nothing was made");
	free(left);
	free(d);
	free(sub);
}

static bool holds(const char *bytes, size_t len, const char *what)
{
	size_t n = strlen(what);
	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(bytes + i, what, n))
			return true;
	return false;
}

/* Activity p/<name> (super android/app/Activity) whose onWindowFocusChanged(Z)V has the
 * given flags and calls System.nanoTime (so it is traced). */
static void write_focus_activity(const char *rel, const char *name, uint16_t access)
{
	bld *b = bld_new(52, 0);
	bld_this(b, bld_class(b, name));
	bld_super(b, bld_class(b, "android/app/Activity"));
	uint16_t nano = bld_methodref(b, "java/lang/System", "nanoTime", "()J");
	bld_method_code(b, access, "onWindowFocusChanged", "(Z)V", 2, 2, BYTES(INVOKESTATIC, U2(nano), POP2, RETURN));
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	bld_free(b);
	char *path = ct_path(dir, rel);
	ct_write(path, bytes, len);
	free(path);
	free(bytes);
}

/* Issue 29, item 6, for class files: a private or static onWindowFocusChanged(Z)V is no
 * override of Activity's (JVMS 5.4.5); it gets no at(), none is added beside it (a
 * class file holds one method of a name and descriptor), and the report says which. */
Test(pipeline, a_private_or_static_onWindowFocusChanged_is_not_the_frameworks)
{
	write_focus_activity("in/p/Priv.class", "p/Priv", 0x0002);
	write_focus_activity("in/p/Stat.class", "p/Stat", 0x0009);
	run_ok((job){.in = "in", .out = "out"});
	const char *const outs[] = {"out/p/Priv.class", "out/p/Stat.class"};
	for (int i = 0; i < 2; i++) {
		char *p = ct_path(dir, outs[i]);
		size_t len;
		char *bytes = ct_read(p, &len);
		cr_assert(bytes, "%s", p);
		cr_expect(!holds(bytes, len, "(Landroid/app/Activity;Z)V"), "%s calls no at()", outs[i]);
		cr_expect(holds(bytes, len, "(I)V"), "%s is traced", outs[i]);
		free(bytes);
		free(p);
	}
	char *s = read_rel("map/instrument-stats.json");
	cr_expect(strstr(s, "class p/Priv: onWindowFocusChanged not added: the class declares a private "
	                    "onWindowFocusChanged(Z)V, which overrides nothing"), "%s", s);
	cr_expect(strstr(s, "class p/Stat: onWindowFocusChanged not added: the class declares a static "
	                    "onWindowFocusChanged(Z)V"), "%s", s);
	cr_expect(strstr(s, "\"focus_method_added\": 0") && strstr(s, "\"focus_method_instrumented\": 0"), "%s", s);
	free(s);
}

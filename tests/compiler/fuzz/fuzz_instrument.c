/* libFuzzer target for tc-instrument's inputs: the whole pipeline (tc_instrument())
 * on one class file, and on one jar when the input looks like a zip.
 *
 * Each input is written as p/X.class into a fresh class directory and instrumented
 * into a directory that does not exist yet; an input starting with "PK" is also
 * written as in.jar and instrumented into out.jar (a second run). A hash of the input
 * picks the options: none, a ProGuard mapping and a block list naming the seeds'
 * classes, a base mapping, or two threads. Invariants, any of which aborts (a crash
 * for libFuzzer):
 *   - the call returns CF_OK or a negative status equal to err.code, with a message;
 *   - on success the output and the three mapping-directory files exist, and a class
 *     that was rewritten parses again (the tool must never emit what it cannot read);
 *   - on failure nothing was written: no output directory or jar, no mapping files,
 *     no staging directory left beside the output.
 *
 * Built by tests/fuzz/run.sh -T instrument (clang -fsanitize=fuzzer,address,undefined) and
 * by meson into a replay program (replay.c) that runs the regressions. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "classfile.h"
#include "pipeline/instrument.h"
#include "../../fuzz/fuzz.h"


static char root[256];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void path_of(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", root, name);
}

static bool exists(const char *name)
{
	char p[512];
	struct stat st;
	path_of(p, sizeof p, name);
	return stat(p, &st) == 0;
}

static void write_file(const char *name, const uint8_t *data, size_t size)
{
	char p[512];
	path_of(p, sizeof p, name);
	FILE *f = fopen(p, "wb");
	CHECK(f);
	CHECK(size == 0 || fwrite(data, 1, size, f) == size);
	CHECK(fclose(f) == 0);
}

static uint8_t *read_all(const char *name, size_t *len)
{
	char p[512];
	path_of(p, sizeof p, name);
	FILE *f = fopen(p, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0, got;
	uint8_t *b = malloc(cap);
	CHECK(b);
	while ((got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			b = realloc(b, cap *= 2);
			CHECK(b);
		}
	}
	fclose(f);
	*len = n;
	return b;
}

/* Nothing but the inputs may be left in the root after a failed run. */
static void check_clean(void)
{
	CHECK(!exists("out"));
	CHECK(!exists("out.jar"));
	CHECK(!exists("map/methodMapping.txt"));
	CHECK(!exists("map/ignoreMethodMapping.txt"));
	CHECK(!exists("map/instrument-stats.json"));
	char p[512];
	path_of(p, sizeof p, "");
	DIR *d = opendir(p);
	CHECK(d);
	struct dirent *e;
	while ((e = readdir(d)))
		CHECK(!strstr(e->d_name, "tc-tmp"));
	closedir(d);
}

static void cleanup(void)
{
	rm_rf(root);
}

static void setup(void)
{
	if (root[0])
		return;
	const char *base = getenv("TC_FUZZ_TMP");
	if (!base) {
		struct stat st;
		base = stat("/dev/shm", &st) == 0 ? "/dev/shm" : "/tmp";
	}
	snprintf(root, sizeof root, "%s/tc-fuzz-instrument.XXXXXX", base);
	CHECK(mkdtemp(root));
	atexit(cleanup);
}

/* Optional inputs, chosen by a hash of the fuzz input so that a crash replays: a
 * ProGuard/R8 mapping and a block list naming the seeds' classes (s/...), a base
 * mapping, or nothing. */
static const char pg_text[] =
	"# compiler: R8\n"
	"orig.pkg.Seed -> s.Seed:\n"
	"    java.util.List items -> a\n"
	"    1:3:void <init>(int):10:12 -> <init>\n"
	"    4:4:void orig.pkg.Other.inlined():40:40 -> add\n"
	"    4:6:void add(java.lang.String):20 -> add\n"
	"    7:9:int sum(int[]):30:32 -> sum\n"
	"    java.lang.Runnable lam() -> lam\n"
	"orig.pkg.Seed$Inner -> s.Seed$Inner:\n"
	"    void go() -> go\n"
	"orig.pkg.Kind -> s.Kind:\n"
	"orig.Point -> s.Point:\n"
	"    1:1:int x():5 -> x\n";
static const char block_text[] =
	"[class]\n-keepclass orig.pkg.Kind\n-keepclass s.Point\n"
	"-keepregex .*\\.(sum|lam)\\(.*\n-keeppackage orig.none\n";
static const char base_text[] =
	"# base\n"
	"7,1,s.Seed add (Ljava.lang.String;)V\n"
	"3,1,orig.pkg.Seed sum ([I)I\n"
	"40000,1,s.Kind next ()Ls.Kind;\n"
	"1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";

static unsigned pick(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	return h % 4;
}

static int run(const char *in, const char *out, unsigned mode, cf_error *err)
{
	char pin[512], pout[512], pmap[512], ppg[512], pbl[512], pbase[512];
	path_of(pin, sizeof pin, in);
	path_of(pout, sizeof pout, out);
	path_of(pmap, sizeof pmap, "map");
	path_of(ppg, sizeof ppg, "pg.txt");
	path_of(pbl, sizeof pbl, "block.txt");
	path_of(pbase, sizeof pbase, "base.txt");
	tc_pair pair = {pin, pout};
	tc_options o = {
		.pairs = &pair,
		.npairs = 1,
		.mapping_dir = pmap,
		.beat = "com/tencent/matrix/trace/core/AppMethodBeat",
		.threads = 1,
		.deflate_level = 1,
		.quiet = true,
	};
	if (mode == 1) {
		write_file("pg.txt", (const uint8_t *)pg_text, sizeof pg_text - 1);
		write_file("block.txt", (const uint8_t *)block_text, sizeof block_text - 1);
		o.proguard = ppg;
		o.blocklist = pbl;
	} else if (mode == 2) {
		write_file("base.txt", (const uint8_t *)base_text, sizeof base_text - 1);
		o.base_mapping = pbase;
	} else if (mode == 3) {
		o.threads = 2;
	}
	cf_error_clear(err);
	int rc = tc_instrument(&o, err);
	CHECK(rc == CF_OK || (rc < 0 && rc >= CF_EARG));
	CHECK(rc == err->code);
	if (rc != CF_OK)
		CHECK(err->message[0] != '\0');
	return rc;
}

static void one(const char *in, const char *out, const char *out_class, const uint8_t *data,
                size_t size)
{
	cf_error err;
	if (run(in, out, pick(data, size), &err) != CF_OK) {
		check_clean();
		return;
	}
	CHECK(exists(out));
	CHECK(exists("map/methodMapping.txt"));
	CHECK(exists("map/ignoreMethodMapping.txt"));
	CHECK(exists("map/instrument-stats.json"));
	if (out_class) {
		size_t len;
		uint8_t *got = read_all(out_class, &len);
		CHECK(got);
		if (len != size || memcmp(got, data, size) != 0) {
			/* Rewritten: it must be a class file the library reads back. */
			arena a;
			arena_init(&a);
			cf_class cls;
			cf_error perr;
			cf_error_clear(&perr);
			if (cf_parse(&cls, &a, got, len, &perr) != CF_OK) {
				fprintf(stderr, "rewritten class does not parse: %s at %u\n", perr.message,
				        perr.offset);
				abort();
			}
			arena_free(&a);
		}
		free(got);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	char p[512];
	rm_rf(root);
	CHECK(mkdir(root, 0700) == 0);
	path_of(p, sizeof p, "in");
	CHECK(mkdir(p, 0700) == 0);
	path_of(p, sizeof p, "in/p");
	CHECK(mkdir(p, 0700) == 0);
	write_file("in/p/X.class", data, size);
	one("in", "out", "out/p/X.class", data, size);
	if (size >= 2 && data[0] == 'P' && data[1] == 'K') {
		rm_rf(p); /* in/p: keep only the jar as input */
		path_of(p, sizeof p, "out");
		rm_rf(p);
		path_of(p, sizeof p, "map");
		rm_rf(p);
		write_file("in.jar", data, size);
		one("in.jar", "out.jar", NULL, data, size);
	}
	rm_rf(root);
	return 0;
}

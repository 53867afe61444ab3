/* libFuzzer target for tc-instrument's inputs: the whole pipeline (tc_instrument())
 * on one class file, and on one jar when the input looks like a zip.
 *
 * Each input is written as p/X.class into a fresh class directory and instrumented
 * into a directory that does not exist yet; an input starting with "PK" is also
 * written as in.jar and instrumented into out.jar (a second run). A hash of the input
 * picks the options: none, a ProGuard mapping and a block list naming the seeds'
 * classes, a base mapping, or two threads. Invariants, any of which aborts (a crash
 * for libFuzzer):
 *   - the call returns TC_OK or a negative status equal to err.code, with a message;
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
#include "../../fuzz/fuzz_dir.h"

/* Nothing but the inputs may be left in the root after a failed run. */
static void check_clean(void)
{
	CHECK(!fz_exists("out"));
	CHECK(!fz_exists("out.jar"));
	CHECK(!fz_exists("map/methodMapping.txt"));
	CHECK(!fz_exists("map/ignoreMethodMapping.txt"));
	CHECK(!fz_exists("map/instrument-stats.json"));
	fz_check_no_temp();
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

static int run(const char *in, const char *out, unsigned mode, tc_error *err)
{
	char pin[512], pout[512], pmap[512], ppg[512], pbl[512], pbase[512];
	fz_path(pin, sizeof pin, in);
	fz_path(pout, sizeof pout, out);
	fz_path(pmap, sizeof pmap, "map");
	fz_path(ppg, sizeof ppg, "pg.txt");
	fz_path(pbl, sizeof pbl, "block.txt");
	fz_path(pbase, sizeof pbase, "base.txt");
	tc_pair pair = {pin, pout, false};
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
		fz_write("pg.txt", (const uint8_t *)pg_text, sizeof pg_text - 1);
		fz_write("block.txt", (const uint8_t *)block_text, sizeof block_text - 1);
		o.proguard = ppg;
		o.blocklist = pbl;
	} else if (mode == 2) {
		fz_write("base.txt", (const uint8_t *)base_text, sizeof base_text - 1);
		o.base_mapping = pbase;
	} else if (mode == 3) {
		o.threads = 2;
	}
	tc_error_clear(err);
	int rc = tc_instrument(&o, err);
	CHECK(rc == TC_OK || (rc < 0 && rc >= TC_EARG));
	CHECK(rc == err->code);
	if (rc != TC_OK)
		CHECK(err->message[0] != '\0');
	return rc;
}

static void one(const char *in, const char *out, const char *out_class, const uint8_t *data,
                size_t size)
{
	tc_error err;
	if (run(in, out, pick(data, size), &err) != TC_OK) {
		check_clean();
		return;
	}
	CHECK(fz_exists(out));
	CHECK(fz_exists("map/methodMapping.txt"));
	CHECK(fz_exists("map/ignoreMethodMapping.txt"));
	CHECK(fz_exists("map/instrument-stats.json"));
	if (out_class) {
		size_t len;
		uint8_t *got = fz_read(out_class, &len);
		CHECK(got);
		if (len != size || memcmp(got, data, size) != 0) {
			/* Rewritten: it must be a class file the library reads back. */
			arena a;
			arena_init(&a);
			cf_class cls;
			tc_error perr;
			tc_error_clear(&perr);
			if (cf_parse(&cls, &a, got, len, &perr) != TC_OK) {
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
	fz_setup("instrument");
	char p[512];
	fz_reset();
	fz_path(p, sizeof p, "in");
	CHECK(mkdir(p, 0700) == 0);
	fz_path(p, sizeof p, "in/p");
	CHECK(mkdir(p, 0700) == 0);
	fz_write("in/p/X.class", data, size);
	one("in", "out", "out/p/X.class", data, size);
	if (size >= 2 && data[0] == 'P' && data[1] == 'K') {
		fz_rm_rf(p); /* in/p: keep only the jar as input */
		fz_path(p, sizeof p, "out");
		fz_rm_rf(p);
		fz_path(p, sizeof p, "map");
		fz_rm_rf(p);
		fz_write("in.jar", data, size);
		one("in.jar", "out.jar", NULL, data, size);
	}
	fz_rm_rf(fz_root);
	return 0;
}

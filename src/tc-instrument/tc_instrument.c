/* tc-instrument: the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "pipeline/instrument.h"
#include "maps/base_mapping.h"

#define DEFAULT_BEAT "com/tencent/matrix/trace/core/AppMethodBeat"

static const char usage[] =
	"usage: tc-instrument [OPTIONS] --mapping-dir DIR --in INPUT... --out OUTPUT [--in INPUT... --out OUTPUT]...\n"
	"       tc-instrument diff OLD_MAPPING NEW_MAPPING\n"
	"\n"
	"Instruments class directories, jars, dex files and APKs for method tracing, as\n"
	"Tencent Matrix's TraceCanary transform does: AppMethodBeat.i(id) at every traced\n"
	"method's entry, AppMethodBeat.o(id) at every exit (exceptional exits included) and\n"
	"AppMethodBeat.at(activity, hasFocus) in Activities' onWindowFocusChanged.\n"
	"\n"
	"Inputs and outputs (each --in goes to the --out that follows it):\n"
	"  --in PATH              a class directory, a jar, a dex file or an APK to\n"
	"                         instrument (directories and jars: their class files and\n"
	"                         classes*.dex files)\n"
	"  --out PATH             where its instrumented copy goes: a directory for a\n"
	"                         directory, a jar for a jar, a dex file for a dex file, an\n"
	"                         APK for an APK (aligned; sign it with apksigner); may\n"
	"                         equal --in; several --in, then one --out: joined into\n"
	"                         that jar, in order (a name two of them hold: an error)\n"
	"  --mapping-dir DIR      receives methodMapping.txt, ignoreMethodMapping.txt and\n"
	"                         instrument-stats.json\n"
	"\n"
	"Options:\n"
	"  --base-mapping FILE    methodMapping.txt of an earlier build: its methods keep\n"
	"                         their ids, new methods continue after its largest id\n"
	"  --blocklist FILE       classes and methods never to trace, in original names:\n"
	"                         -keepclass a.b.C, -keeppackage a/b/, -keepregex PATTERN,\n"
	"                         -keepmethod a.b.C name (desc), -keepinlinable N [M [API]]\n"
	"                         (-keepinlinable 35: HotSpot's 35 bytes; dex: ART 14's\n"
	"                         inliner and its 32 code units)\n"
	"                         ('#' comments, [section] headers: docs/instrumenting.md)\n"
	"  --proguard-mapping FILE  ProGuard/R8 mapping.txt: mapping files and block-list\n"
	"                         rules use the original names it gives\n"
	"  --classpath PATH       a jar or class directory read only to learn the class\n"
	"                         hierarchy (e.g. android.jar, AAR classes); repeatable, and\n"
	"                         PATH may be a ':'-separated list\n"
	"  --threads N, -j N      worker threads (default: one per processor); the output\n"
	"                         does not depend on it\n"
	"  --beat-class NAME      the class receiving the calls (default\n"
	"                         " DEFAULT_BEAT ");\n"
	"                         its package is never instrumented\n"
	"  --no-runtime-check     write the calls even when no input or --classpath entry\n"
	"                         defines the beat class with public static i, o and at\n"
	"  --strict               a malformed class is an error (default: copied unchanged\n"
	"                         and reported)\n"
	"  --deflate-level N      of rewritten jar entries, 1..9 (default 6 in APKs, else 1)\n"
	"  --cache, --cache=DIR   keep each input's result in a cache and reuse it when\n"
	"                         nothing that determines it changed (its bytes, the tool,\n"
	"                         the options, the block list and ProGuard mapping, the ids\n"
	"                         and the class hierarchy it gets); DIR defaults to\n"
	"                         $XDG_CACHE_HOME/tracecanary/instrument (~/.cache/...)\n"
	"  --cache-max-mb N       the cache is trimmed to N MB after the run, least\n"
	"                         recently used entries first (default 1024)\n"
	"  --max-input-mb N       the largest file, archive entry (once inflated) or dex\n"
	"                         model read into memory (default 512): a larger one is an\n"
	"                         error, found before it is read\n"
	"  --quiet                no summary line on stderr\n"
	"  --help, -h, --version\n";

/* the rest of the help: one string would pass the 4,095 characters C99 promises */
static const char usage_diff[] =
	"\n"
	"diff compares two methodMapping.txt files and prints every method whose id changed,\n"
	"every added and every removed method, then a summary; its exit status is 1 when a\n"
	"method present in both changed its id.\n"
	"\n"
	"Exit status: 0 on success; 1 when the run failed (nothing is half-written: outputs are\n"
	"replaced atomically and the mapping files last); 2 on usage errors, outputs that\n"
	"clash included (an --out given twice, inside another, or equal to a file the run\n"
	"reads).\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "tc-instrument: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nRun tc-instrument --help for the options.\n");
	return 2;
}

static void report(const tc_error *err)
{
	char msg[2048];
	tc_error_format(err, msg, sizeof msg);
	fprintf(stderr, "tc-instrument: %s\n", msg);
}

static int do_diff(int argc, char **argv)
{
	if (argc != 4)
		return usage_error("diff takes two mapping files%s", "");
	tc_error err;
	tc_error_clear(&err);
	mapping *a = NULL, *b = NULL;
	if (mapping_load(&a, argv[2], &err) != TC_OK || mapping_load(&b, argv[3], &err) != TC_OK) {
		report(&err);
		mapping_free(a);
		return 2;
	}
	size_t changed = 0;
	mapping_diff(a, b, stdout, &changed, &err);
	mapping_free(a);
	mapping_free(b);
	return changed ? 1 : 0;
}

/* Accepts a.b.C or a/b/C; stores the internal form. */
static void internal_name(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
	for (char *p = dst; *p; p++)
		if (*p == '.')
			*p = '/';
}

/* The options, a row each in base/opt.h's table (tc-trace's layout); the usage above
 * documents every one (tests/compiler/cli/usage.sh checks that it does). */
enum {
	O_HELP, O_VERSION, O_IN, O_OUT, O_MAPPING_DIR, O_BASE_MAPPING, O_BLOCKLIST, O_PROGUARD,
	O_CLASSPATH, O_THREADS, O_BEAT_CLASS, O_DEFLATE_LEVEL, O_CACHE, O_CACHE_MAX_MB, O_MAX_INPUT_MB,
	O_STRICT, O_QUIET, O_NO_RUNTIME_CHECK, O_COUNT
};
#define RUN 1 /* the commands: a run (diff takes no options) */
static const tc_opt options[O_COUNT] = {
	[O_HELP] = { "--help", "-h", 0, RUN },
	[O_VERSION] = { "--version", NULL, 0, RUN },
	[O_IN] = { "--in", NULL, 1, RUN },
	[O_OUT] = { "--out", NULL, 1, RUN },
	[O_MAPPING_DIR] = { "--mapping-dir", NULL, 1, RUN },
	[O_BASE_MAPPING] = { "--base-mapping", NULL, 1, RUN },
	[O_BLOCKLIST] = { "--blocklist", NULL, 1, RUN },
	[O_PROGUARD] = { "--proguard-mapping", NULL, 1, RUN },
	[O_CLASSPATH] = { "--classpath", NULL, 1, RUN },
	[O_THREADS] = { "--threads", "-j", 1, RUN },      /* also -jN, as make takes it */
	[O_BEAT_CLASS] = { "--beat-class", NULL, 1, RUN },
	[O_DEFLATE_LEVEL] = { "--deflate-level", NULL, 1, RUN },
	[O_CACHE] = { "--cache", NULL, 0, RUN },          /* also --cache=DIR */
	[O_CACHE_MAX_MB] = { "--cache-max-mb", NULL, 1, RUN },
	[O_MAX_INPUT_MB] = { "--max-input-mb", NULL, 1, RUN },
	[O_STRICT] = { "--strict", NULL, 0, RUN },
	[O_QUIET] = { "--quiet", NULL, 0, RUN },
	[O_NO_RUNTIME_CHECK] = { "--no-runtime-check", NULL, 0, RUN },
};

/* The row argument a names, or -1; *attached is the value it carries itself (-j4,
 * --cache=DIR), else NULL. */
static int find_option(const char *a, const char **attached)
{
	*attached = NULL;
	int k = tc_opt_find(options, O_COUNT, a, false);
	if (k >= 0)
		return k;
	if (!strncmp(a, "--cache=", 8)) {
		*attached = a + 8;
		return O_CACHE;
	}
	if (!strncmp(a, "-j", 2) && a[2]) {
		*attached = a + 2;
		return O_THREADS;
	}
	return -1;
}

/* What the command line gives tc_instrument(), and what it holds for it. */
typedef struct cli {
	tc_options o;
	tc_pair *pairs;
	const char **cp;
	char **split;          /* --classpath copies, cut at the ':' */
	size_t nsplit;
	const char **pending;  /* the --in waiting for their --out */
	size_t npending;
	char beat[1024];
	char cache_dir[4096];
	bool stop;             /* --help or --version: printed, nothing to run */
} cli;

/* Option k, given as a, with its value v (NULL for an option without one): into c.
 * Returns the exit status so far (0, or 2 for a usage error, 1 without memory). */
static int set_option(cli *c, int k, const char *a, const char *v)
{
	tc_options *o = &c->o;
	char *end;
	long n;
	long long mb;
	switch (k) {
	case O_HELP:
		fputs(usage, stdout);
		fputs(usage_diff, stdout);
		c->stop = true;
		return 0;
	case O_VERSION:
		puts("tc-instrument " TC_VERSION);
		c->stop = true;
		return 0;
	case O_IN:
		c->pending[c->npending++] = v;
		return 0;
	case O_OUT:
		if (!c->npending)
			return usage_error("--out %s does not follow an --in", v);
		for (size_t p = 0; p < c->npending; p++)
			c->pairs[o->npairs++] = (tc_pair){c->pending[p], v, p > 0};
		c->npending = 0;
		return 0;
	case O_MAPPING_DIR:
		o->mapping_dir = v;
		return 0;
	case O_BASE_MAPPING:
		o->base_mapping = v;
		return 0;
	case O_BLOCKLIST:
		o->blocklist = v;
		return 0;
	case O_PROGUARD:
		o->proguard = v;
		return 0;
	case O_CLASSPATH: {
		/* a:b:c, each one an entry */
		char *copy = strdup(v);
		if (!copy)
			return 1;
		c->split[c->nsplit++] = copy;
		for (char *tok = strtok(copy, ":"); tok; tok = strtok(NULL, ":"))
			if (*tok)
				c->cp[o->nclasspath++] = tok;
		return 0;
	}
	case O_THREADS:
		n = strtol(v, &end, 10);
		o->threads = (int)n;
		return *end || n < 1 || n > 256 ? usage_error("--threads wants 1..256, not %s", v) : 0;
	case O_BEAT_CLASS:
		internal_name(c->beat, sizeof c->beat, v);
		return 0;
	case O_DEFLATE_LEVEL:
		n = strtol(v, &end, 10);
		o->deflate_level = (int)n;
		return *end || n < 1 || n > 9 ? usage_error("--deflate-level wants 1..9, not %s", v) : 0;
	case O_CACHE:
		if (v) {
			o->cache_dir = v;
		} else {
			const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
			if (xdg && *xdg)
				snprintf(c->cache_dir, sizeof c->cache_dir, "%s/tracecanary/instrument", xdg);
			else
				snprintf(c->cache_dir, sizeof c->cache_dir, "%s/.cache/tracecanary/instrument",
				         home && *home ? home : ".");
			o->cache_dir = c->cache_dir;
		}
		return *o->cache_dir ? 0 : usage_error("--cache= needs a directory%s", "");
	case O_CACHE_MAX_MB:
		mb = strtoll(v, &end, 10);
		o->cache_max_bytes = (uint64_t)mb << 20;
		return *end || mb < 1 || mb > (1LL << 40)
		               ? usage_error("--cache-max-mb wants a positive number of MB, not %s", v)
		               : 0;
	case O_MAX_INPUT_MB:
		mb = strtoll(v, &end, 10);
		o->max_input = (uint64_t)mb << 20;
		return *end || mb < 1 || mb > (1LL << 22)
		               ? usage_error("--max-input-mb wants a number of MB from 1 to 4194304, not %s", v)
		               : 0;
	case O_STRICT:
		o->strict = true;
		return 0;
	case O_QUIET:
		o->quiet = true;
		return 0;
	case O_NO_RUNTIME_CHECK:
		o->check_runtime = false;
		return 0;
	}
	return 0;
}

/* The arguments in order, each found in the table and set; stops at the first error, and
 * at --help or --version (c->stop). Returns the exit status so far. */
static int parse_args(cli *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int k = find_option(a, &v);
		if (k < 0)
			return usage_error("unknown argument %s", a);
		if (options[k].arg && !v) {
			if (i + 1 >= argc)
				return usage_error("%s needs a value", a);
			v = argv[++i];
		}
		int status = set_option(c, k, a, v);
		if (status || c->stop)
			return status;
	}
	if (c->npending)
		return usage_error("--in %s has no --out", c->pending[c->npending - 1]);
	if (!c->o.npairs)
		return usage_error("nothing to do: give --in INPUT --out OUTPUT%s", "");
	if (!c->o.mapping_dir)
		return usage_error("--mapping-dir is required%s", "");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "diff"))
		return do_diff(argc, argv);
	cli c = {.o = {.deflate_level = 0, .cache_max_bytes = (uint64_t)1024 << 20, .check_runtime = true}};
	c.pairs = calloc((size_t)argc, sizeof *c.pairs);
	c.cp = calloc((size_t)argc * 2 + 1, sizeof *c.cp);
	c.split = calloc((size_t)argc, sizeof *c.split);
	c.pending = calloc((size_t)argc, sizeof *c.pending);
	internal_name(c.beat, sizeof c.beat, DEFAULT_BEAT);
	if (!c.pairs || !c.cp || !c.split || !c.pending) {
		fprintf(stderr, "tc-instrument: no memory\n");
		return 1;
	}
	int status = parse_args(&c, argc, argv);
	if (!status && !c.stop) {
		c.o.pairs = c.pairs;
		c.o.classpath = c.cp;
		c.o.beat = c.beat;
		tc_error err;
		tc_error_clear(&err);
		if (tc_check_paths(&c.o, &err) != TC_OK) {
			/* clashing outputs are a usage error: nothing was read or written */
			report(&err);
			status = 2;
		} else if (tc_instrument(&c.o, &err) != TC_OK) {
			report(&err);
			status = 1;
		}
	}
	for (size_t i = 0; i < c.nsplit; i++)
		free(c.split[i]);
	free(c.split);
	free(c.pending);
	free(c.pairs);
	free(c.cp);
	return status;
}

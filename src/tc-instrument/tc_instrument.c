/* tc-instrument: the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/instrument.h"
#include "maps/base_mapping.h"

#define DEFAULT_BEAT "com/tencent/matrix/trace/core/AppMethodBeat"

static const char usage[] =
	"usage: tc-instrument [OPTIONS] --mapping-dir DIR --in INPUT --out OUTPUT [--in INPUT --out OUTPUT]...\n"
	"       tc-instrument diff OLD_MAPPING NEW_MAPPING\n"
	"\n"
	"Instruments class directories, jars, dex files and APKs for method tracing, as\n"
	"Tencent Matrix's TraceCanary transform does: AppMethodBeat.i(id) at every traced\n"
	"method's entry, AppMethodBeat.o(id) at every exit (exceptional exits included) and\n"
	"AppMethodBeat.at(activity, hasFocus) in Activities' onWindowFocusChanged.\n"
	"\n"
	"Inputs and outputs (each --in is paired with the --out that follows it):\n"
	"  --in PATH              a class directory, a jar, a dex file or an APK to\n"
	"                         instrument (directories and jars: their class files and\n"
	"                         classes*.dex files)\n"
	"  --out PATH             where its instrumented copy goes: a directory for a\n"
	"                         directory, a jar for a jar, a dex file for a dex file, an\n"
	"                         APK for an APK (aligned; sign it with apksigner); may\n"
	"                         equal --in\n"
	"  --mapping-dir DIR      receives methodMapping.txt, ignoreMethodMapping.txt and\n"
	"                         instrument-stats.json\n"
	"\n"
	"Options:\n"
	"  --base-mapping FILE    methodMapping.txt of an earlier build: its methods keep\n"
	"                         their ids, new methods continue after its largest id\n"
	"  --blocklist FILE       classes and methods never to trace, in original names:\n"
	"                         -keepclass a.b.C, -keeppackage a/b/, -keepregex PATTERN,\n"
	"                         -keepmethod a.b.C name (desc)\n"
	"                         ('#' comments, [section] headers; see README)\n"
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
	"  --strict               a malformed class is an error (default: copied unchanged\n"
	"                         and reported)\n"
	"  --deflate-level N      compression of rewritten jar entries, 1..9 (default 6)\n"
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
	"  --help, -h, --version\n"
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

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "diff"))
		return do_diff(argc, argv);
	tc_options o = {.deflate_level = 6, .cache_max_bytes = (uint64_t)1024 << 20};
	char cache_dir[4096];
	tc_pair *pairs = calloc((size_t)argc, sizeof *pairs);
	const char **cp = calloc((size_t)argc * 2 + 1, sizeof *cp);
	char **split = calloc((size_t)argc, sizeof *split);
	char beat[1024];
	internal_name(beat, sizeof beat, DEFAULT_BEAT);
	int status = 0;
	size_t nsplit = 0;
	if (!pairs || !cp || !split) {
		fprintf(stderr, "tc-instrument: no memory\n");
		return 1;
	}
	const char *pending_in = NULL;
	for (int i = 1; i < argc && !status; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define VALUE()                                                     \
	do {                                                        \
		if (!v) {                                           \
			status = usage_error("%s needs a value", a); \
			goto done;                                  \
		}                                                   \
		i++;                                                \
	} while (0)
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			goto done;
		} else if (!strcmp(a, "--version")) {
			puts("tc-instrument " TC_VERSION);
			goto done;
		} else if (!strcmp(a, "--in")) {
			VALUE();
			if (pending_in)
				status = usage_error("--in %s has no --out", pending_in);
			pending_in = v;
		} else if (!strcmp(a, "--out")) {
			VALUE();
			if (!pending_in)
				status = usage_error("--out %s does not follow an --in", v);
			else
				pairs[o.npairs++] = (tc_pair){pending_in, v};
			pending_in = NULL;
		} else if (!strcmp(a, "--mapping-dir")) {
			VALUE();
			o.mapping_dir = v;
		} else if (!strcmp(a, "--base-mapping")) {
			VALUE();
			o.base_mapping = v;
		} else if (!strcmp(a, "--blocklist")) {
			VALUE();
			o.blocklist = v;
		} else if (!strcmp(a, "--proguard-mapping")) {
			VALUE();
			o.proguard = v;
		} else if (!strcmp(a, "--classpath")) {
			VALUE();
			/* a:b:c, each one an entry */
			char *copy = strdup(v);
			if (!copy) {
				status = 1;
				break;
			}
			split[nsplit++] = copy;
			for (char *tok = strtok(copy, ":"); tok; tok = strtok(NULL, ":"))
				if (*tok)
					cp[o.nclasspath++] = tok;
		} else if (!strcmp(a, "--threads") || !strcmp(a, "-j") ||
		           (!strncmp(a, "-j", 2) && a[2])) {
			if (a[1] == 'j' && a[2])
				v = a + 2; /* -j4, as make takes it */
			else
				VALUE();
			char *end;
			long n = strtol(v, &end, 10);
			if (*end || n < 1 || n > 256)
				status = usage_error("--threads wants 1..256, not %s", v);
			o.threads = (int)n;
		} else if (!strcmp(a, "--beat-class")) {
			VALUE();
			internal_name(beat, sizeof beat, v);
		} else if (!strcmp(a, "--deflate-level")) {
			VALUE();
			char *end;
			long n = strtol(v, &end, 10);
			if (*end || n < 1 || n > 9)
				status = usage_error("--deflate-level wants 1..9, not %s", v);
			o.deflate_level = (int)n;
		} else if (!strcmp(a, "--cache") || !strncmp(a, "--cache=", 8)) {
			if (a[7] == '=') {
				o.cache_dir = a + 8;
			} else {
				const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
				if (xdg && *xdg)
					snprintf(cache_dir, sizeof cache_dir, "%s/tracecanary/instrument", xdg);
				else
					snprintf(cache_dir, sizeof cache_dir, "%s/.cache/tracecanary/instrument",
					         home && *home ? home : ".");
				o.cache_dir = cache_dir;
			}
			if (!*o.cache_dir)
				status = usage_error("--cache= needs a directory%s", "");
		} else if (!strcmp(a, "--cache-max-mb")) {
			VALUE();
			char *end;
			long long n = strtoll(v, &end, 10);
			if (*end || n < 1 || n > (1LL << 40))
				status = usage_error("--cache-max-mb wants a positive number of MB, not %s", v);
			o.cache_max_bytes = (uint64_t)n << 20;
		} else if (!strcmp(a, "--max-input-mb")) {
			VALUE();
			char *end;
			long long n = strtoll(v, &end, 10);
			if (*end || n < 1 || n > (1LL << 22))
				status = usage_error("--max-input-mb wants a number of MB from 1 to 4194304, not %s", v);
			o.max_input = (uint64_t)n << 20;
		} else if (!strcmp(a, "--strict")) {
			o.strict = true;
		} else if (!strcmp(a, "--quiet")) {
			o.quiet = true;
		} else {
			status = usage_error("unknown argument %s", a);
		}
#undef VALUE
	}
	if (!status && pending_in)
		status = usage_error("--in %s has no --out", pending_in);
	if (!status && !o.npairs)
		status = usage_error("nothing to do: give --in INPUT --out OUTPUT%s", "");
	if (!status && !o.mapping_dir)
		status = usage_error("--mapping-dir is required%s", "");
	if (!status) {
		o.pairs = pairs;
		o.classpath = cp;
		o.beat = beat;
		tc_error err;
		tc_error_clear(&err);
		if (tc_check_paths(&o, &err) != TC_OK) {
			/* clashing outputs are a usage error: nothing was read or written */
			report(&err);
			status = 2;
		} else if (tc_instrument(&o, &err) != TC_OK) {
			report(&err);
			status = 1;
		}
	}
done:
	for (size_t i = 0; i < nsplit; i++)
		free(split[i]);
	free(split);
	free(pairs);
	free(cp);
	return status;
}

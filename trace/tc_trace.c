/* tc-trace: makes what the runtime recorded readable. Reads a ring file
 * (tc_ringfile.h; also one left by a killed process) and the thread file
 * next to it (threads = all), the report lines (reportPath) and
 * methodMapping.txt, and writes a call tree, the reports with decoded stacks,
 * Chrome Trace Event JSON or an SVG flame graph, for one thread or all.
 * See `tc-trace --help` and runtime/README.md.
 *
 * Exit status: 0 ok, 1 an input could not be read or decoded, 2 usage. */
#include <errno.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "try.h"
#include "bytes.h"
#include "tc_analysis.h"
#include "tc_ringfile.h"
#include "trace_chrome.h"
#include "trace_compare.h"
#include "trace_fleet.h"
#include "trace_cmp_html.h"
#include "trace_dflame.h"
#include "trace_flame.h"
#include "trace_hot.h"
#include "trace_html.h"
#include "trace_io.h"
#include "json_read.h"
#include "method_mapping.h"
#include "trace_lines.h"
#include "trace_mapping.h"
#include "trace_recording.h"
#include "trace_perfetto.h"
#include "trace_report.h"
#include "trace_spans.h"
#include "trace_text.h"
#include "trace_tree.h"

enum {
	C_TREE = 1, C_MESSAGES = 2, C_REPORTS = 4, C_CHROME = 8, C_FLAME = 16, C_HOT = 32, C_HTML = 64,
	C_SECTIONS = 128, C_PERFETTO = 256, C_COMPARE = 512, C_ALL = 1023
};
#define C_VIEWS (C_TREE | C_CHROME | C_PERFETTO | C_FLAME)

static const struct command {
	const char *name;
	int bit;
	const char *summary;
	const char *usage;
	const char *details; /* its options' paragraph of the manual, or NULL */
} commands[] = {
	{ "tree", C_TREE, "the call tree of a ring (or of a slice): self and total ms, calls",
	  "tc-trace tree --ring FILE [--mapping FILE] [SLICE] [--thread T] [--sort total|call|calls]\n"
	  "              [--min-ms N] [--max-depth N] [-o OUT]",
	  "tree:     --sort total|call|calls (default total: heaviest first), --min-ms N (leave\n"
	  "          out shorter nodes), --max-depth N\n" },
	{ "messages", C_MESSAGES, "the messages (dispatch markers) of a ring, numbered for --message",
	  "tc-trace messages --ring FILE [--mapping FILE] [--end MS] [--sort call|dur] [-o OUT]",
	  "messages: --sort call|dur (default call: in the order they ran; dur: the slowest first)\n" },
	{ "sections", C_SECTIONS, "the sections (named intervals) of every thread, for --section",
	  "tc-trace sections --ring FILE [--thread T] [--end MS] [-o OUT]", NULL },
	{ "reports", C_REPORTS, "the report lines with their stack and stackKey decoded",
	  "tc-trace reports --reports FILE [--mapping FILE] [--format json|text] [--tag TAG]\n"
	  "                 [--keep-going] [-o OUT]",
	  "reports:  --format json (default: each line with \"stackDecoded\" and \"stackKeyDecoded\"\n"
	  "          added) | text, --tag TAG (only these), --keep-going (skip bad lines, with a\n"
	  "          warning, instead of stopping)\n" },
	{ "chrome", C_CHROME, "Chrome Trace Event JSON of a ring (ui.perfetto.dev, chrome://tracing)",
	  "tc-trace chrome --ring FILE [--mapping FILE] [SLICE] [--thread T] [--reports FILE]\n"
	  "                [--events be|x] [--names short|full] [--min-us US] [-o OUT]",
	  "chrome:   --events be (B/E pairs, default) | x (complete events), --names short (default:\n"
	  "          class.method) | full (with the descriptor), --reports FILE (mark each report\n"
	  "          as an instant event at its time), --min-us US (leave out spans shorter than\n"
	  "          this, default 1000: the ring's clock ticks in ms; 0 keeps every span); ts are\n"
	  "          microseconds on the ring's clock (CLOCK_MONOTONIC), to line up with a system trace\n" },
	{ "perfetto", C_PERFETTO, "a Perfetto protobuf trace of a ring (ui.perfetto.dev, Android Studio)",
	  "tc-trace perfetto --ring FILE [--mapping FILE] [SLICE] [--thread T] [--reports FILE]\n"
	  "                  [--names short|full] [--min-us US] -o OUT",
	  "perfetto: Perfetto's own format (TracePacket/TrackEvent protobuf): every span by default\n"
	  "          (--min-us 0), names interned, a track per thread with its methods nested in\n"
	  "          its messages, a track of the messages and one of the sections, reports as\n"
	  "          instant events with their fields as arguments; nanoseconds on CLOCK_MONOTONIC,\n"
	  "          named in the trace, so a system trace of the same time loads beside it.\n"
	  "          Binary: -o OUT, or standard output when it is not a terminal\n" },
	{ "flame", C_FLAME, "an SVG flame graph of a ring slice or of one report's stack",
	  "tc-trace flame --ring FILE [--mapping FILE] [SLICE] [--thread T] [--title T] [--width PX]\n"
	  "               [--sort call|total] [-o OUT]\n"
	  "tc-trace flame --reports FILE --report LINE [--mapping FILE] [--title T] [-o OUT]",
	  "flame:    --report LINE (the stack of the report on that line of --reports instead of a\n"
	  "          ring), --title TEXT, --width PX (default 1200), --sort call|total\n" },
	{ "hot", C_HOT, "the often-called short methods, as a block list for tc-instrument",
	  "tc-trace hot --ring FILE --mapping FILE [SLICE] [--min-calls N] [--max-avg-us U]\n"
	  "             [--keep-ms T] [-o OUT]",
	  "hot:      the methods called at least --min-calls N times (default 1000) for less than\n"
	  "          --max-avg-us U microseconds on average (default 20), leaving out any whose\n"
	  "          total time reached --keep-ms T ms (default: none left out), as -keepmethod\n"
	  "          rules, most called first (tc-instrument --blocklist reads them)\n" },
	{ "html", C_HTML, "one self-contained HTML report: threads, methods, call stacks, reports",
	  "tc-trace html --ring FILE [--mapping FILE] [--reports FILE] [--end MS] [--title T]\n"
	  "              [-o OUT]",
	  "html:     one HTML file, its CSS and JS inline (it opens from file:// without a network):\n"
	  "          busy time per thread, the methods of a thread or under a method (calls, total\n"
	  "          and self ms, in call order or by cost), every call stack that reached a method,\n"
	  "          each report of --reports with its stack and flame graph, FPS and dropped-frame\n"
	  "          charts, the start-up phases; a time window or a message is chosen in the page\n" },
	{ "compare", C_COMPARE, "what got slower between two builds: per method, message and section",
	  "tc-trace compare --a RING|REPORTS... --a-mapping FILE\n"
	  "                 --b RING|REPORTS... --b-mapping FILE\n"
	  "                 [--by self|total] [--format text|json] [--top N] [--alpha A]\n"
	  "                 [--tick-ms MS] [--fail-on self|total:+P%,Nms] [--flame SVG]\n"
	  "                 [--html FILE] [--title T] [--width PX] [-o OUT]",
	  "compare:  A (--a, the old build) against B (--b, the new one): each side one or more\n"
	  "          rings (--a r1 r2 ... or --a r1 --a r2) of its build, checked against its own\n"
	  "          mapping (--a-mapping, --b-mapping); methods are matched by name (class, method,\n"
	  "          descriptor: ids may differ between builds). Per method, message kind (by its\n"
	  "          handler) and section: calls, total and self ms per recording on each side, the\n"
	  "          difference, and a verdict: noise (under one clock tick per call; --tick-ms,\n"
	  "          default the rings' tick), and with 2 or more rings per side slower/faster/same\n"
	  "          by a Mann-Whitney U test with Holm's correction at --alpha (default 0.01); with\n"
	  "          one ring on a side, significance cannot be judged. --by self (default) | total\n"
	  "          orders the table (significant regressions first); --top N rows per table\n"
	  "          (default 40, 0 all); --format json (every row). --fail-on self:+10%,5ms (or\n"
	  "          total:..., repeatable): exit 1 naming every row that grew at least that much,\n"
	  "          significantly (or, one ring on a side, past the noise). --flame SVG: a\n"
	  "          differential flame graph (widths B's time, red grew, blue shrank; --title,\n"
	  "          --width). --html FILE: a page with the two sides' timelines of a chosen\n"
	  "          message kind, one above the other. Report files (one per device) in place of rings: per stack\n"
	  "          (detail and stackKey, by name), reports per file and median cost on each\n"
	  "          side, which stacks are significantly more often, slower, or new in B\n" },
};

static const char help_inputs[] =
	"\n"
	"Inputs:\n"
	"  -m, --mapping FILE   methodMapping.txt from tc-instrument; ids without an entry show\n"
	"                       as #id (and all of them do without this option)\n"
	"  --ignore-build-id    decode with --mapping even when the ring or a report line was\n"
	"                       recorded by another build (its build id, from tc-instrument's\n"
	"                       marker class, differs from the mapping's: the names would be\n"
	"                       wrong); without it, that is an error (html and chrome leave such\n"
	"                       report lines out)\n"
	"  --ring FILE          a ring file (Config.bufferPath), also one left by a killed process;\n"
	"                       with threads = all, the thread file FILE-threads is read with it.\n"
	"                       Each launch keeps the ring the run before left as FILE.prev (with\n"
	"                       FILE.prev-threads): --ring FILE.prev reads it\n"
	"  --thread T           all (default), main (the recording thread), a thread id or a\n"
	"                       thread's name: a tree or flame graph of several threads has a\n"
	"                       node per thread, a Chrome trace a track per thread\n"
	"  --reports FILE       report lines (Config.reportPath); '-' reads standard input\n"
	"  -o, --output FILE    write here ('-': standard output, the default); written to a\n"
	"                       temporary file and renamed into place on success; one of\n"
	"                       the inputs is refused (exit 2)\n"
	"\n"
	"SLICE (tree, chrome, flame, hot; default: the whole ring):\n"
	"  --from MS, --to MS   the methods running between these times (ms since the ring's\n"
	"                       time base, as `messages` and the tree show them), clipped to them\n"
	"  --message N[..M]     message N (from 0, see `messages`) or messages N to M, with all\n"
	"                       they called (other threads: what ran meanwhile)\n"
	"  --section NAME       the times section NAME ran (see `sections`; on any thread), and\n"
	"                       on each thread what ran then\n"
	"  --end MS             close methods still running at MS (default: the last event's\n"
	"                       time; a process killed mid-message leaves such methods)\n"
	"\n";

static const char help_exit[] =
	"\n"
	"Exit status: 0 ok; 1 an input is missing or malformed (the message names the file and\n"
	"the line, or the byte offset in a ring), or compare --fail-on crossed; 2 usage.\n";

/* Prints a command's usage lines, the first after `first`, the others
 * after as many spaces. */
static void put_usage(FILE *f, const char *first, const char *usage)
{
	size_t pad = strlen(first);
	for (const char *s = usage; *s;) {
		const char *nl = strchr(s, '\n');
		int n = nl ? (int)(nl - s) : (int)strlen(s);
		fprintf(f, "%*s%.*s\n", (int)pad, s == usage ? first : "", n, s);
		s += n + (nl ? 1 : 0);
	}
}

static void usage_all(FILE *f, int full)
{
	fputs("usage: tc-trace COMMAND [OPTIONS]   (tc-trace help COMMAND for one command)\n\nCommands:\n", f);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	if (!full)
		return;
	fputs("\nUsage:\n", f);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		put_usage(f, "  ", commands[i].usage);
	fputs(help_inputs, f);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (commands[i].details)
			fputs(commands[i].details, f);
	fputs(help_exit, f);
}

/* One command's manual: its usage, the inputs, its own options. */
static void usage_one(FILE *f, const struct command *c)
{
	put_usage(f, "usage: ", c->usage);
	fputs(help_inputs, f);
	if (c->details)
		fputs(c->details, f);
	fputs(help_exit, f);
}

typedef struct opts {
	const struct command *cmd;
	const char *mapping, *ring, *reports, *output, *thread, *section;
	tr_slice slice;
	uint64_t end_ms;
	tr_order order;
	int order_set;
	int msg_by_dur; /* messages --sort dur */
	uint64_t min_ms;
	size_t max_depth;
	int text;
	const char *tag;
	int keep_going;
	int ignore_build_id;
	int complete;
	tr_name_style names;
	uint64_t report_line;
	const char *title;
	unsigned width;
	int from_set, to_set;
	tr_hot_opts hot;
	uint64_t min_us;
	/* compare: the sides' recordings (argv's) and mappings */
	const char **side[2];
	size_t nside[2];
	const char *side_map[2];
	tr_cmp_opts cmp;
	int format_set;
	uint64_t top;
	tr_cmp_gate gates[8];
	size_t ngates;
	int quiet_prev; /* no note about FILE.prev */
	const char *flame;
	const char *cmp_html; /* compare --html */
} opts;

static int bad_usage(const char *fmt, ...) TC_PRINTF(1, 2);

static int bad_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("tc-trace: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\n(tc-trace --help for usage)\n", stderr);
	va_end(ap);
	return 2;
}

/* Whether path names the file st is (the same inode: a link, "./", ".." included). */
static int same_file(const char *path, const struct stat *st)
{
	struct stat in;
	return path && stat(path, &in) == 0 && in.st_dev == st->st_dev && in.st_ino == st->st_ino;
}

/* -o that is one of the inputs would replace it (a ring off a phone is often the only
 * copy): a usage error, as tc-instrument's clashing outputs are. Compared as the file
 * system resolves them; an output that does not exist yet is no input. */
static int output_clash(const opts *o)
{
	struct stat st;
	if (!o->output || !strcmp(o->output, "-") || stat(o->output, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	const struct {
		const char *opt, *path;
	} in[] = { { "--ring", o->ring }, { "--mapping", o->mapping }, { "--reports", o->reports } };
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
		if (same_file(in[i].path, &st))
			return bad_usage("-o %s is the %s input %s: it would be replaced; write the output elsewhere",
			                 o->output, in[i].opt, in[i].path);
	if (o->ring) {
		/* the ring's thread file, read beside it */
		size_t n = strlen(o->ring);
		char *tp = malloc(n + sizeof "-threads");
		int clash = 0;
		if (tp) {
			memcpy(tp, o->ring, n);
			memcpy(tp + n, "-threads", sizeof "-threads");
			clash = same_file(tp, &st);
			if (clash)
				bad_usage("-o %s is the thread file %s of --ring %s: it would be replaced; write the output "
				          "elsewhere",
				          o->output, tp, o->ring);
			free(tp);
		}
		if (clash)
			return 2;
	}
	return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
	if (!*s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* "N" or "N..M" (also "N-M") */
static int parse_range(const char *s, size_t *first, size_t *last)
{
	char buf[64];
	if (strlen(s) >= sizeof buf)
		return -1;
	strcpy(buf, s);
	char *sep = strstr(buf, "..");
	size_t skip = 2;
	if (!sep) {
		sep = strchr(buf, '-');
		skip = 1;
	}
	uint64_t a, b;
	if (sep) {
		*sep = '\0';
		if (parse_u64(buf, &a) || parse_u64(sep + skip, &b))
			return -1;
	} else {
		if (parse_u64(buf, &a))
			return -1;
		b = a;
	}
	if (a > SIZE_MAX || b > SIZE_MAX)
		return -1;
	*first = (size_t)a;
	*last = (size_t)b;
	return 0;
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* compare's sides: both given, each with its mapping, no recording twice
 * (a ring compared with itself, or counted twice on one side) */
static int compare_args(const opts *o)
{
	for (int s = 0; s < 2; s++) {
		if (!o->nside[s])
			return bad_usage("compare needs recordings on both sides: --%c RING... has none", 'a' + s);
		if (!o->side_map[s])
			return bad_usage("compare needs --%c-mapping FILE: the methodMapping.txt of the build that recorded "
			                 "side %c (its methods are matched by name)", 'a' + s, 'A' + s);
	}
	size_t n = o->nside[0] + o->nside[1];
	for (size_t i = 0; i < n; i++) {
		const char *x = i < o->nside[0] ? o->side[0][i] : o->side[1][i - o->nside[0]];
		struct stat sx;
		int hx = stat(x, &sx) == 0;
		for (size_t j = i + 1; j < n; j++) {
			const char *y = j < o->nside[0] ? o->side[0][j] : o->side[1][j - o->nside[0]];
			struct stat sy;
			if (strcmp(x, y) == 0 || (hx && stat(y, &sy) == 0 && sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino))
				return bad_usage("%s%s%s is given twice (%s): a recording would be %s", x, strcmp(x, y) ? " and " : "",
				                 strcmp(x, y) ? y : "",
				                 (i < o->nside[0]) != (j < o->nside[0]) ? "on both sides" : "on one side",
				                 (i < o->nside[0]) != (j < o->nside[0]) ? "compared with itself" : "counted twice");
		}
	}
	return 0;
}

static int parse_args(int argc, char **argv, opts *o)
{
	memset(o, 0, sizeof *o);
	o->end_ms = TR_NO_TIME;
	o->order = TR_ORDER_TOTAL;
	o->names = TR_NAME_SHORT;
	o->slice.kind = TR_SLICE_ALL;
	o->slice.to_ms = TR_NO_TIME;
	o->hot.min_calls = 1000;
	o->hot.max_avg_us = 20;
	o->cmd = find_command(argv[1]);
	if (!o->cmd)
		return bad_usage("unknown command \"%s\"", argv[1]);
	o->cmp.by = TR_CMP_BY_SELF;
	o->top = 40;
	/* Chrome's JSON grows with every span; Perfetto's protobuf is made for them all */
	o->min_us = o->cmd->bit == C_PERFETTO ? 0 : 1000;
	if (o->cmd->bit == C_COMPARE) {
		o->side[0] = malloc((size_t)argc * sizeof *o->side[0]);
		o->side[1] = malloc((size_t)argc * sizeof *o->side[1]);
		if (!o->side[0] || !o->side[1])
			return bad_usage("out of memory");
	}
	for (int i = 2; i < argc; i++) {
		char *a = argv[i];
		char *val = NULL;
		char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
		char name[32];
		if (eq) {
			size_t n = (size_t)(eq - a);
			if (n >= sizeof name)
				return bad_usage("unknown option %s", a);
			memcpy(name, a, n);
			name[n] = '\0';
			val = eq + 1;
		} else {
			if (strlen(a) >= sizeof name)
				return bad_usage("unknown option %s", a);
			strcpy(name, a);
		}
		static const struct {
			const char *l, *s;
			int arg, cmds;
		} table[] = {
			{ "--mapping", "-m", 1, C_ALL },
			{ "--ring", NULL, 1, C_VIEWS | C_MESSAGES | C_SECTIONS | C_HOT | C_HTML },
			{ "--reports", NULL, 1, C_REPORTS | C_CHROME | C_PERFETTO | C_FLAME | C_HTML },
			{ "--output", "-o", 1, C_ALL },        { "--from", NULL, 1, C_VIEWS | C_HOT },
			{ "--to", NULL, 1, C_VIEWS | C_HOT },  { "--message", NULL, 1, C_VIEWS | C_HOT },
			{ "--section", NULL, 1, C_VIEWS | C_HOT },     { "--thread", NULL, 1, C_VIEWS | C_SECTIONS },
			{ "--end", NULL, 1, C_VIEWS | C_MESSAGES | C_SECTIONS | C_HOT | C_HTML },
			{ "--sort", NULL, 1, C_TREE | C_FLAME | C_MESSAGES }, { "--min-ms", NULL, 1, C_TREE },
			{ "--max-depth", NULL, 1, C_TREE },    { "--format", NULL, 1, C_REPORTS | C_COMPARE },
			{ "--tag", NULL, 1, C_REPORTS },       { "--keep-going", NULL, 0, C_REPORTS },
			{ "--events", NULL, 1, C_CHROME },     { "--names", NULL, 1, C_CHROME | C_PERFETTO },
			{ "--report", NULL, 1, C_FLAME },      { "--title", NULL, 1, C_FLAME | C_HTML | C_COMPARE },
			{ "--width", NULL, 1, C_FLAME | C_COMPARE }, { "--help", "-h", 0, C_ALL },
			{ "--min-calls", NULL, 1, C_HOT },     { "--max-avg-us", NULL, 1, C_HOT },
			{ "--keep-ms", NULL, 1, C_HOT },       { "--min-us", NULL, 1, C_CHROME | C_PERFETTO },
			{ "--ignore-build-id", NULL, 0, C_ALL },
			{ "--a", NULL, 1, C_COMPARE },         { "--b", NULL, 1, C_COMPARE },
			{ "--a-mapping", NULL, 1, C_COMPARE }, { "--b-mapping", NULL, 1, C_COMPARE },
			{ "--by", NULL, 1, C_COMPARE },        { "--top", NULL, 1, C_COMPARE },
			{ "--alpha", NULL, 1, C_COMPARE },     { "--tick-ms", NULL, 1, C_COMPARE },
			{ "--fail-on", NULL, 1, C_COMPARE },   { "--flame", NULL, 1, C_COMPARE },
			{ "--html", NULL, 1, C_COMPARE },
		};
		int k = -1;
		for (int t = 0; t < (int)(sizeof table / sizeof table[0]); t++)
			if (strcmp(name, table[t].l) == 0 || (table[t].s && !eq && strcmp(name, table[t].s) == 0))
				k = t;
		if (k < 0)
			return bad_usage("unknown option %s", a);
		if (!(table[k].cmds & o->cmd->bit))
			return bad_usage("option %s does not apply to %s", table[k].l, o->cmd->name);
		if (table[k].arg && !val) {
			if (i + 1 >= argc)
				return bad_usage("option %s needs a value", table[k].l);
			val = argv[++i];
		} else if (!table[k].arg && val) {
			return bad_usage("option %s takes no value", table[k].l);
		}
		const char *l = table[k].l;
		uint64_t u;
		if (strcmp(l, "--help") == 0) {
			usage_one(stdout, o->cmd);
			return 3;
		} else if (strcmp(l, "--mapping") == 0) {
			if (o->cmd->bit == C_COMPARE)
				return bad_usage("compare takes a mapping per side: --a-mapping and --b-mapping");
			o->mapping = val;
		} else if (strcmp(l, "--a") == 0 || strcmp(l, "--b") == 0) {
			int sd = l[2] == 'b';
			o->side[sd][o->nside[sd]++] = val;
			/* --a r1 r2 ...: the words up to the next option are this side's too */
			while (i + 1 < argc && argv[i + 1][0] != '-')
				o->side[sd][o->nside[sd]++] = argv[++i];
		} else if (strcmp(l, "--flame") == 0) {
			o->flame = val;
		} else if (strcmp(l, "--html") == 0) {
			o->cmp_html = val;
		} else if (strcmp(l, "--a-mapping") == 0 || strcmp(l, "--b-mapping") == 0) {
			o->side_map[l[2] == 'b'] = val;
		} else if (strcmp(l, "--by") == 0) {
			if (strcmp(val, "self") && strcmp(val, "total"))
				return bad_usage("--by is self or total, not \"%s\"", val);
			o->cmp.by = strcmp(val, "self") == 0 ? TR_CMP_BY_SELF : TR_CMP_BY_TOTAL;
		} else if (strcmp(l, "--top") == 0) {
			if (parse_u64(val, &o->top))
				return bad_usage("--top needs a number, got \"%s\"", val);
		} else if (strcmp(l, "--alpha") == 0 || strcmp(l, "--tick-ms") == 0) {
			char *end;
			double v = strtod(val, &end);
			int alpha = l[2] == 'a';
			if (end == val || *end || !(v > 0) || (alpha ? v >= 0.5 : v > 1000))
				return bad_usage("%s needs %s, got \"%s\"", l, alpha ? "a level in (0, 0.5)" : "milliseconds in (0, 1000]",
				                 val);
			*(alpha ? &o->cmp.alpha : &o->cmp.tick_ms) = v;
		} else if (strcmp(l, "--fail-on") == 0) {
			if (o->ngates == sizeof o->gates / sizeof o->gates[0])
				return bad_usage("at most %zu --fail-on", sizeof o->gates / sizeof o->gates[0]);
			if (tr_cmp_gate_parse(&o->gates[o->ngates++], val))
				return bad_usage("--fail-on is self|total:+P%%,Nms (e.g. self:+10%%,5ms), not \"%s\"", val);
		} else if (strcmp(l, "--ignore-build-id") == 0) {
			o->ignore_build_id = 1;
		} else if (strcmp(l, "--ring") == 0) {
			o->ring = val;
		} else if (strcmp(l, "--reports") == 0) {
			o->reports = val;
		} else if (strcmp(l, "--output") == 0) {
			o->output = val;
		} else if (strcmp(l, "--thread") == 0) {
			o->thread = val;
		} else if (strcmp(l, "--section") == 0) {
			if (o->slice.kind != TR_SLICE_ALL)
				return bad_usage("--section, --from/--to and --message are exclusive");
			o->section = val;
		} else if (strcmp(l, "--from") == 0 || strcmp(l, "--to") == 0) {
			if (parse_u64(val, &u))
				return bad_usage("%s needs milliseconds, got \"%s\"", l, val);
			if (o->slice.kind == TR_SLICE_MESSAGES || o->section)
				return bad_usage("--section, --from/--to and --message are exclusive");
			o->slice.kind = TR_SLICE_TIME;
			if (l[2] == 'f') {
				o->slice.from_ms = u;
				o->from_set = 1;
			} else {
				o->slice.to_ms = u;
				o->to_set = 1;
			}
		} else if (strcmp(l, "--message") == 0) {
			if (o->slice.kind == TR_SLICE_TIME || o->section)
				return bad_usage("--section, --from/--to and --message are exclusive");
			if (parse_range(val, &o->slice.first_msg, &o->slice.last_msg))
				return bad_usage("--message needs N or N..M, got \"%s\"", val);
			o->slice.kind = TR_SLICE_MESSAGES;
		} else if (strcmp(l, "--end") == 0) {
			if (parse_u64(val, &o->end_ms) || o->end_ms == TR_NO_TIME)
				return bad_usage("--end needs milliseconds, got \"%s\"", val);
		} else if (strcmp(l, "--sort") == 0 && o->cmd->bit == C_MESSAGES) {
			if (strcmp(val, "dur") && strcmp(val, "call"))
				return bad_usage("--sort of messages is call or dur, not \"%s\"", val);
			o->msg_by_dur = val[0] == 'd';
		} else if (strcmp(l, "--sort") == 0) {
			if (strcmp(val, "total") == 0)
				o->order = TR_ORDER_TOTAL;
			else if (strcmp(val, "call") == 0)
				o->order = TR_ORDER_CALL;
			else if (strcmp(val, "calls") == 0)
				o->order = TR_ORDER_CALLS;
			else
				return bad_usage("--sort is total, call or calls, not \"%s\"", val);
			o->order_set = 1;
		} else if (strcmp(l, "--min-ms") == 0) {
			if (parse_u64(val, &o->min_ms))
				return bad_usage("--min-ms needs milliseconds, got \"%s\"", val);
		} else if (strcmp(l, "--max-depth") == 0) {
			if (parse_u64(val, &u) || u > SIZE_MAX)
				return bad_usage("--max-depth needs a number, got \"%s\"", val);
			o->max_depth = (size_t)u;
		} else if (strcmp(l, "--format") == 0) {
			if (strcmp(val, "json") && strcmp(val, "text"))
				return bad_usage("--format is json or text, not \"%s\"", val);
			o->text = strcmp(val, "text") == 0;
			o->format_set = 1;
		} else if (strcmp(l, "--tag") == 0) {
			o->tag = val;
		} else if (strcmp(l, "--keep-going") == 0) {
			o->keep_going = 1;
		} else if (strcmp(l, "--events") == 0) {
			if (strcmp(val, "be") && strcmp(val, "x"))
				return bad_usage("--events is be or x, not \"%s\"", val);
			o->complete = strcmp(val, "x") == 0;
		} else if (strcmp(l, "--names") == 0) {
			if (strcmp(val, "short") && strcmp(val, "full"))
				return bad_usage("--names is short or full, not \"%s\"", val);
			o->names = strcmp(val, "full") == 0 ? TR_NAME_FULL : TR_NAME_SHORT;
		} else if (strcmp(l, "--report") == 0) {
			if (parse_u64(val, &o->report_line) || o->report_line == 0)
				return bad_usage("--report needs a line number (from 1), got \"%s\"", val);
		} else if (strcmp(l, "--title") == 0) {
			o->title = val;
		} else if (strcmp(l, "--min-calls") == 0 || strcmp(l, "--max-avg-us") == 0 || strcmp(l, "--keep-ms") == 0) {
			if (parse_u64(val, &u) || u > UINT32_MAX)
				return bad_usage("%s needs a number, got \"%s\"", l, val);
			*(l[3] == 'i' ? &o->hot.min_calls : l[3] == 'a' ? &o->hot.max_avg_us : &o->hot.keep_ms) = u;
		} else if (strcmp(l, "--min-us") == 0) {
			if (parse_u64(val, &o->min_us) || o->min_us > UINT32_MAX)
				return bad_usage("--min-us needs microseconds, got \"%s\"", val);
		} else if (strcmp(l, "--width") == 0) {
			if (parse_u64(val, &u) || u < 200 || u > 100000)
				return bad_usage("--width needs 200..100000 pixels, got \"%s\"", val);
			o->width = (unsigned)u;
		}
	}
	if (o->slice.kind == TR_SLICE_TIME && o->from_set && o->to_set && o->slice.from_ms > o->slice.to_ms)
		return bad_usage("--from is after --to");
	switch (o->cmd->bit) {
	case C_REPORTS:
		if (!o->reports)
			return bad_usage("reports needs --reports FILE");
		break;
	case C_FLAME:
		if (o->report_line) {
			if (!o->reports || o->ring)
				return bad_usage("flame --report LINE reads --reports FILE, not a ring");
			if (o->slice.kind != TR_SLICE_ALL || o->section || o->thread)
				return bad_usage("a slice or a thread applies to a ring, not to --report");
		} else if (!o->ring) {
			return bad_usage("flame needs --ring FILE, or --reports FILE --report LINE");
		} else if (o->reports) {
			return bad_usage("flame --reports needs --report LINE");
		}
		break;
	case C_HOT:
		if (!o->ring || !o->mapping)
			return bad_usage("hot needs --ring FILE and --mapping FILE (a rule names a method)");
		break;
	case C_COMPARE:
		if (!o->format_set)
			o->text = 1;
		return compare_args(o);
	default:
		if (!o->ring)
			return bad_usage("%s needs --ring FILE", o->cmd->name);
		break;
	}
	return output_clash(o);
}

/* ---- inputs ---- */

/* Pseudo-method ids of the thread nodes in a tree of several threads:
 * beyond the events' 20 bits. */
#define THREAD_NODE_ID UINT32_C(0x1000000)
/* Chrome trace tids of the section tracks: beyond Linux's thread ids. */
#define SECTION_TRACK_TID UINT32_C(0x40000000)
/* ... and of a thread whose id an earlier thread of the recording had: a
 * track of its own, not merged into that thread's */
#define REUSED_TRACK_TID UINT32_C(0x20000000)

typedef struct thread_input {
	const tr_thread *t;
	tr_spans all, slice;
} thread_input;

/* The recording, every thread's spans, and the slice of the selected ones. */
typedef struct ring_input {
	tr_recording rec;
	thread_input *th;     /* per thread of the recording */
	size_t *sel, n_sel;   /* the selected threads */
	char slice_text[128];
} ring_input;

static void ring_close(ring_input *r)
{
	for (size_t k = 0; r->th && k < r->rec.n; k++) {
		tr_spans_dispose(&r->th[k].all);
		tr_spans_dispose(&r->th[k].slice);
	}
	free(r->th);
	free(r->sel);
	tr_recording_dispose(&r->rec);
	memset(r, 0, sizeof *r);
}

/* The times section `name` ran, on any thread. */
static int section_times(const ring_input *r, const char *name, tr_interval **out, size_t *n, tc_error *err)
{
	*out = NULL;
	*n = 0;
	uint32_t id = 0;
	for (uint32_t k = 0; k < TC_SECTION_MAX && !id; k++) {
		const char *s = tr_recording_section(&r->rec, TC_ID_SECTION + k);
		if (s && strcmp(s, name) == 0)
			id = TC_ID_SECTION + k;
	}
	size_t count = 0;
	for (size_t k = 0; id && k < r->rec.n; k++)
		for (size_t i = 0; i < r->th[k].all.n_sect; i++)
			count += r->th[k].all.sect[i].id == id;
	if (count == 0)
		return tc_set(err, TC_EINVAL, "no section \"%s\" in %s (tc-trace sections lists them)", name,
		               r->rec.ring.names ? "the recording" : "the recording (it names no section)");
	tr_interval *iv = malloc(count * sizeof *iv);
	if (!iv)
		return tc_set(err, TC_ENOMEM, "out of memory");
	for (size_t k = 0; k < r->rec.n; k++)
		for (size_t i = 0; i < r->th[k].all.n_sect; i++)
			if (r->th[k].all.sect[i].id == id)
				iv[(*n)++] = (tr_interval){ r->th[k].all.sect[i].start_ms, r->th[k].all.sect[i].end_ms };
	*out = iv;
	return TC_OK;
}

/* Slices the selected threads. A message slice is the recording thread's
 * messages; on the other threads, the time they took. */
static int ring_slice(ring_input *r, const opts *o, tc_error *err)
{
	if (o->section) {
		tr_interval *iv;
		size_t n;
		TRY(section_times(r, o->section, &iv, &n, err));
		int rc = TC_OK;
		for (size_t k = 0; k < r->n_sel && rc == TC_OK; k++) {
			thread_input *ti = &r->th[r->sel[k]];
			rc = tr_spans_slice_times(&ti->slice, &ti->all, iv, n, err);
		}
		free(iv);
		snprintf(r->slice_text, sizeof r->slice_text, "section %.80s (%zu times)", o->section, n);
		return rc;
	}
	tr_slice_describe(&o->slice, r->slice_text, sizeof r->slice_text);
	if (o->slice.kind != TR_SLICE_MESSAGES) {
		for (size_t k = 0; k < r->n_sel; k++) {
			thread_input *ti = &r->th[r->sel[k]];
			TRY(tr_spans_slice(&ti->slice, &ti->all, &o->slice, err));
		}
		return TC_OK;
	}
	thread_input *main_th = &r->th[0];
	TRY(tr_spans_slice(&main_th->slice, &main_th->all, &o->slice, err));
	tr_interval iv = { main_th->slice.first_ms, main_th->slice.last_ms };
	for (size_t k = 0; k < r->n_sel; k++) {
		thread_input *ti = &r->th[r->sel[k]];
		if (ti != main_th)
			TRY(tr_spans_slice_times(&ti->slice, &ti->all, &iv, main_th->slice.n ? 1 : 0, err));
	}
	return TC_OK;
}

static void prev_note(const char *path)
{
	char *prev = tr_prev_ring(path);
	if (prev)
		fprintf(stderr, "tc-trace: note: %s holds the ring of the run before this one: --ring %s reads it\n", prev,
		        prev);
	free(prev);
}

/* The recording and the mapping must be of one build: ids of another build's mapping
 * name other methods, and nothing else would show it. The ring's header holds the id
 * of the build that recorded it (from its marker class), the mapping's is computed from
 * its lines as tc-instrument computed it (mapfile/method_mapping.h). Where the ring has
 * none (an older runtime, an app without the marker), a note says so once. */
static int check_build_id(const tr_recording *rec, const opts *o, const tr_mapping *m, tc_error *err)
{
	if (!o->mapping)
		return TC_OK;
	uint64_t ring_id = rec->ring.build_id, map_id = tr_mapping_build_id(m);
	char rh[MM_BUILD_ID_HEX], mh[MM_BUILD_ID_HEX];
	mm_build_id_hex(ring_id, rh);
	mm_build_id_hex(map_id, mh);
	if (!ring_id) {
		fprintf(stderr, "tc-trace: note: %s has no build id (ring version %u: %s), so %s (build %s) "
		        "cannot be checked against it\n", o->ring, rec->ring.version,
		        rec->ring.version < 3 ? "written before rings recorded one"
		                              : "the app had no build id: instrumented without tc-instrument's marker class",
		        o->mapping, mh);
		return TC_OK;
	}
	if (ring_id == map_id)
		return TC_OK;
	if (o->ignore_build_id) {
		fprintf(stderr, "tc-trace: warning: %s was recorded by build %s, %s is of build %s: decoding anyway "
		        "(--ignore-build-id); method names may be another build's\n", o->ring, rh, o->mapping, mh);
		return TC_OK;
	}
	return tc_set(err, TC_EINVAL,
	              "%s was recorded by build %s, but %s is the mapping of build %s: its names would be "
	              "another build's. Give the methodMapping.txt of the build that recorded it (the one whose "
	              "buildId file says %s), or --ignore-build-id to decode anyway",
	              o->ring, rh, o->mapping, mh, rh);
}

/* The recording and every thread's spans; sliced (--message, --from/--to,
 * --section) unless slice is 0: tc-trace html takes every span whole, and a
 * copy of them all (the slice of the whole recording) was a third of its memory. */
static int ring_open_as(ring_input *r, const opts *o, tr_mapping *m, int slice, tc_error *err)
{
	memset(r, 0, sizeof *r);
	char note[512];
	int rc = tr_recording_read(&r->rec, o->ring, note, sizeof note, err);
	if (rc == TC_EIO) /* not read at all: say which option named it */
		return tc_set(err, rc, "--ring %s", err->message);
	if (rc != TC_OK)
		return rc;
	if (note[0])
		fprintf(stderr, "tc-trace: note: %s\n", note);
	if ((rc = check_build_id(&r->rec, o, m, err)) != TC_OK) {
		tr_recording_dispose(&r->rec);
		return rc;
	}
	if (!o->quiet_prev)
		prev_note(o->ring);
	r->th = calloc(r->rec.n, sizeof *r->th);
	r->sel = malloc(r->rec.n * sizeof *r->sel);
	if (!r->th || !r->sel)
		rc = tc_set(err, TC_ENOMEM, "out of memory");
	if (rc == TC_OK)
		rc = tr_recording_name_sections(&r->rec, m, err);
	if (rc == TC_OK)
		rc = tr_recording_select(&r->rec, o->thread ? o->thread : "all", r->sel, &r->n_sel, err);
	for (size_t k = 0; k < r->rec.n && rc == TC_OK; k++) {
		r->th[k].t = &r->rec.thread[k];
		rc = tr_spans_build(&r->th[k].all, r->th[k].t->events, r->th[k].t->count, o->end_ms, err);
	}
	if (rc == TC_OK && slice)
		rc = ring_slice(r, o, err);
	if (rc != TC_OK)
		ring_close(r);
	return rc;
}

static int ring_open(ring_input *r, const opts *o, tr_mapping *m, tc_error *err)
{
	return ring_open_as(r, o, m, 1, err);
}

static const char *thread_name(const tr_thread *t)
{
	return t->name[0] ? t->name : t->main ? "main" : "?";
}

/* "(tid N)", or "(tid N, generation G)" when another thread of the recording had
 * that id: the thread name's suffix wherever threads are listed. */
static const char *tid_text(const tr_thread *t, char *buf, size_t cap)
{
	if (t->shared_tid)
		snprintf(buf, cap, "(tid %u, generation %u)", t->tid, t->generation);
	else
		snprintf(buf, cap, "(tid %u)", t->tid);
	return buf;
}

static void ring_notes(const ring_input *r, FILE *out, const char *prefix)
{
	for (size_t k = 0; k < r->n_sel; k++) {
		const thread_input *ti = &r->th[r->sel[k]];
		char p[96];
		if (r->rec.n > 1)
			snprintf(p, sizeof p, "%sthread %.40s: ", prefix, thread_name(ti->t));
		else
			snprintf(p, sizeof p, "%s", prefix);
		tr_spans_write_notes(out, p, &ti->all, ti->t->written, ti->t->count);
		if (ti->t->lost) /* empty slots where the writer had lapped the runtime's copy */
			fprintf(out, "%s%" PRIu64 " %s lost: the writer overwrote %s before the runtime copied %s\n", p,
			        ti->t->lost, ti->t->lost == 1 ? "event" : "events", ti->t->lost == 1 ? "it" : "them",
			        ti->t->lost == 1 ? "it" : "them");
	}
}

/* The clock's tick (the ring header's resolution): events carry the clock
 * word, which the clock thread moves once a tick while messages run, so a
 * duration is a whole number of ticks' ms and a call shorter than a tick may
 * read 0 ms (issue 28: no one should read 0 ms as free). 0: not recorded. */
static uint32_t tick_of(const ring_input *r)
{
	return r->rec.ring.resolution_ms;
}

static void tick_note(const ring_input *r, FILE *out, const char *prefix)
{
	if (tick_of(r))
		fprintf(out, "%stimes in whole ms: the clock ticked every %u ms while messages ran, so a call shorter "
		             "than that may read 0 ms\n", prefix, tick_of(r));
}

/* The call tree of the selected threads: one as it is, several under a
 * node each (named "thread NAME (tid N)"); a thread with nothing in the
 * slice has no node. */
static int ring_tree(const ring_input *r, tr_mapping *m, tr_tree *t, tc_error *err)
{
	if (r->n_sel == 1)
		return tr_tree_from_spans(t, &r->th[r->sel[0]].slice, err);
	const tr_spans **spans = malloc(r->n_sel * sizeof *spans);
	uint32_t *ids = malloc(r->n_sel * sizeof *ids);
	int rc = spans && ids ? TC_OK : tc_set(err, TC_ENOMEM, "out of memory");
	size_t n = 0;
	for (size_t k = 0; k < r->n_sel && rc == TC_OK; k++) {
		const thread_input *ti = &r->th[r->sel[k]];
		if (ti->slice.n == 0)
			continue; /* nothing ran on it then: no node */
		char name[128], tid[48];
		snprintf(name, sizeof name, "thread %s %s", thread_name(ti->t), tid_text(ti->t, tid, sizeof tid));
		spans[n] = &ti->slice;
		ids[n] = THREAD_NODE_ID + (uint32_t)k;
		rc = tr_mapping_name(m, ids[n], name, err);
		n++;
	}
	if (rc == TC_OK)
		rc = tr_tree_from_threads(t, spans, ids, n, err);
	free(spans);
	free(ids);
	return rc;
}

/* "RING (pid N)", and the thread when one of several is shown */
static void ring_what(const ring_input *r, const opts *o, char *buf, size_t cap)
{
	const tr_thread *t = &r->rec.thread[r->sel[0]];
	char tid[48];
	if (r->rec.n > 1 && r->n_sel == 1)
		snprintf(buf, cap, "%s (pid %u), thread %s %s", o->ring, r->rec.pid, thread_name(t),
		         tid_text(t, tid, sizeof tid));
	else
		snprintf(buf, cap, "%s (pid %u)", o->ring, r->rec.pid);
}

static FILE *open_reports(const char *path, tc_error *err)
{
	if (strcmp(path, "-") == 0)
		return stdin;
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f) {
		tc_set(err, TC_EIO, "--reports %s: cannot open: %s", path, strerror(errno));
	} else if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		tc_set(err, TC_EIO, "--reports %s: a directory, not a file of report lines", path);
		fclose(f);
		f = NULL;
	}
	return f;
}

static void close_reports(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}

/* Parses one report line; "FILE:LINE:COL: ..." on error. */
static int parse_report(json_doc *doc, const char *s, size_t n, const char *file, uint64_t line, tc_error *err)
{
	size_t off = 0;
	char why[128];
	int rc = json_parse(doc, s, n, &off, why, sizeof why);
	if (rc != TC_OK) /* base's codes, as tc-trace's */
		return tc_set(err, rc == TC_ENOMEM ? TC_ENOMEM : TC_EFORMAT, "%s:%llu:%zu: %s", file,
		              (unsigned long long)line, off + 1, why);
	if (doc->root.type != JSON_OBJ) {
		json_doc_dispose(doc);
		return tc_set(err, TC_EFORMAT, "%s:%llu: a report line must be a JSON object", file,
		               (unsigned long long)line);
	}
	return TC_OK;
}

/* A report's "buildId" (the runtime writes the build's id in every report, as the
 * ring's header has it) against the mapping's: 0 when they agree or one is
 * unknown; 1 when they differ and --ignore-build-id says decode anyway; else
 * TC_EFORMAT (the line cannot be decoded with this mapping; `reports
 * --keep-going` skips it). */
static int report_build(const json_doc *doc, const opts *o, const tr_mapping *m, const char *file, uint64_t line,
                        tc_error *err)
{
	const json_val *b = json_get(&doc->root, "buildId");
	uint64_t map_id = tr_mapping_build_id(m), id = 0;
	if (!o->mapping || !map_id || !b || b->type != JSON_STR || mm_build_id_parse(b->s, b->len, &id) != 0 ||
	    id == map_id)
		return 0;
	char mh[MM_BUILD_ID_HEX];
	mm_build_id_hex(map_id, mh);
	if (o->ignore_build_id)
		return 1;
	return tc_set(err, TC_EFORMAT,
	              "%s:%llu: recorded by build %s, but %s is the mapping of build %s: its names would be "
	              "another build's (--ignore-build-id decodes it anyway)",
	              file, (unsigned long long)line, b->s, o->mapping, mh);
}

static void note_other_builds(const opts *o, size_t n, const char *what)
{
	if (n)
		fprintf(stderr, "tc-trace: %s: %zu report lines of another build than %s's %s\n",
		        o->ignore_build_id ? "warning" : "note", n, o->mapping,
		        o->ignore_build_id ? "decoded anyway (--ignore-build-id): their names may be wrong" : what);
}

static int is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* ---- commands ---- */

static int cmd_tree(const opts *o, tr_mapping *m, FILE *out, tc_error *err)
{
	ring_input r;
	tr_tree t = { 0 };
	int rc = ring_open(&r, o, m, err);
	if (rc == TC_OK)
		rc = ring_tree(&r, m, &t, err);
	if (rc == TC_OK)
		rc = tr_tree_sort(&t, o->order, err);
	if (rc == TC_OK) {
		size_t spans = 0, messages = 0;
		uint64_t first = UINT64_MAX, last = 0;
		for (size_t k = 0; k < r.n_sel; k++) {
			const tr_spans *sl = &r.th[r.sel[k]].slice;
			spans += sl->n;
			messages += sl->messages;
			if (sl->n && sl->first_ms < first)
				first = sl->first_ms;
			if (sl->last_ms > last)
				last = sl->last_ms;
		}
		char what[300], threads[48] = "";
		ring_what(&r, o, what, sizeof what);
		if (r.n_sel > 1)
			snprintf(threads, sizeof threads, "%zu threads, ", r.n_sel);
		fprintf(out, "# tc-trace tree of %s: %s, %s%zu spans, %zu messages, %" PRIu64 "..%" PRIu64
		             " ms, %" PRIu64 " ms in total\n",
		        what, r.slice_text, threads, spans, messages, first == UINT64_MAX ? 0 : first, last,
		        t.v[0].total_ms);
		tick_note(&r, out, "# ");
		ring_notes(&r, out, "# ");
		tr_text_opts to = { o->min_ms, o->max_depth };
		rc = tr_tree_write_text(out, &t, m, &to, err);
	}
	tr_tree_dispose(&t);
	ring_close(&r);
	return rc;
}

static int cmd_messages(const opts *o, tr_mapping *m, FILE *out, tc_error *err)
{
	ring_input r;
	int rc = ring_open(&r, o, m, err);
	if (rc == TC_OK) {
		fprintf(out, "# messages of %s (pid %u): %zu\n", o->ring, r.rec.pid, r.th[0].all.messages);
		tick_note(&r, out, "# ");
		rc = tr_messages_write(out, &r.th[0].all, m, o->msg_by_dur, err);
	}
	ring_close(&r);
	return rc;
}

static int cmd_sections(const opts *o, tr_mapping *m, FILE *out, tc_error *err)
{
	ring_input r;
	int rc = ring_open(&r, o, m, err);
	if (rc != TC_OK)
		return rc;
	size_t total = 0;
	for (size_t k = 0; k < r.n_sel; k++)
		total += r.th[r.sel[k]].all.n_sect;
	fprintf(out, "# sections of %s (pid %u): %zu\n", o->ring, r.rec.pid, total);
	tick_note(&r, out, "# ");
	fprintf(out, "%-24s %10s %10s  %s\n", "thread", "start ms", "ms", "section");
	tc_buf sb;
	buf_init(&sb);
	for (size_t k = 0; k < r.n_sel; k++) {
		const thread_input *ti = &r.th[r.sel[k]];
		char who[80];
		if (ti->t->shared_tid)
			snprintf(who, sizeof who, "%.40s (%u, generation %u)", thread_name(ti->t), ti->t->tid,
			         ti->t->generation);
		else
			snprintf(who, sizeof who, "%.40s (%u)", thread_name(ti->t), ti->t->tid);
		for (size_t i = 0; i < ti->all.n_sect; i++) {
			const tr_span *sp = &ti->all.sect[i];
			sb.len = 0;
			tr_name_put(&sb, m, sp->id, TR_NAME_FULL);
			fprintf(out, "%-24s %10" PRIu64 " %10" PRIu64 "  %*s%s%s\n", who, sp->start_ms, sp->end_ms - sp->start_ms,
			        (int)(2 * sp->depth), "", sb.str && !sb.err ? sb.str : "?",
			        sp->flags & TR_SPAN_OPEN ? "  [no end: still open at the end]"
			        : sp->flags & TR_SPAN_CUT ? "  [no end: closed with the section around it]" : "");
		}
	}
	buf_free(&sb);
	ring_close(&r);
	return TC_OK;
}

static int cmd_reports(const opts *o, const tr_mapping *m, FILE *out, tc_error *err, int *skipped)
{
	FILE *in = open_reports(o->reports, err);
	if (!in)
		return err->code;
	const char *file = strcmp(o->reports, "-") == 0 ? "(stdin)" : o->reports;
	tr_lines lr;
	tr_lines_init(&lr, in, file, 0);
	tr_report_opts ro = { m, o->text };
	const char *s;
	size_t n;
	int rc;
	size_t other = 0; /* lines of another build, decoded anyway */
	while ((rc = tr_lines_next(&lr, &s, &n, err)) > 0) {
		if (is_blank(s, n))
			continue;
		json_doc doc;
		rc = parse_report(&doc, s, n, file, lr.line_no, err);
		if (rc == TC_OK && o->tag) {
			const json_val *tag = json_get(&doc.root, "tag");
			if (!tag || tag->type != JSON_STR || strcmp(tag->s, o->tag) != 0) {
				json_doc_dispose(&doc);
				continue;
			}
		}
		if (rc == TC_OK && (rc = report_build(&doc, o, m, file, lr.line_no, err)) > 0) {
			other++;
			rc = TC_OK;
		}
		if (rc == TC_OK)
			rc = tr_report_write(out, &doc.root, file, lr.line_no, &ro, err);
		json_doc_dispose(&doc);
		if (rc == TC_EFORMAT && o->keep_going) {
			fprintf(stderr, "tc-trace: skipped: %s\n", err->message);
			(*skipped)++;
			rc = TC_OK;
		}
		if (rc < 0)
			break;
	}
	tr_lines_dispose(&lr);
	close_reports(in);
	note_other_builds(o, other, "");
	return rc < 0 ? rc : TC_OK;
}

/* Reports as instant events on the ring's timeline (chrome --reports). */
typedef struct instant_src {
	tr_lines lr;
	const char *file;
	const tr_mapping *m;
	const opts *o;
	uint64_t wall_base_ms, from_ms, to_ms;
	tc_buf name, args;
	size_t outside, other; /* reports out of the trace's time; of another build */
} instant_src;

static int next_instant(void *user, tr_instant *out, tc_error *err)
{
	instant_src *src = user;
	const char *s;
	size_t n;
	int rc;
	while ((rc = tr_lines_next(&src->lr, &s, &n, err)) > 0) {
		if (is_blank(s, n))
			continue;
		json_doc doc;
		TRY(parse_report(&doc, s, n, src->file, src->lr.line_no, err));
		tc_error why = { 0 };
		int b = report_build(&doc, src->o, src->m, src->file, src->lr.line_no, &why);
		if (b) { /* another build's ids: its names would be wrong */
			src->other++;
			if (b < 0) {
				json_doc_dispose(&doc);
				continue;
			}
		}
		int64_t wall;
		if (!json_get_int(json_get(&doc.root, "time"), &wall) || wall < 0 ||
		    (uint64_t)wall < src->wall_base_ms || (uint64_t)wall - src->wall_base_ms < src->from_ms ||
		    (uint64_t)wall - src->wall_base_ms > src->to_ms) {
			src->outside++;
			json_doc_dispose(&doc);
			continue;
		}
		const json_val *tag = json_get(&doc.root, "tag"), *detail = json_get(&doc.root, "detail");
		src->name.len = 0;
		buf_puts(&src->name, tag && tag->type == JSON_STR ? tag->s : "report");
		if (detail && detail->type == JSON_STR) {
			buf_putc(&src->name, ' ');
			buf_puts(&src->name, detail->s);
		}
		/* args: the report's scalar members, its line, the decoded stack and key */
		tc_stack st = { 0 };
		rc = tr_report_stack(&st, &doc.root, src->file, src->lr.line_no, err);
		if (rc != TC_OK) {
			json_doc_dispose(&doc);
			return rc;
		}
		src->args.len = 0;
		buf_printf(&src->args, "{\"line\":%llu", (unsigned long long)src->lr.line_no);
		for (size_t i = 0; i < doc.root.n; i++) {
			const json_member *mb = &doc.root.members[i];
			if (mb->val.type == JSON_OBJ || mb->val.type == JSON_ARR)
				continue;
			buf_putc(&src->args, ',');
			json_escape(&src->args, mb->key);
			buf_putc(&src->args, ':');
			json_put(&src->args, &mb->val);
		}
		const json_val *key = json_get(&doc.root, "stackKey");
		uint32_t *ids = NULL;
		size_t nids = 0, bad;
		if (key && key->type == JSON_STR && tr_key_parse(&ids, &nids, key->s, key->len, &bad) == TC_OK && nids) {
			tc_buf k;
			buf_init(&k);
			for (size_t i = 0; i < nids; i++) {
				tr_name_put(&k, src->m, ids[i], TR_NAME_FULL);
				buf_putc(&k, '|');
			}
			buf_puts(&src->args, ",\"stackKeyDecoded\":");
			json_escape(&src->args, k.str ? k.str : "");
			buf_free(&k);
		}
		free(ids);
		if (st.len) {
			buf_puts(&src->args, ",\"stackDecoded\":");
			tr_stack_put_json(&src->args, &st, src->m);
		}
		tc_stack_dispose(&st);
		buf_putc(&src->args, '}');
		json_doc_dispose(&doc);
		if (src->name.err || src->args.err)
			return tc_set(err, TC_ENOMEM, "%s: out of memory", src->file);
		out->ts_ms = (uint64_t)wall - src->wall_base_ms;
		out->name = src->name.str;
		out->args_json = src->args.str;
		return 1;
	}
	return rc;
}

static int cmd_chrome(const opts *o, tr_mapping *m, FILE *out, tc_error *err)
{
	ring_input r;
	instant_src src;
	memset(&src, 0, sizeof src);
	FILE *in = NULL;
	tr_chrome_track *tracks = NULL;
	int rc = ring_open(&r, o, m, err);
	if (rc == TC_OK && o->reports) {
		in = open_reports(o->reports, err);
		if (!in)
			rc = err->code;
	}
	if (rc == TC_OK && !(tracks = malloc(2 * r.n_sel * sizeof *tracks)))
		rc = tc_set(err, TC_ENOMEM, "out of memory");
	if (rc == TC_OK) {
		char pname[64];
		snprintf(pname, sizeof pname, "tracecanary (pid %u)", r.rec.pid);
		tr_chrome_opts co = { 0 };
		co.pid = r.rec.pid ? r.rec.pid : 1;
		co.process_name = pname;
		co.complete = o->complete;
		co.names = o->names;
		co.source = o->ring;
		co.slice = r.slice_text;
		co.base_us = r.rec.time_base_ns / 1000;
		co.min_us = o->min_us;
		co.resolution_ms = tick_of(&r);
		/* a track per thread, with the id its ring gives (the recording
		 * thread's is the pid on Android, another on HotSpot, whose Java
		 * main thread is not the launcher's; the pid in files that have
		 * none), and one for its sections if it has any */
		char (*names)[96] = calloc(2 * r.n_sel, sizeof *names);
		if (!names)
			rc = tc_set(err, TC_ENOMEM, "out of memory");
		size_t n = 0, first_slices = 0, last_slices = 0;
		for (size_t k = 0; k < r.n_sel && rc == TC_OK; k++) {
			const thread_input *ti = &r.th[r.sel[k]];
			uint32_t tid = ti->t->main && !ti->t->tid ? co.pid : ti->t->tid;
			snprintf(names[n], sizeof names[n], "%s", thread_name(ti->t));
			for (size_t j = 0; j < r.sel[k] && !ti->t->main; j++) {
				if (r.rec.thread[j].tid == ti->t->tid && !r.rec.thread[j].main) {
					/* an earlier thread had this id: a track of its own */
					tid = REUSED_TRACK_TID + (uint32_t)r.sel[k];
					snprintf(names[n], sizeof names[n], "%.60s (tid %u, generation %u)", thread_name(ti->t),
					         ti->t->tid, ti->t->generation);
					break;
				}
			}
			tracks[n] = (tr_chrome_track){ tid, names[n], &ti->slice, false };
			n++;
			if (ti->slice.n_sect) {
				snprintf(names[n], sizeof names[n], "%.80s sections", thread_name(ti->t));
				tracks[n] = (tr_chrome_track){ SECTION_TRACK_TID + (uint32_t)k, names[n], &ti->slice, true };
				n++;
			}
			if (ti->slice.n && (k == 0 || ti->slice.first_ms < first_slices))
				first_slices = ti->slice.first_ms;
			if (ti->slice.last_ms > last_slices)
				last_slices = ti->slice.last_ms;
		}
		if (rc == TC_OK && in) {
			src.file = strcmp(o->reports, "-") == 0 ? "(stdin)" : o->reports;
			tr_lines_init(&src.lr, in, src.file, 0);
			src.m = m;
			src.o = o;
			src.wall_base_ms = r.rec.wall_base_ms;
			int all = o->slice.kind == TR_SLICE_ALL && !o->section;
			src.from_ms = all ? 0 : first_slices;
			src.to_ms = all ? UINT64_MAX : last_slices;
			co.next_instant = next_instant;
			co.instant_user = &src;
		}
		tr_chrome_dropped drop = { 0 };
		size_t nspans = 0;
		for (size_t k = 0; k < r.n_sel; k++)
			nspans += r.th[r.sel[k]].slice.n;
		if (rc == TC_OK) {
			ring_notes(&r, stderr, "tc-trace: note: ");
			rc = o->cmd->bit == C_PERFETTO
			     ? tr_perfetto_write_tracks(out, tracks, n, m, &co, r.rec.time_base_ns,
			                                r.rec.wall_base_ms * 1000000u, &drop, err)
			     : tr_chrome_write_tracks(out, tracks, n, m, &co, &drop, err);
		}
		/* the ring counts whole ms: under 1 ms a span was recorded as 0 ms, and
		 * "0 ms in all" would claim a sum nobody measured */
		if (rc == TC_OK && drop.spans && drop.ms)
			fprintf(stderr,
			        "tc-trace: note: %zu of %zu spans (%zu of them messages) were shorter than %" PRIu64
			        " us and left out, %" PRIu64 " ms in all as recorded (the outermost ones'); --min-us 0 keeps them\n",
			        drop.spans, nspans, drop.messages, o->min_us, drop.ms);
		else if (rc == TC_OK && drop.spans)
			fprintf(stderr,
			        "tc-trace: note: %zu of %zu spans (%zu of them messages) were shorter than %" PRIu64
			        " us and left out; each was recorded as 0 ms (the ring counts whole ms), so their real time "
			        "is not known; --min-us 0 keeps them\n",
			        drop.spans, nspans, drop.messages, o->min_us);
		if (rc == TC_OK && in && src.outside)
			fprintf(stderr, "tc-trace: note: %zu reports fall outside the trace's time and were not marked\n",
			        src.outside);
		if (rc == TC_OK)
			note_other_builds(o, src.other, "not marked (--ignore-build-id marks them)");
		free(names);
	}
	if (in) {
		tr_lines_dispose(&src.lr);
		buf_free(&src.name);
		buf_free(&src.args);
		close_reports(in);
	}
	free(tracks);
	ring_close(&r);
	return rc;
}

static int cmd_html(const opts *o, tr_mapping *m, FILE *out, tc_error *err)
{
	ring_input r;
	tr_html *h = NULL;
	FILE *in = NULL;
	tr_lines lr;
	int lines_open = 0;
	size_t other = 0; /* report lines of another build */
	int rc = ring_open_as(&r, o, m, 0, err);
	if (rc == TC_OK) {
		char source[600];
		uint64_t lost = 0; /* shown with the source: the page has no other place for it */
		for (size_t k = 0; k < r.rec.n; k++)
			lost += r.rec.thread[k].lost;
		char lost_text[96] = "";
		if (lost)
			snprintf(lost_text, sizeof lost_text, ", %" PRIu64 " %s lost to a lapping writer", lost,
			         lost == 1 ? "event" : "events");
		snprintf(source, sizeof source, "%s (pid %u)%s%s%s", o->ring, r.rec.pid, lost_text,
		         o->reports ? ", " : "", o->reports ? o->reports : "");
		rc = tr_html_new(&h, m, o->title ? o->title : "tracecanary report", source, err);
		if (rc == TC_OK)
			tr_html_set_resolution(h, tick_of(&r));
		/* each thread written as it is added: the page is not built in memory */
		if (rc == TC_OK)
			rc = tr_html_begin(h, out, err);
	}
	/* every thread of the recording (the ring file's, then the thread file's), whole:
	 * the page selects; they share one time base */
	if (rc == TC_OK)
		ring_notes(&r, stderr, "tc-trace: note: ");
	for (size_t k = 0; k < r.n_sel && rc == TC_OK; k++) {
		const thread_input *ti = &r.th[r.sel[k]];
		char name[128];
		if (ti->t->main) /* the looper's thread, whatever the OS calls it */
			snprintf(name, sizeof name, "main");
		else if (!ti->t->tid)
			snprintf(name, sizeof name, "%s", thread_name(ti->t));
		else {
			char tid[48];
			snprintf(name, sizeof name, "%.60s %s", thread_name(ti->t), tid_text(ti->t, tid, sizeof tid));
		}
		rc = tr_html_add_thread(h, name, &ti->all, r.rec.wall_base_ms, err);
	}
	if (rc == TC_OK && o->reports) {
		in = open_reports(o->reports, err);
		if (!in)
			rc = err->code;
	}
	if (rc == TC_OK && in) {
		const char *file = strcmp(o->reports, "-") == 0 ? "(stdin)" : o->reports;
		tr_lines_init(&lr, in, file, 0);
		lines_open = 1;
		const char *s;
		size_t n;
		while ((rc = tr_lines_next(&lr, &s, &n, err)) > 0) {
			if (is_blank(s, n))
				continue;
			json_doc doc;
			rc = parse_report(&doc, s, n, file, lr.line_no, err);
			tc_error why = { 0 };
			int b = rc == TC_OK ? report_build(&doc, o, m, file, lr.line_no, &why) : 0;
			other += b != 0;
			if (rc == TC_OK && b >= 0)
				rc = tr_html_add_report(h, &doc.root, file, lr.line_no, err);
			json_doc_dispose(&doc);
			if (rc < 0)
				break;
		}
		if (rc > 0)
			rc = TC_OK;
		if (rc == TC_OK)
			note_other_builds(o, other, "left out (--ignore-build-id keeps them)");
	}
	if (rc == TC_OK)
		rc = tr_html_write(h, out, err);
	if (lines_open)
		tr_lines_dispose(&lr);
	close_reports(in);
	tr_html_free(h);
	ring_close(&r);
	return rc;
}

/* The report on line `line` of the reports file: its stack as a tree. */
static int report_tree(const opts *o, const tr_mapping *m, tr_tree *t, char *what, size_t cap, tc_error *err)
{
	FILE *in = open_reports(o->reports, err);
	if (!in)
		return err->code;
	const char *file = strcmp(o->reports, "-") == 0 ? "(stdin)" : o->reports;
	tr_lines lr;
	tr_lines_init(&lr, in, file, 0);
	const char *s;
	size_t n;
	int rc;
	while ((rc = tr_lines_next(&lr, &s, &n, err)) > 0 && lr.line_no < o->report_line)
		;
	if (rc == 0)
		rc = tc_set(err, TC_EINVAL, "%s: no line %llu (the file has %llu)", file,
		             (unsigned long long)o->report_line, (unsigned long long)lr.line_no);
	if (rc > 0) {
		json_doc doc;
		tc_stack st = { 0 };
		rc = parse_report(&doc, s, n, file, lr.line_no, err);
		if (rc == TC_OK && report_build(&doc, o, m, file, lr.line_no, err) < 0)
			rc = err->code;
		if (rc == TC_OK)
			rc = tr_report_stack(&st, &doc.root, file, lr.line_no, err);
		if (rc == TC_OK && !json_get(&doc.root, "stack"))
			rc = tc_set(err, TC_EINVAL, "%s:%llu: this report has no \"stack\"", file,
			             (unsigned long long)lr.line_no);
		if (rc == TC_OK)
			rc = tr_tree_from_stack(t, st.items, st.len, err);
		if (rc == TC_OK) {
			const json_val *tag = json_get(&doc.root, "tag"), *detail = json_get(&doc.root, "detail");
			snprintf(what, cap, "%s line %llu: %s %s", file, (unsigned long long)lr.line_no,
			         tag && tag->type == JSON_STR ? tag->s : "report",
			         detail && detail->type == JSON_STR ? detail->s : "");
		}
		tc_stack_dispose(&st);
		json_doc_dispose(&doc);
	}
	tr_lines_dispose(&lr);
	close_reports(in);
	return rc;
}

static int cmd_flame(const opts *o, tr_mapping *m, FILE *out, tc_error *err)
{
	tr_tree t = { 0 };
	char what[600];
	ring_input r;
	memset(&r, 0, sizeof r);
	int rc;
	if (o->report_line) {
		rc = report_tree(o, m, &t, what, sizeof what, err);
	} else {
		rc = ring_open(&r, o, m, err);
		if (rc == TC_OK) {
			ring_notes(&r, stderr, "tc-trace: note: ");
			rc = ring_tree(&r, m, &t, err);
			char ring[300];
			ring_what(&r, o, ring, sizeof ring);
			snprintf(what, sizeof what, "%s, %s%s, clock tick %u ms", ring, r.slice_text,
			         r.n_sel > 1 ? ", all threads" : "", tick_of(&r));
		}
	}
	/* flame graphs read best in call order, left to right */
	if (rc == TC_OK)
		rc = tr_tree_sort(&t, o->order_set ? o->order : TR_ORDER_CALL, err);
	if (rc == TC_OK) {
		tr_flame_opts fo = { o->title, what, o->width };
		rc = tr_flame_write(out, &t, m, &fo, err);
	}
	tr_tree_dispose(&t);
	ring_close(&r);
	return rc;
}

static int cmd_hot(const opts *o, tr_mapping *m, FILE *out, tc_error *err)
{
	ring_input r;
	tr_method_stats st = { 0 };
	int rc = ring_open(&r, o, m, err);
	/* the recording thread's: the one whose time Matrix's tracers judge */
	if (rc == TC_OK)
		rc = tr_method_stats_build(&st, &r.th[0].slice, err);
	if (rc == TC_OK && r.rec.n > 1)
		fprintf(stderr, "tc-trace: note: hot counts the recording thread's calls; %zu other threads left out\n",
		        r.rec.n - 1);
	if (rc == TC_OK) {
		char source[600];
		snprintf(source, sizeof source, "%s (pid %u), %s, clock tick %u ms", o->ring, r.rec.pid, r.slice_text,
		         tick_of(&r));
		tr_hot_opts ho = o->hot;
		ho.source = source;
		size_t listed, unnamed;
		ring_notes(&r, stderr, "tc-trace: note: ");
		rc = tr_hot_write(out, &st, m, &ho, &listed, &unnamed, err);
		if (rc == TC_OK)
			fprintf(stderr, "tc-trace: hot: %zu of %zu methods listed\n", listed, st.n);
		if (rc == TC_OK && unnamed)
			fprintf(stderr, "tc-trace: note: %zu hot methods have no entry in %s and cannot be listed\n",
			        unnamed, o->mapping);
	}
	tr_method_stats_dispose(&st);
	ring_close(&r);
	return rc;
}

/* What a compare input is: a ring (its magic) or report lines (a JSON object
 * first, or nothing: a device that reported nothing). 1 ring, 2 reports, or
 * an error naming the file. */
static int input_kind(const char *path, tc_error *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return tc_set(err, TC_EIO, "%s: cannot open: %s", path, strerror(errno));
	char head[8];
	size_t n = fread(head, 1, sizeof head, f);
	int kind = 0;
	if (n == sizeof head && memcmp(head, TC_RING_MAGIC, sizeof head) == 0) {
		kind = 1;
	} else {
		size_t i = 0;
		while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
			i++;
		kind = i == n && n < sizeof head ? 2 : i < n && head[i] == '{' ? 2 : 0;
		if (i == n && n == sizeof head) { /* whitespace only so far: look on */
			int c;
			while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r')
				;
			kind = c == EOF || c == '{' ? 2 : 0;
		}
	}
	fclose(f);
	if (!kind)
		return tc_set(err, TC_EFORMAT, "%s: neither a ring (it does not start with the ring's magic \"TCRING\") nor "
		              "report lines (JSON objects, one a line): compare takes rings of launches or report files of a "
		              "fleet", path);
	return kind;
}

/* Both sides' report files (a fleet's), each line checked against its side's
 * mapping, counted per stack (trace_fleet.h). */
static int cmd_compare_reports(const opts *o, FILE *out, tc_error *err)
{
	tr_mapping *m[2] = { NULL, NULL };
	tr_fleet f;
	int rc = tr_fleet_init(&f, o->nside[0], o->nside[1], err);
	if (rc != TC_OK)
		return rc;
	for (int s = 0; s < 2 && rc == TC_OK; s++)
		rc = tr_mapping_load(&m[s], o->side_map[s], err);
	for (int s = 0; s < 2 && rc == TC_OK; s++) {
		opts one = *o;
		one.mapping = o->side_map[s];
		size_t other = 0;
		for (size_t k = 0; k < o->nside[s] && rc == TC_OK; k++) {
			const char *file = o->side[s][k];
			FILE *in = fopen(file, "rb");
			if (!in) {
				rc = tc_set(err, TC_EIO, "%s: cannot open: %s", file, strerror(errno));
				break;
			}
			tr_lines lr;
			tr_lines_init(&lr, in, file, 0);
			const char *line;
			size_t n;
			while ((rc = tr_lines_next(&lr, &line, &n, err)) > 0) {
				if (is_blank(line, n))
					continue;
				json_doc doc;
				rc = parse_report(&doc, line, n, file, lr.line_no, err);
				if (rc != TC_OK)
					break;
				if ((rc = report_build(&doc, &one, m[s], file, lr.line_no, err)) > 0) {
					other++;
					rc = TC_OK;
				}
				if (rc == TC_OK)
					rc = tr_fleet_add(&f, s, &doc.root, m[s], file, lr.line_no, err);
				json_doc_dispose(&doc);
				if (rc != TC_OK)
					break;
			}
			rc = rc < 0 ? rc : TC_OK;
			tr_lines_dispose(&lr);
			fclose(in);
		}
		if (rc == TC_OK)
			note_other_builds(&one, other, "");
		if (rc == TC_OK && !f.reports[s])
			rc = tc_set(err, TC_EINVAL,
			            "compare: side %c (--%c) has no Trace_EvilMethod report in its %zu report file%s%s: nothing to "
			            "compare (a fleet's slow-message, lag and ANR reports are compared per stack)",
			            'A' + s, 'a' + s, o->nside[s], o->nside[s] == 1 ? "" : "s",
			            f.other[s] ? " (only other tags)" : "");
	}
	uint64_t build[2] = { m[0] ? tr_mapping_build_id(m[0]) : 0, m[1] ? tr_mapping_build_id(m[1]) : 0 };
	if (rc == TC_OK && build[0] && build[0] == build[1]) {
		char h[MM_BUILD_ID_HEX];
		mm_build_id_hex(build[0], h);
		fprintf(stderr, "tc-trace: note: both sides are build %s: the build is compared with itself\n", h);
	}
	if (rc == TC_OK)
		rc = tr_fleet_finish(&f, o->cmp.alpha, o->cmp.tick_ms, err);
	if (rc == TC_OK) {
		tr_fleet_info info = { { o->side[0], o->side[1] }, { build[0], build[1] }, { o->side_map[0], o->side_map[1] } };
		rc = o->text ? tr_fleet_write_text(out, &f, &info, (size_t)o->top, err) : tr_fleet_write_json(out, &f, &info, err);
	}
	tr_fleet_dispose(&f);
	tr_mapping_free(m[0]);
	tr_mapping_free(m[1]);
	return rc;
}

/* Both sides' recordings, each checked against its side's mapping, summed
 * per method, message kind and section (trace_compare.h). *crossed gets the
 * number of rows past a --fail-on. */
static int cmd_compare(const opts *o, FILE *out, tc_error *err, size_t *crossed)
{
	tr_mapping *m[2] = { NULL, NULL };
	tr_cmp c;
	tr_dflame *df = NULL;
	uint32_t tick = 0;
	*crossed = 0;
	/* rings or report files: one kind on both sides */
	int kind = 0;
	const char *first = NULL;
	for (int s = 0; s < 2; s++)
		for (size_t k = 0; k < o->nside[s]; k++) {
			int kd = input_kind(o->side[s][k], err);
			if (kd < 0)
				return kd;
			if (kind && kd != kind)
				return tc_set(err, TC_EINVAL, "compare: %s is %s but %s is %s: compare rings with rings (launches) "
				              "or report files with report files (a fleet), on both sides", first,
				              kind == 1 ? "a ring" : "a report file", o->side[s][k], kd == 1 ? "a ring" : "a report file");
			kind = kd;
			if (!first)
				first = o->side[s][k];
		}
	if (kind == 2) {
		if (o->ngates || o->flame || o->cmp_html)
			return tc_set(err, TC_EINVAL, "compare: %s of report files: --fail-on, --flame and --html compare rings "
			              "(the methods' times); a fleet's reports are compared per stack",
			              o->ngates ? "--fail-on" : o->flame ? "--flame" : "--html");
		return cmd_compare_reports(o, out, err);
	}
	int rc = tr_cmp_init(&c, o->nside[0], o->nside[1], err);
	if (rc != TC_OK)
		return rc;
	if (o->flame)
		rc = tr_dflame_new(&df, o->nside[0], o->nside[1], err);
	tr_cmp_html ch;
	tr_cmp_html_init(&ch, 500000); /* calls a side: a page of some 20 MB at most */
	for (int s = 0; s < 2 && rc == TC_OK; s++)
		rc = tr_mapping_load(&m[s], o->side_map[s], err);
	uint64_t *hashes = malloc((o->nside[0] + o->nside[1]) * sizeof *hashes);
	size_t side_spans[2] = { 0, 0 };
	if (!hashes && rc == TC_OK)
		rc = tc_set(err, TC_ENOMEM, "out of memory");
	for (int s = 0; s < 2 && rc == TC_OK; s++) {
		for (size_t k = 0; k < o->nside[s] && rc == TC_OK; k++) {
			opts one = *o; /* this ring with its side's mapping, whole, every thread */
			one.ring = o->side[s][k];
			one.mapping = o->side_map[s];
			one.quiet_prev = 1;
			ring_input r;
			rc = ring_open(&r, &one, m[s], err);
			if (rc != TC_OK)
				break;
			if (r.rec.ring.resolution_ms > tick)
				tick = r.rec.ring.resolution_ms;
			/* a copy of another input (other inode, the same events): the
			 * same recording twice */
			uint64_t h = UINT64_C(14695981039346656037) ^ r.rec.pid;
			size_t spans = 0, unnamed = 0, events = 0;
			for (size_t t = 0; t < r.rec.n; t++) {
				const tr_thread *th = &r.rec.thread[t];
				events += th->count;
				for (size_t e = 0; e < th->count; e++)
					h = (h ^ th->events[e]) * UINT64_C(1099511628211);
				for (size_t i = 0; i < r.th[t].all.n; i++) {
					uint32_t id = r.th[t].all.v[i].id;
					spans++;
					unnamed += id != TC_ID_DISPATCH && !tr_mapping_lookup(m[s], id);
				}
			}
			hashes[s * o->nside[0] + k] = events ? h : 0; /* (rings of no event are all alike) */
			for (size_t j = 0; j < s * o->nside[0] + k && rc == TC_OK && events; j++)
				if (hashes[j] == h) {
					const char *other = j < o->nside[0] ? o->side[0][j] : o->side[1][j - o->nside[0]];
					rc = tc_set(err, TC_EINVAL, "compare: %s and %s hold the same recording (the same process and "
					            "events: a copy?): it would be %s; give each launch once", other, one.ring,
					            (j < o->nside[0]) != (s == 0) ? "compared with itself" : "counted twice");
				}
			/* without a build id the mapping cannot be checked: ids it does not
			 * name, most of the calls, say it is another build's */
			if (rc == TC_OK && !r.rec.ring.build_id && spans && unnamed * 2 > spans)
				rc = tc_set(err, TC_EINVAL, "compare: %zu of the %zu calls in %s are of ids %s does not name: it is "
				            "not the mapping of the build that recorded it (the ring has no build id to tell); give "
				            "that build's methodMapping.txt as --%c-mapping", unnamed, spans, one.ring,
				            o->side_map[s], 'a' + s);
			side_spans[s] += spans;
			if (rc != TC_OK) {
				ring_close(&r);
				break;
			}
			tr_cmp_begin(&c, s, k);
			for (size_t t = 0; t < r.rec.n && rc == TC_OK; t++) {
				rc = tr_cmp_add_spans(&c, &r.th[t].all, m[s], err);
				if (rc == TC_OK && df)
					rc = tr_dflame_add(df, s, &r.th[t].all, m[s], err);
				if (rc == TC_OK && o->cmp_html && r.rec.thread[t].main)
					rc = tr_cmp_html_add(&ch, s, one.ring, &r.th[t].all, m[s], err);
			}
			if (rc == TC_OK)
				rc = tr_cmp_end(&c, m[s], err);
			ring_close(&r);
		}
	}
	free(hashes);
	for (int s = 0; s < 2 && rc == TC_OK; s++)
		if (!side_spans[s])
			rc = tc_set(err, TC_EINVAL, "compare: side %c's %zu ring%s hold%s no call: nothing to compare (was the "
			            "app instrumented, and did it record?)", 'A' + s, o->nside[s], o->nside[s] == 1 ? "" : "s",
			            o->nside[s] == 1 ? "s" : "");
	uint64_t build[2] = { m[0] ? tr_mapping_build_id(m[0]) : 0, m[1] ? tr_mapping_build_id(m[1]) : 0 };
	if (rc == TC_OK && build[0] && build[0] == build[1]) {
		char h[MM_BUILD_ID_HEX];
		mm_build_id_hex(build[0], h);
		fprintf(stderr, "tc-trace: note: both sides are build %s: the build is compared with itself\n", h);
	}
	if (rc == TC_OK) {
		tr_cmp_opts co = o->cmp;
		if (co.tick_ms <= 0)
			co.tick_ms = tick ? tick : 5;
		rc = tr_cmp_finish(&c, &co, err);
	}
	if (rc == TC_OK) {
		tr_cmp_info info = { { o->side[0], o->side[1] }, { build[0], build[1] }, { o->side_map[0], o->side_map[1] } };
		rc = o->text ? tr_cmp_write_text(out, &c, &info, (size_t)o->top, err) : tr_cmp_write_json(out, &c, &info, err);
	}
	if (rc == TC_OK && df) {
		tr_output fo = { 0 };
		char sub[300];
		snprintf(sub, sizeof sub, "A: %zu recording%s of %.100s, B: %zu of %.100s", o->nside[0],
		         o->nside[0] == 1 ? "" : "s", o->side_map[0], o->nside[1], o->side_map[1]);
		tr_dflame_opts dfo = { o->title, sub, o->width, c.o.tick_ms };
		rc = tr_output_open(&fo, o->flame, err);
		if (rc == TC_OK)
			rc = tr_dflame_write(fo.f, df, &dfo, err);
		if (rc == TC_OK)
			rc = tr_output_commit(&fo, err);
		else
			tr_output_abort(&fo);
	}
	if (rc == TC_OK && o->cmp_html) {
		tr_output ho = { 0 };
		tr_cmp_info info = { { o->side[0], o->side[1] }, { build[0], build[1] }, { o->side_map[0], o->side_map[1] } };
		rc = tr_output_open(&ho, o->cmp_html, err);
		if (rc == TC_OK)
			rc = tr_cmp_html_write(ho.f, &ch, &c, &info, m, o->title, err);
		if (rc == TC_OK)
			rc = tr_output_commit(&ho, err);
		else if (ho.f)
			tr_output_abort(&ho);
	}
	tr_cmp_html_dispose(&ch);
	for (size_t g = 0; g < o->ngates && rc == TC_OK; g++) {
		char prefix[160];
		snprintf(prefix, sizeof prefix, "tc-trace: --fail-on %.100s: ", o->gates[g].text);
		*crossed += tr_cmp_gate_check(&c, &o->gates[g], stderr, prefix);
	}
	tr_cmp_dispose(&c);
	tr_dflame_free(df);
	tr_mapping_free(m[0]);
	tr_mapping_free(m[1]);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage_all(argc < 2 ? stderr : stdout, argc >= 2);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "help") == 0) {
		const struct command *c = argc > 2 ? find_command(argv[2]) : NULL;
		if (argc > 2 && !c)
			return bad_usage("unknown command \"%s\"", argv[2]);
		if (c) {
			usage_one(stdout, c);
		} else {
			usage_all(stdout, 1);
		}
		return 0;
	}
	opts o;
	int u = parse_args(argc, argv, &o);
	if (u) {
		free(o.side[0]);
		free(o.side[1]);
		return u == 3 ? 0 : u;
	}
	size_t crossed = 0;

	tc_error err = { 0 };
	tr_mapping *m = NULL;
	/* (the views add the recording's names to the mapping: sections, thread nodes) */
	int rc = o.mapping ? tr_mapping_load(&m, o.mapping, &err) : tr_mapping_empty(&m, &err);
	if (rc == TC_EIO) /* not read at all: say which option named it */
		tc_set(&err, rc, "--mapping %s", err.message);
	tr_output out = { 0 };
	int skipped = 0;
	if (rc == TC_OK && o.cmd->bit == C_PERFETTO && (!o.output || strcmp(o.output, "-") == 0) &&
	    isatty(STDOUT_FILENO)) {
		fprintf(stderr, "tc-trace: perfetto writes a binary trace: give -o FILE (or redirect standard output)\n");
		tr_mapping_free(m);
		return 2;
	}
	if (rc == TC_OK)
		rc = tr_output_open(&out, o.output, &err);
	if (rc == TC_OK) {
		switch (o.cmd->bit) {
		case C_TREE: rc = cmd_tree(&o, m, out.f, &err); break;
		case C_MESSAGES: rc = cmd_messages(&o, m, out.f, &err); break;
		case C_REPORTS: rc = cmd_reports(&o, m, out.f, &err, &skipped); break;
		case C_CHROME:
		case C_PERFETTO: rc = cmd_chrome(&o, m, out.f, &err); break;
		case C_HOT: rc = cmd_hot(&o, m, out.f, &err); break;
		case C_HTML: rc = cmd_html(&o, m, out.f, &err); break;
		case C_SECTIONS: rc = cmd_sections(&o, m, out.f, &err); break;
		case C_COMPARE: rc = cmd_compare(&o, out.f, &err, &crossed); break;
		default: rc = cmd_flame(&o, m, out.f, &err); break;
		}
		if (rc == TC_OK)
			rc = tr_output_commit(&out, &err);
		else
			tr_output_abort(&out);
	}
	tr_mapping_free(m);
	free(o.side[0]);
	free(o.side[1]);
	if (rc != TC_OK) {
		fprintf(stderr, "tc-trace: %s\n", err.message);
		return 1;
	}
	if (crossed) {
		fprintf(stderr, "tc-trace: compare: %zu row%s crossed --fail-on\n", crossed, crossed == 1 ? "" : "s");
		return 1;
	}
	if (skipped)
		fprintf(stderr, "tc-trace: %d report lines skipped\n", skipped);
	return 0;
}

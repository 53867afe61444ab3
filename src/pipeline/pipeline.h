/* Internals of tc-instrument shared by instrument.c (the phases), unit.c (the units),
 * collect.c (what each class is and which methods are traced), inject.c (editing one
 * class) and output.c (writing directories, jars, mappings and statistics). Not a public
 * header.
 *
 * Phases: read the inputs' listings (main thread); collect every class (workers);
 * decide Activities and assign ids in a fixed order (main thread); rewrite classes
 * (workers); write jars, mapping files and statistics (main thread).
 *
 * Its types and their functions carry the prefix pl_ (the pipeline's): tc_ names the
 * public API (instrument.h: tc_options, tc_instrument) and the project-wide types of
 * base/ (tc_error, tc_buf), so that a pl_ name says at once that it is internal to the
 * compiler, as Lua's lua_ (the API) and luaK_, luaV_ (its internal modules) do. */
#ifndef TC_PIPELINE_H
#define TC_PIPELINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "bytes.h"
#include "cache/cache.h"
#include "tc_error.h"
#include "dex.h"
#include "dex_verify.h"
#include "pipeline/instrument.h"
#include "containers/jar.h"
#include "maps/base_mapping.h"
#include "maps/proguard.h"
#include "rules.h"

enum pl_verdict {
	V_TRACE,
	V_EMPTY,   /* filter: no instruction */
	V_GETSET,  /* filter: accessor or trivial constructor */
	V_SINGLE,  /* filter: calls nothing */
	V_BLOCKED, /* block list: class or -keepregex */
	V_KEEPMETHOD, /* block list: -keepmethod (e.g. tc-trace hot's list) */
	V_INLINE,  /* filter: -keepinlinable, its probes would stop the JIT inlining it */
	V_COUNT
};

/* pl_meth.preset of a method an earlier run added (an Activity's onWindowFocusChanged that
 * calls BEAT.at and has no probe): left as it is and listed in neither mapping file, as
 * the run that added it did. Above every id. */
#define PRESET_ADDED MM_ID_MAX

typedef struct pl_meth {
	/* The mapping key "a.b.C name desc", in original names, is cls + ' ' + rest: the
	 * class part is shared by the class's methods (a long class path has 600,000). */
	const char *cls;   /* "a.b.C" */
	const char *rest;  /* "name desc" */
	uint32_t hash;     /* of the whole key, computed by the workers so that collect_decide() only looks up */
	uint32_t access;   /* as Matrix prints it (see collect.c) */
	uint32_t id;       /* for V_TRACE, once assigned */
	uint32_t preset;   /* the id of the probe already at its entry (instrumented before:
	                      kept as it is, and that id is its id), PRESET_ADDED, or 0 */
	uint32_t order;    /* position among the ignored, in input order (a sort tie-break) */
	uint32_t rest_len;
	uint16_t class_len; /* of cls (collect.c caps original names at 1023 bytes) */
	uint16_t index;    /* in the class's method table */
	uint16_t name_len; /* of the name part of rest */
	uint8_t verdict;
	uint8_t narrow;    /* dex, V_TRACE: fits -keepinlinable's limit with its probes only if
	                      its id takes const/16 (up to 32767); past it, V_INLINE (collect.c) */
} pl_meth;

/* The whole key's length, and the key itself into buf (NUL-terminated; false when it
 * does not fit). */
static inline size_t pl_meth_line_len(const pl_meth *m)
{
	return (size_t)m->class_len + 1 + m->rest_len;
}
bool pl_meth_line(const pl_meth *m, char *buf, size_t size);

typedef struct pl_input {
	const char *in, *out;   /* out is NULL for class-path entries */
	/* Inputs joined into one jar (tc_pair.joined): each is a run's input of its own whose
	 * out is a part beside that jar (a directory or a jar, `part`, malloc), committed
	 * like any output and then joined into it by out_join (output.c). */
	const char *joined_out; /* the jar, or NULL */
	char *part;
	size_t lead;            /* the group's first input */
	char *stage;            /* the output is built here, then renamed to out (or, merge, moved into it) */
	bool merge;             /* out is an existing directory: the stage's files are moved into it */
	bool jar;
	bool dex;               /* a dex file itself (a unit of its own) */
	bool apk;               /* a jar that is an APK: aligned, its signature dropped */
	bool classpath;
	bool dir;               /* a directory (else a file: jar, APK or dex) */
	bool facts_hit;         /* its units came from the cache */
	bool result_hit;        /* and its output and counters too */
	bool out_same;          /* its output already held the result: left in place */
	bool cut;               /* its file was cut short while mapped (jar_damaged): the run fails */
	cache_key facts_key, result_key;
	bool out_known;         /* out_hash and out_size are set */
	cache_key out_hash;     /* a one-file output's cache_hash_bytes */
	uint64_t out_size;
	tc_jar *zip;
	size_t first, count;    /* its units */
	uint64_t bytes_in, bytes_out;
} pl_input;

/* A dex file is a unit of kind UNIT_DEX (it is read, written and copied as a whole),
 * followed by one UNIT_DEXCLASS unit per class it defines (collected and edited like
 * class files, in parallel). */
enum pl_unit_kind { UNIT_CLASS, UNIT_FILE, UNIT_DIR, UNIT_DEX, UNIT_DEXCLASS };

/* A dex file of the inputs: its bytes, its model, and what the run adds to it. */
typedef struct dexin {
	arena a;               /* the model */
	uint8_t *bytes;        /* the file (malloc), which the model borrows */
	size_t len;
	dex_file d;
	bool parsed;
	bool pending;          /* its units came from the cache: read and parse it if edited */
	uint32_t beat_i, beat_o, beat_at; /* model method indices, or DEX_NO_INDEX */
	dex_verify_file vfy;   /* the method checker's facts, once the ids are final */
	bool left;             /* written unchanged (limits or a failed write): see reports */
	bool marker;           /* holds the build-id marker class (out_plan_marker) */
	uint32_t added;        /* classes added (the marker): the last ones, with no unit */
	tc_error parse_err;    /* why it did not parse (dexin_parse), for dexin_attach */
} dexin;
enum pl_unit_state { US_OK, US_MALFORMED };

typedef struct pl_report {
	struct pl_report *next;
	char *text;
} pl_report;

/* A large jar entry deflated in parts (containers/zlib_io.h: ZIO_PART) on any worker,
 * while the others go on: what out_jar_entry left to do (output.c). */
typedef struct pl_split {
	uint8_t *data;         /* the entry's new bytes (malloc) */
	size_t len;
	size_t nparts;
	uint8_t **part;        /* each part deflated (malloc), */
	size_t *part_len;
	uint32_t *crc;         /* and the CRC-32 of its bytes */
	bool dropped;          /* not to be used after all (out_jar_entry_drop) */
} pl_split;

typedef struct pl_unit {
	pl_input *in;
	uint64_t entry;        /* jar entry index */
	const char *name;      /* relative path or entry name */
	uint8_t kind;
	bool candidate;        /* a class file that the name filter keeps */
	jar_info info;
	dexin *dex;            /* UNIT_DEX and UNIT_DEXCLASS: the dex file */
	uint32_t dex_class;    /* UNIT_DEXCLASS: its class_def index */
	uint8_t *data;         /* decompressed class kept from phase 1 to phase 2 (arena) */
	size_t data_len;

	/* phase 1 */
	uint8_t state;
	char *error;           /* what was wrong, when malformed */
	const char *cls, *super; /* internal names; super NULL for Object and module-info */
	uint16_t access, major;
	bool traceable;        /* an input class, concrete, not a module, kept by the name filter */
	bool blocked;
	bool focus_declared;   /* declares onWindowFocusChanged(Z)V */
	uint32_t focus_method; /* dex: the model index of the onWindowFocusChanged to add */
	uint32_t focus_super;  /* dex: the super class's, which it calls */
	bool focus_final;
	/* declares onWindowFocusChanged(Z)V static or private (FOCUS_STATIC, FOCUS_PRIVATE):
	 * no override of Activity's, which the framework never calls, and no room for one
	 * (a class has one method of a name and descriptor) */
	uint8_t focus_blocked;
	uint8_t beat;          /* the beat class: what it declares (BEAT_*, beat.c), else 0 */
	pl_meth *methods;
	uint32_t nmethods;

	/* between the phases */
	bool activity;         /* traceable, not blocked, and an Activity */
	bool add_focus;        /* must receive an onWindowFocusChanged */
	const char *supers_note; /* the one class of the run that reports the super classes
	                          * found nowhere (collect.c, note_lost_supers), else NULL */

	/* phase 2 */
	bool changed;
	uint8_t *out;          /* jar entries: the new class as it goes into the jar (arena) */
	pl_split *split;       /* being deflated in parts (out_jar_entry), until out_jar_join */
	uint16_t out_method;   /* of out: 0 stored, 8 deflated */
	size_t out_len, out_size;
	size_t in_size;        /* bytes read in phase 2 (directories' statistics) */
	bool out_same;         /* a directory's file already held its bytes: only touched at the commit */
	uint32_t out_crc;
	uint32_t instrumented, skipped, focus_injected, focus_added, focus_refused;
	uint32_t already;      /* methods instrumented before (pl_meth.preset), left as they are */
	/* dex: rewritten methods checked with ART's rules (dex_verify.h); of them, those
	 * left as they were because the rewrite broke a rule, or because the input method
	 * already did */
	uint32_t checked, check_refused, input_fails;
	pl_report *reports;    /* methods or the class left unchanged, and why */
} pl_unit;

/* What the statistics report: summed from the units (out_summarize), or, when the
 * whole run was replayed from the cache, read from it. */
typedef struct pl_problem {
	size_t input;          /* index in pl_run.inputs */
	const char *name;      /* the unit's (entry or relative path) */
	const char *what, *detail; /* detail may be NULL */
} pl_problem;

typedef struct pl_summary {
	uint64_t classes, instrumented, malformed, by_name, abstract, modules, blocked, activities,
	         focus_added, focus_injected, focus_refused, methods_instrumented, methods_skipped;
	uint64_t methods_already, classes_already; /* instrumented before: left as they were */
	uint64_t traced, ignored, by_verdict[V_COUNT]; /* by_verdict: of the unique ignored */
	uint64_t dex_files, dex_changed, dex_left, dex_malformed;
	uint64_t dex_checked, dex_check_refused, dex_input_fails;
	pl_problem *problems;  /* malloc */
	size_t nproblems;
} pl_summary;

typedef struct pl_worker {
	arena keep;            /* strings that live until the end of the run */
	arena kept;            /* classes kept from phase 1 for phase 2 (pl_run.kept_bytes) */
	arena outs;            /* rewritten entries, until their batch of inputs is written */
	arena cls;             /* one class at a time */
	arena scratch;         /* one method at a time */
	tc_buf in, out, zout;
	struct zio_deflater *deflater[2]; /* made on first use, at out_deflate_level: [1] APKs' */
	struct zio_inflater *inflater; /* likewise */
	char made_dir[4096];   /* last directory created, to skip repeated mkdirs */
} pl_worker;

struct pl_hooks;

typedef struct pl_run {
	const tc_options *opt;
	/* Where an input's work may be known already (cache/memo.c), or NULL. */
	const struct pl_hooks *hooks;
	bool keep_dir_outs;    /* a directory's rewritten files stay in their units (u->out) */
	tc_rules *rules;
	pg_map *pg;
	mapping *base;
	pl_input *inputs;
	size_t ninputs;
	pl_unit *units;
	size_t nunits, capunits;
	pl_worker *workers;
	int nworkers;
	uint64_t max_input;    /* the input limit in bytes (tc_options.max_input) */
	atomic_size_t kept_bytes; /* decompressed classes held between the phases */
	size_t keep_limit;
	/* results */
	pl_meth **traced;      /* unique traced methods, by id */
	size_t ntraced;
	pl_meth **ignored;     /* unique ignored methods, by class */
	size_t nignored;
	uint64_t by_verdict[V_COUNT];
	double t_read, t_collect, t_decide, t_trace, t_write, t_map;
	pl_summary sum;
	tc_cache *cache;       /* memo.c */
	cache_key cache_env;   /* the tool, the block list, the ProGuard mapping, the beat class */
	cache_stats cache_stats;
	bool run_memo;         /* the whole run can be cached: every output is one file */
	bool replayed;         /* and it was: no facts, no decide, outputs from the cache */
	cache_key run_key;
	bool map_known[2];     /* methodMapping.txt, ignoreMethodMapping.txt as written (output.c): */
	cache_key map_hash[2]; /* their cache_hash_bytes, */
	uint64_t map_size[2];  /* sizes */
	char *map_stage[2];    /* replayed: staged copies, renamed by out_commit_mappings */
	uint64_t build_id;     /* of methodMapping.txt as written (out_write_build_id) */
	const pl_input *marker_in; /* the output that got the build-id marker, or NULL */
	uint64_t marker_id;    /* the id the marker holds (out_plan_marker, or written_id once written) */
	uint64_t written_id;   /* the build id of the lines out_write_mappings wrote */
	bool mappings_written; /* staged (out_write_mappings; run beside phase 2 of the first batch) */
	size_t marker_unit;    /* the dex unit that gets it as a class, or SIZE_MAX (a class file) */
	struct pool_queue *parts; /* the parts of large entries to deflate (pl_split), as a phase makes them */
} pl_run;

/* unit.c: the units, and the strings that live as long as the run. */
/* A new unit of input in, named name (kept), at the end of pl_run.units (which may move). */
pl_unit *pl_unit_new(pl_run *r, pl_input *in, const char *name, tc_error *err);
/* Its bytes as phase 1 or 2 reads them: kept from the listing, read from the mapped jar
 * (inflated, checked) or from its file, into the worker's w->in. */
/* Whether the file at path is a dex file: it starts like one, or it is named *.dex and
 * is no zip (instrument.c; the input's kind for classify_input and the kinds check). */
bool pl_sniff_dex(const char *path);

int pl_unit_bytes(pl_run *r, pl_unit *u, pl_worker *w, const uint8_t **data, size_t *len, tc_error *err);
/* Whether phase 2 has work on u: a traceable class with a method to trace, or an Activity. */
bool pl_unit_wants_edit(const pl_unit *u);
/* A report (a method or the class left unchanged, and why) added to u's, in order. */
void pl_unit_report(pl_unit *u, pl_worker *w, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
/* A method left as it was: "label: not instrumented: why" reported and counted. */
void pl_unit_skip(pl_unit *u, pl_worker *w, const char *label, const tc_error *e);
/* One method's rewrite settled, the same for both formats (src/inject/): rc TC_OK counts
 * it (id: a probe, focus: the at() call) and returns 0; out of memory ends the class
 * (returns TC_ENOMEM, set in err); any other failure returns 1, for the caller to report
 * with pl_unit_skip (its label is the format's) and go on with the method as it was. */
int pl_unit_settle(pl_unit *u, int rc, const tc_error *e, bool id, bool focus, tc_error *err);
/* s[0..len) copied, NUL-terminated, into w's keep arena (until the end of the run). */
char *pl_keep_str(pl_worker *w, const char *s, size_t len);

/* collect.c */
int collect_unit(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err);
/* Between the phases (main thread): the class hierarchy, the Activities and their focus
 * methods, every traced method's id (its probe's, the base mapping's or a new one) and the
 * two lists (pl_run.traced, pl_run.ignored), the traced in the mapping file's order. */
int collect_decide(pl_run *r, tc_error *err);
/* pl_run.ignored into the order of its mapping file, by class: only the mapping writer
 * reads that order, so the pipeline sorts it beside phase 2, with the writing. */
void collect_sort_ignored(pl_run *r);

/* beat.c: the runtime the calls go to. pl_unit.beat's bits: the unit defines the beat
 * class, which is public; then per member (i, o, at) two bits, declared with the
 * descriptor the calls name, and public and static: BEAT_MEMBERS << 2k and << 2k+1. */
/* The words of the report on super classes found nowhere (collect.c), which the summary
 * repeats on stderr (output.c) */
#define PL_SUPERS_NOTE "neither inputs nor on the class path"

#define FOCUS_STATIC 1u
#define FOCUS_PRIVATE 2u
/* "static" or "private": what u->focus_blocked is */
const char *pl_focus_blocked_word(const pl_unit *u);
/* Reports, for an Activity u whose focus_blocked is set, why it gets no at(). */
void pl_unit_report_focus_blocked(pl_unit *u, pl_worker *w);

#define BEAT_DEFINED 0x1u
#define BEAT_PUBLIC 0x2u
#define BEAT_MEMBERS 0x4u
struct cf_class;
/* Phase 1: u's facts when it is the beat class (a class file, a dex class). */
void beat_note_class(const pl_run *r, pl_unit *u, const struct cf_class *cls);
void beat_note_dex(const pl_run *r, pl_unit *u, const dex_file *d, const dex_class *k);
/* Between the phases (with tc_options.check_runtime): refuses (TC_EARG, naming the fix)
 * a run that writes calls to members no input or class-path entry defines as public
 * static ones of a public beat class. */
int beat_check(const pl_run *r, tc_error *err);

/* inject.c: edits one parsed class of unit u; u's counters and reports are updated. */
int inject_class(pl_run *r, pl_unit *u, pl_worker *w, struct cf_class *cls, tc_error *err);

/* dexin.c: dex inputs. dexin_add reads a dex file's bytes (taking them) and adds its
 * units; a dex that does not parse is one malformed unit, copied unchanged.
 * dexin_prepare adds the ids the edits need (main thread, between the phases);
 * dexin_write writes an edited dex (phase 3, workers). */
int dexin_add(pl_run *r, pl_input *in, const char *name, uint64_t entry, uint8_t *bytes, size_t len, tc_error *err);
/* dexin_add in three steps, so that an input's dex files parse in parallel: dexin_new
 * takes the bytes (NULL: no memory, the bytes freed); dexin_parse builds the model, on
 * any thread (it touches x alone); dexin_attach adds the units (main thread, in listing
 * order), or one malformed unit, and owns x from then on (freed if it fails). */
dexin *dexin_new(const pl_run *r, uint8_t *bytes, size_t len);
void dexin_parse(const pl_run *r, dexin *x);
int dexin_attach(pl_run *r, pl_input *in, const char *name, uint64_t entry, dexin *x, tc_error *err);
int dexin_prepare(pl_run *r, pl_unit *u, tc_error *err);
/* A dex whose units came from the cache: its bytes read and parsed, for editing. */
int dexin_load(pl_run *r, pl_unit *u, tc_error *err);
int dexin_write(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err);
void dexin_free(dexin *x);
/* collect.c */
int collect_dex_class(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err);
/* inject_dex.c: edits the methods of one dex class (phase 2). */
int inject_dex_class(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err);
/* Accepts c, the new code of method m of class k (m->code: the input's,
 * or NULL for a method the run adds), when it passes ART's method verifier rules (f);
 * otherwise fails (TC_EUNSUPPORTED) naming the rule, and says the input method breaks
 * it already when it does. Counts in u->checked, check_refused, input_fails. Scratch
 * memory from scratch (reset). */
int inject_dex_accept(const dex_verify_file *f, arena *scratch, pl_unit *u, const dex_class *k, const dex_emethod *m,
                      dex_code *c, tc_error *err);

/* output.c */
/* Writes a file: in place under a temporary name then renamed (atomic), or, with
 * fresh set, directly (the path lies in a staging directory nobody else sees). */
int out_write_file(pl_worker *w, const char *path, const uint8_t *data, size_t len, bool fresh,
                   tc_error *err);
/* Outputs are staged beside their final path (in->stage), so that nothing of a run that
 * fails reaches them: a jar or dex written whole, a new directory built whole, or, for
 * an existing directory, the files that change (in->merge). out_commit renames the
 * stage into place (a merge stage's files one by one, each atomically, leaving the
 * directory's other files as they are) once every output is staged; out_abort removes
 * it after a failure. */
int out_stage_dir(pl_input *in, tc_error *err);
/* The file of unit u in its directory output: into the stage, unless the existing
 * output already holds these bytes (then it is only touched at the commit). */
int out_dir_file(pl_worker *w, pl_unit *u, const uint8_t *data, size_t len, tc_error *err);
/* A one-file output (jar, APK, dex) is written under in->stage, renamed by out_commit. */
int out_stage_file(pl_input *in, tc_error *err);
/* Writes jar input in's output into its stage, from its units (raw copies and their
 * rewritten entries): once its batch is traced, on any worker, beside other jars. */
int out_write_jar(pl_run *r, pl_input *in, tc_error *err);
int out_commit(pl_run *r, pl_input *in, tc_error *err);
void out_abort(pl_input *in);
/* A run replayed from the cache stages its mapping files too (pl_run.map_stage, beside
 * each file in the mapping directory, for memo_run to fill); out_commit_mappings renames
 * them into place after the outputs' commit (a file found in place already is only
 * touched), out_abort_mappings removes them after a failure. out_unstage_run undoes a
 * replay that could not finish: every output's stage and both mapping files'. */
int out_stage_mapping(pl_run *r, int which, tc_error *err);
int out_commit_mappings(pl_run *r, tc_error *err);
void out_abort_mappings(pl_run *r);
void out_unstage_run(pl_run *r);
/* Creates the mapping directory, so that a run that could not write its mappings
 * fails before it writes anything else; the two below rely on it having run. */
int out_mapping_dir(pl_run *r, tc_error *err);
/* Writes both mapping files staged beside their final paths (pl_run.map_stage; a file
 * that already holds the bytes is left alone), for out_commit_mappings to rename into
 * place right after the outputs' commit: a run that cannot write its mappings replaces
 * no output. Sets pl_run.written_id, the build id of what it wrote, and
 * .mappings_written. Reads only what collect_decide made, pl_run.ignored sorted
 * (collect_sort_ignored): the pipeline runs both on a worker while the others rewrite
 * classes. */
int out_write_mappings(pl_run *r, tc_error *err);
/* The build id (mapfile/method_mapping.h) of the methodMapping.txt out_write_mappings
 * will write, from the assigned ids (after collect_decide), for what needs it before
 * the mappings are written (out_plan_marker). */
uint64_t out_build_id(const pl_run *r);
/* Where the runtime finds the build id: a class of its own, read by reflection
 * (TraceCanary.buildId; consumer-rules.pro keeps it). */
#define OUT_MARKER_CLASS "com/tencent/matrix/trace/generated/BuildId"
#define OUT_MARKER_FIELD "ID"
/* Chooses, once the ids are assigned (collect_decide) and before any output is looked up
 * in the cache or written, the one output that carries the build id (pl_run.marker_in,
 * .marker_id, .marker_unit): the first output, in the order of --in, that has a place for
 * it. One per run: two outputs holding the same class would fail dexing ("defined
 * multiple times"). Outputs of class files get the marker class as a class file at its
 * path when they are a class root (some class is at the path its name gives: in a tree of
 * roots, the JDK's modules, a marker at the top would be a stray no class path holds): a
 * directory in its stage (out_build_id_marker), a jar as its last entry (out_write_jar).
 * Outputs of dex files (a dex file, an APK, a directory or jar of them) get it as a class
 * of one dex, classes.dex if there is one, else the first (dexin_prepare). The id
 * (.marker_id) is computed here when something reads it before the mappings are written:
 * the cache's result keys, a dex's marker (dexin_prepare, before phase 2); else it is
 * 0 until out_write_mappings gives .written_id (the jar and directory markers are written
 * after phase 2). */
void out_plan_marker(pl_run *r);
/* After the outputs are written: a directory's marker class into its stage; a marker
 * that could not be written (a dex whose ids would not fit, or left unchanged) is
 * forgotten, pl_run.marker_in NULL. */
int out_build_id_marker(pl_run *r, tc_error *err);
/* The marker class file holding the hex id (OUT_MARKER_CLASS, field OUT_MARKER_FIELD). */
int out_marker_class(tc_buf *b, uint64_t id);
/* Computes the build id of methodMapping.txt as it is in the mapping directory (written
 * or replayed) into pl_run.build_id and writes it, in hex, to the file buildId beside it. */
int out_write_build_id(pl_run *r, tc_error *err);
/* The mapping files' names in the mapping directory, by index (pl_run.map_hash). */
extern const char *const out_mapping_names[2];
/* Sums the units into pl_run.sum (unless replayed), for memo_save_run and the statistics. */
int out_summarize(pl_run *r, tc_error *err);
/* Writes instrument-stats.json (atomically), then on stderr each dex file copied as it
 * was (left or malformed) and, unless --quiet, the summary. */
int out_write_stats(pl_run *r, double total, tc_error *err);
/* Each group of inputs joined into one jar (pl_input.joined_out): after their parts are
 * committed, the jar is written from them beside its path and renamed into place, and
 * the parts removed: a jar part's entries copied as they are (a directory entry that an
 * earlier input gave already is left out), a directory part's files added in byte order
 * of their paths, deflated, with a fixed time (reproducible). Before the mapping files'
 * commit, so that a failed join replaces no mapping. out_unjoin removes what is left of
 * the parts (a run that failed). */
int out_join(pl_run *r, tc_error *err);
void out_unjoin(pl_run *r);
/* Whether the regular file at path has this size and cache_hash_bytes. */
bool out_holds(const char *path, uint64_t size, cache_key hash);

/* The pipeline's two seams where an input's work may be known from an earlier run
 * (pl_run.hooks; cache/memo.c fills them, the pipeline knows no more of the cache):
 * facts (reading the inputs): an input whose facts are known gets its units from them
 * (*hit, in->facts_hit), and phase 1 skips it; save_facts after phase 1.
 * result (after collect_decide): an input whose result is known gets its output staged and its
 * counters (*hit, in->result_hit), and phases 2 and 3 skip it; save_result once its
 * output is staged. */
typedef struct pl_hooks {
	int (*facts)(pl_run *r, pl_input *in, bool *hit, tc_error *err);
	void (*save_facts)(pl_run *r, pl_input *in);
	int (*result)(pl_run *r, pl_input *in, bool *hit, tc_error *err);
	void (*save_result)(pl_run *r, pl_input *in);
} pl_hooks;

/* memo.c: the cache around the pipeline (tc_instrument). memo_begin opens it (with
 * --cache; else every memo_ call does nothing) and sets pl_run.hooks; memo_key gives each
 * input its facts key (its kind and bytes); memo_run looks the whole run up (every
 * input's facts key, the base mapping, the options): on a hit every output and both
 * mapping files are staged (or found already in place) and pl_run.sum is read, so that
 * only the commit (out_commit, out_commit_mappings) and the statistics are left (*hit). Otherwise the pipeline runs,
 * and memo_save_run keeps the mapping files and the summary. memo_end closes the cache
 * (trimming it) and takes its statistics. */
int memo_begin(pl_run *r, tc_error *err);
void memo_end(pl_run *r);
int memo_key(pl_run *r, pl_input *in, tc_error *err);
int memo_run(pl_run *r, bool *hit, tc_error *err);
void memo_save_run(pl_run *r);

/* output.c: an edited entry of a jar, as it goes into the archive (deflated unless the
 * source entry was stored), kept until the jar is written: in room (room_len bytes, the
 * unit's class kept from phase 1, read no more) when it fits, else in the worker's
 * arena. room may be NULL. */
int out_jar_entry(pl_run *r, pl_unit *u, pl_worker *w, const uint8_t *data, size_t len, uint8_t *room,
                  size_t room_len, tc_error *err);
/* A large entry (above ZIO_PART bytes) is deflated in parts: out_jar_entry pushes them on
 * pl_run.parts (pl_split), any worker deflates one (out_jar_part, the index pushed), and
 * out_jar_join, once they are all done, puts them together as the unit's out (in the
 * first worker's arena: main thread). */
int out_jar_part(pl_run *r, size_t index, pl_worker *w, tc_error *err);
/* The level of an output's rewritten entries: tc_options.deflate_level, else 6 for an APK
 * (shipped and installed: its size counts) and 1 for any other jar (an intermediate that
 * a dexer or class loader reads once: at level 1 its rewritten classes deflate in about
 * 60% of level 6's time, 1.5-2.5% larger). */
int out_deflate_level(const pl_run *r, const pl_input *in);
int out_jar_join(pl_run *r, pl_unit *u, tc_error *err);
/* What out_jar_entry made is not to be used (a dex that failed its check): the entry is
 * copied from the source as it was; parts still being deflated are dropped at the join. */
void out_jar_entry_drop(pl_unit *u);
void out_jar_split_free(pl_unit *u);

#endif

/* tc-instrument's pipeline, as a library call: what the command line fills in. */
#ifndef TC_INSTRUMENT_H
#define TC_INSTRUMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc_error.h"

#define TC_VERSION "0.2.0"

/* The default input limit, in MB: no file, archive entry or dex model larger than this
 * is held in memory (tc_options.max_input; the command line's --max-input-mb). */
#define TC_MAX_INPUT_MB 512
#define TC_MAX_INPUT_BYTES ((uint64_t)TC_MAX_INPUT_MB << 20)
/* What sets the input limit, for messages (tc_file_open). */
#define TC_LIMIT_OPTION "--max-input-mb"

typedef struct tc_pair {
	const char *in, *out;
	/* Its input goes into the previous pair's output, the same path: several class
	 * directories and jars joined into one jar (AGP's contract for a transform of all
	 * classes), entries in the order of the inputs, a name two inputs hold refused. */
	bool joined;
} tc_pair;

typedef struct tc_options {
	const tc_pair *pairs;        /* inputs and their outputs (directory->directory, jar->jar) */
	size_t npairs;
	const char *const *classpath; /* read only for the class hierarchy */
	size_t nclasspath;
	const char *mapping_dir;     /* receives methodMapping.txt, ignoreMethodMapping.txt, stats */
	const char *base_mapping;    /* methodMapping.txt of an earlier build, or NULL */
	const char *blocklist;       /* block-list file, or NULL */
	const char *proguard;        /* ProGuard/R8 mapping.txt, or NULL */
	const char *beat;            /* beat class, internal form */
	int threads;                 /* 0 = one per processor */
	int deflate_level;           /* for rewritten jar entries, 1..9; 0: 6 for APKs, 1 for other jars */
	bool strict;                 /* a malformed class is fatal */
	bool quiet;                  /* no summary line */
	/* Refuse a run whose calls reach no runtime: the beat class and the members the
	 * calls name, public and static, defined by an input or a class-path entry (the
	 * command line sets it unless --no-runtime-check). */
	bool check_runtime;
	const char *cache_dir;       /* results cached there (see cache.h, memo.c), or NULL */
	uint64_t cache_max_bytes;    /* the cache is evicted down to this after the run */
	/* The largest file (input, class-path entry, block list, mapping), archive entry
	 * once inflated, and dex model read into memory, in bytes; 0: TC_MAX_INPUT_MB. A
	 * larger one is an error (TC_ELIMIT) found before it is read. */
	uint64_t max_input;
} tc_options;

/* Runs the whole job. Returns TC_OK, or an error with nothing half-written: outputs
 * are replaced atomically, the mapping files last. Starts with tc_check_paths. */
int tc_instrument(const tc_options *o, tc_error *err);

/* Refuses (TC_EARG, naming the --out and what it clashes with) a run whose outputs
 * clash, compared as the file system resolves them (symbolic links, "..", "./"): an
 * --out given twice or inside another, equal to or inside an input other than its own
 * (another --in, a --classpath entry), equal to the base mapping, the block list or the
 * ProGuard mapping, or to the mapping directory or one of its three files; and an
 * --out that is not what its --in is (paths.c, kinds_match: a directory, a jar, an
 * APK, a dex file, as the path is or its name says; several --in joined make a jar).
 * Writes nothing; reads only the first bytes of an input (a dex file's magic). */
int tc_check_paths(const tc_options *o, tc_error *err);

#endif

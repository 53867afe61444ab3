/* tc-instrument's phases; see pipeline.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "classfile.h"
#include "file.h"
#include "dex.h"
#include "filter.h"
#include "pipeline/pipeline.h"
#include "pipeline/pool.h"
#include "containers/walk.h"
#include "containers/zlib_io.h"

/* Decompressed jar classes kept between the phases, at most (then inflated twice): a
 * bound, since they cannot be freed one by one. A run whose jars' classes come to
 * KEEP_ALL or less keeps them all (keep_limit): it inflates each once. */
#define KEEP_LIMIT ((size_t)16 << 20)
#define KEEP_ALL ((uint64_t)32 << 20)
/* Inputs are worked on in batches of about this many bytes: what a batch reads, and
 * what it writes until its outputs are on disk, is given back before the next. */
#define BATCH_BYTES ((uint64_t)16 << 20)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

/* Whether workers read the unit's bytes themselves (a file, or a stored or deflated
 * jar entry); otherwise they were read once, on the main thread, into u->data. */
static bool worker_reads(const pl_unit *u)
{
	return !u->in->jar || u->info.method == 0 || u->info.method == 8;
}

/* Dex files an input's listing takes for dex: "classes.dex", "classes2.dex", ... as d8
 * names them (other .dex files, e.g. in an APK's assets, are copied as they are). */
static bool is_dex_name(const char *name)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	return !strncmp(base, "classes", 7) && ends_with(base, ".dex");
}


/* An input's dex files, read and parsed on the workers, one dex file an item, before the
 * listing adds their units in its own order (dexin_attach): the models do not depend on
 * which worker made them, and a read error is reported where the serial listing met it. */
typedef struct dex_pre {
	uint64_t entry; /* of a jar, or */
	char *path;     /* a file */
	dexin *x;       /* NULL: err says why */
	tc_error err;
} dex_pre;

typedef struct dex_pre_job {
	pl_run *r;
	pl_input *in;
	dex_pre *v;
} dex_pre_job;

static int pre_dex(void *ctx, size_t i, int wk)
{
	dex_pre_job *j = ctx;
	dex_pre *p = &j->v[i];
	pl_worker *w = &j->r->workers[wk];
	tc_buf b;
	buf_init(&b);
	tc_error_clear(&p->err);
	int rc;
	if (p->path) {
		rc = tc_file_read(p->path, &b, j->r->max_input, TC_LIMIT_OPTION, &p->err);
	} else if (!w->inflater && !(w->inflater = zio_inflater_new())) {
		rc = tc_fail(&p->err, TC_ENOMEM, TC_NO_OFFSET, j->in->in, "cannot start inflate");
	} else {
		rc = jar_read(j->in->zip, p->entry, &b, j->r->max_input, w->inflater, &p->err);
	}
	if (rc != TC_OK) {
		buf_free(&b);
		return 0;
	}
	size_t len;
	uint8_t *bytes = buf_take(&b, &len);
	/* an empty file has no buffer; an empty jar entry has one (jar_read reserves) */
	if ((!bytes && !p->path) || !(p->x = dexin_new(j->r, bytes, len))) {
		tc_fail(&p->err, TC_ENOMEM, TC_NO_OFFSET, j->in->in, "no memory");
		return 0;
	}
	dexin_parse(j->r, p->x);
	return 0;
}

static void pre_free(dex_pre *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		dexin_free(v[i].x);
		free(v[i].path);
	}
	free(v);
}

/* One dex_pre into units (its model taken), or its read error. */
static int pre_attach(pl_run *r, pl_input *in, dex_pre *p, const char *name, tc_error *err)
{
	if (!p->x) {
		*err = p->err;
		return err->code;
	}
	dexin *x = p->x;
	p->x = NULL;
	return dexin_attach(r, in, name, p->entry, x, err);
}

static int add_dex_file(pl_run *r, pl_input *in, const char *path, const char *name, tc_error *err)
{
	tc_buf b;
	buf_init(&b);
	if (tc_file_read(path, &b, r->max_input, TC_LIMIT_OPTION, err) != TC_OK) {
		buf_free(&b);
		return err->code;
	}
	size_t len;
	uint8_t *bytes = buf_take(&b, &len);
	return dexin_add(r, in, name, 0, bytes, len, err);
}

static int list_dir(pl_run *r, pl_input *in, tc_error *err)
{
	char **files;
	size_t n;
	if (walk_list_files(in->in, &files, &n, err) != TC_OK)
		return err->code;
	int rc = TC_OK;
	size_t ndex = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		ndex += is_dex_name(files[i]);
	dex_pre *v = calloc(ndex ? ndex : 1, sizeof *v);
	if (!v) {
		walk_free_list(files, n);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "no memory");
	}
	for (size_t i = 0; i < n && rc == TC_OK; i++) {
		if (!is_dex_name(files[i]))
			continue;
		char path[4200];
		walk_path_join(path, sizeof path, in->in, "/", files[i]);
		if (!(v[k++].path = strdup(path)))
			rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "no memory");
	}
	if (rc == TC_OK)
		pool_run(r->nworkers, ndex, pre_dex, &(dex_pre_job){r, in, v});
	k = 0;
	for (size_t i = 0; i < n && rc == TC_OK; i++) {
		if (is_dex_name(files[i])) {
			rc = pre_attach(r, in, &v[k++], files[i], err);
			continue;
		}
		pl_unit *u = pl_unit_new(r, in, files[i], err);
		if (!u) {
			rc = err->code;
			break;
		}
		u->kind = ends_with(files[i], ".class") ? UNIT_CLASS : UNIT_FILE;
		u->candidate = u->kind == UNIT_CLASS && filter_file(files[i]);
	}
	pre_free(v, ndex);
	walk_free_list(files, n);
	return rc;
}

/* A dex entry of a jar that pre_dex reads: libzip's methods stay on this thread. */
static bool pre_entry(tc_jar *zip, uint64_t i)
{
	const char *name = jar_name(zip, i);
	if (!name || strchr(name, '/') || !is_dex_name(name) || jar_is_dir(zip, i))
		return false;
	jar_info info;
	jar_stat(zip, i, &info);
	return info.method == 0 || info.method == 8;
}

static int list_jar(pl_run *r, pl_input *in, tc_error *err)
{
	if (jar_open(&in->zip, in->in, err) != TC_OK)
		return err->code;
	struct stat st;
	if (stat(in->in, &st) == 0)
		in->bytes_in = (uint64_t)st.st_size;
	tc_buf buf;
	buf_init(&buf);
	int rc = TC_OK;
	uint64_t n = jar_count(in->zip);
	bool manifest = false, dex = false;
	for (uint64_t i = 0; i < n; i++) {
		const char *name = jar_name(in->zip, i);
		manifest |= name && !strcmp(name, "AndroidManifest.xml");
		dex |= name && !strchr(name, '/') && is_dex_name(name);
	}
	/* An APK: by its name, or by what it holds (a renamed one) */
	in->apk = ends_with(in->in, ".apk") || (manifest && dex);
	if (in->apk && (rc = jar_check_unique(in->zip, err)) != TC_OK)
		return rc;
	/* the dex entries stored or deflated are read and parsed on the workers first */
	size_t ndex = 0, k = 0;
	for (uint64_t i = 0; i < n; i++)
		ndex += pre_entry(in->zip, i);
	dex_pre *v = calloc(ndex ? ndex : 1, sizeof *v);
	if (!v)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "no memory");
	for (uint64_t i = 0; i < n; i++)
		if (pre_entry(in->zip, i))
			v[k++].entry = i;
	pool_run(r->nworkers, ndex, pre_dex, &(dex_pre_job){r, in, v});
	k = 0;
	struct zio_inflater *z = NULL;
	for (uint64_t i = 0; i < n && rc == TC_OK; i++) {
		const char *name = jar_name(in->zip, i);
		if (name && k < ndex && v[k].entry == i) {
			size_t at = r->nunits;
			if ((rc = pre_attach(r, in, &v[k++], name, err)) == TC_OK)
				jar_stat(in->zip, i, &r->units[at].info);
			continue;
		}
		if (!name) {
			rc = tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, in->in, "entry %llu has no readable name",
			             (unsigned long long)i);
			break;
		}
		if (!strchr(name, '/') && is_dex_name(name) && !jar_is_dir(in->zip, i)) {
			/* read here, on this thread: the dex's classes become units */
			if (!z && !(z = zio_inflater_new())) {
				rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "cannot start inflate");
				break;
			}
			if ((rc = jar_read(in->zip, i, &buf, r->max_input, z, err)) != TC_OK)
				break;
			size_t len, at = r->nunits;
			uint8_t *bytes = buf_take(&buf, &len);
			if (!bytes) {
				rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "no memory");
				break;
			}
			if ((rc = dexin_add(r, in, name, i, bytes, len, err)) == TC_OK)
				jar_stat(in->zip, i, &r->units[at].info);
			continue;
		}
		pl_unit *u = pl_unit_new(r, in, name, err);
		if (!u) {
			rc = err->code;
			break;
		}
		u->entry = i;
		if (jar_is_dir(in->zip, i)) {
			u->kind = UNIT_DIR;
			continue;
		}
		if (!ends_with(name, ".class")) {
			u->kind = UNIT_FILE;
			continue;
		}
		u->kind = UNIT_CLASS;
		u->candidate = filter_file(name);
		/* jar_read refuses encrypted entries and sizes past the input limit, in the workers
		 * or here. */
		jar_stat(in->zip, i, &u->info);
		if (!worker_reads(u)) {
			/* Another compression method: libzip decompresses it here, on this thread. */
			if ((rc = jar_read(in->zip, i, &buf, r->max_input, NULL, err)) != TC_OK)
				break;
			/* workers[0] is this thread's until the phases start. */
			u->data_len = buf.len;
			if (!(u->data = arena_dup(&r->workers[0].keep, buf.data, buf.len))) {
				rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "no memory");
				break;
			}
		}
	}
	buf_free(&buf);
	zio_inflater_free(z);
	pre_free(v, ndex);
	/* listing read every local header: give the pages back until the jar's batch */
	jar_release(in->zip);
	return rc;
}

static void drop_data(pl_run *r, pl_unit *u)
{
	/* Kept from phase 1 (in an arena); for a jar entry with an unusual method it is the
	 * only copy. */
	if (u->data && worker_reads(u)) {
		atomic_fetch_sub(&r->kept_bytes, u->data_len);
		u->data = NULL;
	}
}

/* --- the phases ------------------------------------------------------------------------ */

typedef struct job {
	pl_run *r;
	size_t *items;
	tc_error *errs; /* per worker */
} job;

static int phase1(void *ctx, size_t i, int wk)
{
	job *j = ctx;
	pl_unit *u = &j->r->units[j->items[i]];
	pl_worker *w = &j->r->workers[wk];
	if (u->kind == UNIT_DEXCLASS)
		return collect_dex_class(j->r, u, w, &j->errs[wk]) != TC_OK;
	return collect_unit(j->r, u, w, &j->errs[wk]) != TC_OK;
}

/* A unit of a directory whose result came from the cache: its rewritten bytes from the
 * cache, or the input file as it is. */
static int restore_unit(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err)
{
	if (u->in->jar || u->in->dex || u->kind == UNIT_DIR || u->kind == UNIT_DEXCLASS)
		return TC_OK; /* one-file outputs are staged whole by hooks->result */
	if (u->changed && u->out)
		return out_dir_file(w, u, u->out, u->out_len, err);
	char in[4200];
	walk_path_join(in, sizeof in, u->in->in, "/", u->name);
	if (tc_file_read(in, &w->in, r->max_input, TC_LIMIT_OPTION, err) != TC_OK)
		return err->code;
	return out_dir_file(w, u, w->in.data, w->in.len, err);
}

static int trace_unit(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err)
{
	if (u->in->result_hit)
		return restore_unit(r, u, w, err);
	if (u->kind == UNIT_DIR || u->kind == UNIT_DEX || (u->in->jar && u->kind == UNIT_FILE))
		return TC_OK; /* the jar writer copies these; dex files are written in phase 3 */
	if (u->kind == UNIT_DEXCLASS)
		return pl_unit_wants_edit(u) ? inject_dex_class(r, u, w, err) : TC_OK;
	if (u->kind == UNIT_FILE) {
		char in[4200];
		walk_path_join(in, sizeof in, u->in->in, "/", u->name);
		if (tc_file_read(in, &w->in, r->max_input, TC_LIMIT_OPTION, err) != TC_OK)
			return err->code;
		u->in_size = u->out_size = w->in.len;
		return out_dir_file(w, u, w->in.data, w->in.len, err);
	}
	const uint8_t *data;
	size_t len;
	if (pl_unit_bytes(r, u, w, &data, &len, err) != TC_OK)
		return err->code;
	u->in_size = len;
	if (pl_unit_wants_edit(u)) {
		arena_reset(&w->cls);
		cf_class cls;
		tc_error perr;
		tc_error_clear(&perr);
		if (cf_parse(&cls, &w->cls, data, len, &perr) != TC_OK)
			return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, u->name, "class changed between the phases");
		if (inject_class(r, u, w, &cls, err) != TC_OK)
			return err->code;
		if (u->changed) {
			buf_clear(&w->out);
			if (cf_write(&cls, &w->out, err) != TC_OK)
				return err->code;
			data = w->out.data;
			len = w->out.len;
		}
	}
	u->out_size = len;
	if (!u->in->jar) {
		/* a directory's rewritten classes go with its cached result */
		if (r->keep_dir_outs && u->changed && (u->out_len = len) && !(u->out = arena_dup(&w->outs, data, len)))
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
		return out_dir_file(w, u, data, len, err);
	}
	/* A class kept from phase 1 is read no more (rewritten into w->out): its room takes
	 * the deflated entry; it is given back with the batch's outputs or later (drop_data). */
	bool kept = u->data && worker_reads(u);
	if (u->changed && out_jar_entry(r, u, w, data, len, kept ? (uint8_t *)u->data : NULL, kept ? u->data_len : 0,
	                                err) != TC_OK)
		return err->code;
	return TC_OK;
}

/* An item of phase 2 that is no unit: the mapping files, written beside the classes. */
#define WRITE_MAPPINGS SIZE_MAX

static int write_mappings(pl_run *r, tc_error *err)
{
	collect_sort_ignored(r);
	return out_write_mappings(r, err);
}

static int phase2(void *ctx, size_t i, int wk)
{
	job *j = ctx;
	if (j->items[i] == WRITE_MAPPINGS)
		return write_mappings(j->r, &j->errs[wk]) != TC_OK;
	pl_unit *u = &j->r->units[j->items[i]];
	int rc = trace_unit(j->r, u, &j->r->workers[wk], &j->errs[wk]);
	drop_data(j->r, u);
	return rc != TC_OK;
}

static int phase3(void *ctx, size_t i, int wk)
{
	job *j = ctx;
	pl_unit *u = &j->r->units[j->items[i]];
	return dexin_write(j->r, u, &j->r->workers[wk], &j->errs[wk]) != TC_OK;
}

typedef struct sized {
	uint64_t size;
	size_t index;
} sized;

static int by_size_desc(const void *a, const void *b)
{
	const sized *x = a, *y = b;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* items by size_of (of r, an item), largest first, then in their order. */
static void sort_largest_first(const pl_run *r, size_t *items, size_t n, uint64_t (*size_of)(const pl_run *, size_t))
{
	sized *s = malloc((n ? n : 1) * sizeof *s);
	if (!s)
		return; /* only a slower schedule */
	for (size_t i = 0; i < n; i++) {
		s[i].size = size_of(r, items[i]);
		s[i].index = items[i];
	}
	qsort(s, n, sizeof *s, by_size_desc);
	for (size_t i = 0; i < n; i++)
		items[i] = s[i].index;
	free(s);
}

static uint64_t unit_size(const pl_run *r, size_t k)
{
	const pl_unit *u = &r->units[k];
	return u->kind == UNIT_CLASS && u->in->jar ? u->info.size : u->kind == UNIT_DEX ? u->dex->len : 0;
}

/* Hands out the largest classes first (their sizes are known for jar entries), so that
 * the workers do not end a phase with one of them busy on a large class and the other
 * idle. Outputs do not depend on this order: every unit's result stays in its unit. */
static void largest_first(pl_run *r, size_t *items, size_t n)
{
	sort_largest_first(r, items, n, unit_size);
}

/* A part of a large entry to deflate (out_jar_part). */
static int deflate_part(void *ctx, size_t i, int wk)
{
	job *j = ctx;
	return out_jar_part(j->r, i, &j->r->workers[wk], &j->errs[wk]) != TC_OK;
}

/* Runs fn over the selected units, and deflates the parts of large entries they make
 * (pl_run.parts) as they come; on failure copies the first worker error out. */
static int run_phase(pl_run *r, size_t *items, size_t n, pool_fn fn, tc_error *err)
{
	tc_error *errs = calloc((size_t)r->nworkers, sizeof *errs);
	if (!errs)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "tc-instrument", "no memory");
	for (int i = 0; i < r->nworkers; i++)
		tc_error_clear(&errs[i]);
	job j = {r, items, errs};
	int rc = pool_run_queue(r->nworkers, n, fn, r->parts, deflate_part, &j);
	if (rc) {
		for (int i = 0; i < r->nworkers; i++)
			if (errs[i].code) {
				*err = errs[i];
				break;
			}
		if (!err->code)
			tc_fail(err, TC_EIO, TC_NO_OFFSET, "tc-instrument", "a worker failed");
	}
	free(errs);
	return rc ? err->code : TC_OK;
}

static int setup(pl_run *r, tc_error *err)
{
	const tc_options *o = r->opt;
	if (rules_new(&r->rules, err) != TC_OK)
		return err->code;
	/* The beat class's own package is never instrumented: it would call itself. */
	char pkg[1024];
	snprintf(pkg, sizeof pkg, "%s", o->beat);
	char *slash = strrchr(pkg, '/');
	if (slash) {
		slash[1] = '\0';
		if (rules_block_package(r->rules, pkg, err) != TC_OK)
			return err->code;
	} else {
		char rule[1100];
		int n = snprintf(rule, sizeof rule, "-keepclass %s\n", o->beat);
		if (rules_parse(r->rules, rule, (size_t)n, "--beat-class", err) != TC_OK)
			return err->code;
	}
	/* the side files through tc_file_read: regular files, within the input limit */
	r->max_input = o->max_input ? o->max_input : TC_MAX_INPUT_BYTES;
	tc_buf text;
	buf_init(&text);
	int rc = TC_OK;
	if (o->blocklist && (rc = tc_file_read(o->blocklist, &text, r->max_input, TC_LIMIT_OPTION, err)) == TC_OK)
		rc = rules_parse(r->rules, (const char *)text.data, text.len, o->blocklist, err);
	if (rc == TC_OK && o->proguard && (rc = tc_file_read(o->proguard, &text, r->max_input, TC_LIMIT_OPTION, err)) == TC_OK)
		rc = pg_parse(&r->pg, (const char *)text.data, text.len, o->proguard, err);
	if (rc == TC_OK && o->base_mapping && (rc = tc_file_read(o->base_mapping, &text, r->max_input, TC_LIMIT_OPTION, err)) == TC_OK)
		rc = mapping_parse(&r->base, (const char *)text.data, text.len, o->base_mapping, err);
	buf_free(&text);
	if (rc != TC_OK)
		return rc;
	r->nworkers = o->threads > 0 ? o->threads : pool_cpus();
	r->workers = calloc((size_t)r->nworkers, sizeof *r->workers);
	if (!r->workers)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "tc-instrument", "no memory");
	for (int i = 0; i < r->nworkers; i++) {
		pl_worker *w = &r->workers[i];
		/* keep holds every kept class and rewritten entry: megabytes at once. */
		arena_init_sized(&w->keep, (size_t)4 << 20);
		arena_init(&w->kept);
		arena_init(&w->cls);
		arena_init(&w->scratch);
		arena_init(&w->outs);
		buf_init(&w->in);
		buf_init(&w->out);
		buf_init(&w->zout);
	}
	r->ninputs = o->npairs + o->nclasspath;
	r->inputs = calloc(r->ninputs ? r->ninputs : 1, sizeof *r->inputs);
	if (!r->inputs)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "tc-instrument", "no memory");
	if (!(r->parts = pool_queue_new()))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "tc-instrument", "no memory");
	r->keep_limit = KEEP_LIMIT;
	atomic_init(&r->kept_bytes, 0);
	return TC_OK;
}

static void teardown(pl_run *r)
{
	for (size_t i = 0; i < r->nunits; i++)
		if (r->units[i].kind == UNIT_DEX)
			dexin_free(r->units[i].dex);
	for (size_t i = 0; i < r->nunits; i++)
		out_jar_split_free(&r->units[i]); /* only a run that failed still has one */
	free(r->units);
	pool_queue_free(r->parts);
	for (size_t i = 0; i < r->ninputs; i++) {
		out_abort(&r->inputs[i]); /* only a run that failed still has a stage */
		jar_close(r->inputs[i].zip);
	}
	out_unjoin(r); /* likewise, parts */
	for (size_t i = 0; i < r->ninputs; i++)
		free(r->inputs[i].part);
	out_abort_mappings(r); /* a replay that failed before its commit */

	free(r->inputs);
	for (int i = 0; i < r->nworkers; i++) {
		pl_worker *w = &r->workers[i];
		arena_free(&w->keep);
		arena_free(&w->kept);
		arena_free(&w->cls);
		arena_free(&w->scratch);
		arena_free(&w->outs);
		buf_free(&w->in);
		buf_free(&w->out);
		buf_free(&w->zout);
		zio_deflater_free(w->deflater[0]);
		zio_deflater_free(w->deflater[1]);
		zio_inflater_free(w->inflater);
	}
	free(r->workers);
	free(r->traced);
	free(r->ignored);
	free(r->sum.problems);
	rules_free(r->rules);
	pg_free(r->pg);
	mapping_free(r->base);
}

/* Whether the file at path is a dex file: it starts like one, or it is named *.dex and
 * is no zip (which starts "PK"): a damaged or cut-off dex is a malformed dex, not "not
 * a jar". */
bool pl_sniff_dex(const char *path)
{
	uint8_t head[8];
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	return dex_is_dex(head, n) || (ends_with(path, ".dex") && !(n >= 2 && head[0] == 'P' && head[1] == 'K'));
}

/* Input i of the options: its paths and kind (a directory, a dex file, else a jar). */
static int classify_input(pl_run *r, size_t i, tc_error *err)
{
	const tc_options *o = r->opt;
	pl_input *in = &r->inputs[i];
	in->classpath = i >= o->npairs;
	in->in = in->classpath ? o->classpath[i - o->npairs] : o->pairs[i].in;
	in->out = in->classpath ? NULL : o->pairs[i].out;
	struct stat st;
	if (stat(in->in, &st) != 0)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, in->in, "cannot read: %s", strerror(errno));
	in->dir = S_ISDIR(st.st_mode);
	if (!in->dir && !S_ISREG(st.st_mode)) {
		/* a FIFO would block the run, a device never end */
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, in->in, "not a regular file or a directory (%s)",
		               tc_file_kind(st.st_mode));
	}
	if (!in->dir) {
		in->dex = pl_sniff_dex(in->in);
		in->jar = !in->dex;
	}
	if (!in->classpath && (o->pairs[i].joined || (i + 1 < o->npairs && o->pairs[i + 1].joined))) {
		/* joined into one jar: its own output is a part beside it, joined at the end */
		in->joined_out = o->pairs[i].out;
		in->lead = o->pairs[i].joined ? r->inputs[i - 1].lead : i;
		if (in->dex)
			return tc_fail(err, TC_EARG, TC_NO_OFFSET, in->in,
			               "is a dex file: several --in joined into one --out take class directories and jars");
		if (stat(in->joined_out, &st) == 0 && S_ISDIR(st.st_mode))
			return tc_fail(err, TC_EARG, TC_NO_OFFSET, in->joined_out,
			               "is a directory: several --in are joined into one jar (give a jar's path as --out)");
		size_t n = strlen(in->joined_out) + 64;
		if (!(in->part = malloc(n)))
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "no memory");
		snprintf(in->part, n, "%s.tc-part%zu.%ld", in->joined_out, i - in->lead, (long)getpid());
		in->out = in->part;
	}
	return TC_OK;
}

typedef struct joined_name {
	const char *name;
	size_t input;
} joined_name;

static int by_joined_name(const void *a, const void *b)
{
	const joined_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->input > y->input) - (x->input < y->input);
}

/* Inputs joined into one jar: no APK among them, and no file name that two of them
 * hold (what AGP's own jar writers refuse: java.util.zip's "duplicate entry"), before
 * anything is read further or written. Directory entries may repeat (they hold nothing). */
static int check_joined(pl_run *r, tc_error *err)
{
	joined_name *v = NULL;
	int rc = TC_OK;
	for (size_t i = 0; i < r->ninputs && rc == TC_OK; i++) {
		pl_input *lead = &r->inputs[i];
		if (!lead->joined_out || lead->lead != i)
			continue;
		size_t n = 0, end = i;
		while (end < r->ninputs && r->inputs[end].joined_out && r->inputs[end].lead == i)
			n += r->inputs[end++].count;
		free(v);
		if (!(v = malloc((n ? n : 1) * sizeof *v))) {
			rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, lead->joined_out, "no memory");
			break;
		}
		n = 0;
		for (size_t k = i; k < end && rc == TC_OK; k++) {
			const pl_input *in = &r->inputs[k];
			if (in->apk)
				rc = tc_fail(err, TC_EARG, TC_NO_OFFSET, in->in,
				             "is an APK: several --in joined into one --out take class directories and jars");
			for (size_t u = in->first; u < in->first + in->count; u++)
				if (r->units[u].kind != UNIT_DIR && r->units[u].kind != UNIT_DEXCLASS)
					v[n++] = (joined_name){r->units[u].name, k};
		}
		if (rc != TC_OK)
			break;
		qsort(v, n, sizeof *v, by_joined_name);
		for (size_t k = 1; k < n; k++)
			if (!strcmp(v[k].name, v[k - 1].name) && v[k].input != v[k - 1].input) {
				rc = tc_fail(err, TC_EARG, TC_NO_OFFSET, lead->joined_out,
				             "duplicate entry %s: both --in %s and --in %s hold it, and one jar holds a "
				             "name once (remove it from one of them, or give each its own --out)",
				             v[k].name, r->inputs[v[k - 1].input].in, r->inputs[v[k].input].in);
				break;
			}
	}
	free(v);
	return rc;
}

/* Every input's units: known already (pl_run.hooks), or listed. */
static int list_inputs(pl_run *r, tc_error *err)
{
	int rc = TC_OK;
	for (size_t i = 0; i < r->ninputs && rc == TC_OK; i++) {
		pl_input *in = &r->inputs[i];
		in->first = r->nunits;
		bool hit = false;
		if (r->hooks && (rc = r->hooks->facts(r, in, &hit, err)) != TC_OK)
			break;
		if (hit) {
			in->count = r->nunits - in->first;
			continue;
		}
		if (in->dir) {
			rc = list_dir(r, in, err);
		} else if (in->dex) {
			const char *base = strrchr(in->in, '/');
			if ((rc = add_dex_file(r, in, in->in, base ? base + 1 : in->in, err)) == TC_OK)
				in->bytes_in = r->units[in->first].in_size;
		} else {
			rc = list_jar(r, in, err);
		}
		in->count = r->nunits - in->first;
	}
	return rc;
}

/* An input's size, for batching: a file's bytes; a directory's count as one batch. */
static uint64_t input_size(const pl_input *in)
{
	return in->jar || in->dex ? in->bytes_in : BATCH_BYTES;
}

/* The inputs [*first, *end) of the next batch. */
static bool next_batch(const pl_run *r, size_t *first, size_t *end)
{
	*first = *end;
	if (*first >= r->ninputs)
		return false;
	uint64_t total = 0;
	size_t i = *first;
	do
		total += input_size(&r->inputs[i++]);
	while (i < r->ninputs && total + input_size(&r->inputs[i]) <= BATCH_BYTES);
	*end = i;
	return true;
}

/* The units of inputs [first, end) that sel picks, into items. */
static size_t select_units(const pl_run *r, size_t first, size_t end, bool (*sel)(const pl_unit *), size_t *items)
{
	size_t n = 0;
	for (size_t i = first; i < end; i++)
		for (size_t k = r->inputs[i].first; k < r->inputs[i].first + r->inputs[i].count; k++)
			if (sel(&r->units[k]))
				items[n++] = k;
	return n;
}

static bool to_collect(const pl_unit *u)
{
	return (u->kind == UNIT_CLASS || u->kind == UNIT_DEXCLASS) && !u->in->facts_hit;
}

static bool to_trace(const pl_unit *u)
{
	return !u->in->classpath;
}

static bool dex_to_write(const pl_unit *u)
{
	return u->kind == UNIT_DEX && !u->in->classpath && !u->in->result_hit;
}

/* After a batch: its jars' pages, rewritten entries and dex models are given back. */
static void release_batch(pl_run *r, size_t first, size_t end, bool done)
{
	for (size_t i = first; i < end; i++) {
		pl_input *in = &r->inputs[i];
		jar_release(in->zip);
		if (done && in->jar && !in->classpath) {
			/* written: its index and mapping are not needed again */
			in->cut |= jar_damaged(in->zip);
			jar_close(in->zip);
			in->zip = NULL;
		}
		for (size_t k = in->first; done && k < in->first + in->count; k++) {
			pl_unit *u = &r->units[k];
			if (u->kind == UNIT_DEX && u->dex->parsed) {
				arena_free(&u->dex->a);
				free(u->dex->bytes);
				u->dex->bytes = NULL;
				u->dex->parsed = false;
			}
			if (u->out && !u->in->result_hit) {
				u->out = NULL; /* in a worker's out arena, reset below */
				u->out_len = 0;
			}
		}
	}
	/* freed, not reset: a reset keeps the largest chunk, a batch's worth of output */
	for (int k = 0; done && k < r->nworkers; k++) {
		arena_free(&r->workers[k].outs);
		arena_init(&r->workers[k].outs);
	}
	/* every class kept from phase 1 has been used: their memory goes back */
	if (done && atomic_load(&r->kept_bytes) == 0) {
		for (int k = 0; k < r->nworkers; k++) {
			arena_free(&r->workers[k].kept);
			arena_init(&r->workers[k].kept);
		}
	}
}

static uint64_t jar_size(const pl_run *r, size_t i)
{
	return input_size(&r->inputs[i]);
}

static int write_jar(void *ctx, size_t i, int wk)
{
	job *j = ctx;
	return out_write_jar(j->r, &j->r->inputs[j->items[i]], &j->errs[wk]) != TC_OK;
}

/* The jars of inputs [first, end) that are computed, each staged by a worker, the
 * largest first: each is its own file, from its own units. */
static int write_jars(pl_run *r, size_t first, size_t end, tc_error *err)
{
	size_t *jars = malloc((end - first) * sizeof *jars), n = 0;
	if (!jars)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "tc-instrument", "no memory");
	for (size_t i = first; i < end; i++) {
		const pl_input *in = &r->inputs[i];
		if (in->jar && !in->classpath && !in->result_hit)
			jars[n++] = i;
	}
	sort_largest_first(r, jars, n, jar_size);
	int rc = run_phase(r, jars, n, write_jar, err);
	free(jars);
	return rc;
}

/* Phases 2 and 3 of one batch, its outputs staged and its results cached. */
static int trace_batch(pl_run *r, size_t first, size_t end, size_t *items, tc_error *err)
{
	int rc = TC_OK;
	for (size_t i = first; i < end && rc == TC_OK; i++) {
		const pl_input *in = &r->inputs[i];
		for (size_t k = in->first; k < in->first + in->count && rc == TC_OK; k++)
			if (r->units[k].kind == UNIT_DEX)
				rc = dexin_prepare(r, &r->units[k], err);
	}
	if (rc != TC_OK)
		return rc;
	size_t n = select_units(r, first, end, to_trace, items);
	largest_first(r, items, n);
	/* The mapping files need only the ids (collect_decide): the first batch writes them
	 * on a worker, first, as one of its largest items, rather than the main thread
	 * alone at the end. items has room for one more than every unit. */
	if (!r->mappings_written && first == 0) {
		memmove(items + 1, items, n * sizeof *items);
		items[0] = WRITE_MAPPINGS;
		n++;
	}
	if ((rc = run_phase(r, items, n, phase2, err)) != TC_OK)
		return rc;
	if (!r->marker_id)
		r->marker_id = r->written_id; /* the jar's marker (out_write_jar) holds it */
	/* phase 3: each dex file whole, once its classes are edited */
	n = select_units(r, first, end, dex_to_write, items);
	largest_first(r, items, n);
	if ((rc = run_phase(r, items, n, phase3, err)) != TC_OK)
		return rc;
	/* the large entries, deflated in parts during the phases */
	for (size_t i = first; i < end && rc == TC_OK; i++)
		for (size_t k = r->inputs[i].first; k < r->inputs[i].first + r->inputs[i].count && rc == TC_OK; k++)
			if (r->units[k].split)
				rc = out_jar_join(r, &r->units[k], err);
	if (rc != TC_OK)
		return rc;
	if ((rc = write_jars(r, first, end, err)) != TC_OK)
		return rc;
	for (size_t i = first; i < end && rc == TC_OK; i++) {
		pl_input *in = &r->inputs[i];
		if (in->classpath || in->jar || (in->result_hit && in->dex))
			continue; /* a jar: write_jars */
		if (in->dex) {
			in->bytes_out = r->units[in->first].out_size;
		} else {
			for (size_t k = in->first; k < in->first + in->count; k++) {
				in->bytes_in += r->units[k].in_size;
				in->bytes_out += r->units[k].out_size;
			}
		}
	}
	for (size_t i = first; i < end && rc == TC_OK && r->hooks; i++)
		r->hooks->save_result(r, &r->inputs[i]);
	return rc;
}

/* Whether a jar was cut short while the run read it (a build still writing it): then
 * what was read of it is not what it holds, and the run fails before anything is
 * committed, with this error in place of whatever the zeros it read caused. */
static int check_cut(pl_run *r, int rc, tc_error *err)
{
	for (size_t i = 0; i < r->ninputs; i++) {
		pl_input *in = &r->inputs[i];
		if (!in->cut && !jar_damaged(in->zip))
			continue;
		tc_error_clear(err);
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, in->in,
		               "the file was cut short while it was read (is it still being written?): nothing was "
		               "written; run again once it is complete");
	}
	return rc;
}


/* Every output into place, then both mapping files. The joined jars come first (their
 * parts into place, then each group's jar written from them): the one step of the
 * commit that writes much, so a full disk stops the run there, before anything the user
 * sees has changed; then the other outputs and the mappings, which are renames. */
static int commit_all(pl_run *r, tc_error *err)
{
	int rc = TC_OK;
	for (size_t i = 0; i < r->ninputs && rc == TC_OK; i++)
		if (!r->inputs[i].classpath && r->inputs[i].joined_out)
			rc = out_commit(r, &r->inputs[i], err);
	if (rc == TC_OK)
		rc = out_join(r, err);
	for (size_t i = 0; i < r->ninputs && rc == TC_OK; i++)
		if (!r->inputs[i].classpath && !r->inputs[i].joined_out)
			rc = out_commit(r, &r->inputs[i], err);
	if (rc == TC_OK)
		rc = out_commit_mappings(r, err);
	return rc;
}

/* How many bytes of classes phase 1 keeps for phase 2 (pl_run.kept_bytes): all of them
 * when they are jars' classes only and come to KEEP_ALL or less (their sizes inflated,
 * from the central directories), else KEEP_LIMIT. Their deflated entries take the room of
 * the kept classes (trace_unit), so that keeping all costs a few MB of peak memory, not
 * their size. A directory's class is read again cheaply, and its output is written at
 * once: keeping more of those would cost memory and save little. */
static size_t keep_limit(const pl_run *r)
{
	uint64_t total = 0;
	for (size_t i = 0; i < r->nunits && total <= KEEP_ALL; i++) {
		const pl_unit *u = &r->units[i];
		if (u->kind == UNIT_CLASS && !u->in->classpath)
			total += u->in->jar ? u->info.size : KEEP_ALL + 1;
	}
	return total <= KEEP_ALL ? (size_t)KEEP_ALL : KEEP_LIMIT;
}

/* The pipeline, from listing the inputs (classified, pl_run.hooks set) to the mapping
 * files and the summary: every output committed, nothing of the cache but pl_run.hooks. */
static int run_pipeline(pl_run *r, double t0, tc_error *err)
{
	const tc_options *o = r->opt;
	size_t *items = NULL;
	int rc = list_inputs(r, err);
	if (rc == TC_OK)
		rc = check_joined(r, err);
	if (rc == TC_OK && !(items = malloc((r->nunits + 1) * sizeof *items)))
		rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "tc-instrument", "no memory");
	double t1 = now();
	r->t_read = t1 - t0;
	if (rc == TC_OK)
		r->keep_limit = keep_limit(r);

	size_t first = 0, end = 0;
	while (rc == TC_OK && next_batch(r, &first, &end)) {
		size_t n = select_units(r, first, end, to_collect, items);
		largest_first(r, items, n);
		rc = run_phase(r, items, n, phase1, err);
		release_batch(r, first, end, false);
	}
	if (rc == TC_OK && o->strict) {
		for (size_t i = 0; i < r->nunits; i++) {
			const pl_unit *u = &r->units[i];
			if (u->state == US_MALFORMED && !u->in->classpath) {
				/* a dex file on its own is named by the file */
				rc = tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, u->in->dex ? "" : u->name, "%s (--strict)",
				             u->error);
				tc_error_context(err, u->in->in, NULL, NULL);
				break;
			}
		}
	}
	for (size_t i = 0; i < r->ninputs && rc == TC_OK && r->hooks; i++)
		r->hooks->save_facts(r, &r->inputs[i]);
	double t2 = now();
	r->t_collect = t2 - t1;
	if (rc == TC_OK)
		rc = collect_decide(r, err);
	if (rc == TC_OK)
		rc = beat_check(r, err);
	if (rc == TC_OK)
		out_plan_marker(r); /* before the cache: the marker's output depends on it */
	for (size_t i = 0; i < r->ninputs && rc == TC_OK; i++) {
		pl_input *in = &r->inputs[i];
		bool hit = false;
		if (r->hooks && !in->classpath && (rc = r->hooks->result(r, in, &hit, err)) != TC_OK)
			break;
		/* an input known from its facts alone, to be computed: its jar is needed now */
		if (!hit && in->jar && !in->zip && !in->classpath)
			rc = jar_open(&in->zip, in->in, err);
	}
	double t3 = now();
	r->t_decide = t3 - t2;

	if (rc == TC_OK)
		rc = out_mapping_dir(r, err);
	for (size_t i = 0; i < r->ninputs && rc == TC_OK; i++) {
		pl_input *in = &r->inputs[i];
		if (in->classpath)
			continue;
		if (!in->jar && !in->dex)
			rc = out_stage_dir(in, err);
		else if (in->dex && !in->result_hit)
			rc = out_stage_file(in, err);
	}
	first = end = 0;
	while (rc == TC_OK && next_batch(r, &first, &end)) {
		rc = trace_batch(r, first, end, items, err);
		release_batch(r, first, end, true);
	}
	if (rc == TC_OK)
		rc = out_build_id_marker(r, err);
	double t4 = now();
	r->t_trace = t4 - t3;
	/* The mapping files are staged too: every output and both mappings are complete
	 * before the first one appears, and then they go into place together. */
	if (rc == TC_OK && !r->mappings_written) /* no batch wrote them: no input */
		rc = write_mappings(r, err);
	rc = check_cut(r, rc, err);
	double t5 = now();
	r->t_map = t5 - t4;
	if (rc == TC_OK)
		rc = commit_all(r, err);
	double t6 = now();
	r->t_write = t6 - t5;
	if (rc == TC_OK)
		rc = out_summarize(r, err);
	r->t_map += now() - t6;
	free(items);
	return rc;
}

/* A run replayed from the cache (memo_run): its outputs and mapping files are staged
 * or in place, and go into place. */
static int commit_replay(pl_run *r, double t0, tc_error *err)
{
	r->t_read = now() - t0;
	return commit_all(r, err);
}

/* The cache wraps the pipeline: the inputs' keys, the whole run looked up, and either
 * replayed or run (the pipeline asks pl_run.hooks about each input) and stored. */
int tc_instrument(const tc_options *o, tc_error *err)
{
	double t0 = now();
	pl_run r = {.opt = o, .marker_unit = SIZE_MAX};
	if (tc_check_paths(o, err) != TC_OK)
		return err->code;
	int rc = setup(&r, err);
	if (rc == TC_OK)
		rc = memo_begin(&r, err);
	for (size_t i = 0; i < r.ninputs && rc == TC_OK; i++)
		if ((rc = classify_input(&r, i, err)) == TC_OK)
			rc = memo_key(&r, &r.inputs[i], err);
	bool replayed = false;
	if (rc == TC_OK)
		rc = memo_run(&r, &replayed, err);
	if (rc == TC_OK)
		rc = replayed ? commit_replay(&r, t0, err) : run_pipeline(&r, t0, err);
	double tm = now();
	if (rc == TC_OK)
		memo_save_run(&r);
	memo_end(&r); /* after a failure: nothing was stored, the cache is only trimmed */
	r.t_map += replayed ? 0 : now() - tm;
	if (rc == TC_OK)
		rc = out_write_build_id(&r, err);
	if (rc == TC_OK)
		rc = out_write_stats(&r, now() - t0, err);
	teardown(&r);
	return rc;
}

/* The cache (cache.h) around the pipeline: tc_instrument() looks the whole run up
 * (memo_run) and stores it (memo_save_run); the pipeline asks, through pl_run.hooks, about
 * each input in two steps:
 *
 *  facts   what phase 1 learns of an input (its units: names, kinds, the class
 *          hierarchy facts, every method's mapping line and verdict), keyed by the
 *          input's bytes, the tool itself (its executable's bytes), the block list, the
 *          ProGuard mapping and the beat class. A hit skips listing and phase 1.
 *  result  what phases 2 and 3 make of it (the output file, or a directory's rewritten
 *          files; every unit's counters and reports), keyed by the facts' key plus
 *          everything decided across inputs: each method's id, each class's Activity
 *          facts, the deflate level. A hit copies the output instead of computing it.
 *
 *  run     the whole run when every output is one file: each output's result key and
 *          content hash, both mapping files, the statistics' sums; keyed by every
 *          input's facts key in order, the base mapping and the options. A hit needs
 *          neither facts nor collect_decide(): a run with nothing changed only hashes its
 *          inputs and puts (or finds) its outputs in place.
 *
 * So a warm run assigns ids exactly as a cold run does (collect_decide() runs on the same
 * facts), and any change that could change an output changes a key. Entries are
 * checksummed; one that fails is recomputed (cache.c). An output that already holds
 * the cached result (same size and hash) is left in place rather than copied. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache/cache.h"
#include "pipeline/pipeline.h"
#include "containers/walk.h"

#define FACTS_VERSION 8 /* 5: pl_meth.preset, 6: pl_unit.beat, 7: private focus methods, focus_blocked, V_INLINE, 8: V_INLINE for dex methods (-keepinlinable M), pl_meth.narrow */
#define RESULT_VERSION 6 /* 5: the build-id marker (out_plan_marker), 6: supers_note */
#define RUN_VERSION 4 /* 3: check_runtime, 4: the marker's output */

/* --- a small binary format ---------------------------------------------------------- */

/* LEB128: most numbers here are small */
static void w_u64(tc_buf *b, uint64_t v)
{
	buf_uleb(b, v);
}

/* a string as its length + 1 (0: NULL), then its bytes */
static void w_strn(tc_buf *b, const char *s, size_t n)
{
	if (!s) {
		w_u64(b, 0);
		return;
	}
	w_u64(b, (uint64_t)n + 1);
	buf_bytes(b, s, n);
}

static void w_str(tc_buf *b, const char *s)
{
	w_strn(b, s, s ? strlen(s) : 0);
}

typedef struct rd {
	const uint8_t *p, *end;
	bool bad;
	pl_worker *w;
} rd;

static uint64_t r_u64(rd *r)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (r->p >= r->end) {
			r->bad = true;
			return 0;
		}
		uint8_t b = *r->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

/* A string's bytes in the input (not copied): NULL for a NULL string. */
static const uint8_t *r_bytes(rd *r, size_t *len)
{
	uint64_t n = r_u64(r);
	if (!n || r->bad)
		return NULL;
	n--;
	if ((uint64_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return NULL;
	}
	const uint8_t *p = r->p;
	r->p += n;
	*len = (size_t)n;
	return p;
}

/* A string in the keep arena (NULL stays NULL). */
static const char *r_str(rd *r)
{
	size_t n;
	const uint8_t *p = r_bytes(r, &n);
	if (!p)
		return NULL;
	char *s = pl_keep_str(r->w, (const char *)p, n);
	if (!s)
		r->bad = true;
	return s;
}

static int memo_facts(pl_run *r, pl_input *in, bool *hit, tc_error *err);
static void memo_save_facts(pl_run *r, pl_input *in);
static int memo_result(pl_run *r, pl_input *in, bool *hit, tc_error *err);
static void memo_save_result(pl_run *r, pl_input *in);
static const pl_hooks memo_hooks = {memo_facts, memo_save_facts, memo_result, memo_save_result};

/* --- keys ------------------------------------------------------------------------------ */

static int hash_path_into(cache_hasher *h, const char *path, tc_error *err)
{
	cache_key k;
	uint64_t size;
	if (cache_hash_file(path, &k, &size, err) != TC_OK)
		return err->code;
	cache_hash_u64(h, size);
	cache_hash_u64(h, k.lo);
	cache_hash_u64(h, k.hi);
	return TC_OK;
}

/* The main program's GNU build id (a hash the linker takes of the whole binary), or
 * none: then the executable's bytes are hashed instead. */
typedef struct build_id {
	const uint8_t *p;
	size_t len;
} build_id;

static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	build_id *id = data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
		while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *n = (const void *)p;
			size_t name = (n->n_namesz + 3) & ~(size_t)3, desc = (n->n_descsz + 3) & ~(size_t)3;
			if ((size_t)(end - p) - sizeof *n < name + desc)
				break;
			const uint8_t *q = p + sizeof *n;
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(q, "GNU", 4) && n->n_descsz >= 8) {
				id->p = q + name;
				id->len = n->n_descsz;
				return 1;
			}
			p = q + name + desc;
		}
	}
	return 1; /* the first object is the main program: stop there */
}

int memo_begin(pl_run *r, tc_error *err)
{
	const tc_options *o = r->opt;
	if (!o->cache_dir)
		return TC_OK;
	if (cache_open(&r->cache, o->cache_dir, o->cache_max_bytes, err) != TC_OK)
		return err->code;
	cache_hasher *h = cache_hasher_new();
	if (!h)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "cache", "no memory");
	/* the tool itself: any other build of it gives other keys */
	cache_hash_str(h, "tc-instrument cache " TC_VERSION);
	build_id id = {NULL, 0};
	dl_iterate_phdr(find_build_id, &id);
	cache_hash_u64(h, id.len);
	int rc = id.p ? (cache_hash(h, id.p, id.len), TC_OK) : hash_path_into(h, "/proc/self/exe", err);
	if (rc != TC_OK) {
		/* no /proc: the version and the build's time stand for the binary */
		tc_error_clear(err);
		cache_hash_str(h, __DATE__ " " __TIME__);
		rc = TC_OK;
	}
	cache_hash_str(h, o->beat);
	cache_hash_u64(h, o->blocklist != NULL);
	if (o->blocklist)
		rc = hash_path_into(h, o->blocklist, err);
	cache_hash_u64(h, o->proguard != NULL);
	if (rc == TC_OK && o->proguard)
		rc = hash_path_into(h, o->proguard, err);
	r->cache_env = cache_digest(h);
	cache_hasher_free(h);
	r->hooks = &memo_hooks;
	/* a directory's rewritten files are kept with its result (memo_save_result) */
	r->keep_dir_outs = true;
	return rc;
}

void memo_end(pl_run *r)
{
	if (r->cache) {
		r->cache_stats = cache_get_stats(r->cache);
		cache_close(r->cache);
		r->cache = NULL;
	}
}

/* An input's facts key: its kind and content (a directory: every file's relative path
 * and bytes, in sorted order). */
int memo_key(pl_run *r, pl_input *in, tc_error *err)
{
	if (!r->cache)
		return TC_OK;
	bool dir = in->dir;
	cache_hasher *h = cache_hasher_new();
	if (!h)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "cache", "no memory");
	cache_hash_u64(h, FACTS_VERSION);
	cache_hash(h, &r->cache_env, sizeof r->cache_env);
	cache_hash_u64(h, (uint64_t)in->classpath << 1 | dir);
	int rc = TC_OK;
	if (!dir) {
		rc = hash_path_into(h, in->in, err);
	} else {
		char **files;
		size_t n;
		if ((rc = walk_list_files(in->in, &files, &n, err)) == TC_OK) {
			for (size_t i = 0; i < n && rc == TC_OK; i++) {
				char path[4200];
				walk_path_join(path, sizeof path, in->in, "/", files[i]);
				cache_hash_str(h, files[i]);
				rc = hash_path_into(h, path, err);
			}
			walk_free_list(files, n);
		}
	}
	in->facts_key = cache_digest(h);
	cache_hasher_free(h);
	return rc;
}

/* --- facts -------------------------------------------------------------------------- */

static void put_unit_facts(tc_buf *b, const pl_unit *u)
{
	w_u64(b, u->kind);
	w_u64(b, u->entry);
	w_str(b, u->name);
	w_u64(b, (uint64_t)u->candidate | (uint64_t)u->traceable << 1 | (uint64_t)u->blocked << 2 |
	         (uint64_t)u->focus_declared << 3 | (uint64_t)u->focus_final << 4 | (uint64_t)u->info.encrypted << 5 |
	         (uint64_t)u->focus_blocked << 6 | (uint64_t)u->beat << 8);
	w_u64(b, u->info.size);
	w_u64(b, u->info.comp_size);
	w_u64(b, u->info.crc);
	w_u64(b, u->info.method);
	w_u64(b, u->state);
	w_str(b, u->error);
	w_str(b, u->cls);
	w_str(b, u->super);
	w_u64(b, u->access);
	w_u64(b, u->major);
	w_u64(b, u->dex_class);
	w_u64(b, u->in_size);
	w_u64(b, u->nmethods);
	/* every line starts with the same class: it is written once */
	const pl_meth *m0 = u->nmethods ? &u->methods[0] : NULL;
	w_strn(b, m0 ? m0->cls : NULL, m0 ? m0->class_len : 0);
	for (uint32_t k = 0; k < u->nmethods; k++) {
		const pl_meth *m = &u->methods[k];
		w_u64(b, m->index);
		w_u64(b, m->access);
		/* a narrow method's V_INLINE came with its id (assign_ids): stored as found */
		w_u64(b, (m->narrow ? V_TRACE : m->verdict) | (uint64_t)m->narrow << 8);
		w_u64(b, m->preset);
		w_u64(b, m->name_len);
		w_u64(b, m->hash);
		w_strn(b, m->rest, m->rest_len);
	}
}

/* Units made from facts; dex files get a model to be read later (memo_load_dex). */
static int get_units(pl_run *r, pl_input *in, rd *p, tc_error *err)
{
	uint64_t n = r_u64(p);
	in->bytes_in = r_u64(p);
	in->apk = r_u64(p) != 0;
	dexin *dex = NULL;
	for (uint64_t i = 0; i < n && !p->bad; i++) {
		uint64_t kind = r_u64(p), entry = r_u64(p);
		const char *name = r_str(p);
		if (p->bad || !name)
			break;
		pl_unit *u = pl_unit_new(r, in, name, err);
		if (!u)
			return err->code;
		u->kind = (uint8_t)kind;
		u->entry = entry;
		uint64_t flags = r_u64(p);
		u->candidate = flags & 1;
		u->traceable = flags >> 1 & 1;
		u->blocked = flags >> 2 & 1;
		u->focus_declared = flags >> 3 & 1;
		u->focus_final = flags >> 4 & 1;
		u->info.encrypted = flags >> 5 & 1;
		u->focus_blocked = (uint8_t)(flags >> 6 & 3);
		u->beat = (uint8_t)(flags >> 8);
		u->info.size = r_u64(p);
		u->info.comp_size = r_u64(p);
		u->info.crc = (uint32_t)r_u64(p);
		u->info.method = (uint16_t)r_u64(p);
		u->state = (uint8_t)r_u64(p);
		u->error = (char *)r_str(p);
		u->cls = r_str(p);
		u->super = r_str(p);
		u->access = (uint16_t)r_u64(p);
		u->major = (uint16_t)r_u64(p);
		u->dex_class = (uint32_t)r_u64(p);
		u->in_size = r_u64(p);
		uint64_t nm = r_u64(p);
		if (nm > (uint64_t)(p->end - p->p)) {
			p->bad = true;
			break;
		}
		u->nmethods = (uint32_t)nm;
		u->methods = nm ? arena_array(&p->w->keep, nm, sizeof(pl_meth)) : NULL;
		if (nm && !u->methods)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "cache", "no memory");
		size_t clen = 0;
		const uint8_t *cbytes = r_bytes(p, &clen);
		const char *cls = cbytes && clen <= UINT16_MAX ? pl_keep_str(p->w, (const char *)cbytes, clen) : NULL;
		for (uint64_t k = 0; k < nm && !p->bad; k++) {
			pl_meth *m = &u->methods[k];
			memset(m, 0, sizeof *m);
			m->index = (uint16_t)r_u64(p);
			m->access = (uint32_t)r_u64(p);
			uint64_t verdict = r_u64(p);
			m->verdict = (uint8_t)verdict;
			m->narrow = (verdict >> 8) & 1;
			uint64_t preset = r_u64(p);
			uint64_t name_len = r_u64(p);
			m->hash = (uint32_t)r_u64(p);
			size_t rlen = 0;
			const uint8_t *rest = r_bytes(p, &rlen);
			m->rest = rest ? pl_keep_str(p->w, (const char *)rest, rlen) : NULL;
			if (!m->rest || !cls || m->verdict >= V_COUNT || verdict >> 9 || name_len >= rlen || preset > PRESET_ADDED) {
				p->bad = true;
				break;
			}
			m->preset = (uint32_t)preset;
			u->already += preset != 0;
			m->cls = cls;
			m->class_len = (uint16_t)clen;
			m->rest_len = (uint32_t)rlen;
			m->name_len = (uint16_t)name_len;
		}
		if (u->kind == UNIT_DEX) {
			/* its bytes are read, and parsed, only if its result must be computed */
			if (!(dex = calloc(1, sizeof *dex)))
				return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "cache", "no memory");
			arena_init(&dex->a);
			dex->len = u->in_size;
			dex->beat_i = dex->beat_o = dex->beat_at = DEX_NO_INDEX;
			dex->parsed = false;
			dex->pending = u->state == US_OK;
			u->dex = dex;
		} else if (u->kind == UNIT_DEXCLASS) {
			if (!dex)
				p->bad = true;
			u->dex = dex;
		}
	}
	return TC_OK;
}

static int memo_facts(pl_run *r, pl_input *in, bool *hit, tc_error *err)
{
	*hit = false;
	if (!r->cache)
		return TC_OK;
	tc_buf b;
	buf_init(&b);
	if (!cache_get(r->cache, in->facts_key, "facts", &b)) {
		buf_free(&b);
		return TC_OK;
	}
	rd p = {b.data, b.data + b.len, false, &r->workers[0]};
	size_t before = r->nunits;
	int rc = get_units(r, in, &p, err);
	buf_free(&b);
	if (rc != TC_OK)
		return rc;
	if (p.bad || p.p != p.end) {
		/* checksummed, so only an entry of another format: forget what it made */
		for (size_t i = before; i < r->nunits; i++)
			if (r->units[i].kind == UNIT_DEX)
				dexin_free(r->units[i].dex);
		r->nunits = before;
		return TC_OK;
	}
	*hit = true;
	in->facts_hit = true;
	return TC_OK;
}

static void memo_save_facts(pl_run *r, pl_input *in)
{
	if (!r->cache || in->facts_hit)
		return;
	tc_buf b;
	buf_init(&b);
	w_u64(&b, in->count);
	w_u64(&b, in->bytes_in);
	w_u64(&b, in->apk);
	for (size_t i = in->first; i < in->first + in->count; i++)
		put_unit_facts(&b, &r->units[i]);
	tc_error e;
	tc_error_clear(&e);
	if (!b.err)
		cache_put(r->cache, in->facts_key, "facts", b.data, b.len, &e);
	buf_free(&b);
}

/* --- results ------------------------------------------------------------------------ */

/* The result key: the facts' key and what was decided across inputs. */
static cache_key result_key(pl_run *r, const pl_input *in)
{
	cache_hasher *h = cache_hasher_new();
	if (!h)
		return (cache_key){0, 0};
	cache_hash_u64(h, RESULT_VERSION);
	cache_hash(h, &in->facts_key, sizeof in->facts_key);
	cache_hash_u64(h, (uint64_t)r->opt->deflate_level);
	/* the output that carries the build id: its bytes depend on every input's ids */
	cache_hash_u64(h, r->marker_in == in);
	if (r->marker_in == in) {
		cache_hash_u64(h, r->marker_id);
		cache_hash_u64(h, r->marker_unit == SIZE_MAX ? 0 : r->marker_unit - in->first + 1);
	}
	for (size_t i = in->first; i < in->first + in->count; i++) {
		const pl_unit *u = &r->units[i];
		cache_hash_u64(h, (uint64_t)u->activity | (uint64_t)u->add_focus << 1 | (uint64_t)u->focus_refused << 2);
		/* a report decide made (its text depends on other inputs) */
		if (u->supers_note)
			cache_hash(h, u->supers_note, strlen(u->supers_note));
		for (uint32_t k = 0; k < u->nmethods; k++)
			cache_hash_u64(h, u->methods[k].verdict == V_TRACE ? u->methods[k].id : 0);
	}
	cache_key k = cache_digest(h);
	cache_hasher_free(h);
	return k;
}

/* Whether the input's output is one file (a jar, an APK, a dex file). */
static bool one_file(const pl_input *in)
{
	return in->jar || in->dex;
}

static int memo_result(pl_run *r, pl_input *in, bool *hit, tc_error *err)
{
	*hit = false;
	if (!r->cache || in->classpath)
		return TC_OK;
	in->result_key = result_key(r, in);
	tc_buf b;
	buf_init(&b);
	if (!cache_get(r->cache, in->result_key, "result", &b)) {
		buf_free(&b);
		return TC_OK;
	}
	rd p = {b.data, b.data + b.len, false, &r->workers[0]};
	bool ok = r_u64(&p) == in->count;
	uint64_t bytes_out = r_u64(&p);
	cache_key out_hash = {0, 0};
	uint64_t out_size = 0;
	if (one_file(in)) {
		out_size = r_u64(&p);
		out_hash.lo = r_u64(&p);
		out_hash.hi = r_u64(&p);
	}
	/* read into scratch first: the units change only when the whole entry is good */
	typedef struct res {
		uint64_t flags, instrumented, skipped, focus_injected, focus_added, in_size, out_size;
		uint64_t checked, check_refused, input_fails;
		pl_report *reports;
		const char *out;
		size_t out_len;
	} res;
	res *v = calloc(in->count ? in->count : 1, sizeof *v);
	if (!v) {
		buf_free(&b);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "cache", "no memory");
	}
	for (size_t i = 0; ok && i < in->count && !p.bad; i++) {
		res *x = &v[i];
		x->flags = r_u64(&p);
		x->instrumented = r_u64(&p);
		x->skipped = r_u64(&p);
		x->focus_injected = r_u64(&p);
		x->focus_added = r_u64(&p);
		x->checked = r_u64(&p);
		x->check_refused = r_u64(&p);
		x->input_fails = r_u64(&p);
		x->in_size = r_u64(&p);
		x->out_size = r_u64(&p);
		uint64_t nr = r_u64(&p);
		pl_report **tail = &x->reports;
		for (uint64_t k = 0; k < nr && !p.bad; k++) {
			pl_report *rep = arena_zalloc(&r->workers[0].keep, sizeof *rep);
			if (!rep || !(rep->text = (char *)r_str(&p))) {
				p.bad = true;
				break;
			}
			*tail = rep;
			tail = &rep->next;
		}
		/* a directory's rewritten file */
		uint64_t olen = r_u64(&p);
		if (olen && !p.bad) {
			if (olen > (uint64_t)(p.end - p.p) ||
			    !(x->out = arena_dup(&r->workers[0].keep, p.p, (size_t)olen))) {
				p.bad = true;
				break;
			}
			x->out_len = (size_t)olen;
			p.p += olen;
		}
	}
	ok = ok && !p.bad && p.p == p.end;
	buf_free(&b);
	/* the output file itself: in place already, or copied into the input's stage */
	if (ok && one_file(in) && out_holds(in->out, out_size, out_hash)) {
		in->out_same = true;
	} else if (ok && one_file(in)) {
		if (out_stage_file(in, err) != TC_OK) {
			free(v);
			return err->code;
		}
		tc_error e;
		tc_error_clear(&e);
		ok = cache_get_file(r->cache, in->result_key, "out", in->stage, &e);
		if (!ok)
			out_abort(in);
	}
	if (ok) {
		for (size_t i = 0; i < in->count; i++) {
			pl_unit *u = &r->units[in->first + i];
			const res *x = &v[i];
			u->changed = x->flags & 1;
			if (u->kind == UNIT_DEX && u->dex) {
				u->dex->left = x->flags >> 1 & 1;
				u->dex->marker = x->flags >> 2 & 1;
			}
			u->instrumented = (uint32_t)x->instrumented;
			u->skipped = (uint32_t)x->skipped;
			u->focus_injected = (uint32_t)x->focus_injected;
			u->focus_added = (uint32_t)x->focus_added;
			u->checked = (uint32_t)x->checked;
			u->check_refused = (uint32_t)x->check_refused;
			u->input_fails = (uint32_t)x->input_fails;
			u->in_size = x->in_size;
			u->out_size = x->out_size;
			u->reports = x->reports;
			u->out = (uint8_t *)x->out;
			u->out_len = x->out_len;
		}
		if (one_file(in)) {
			in->bytes_out = bytes_out; /* a directory's is summed from its units */
			in->out_size = out_size;
			in->out_hash = out_hash;
			in->out_known = true;
		}
		in->result_hit = true;
		*hit = true;
	}
	free(v);
	return TC_OK;
}

static void memo_save_result(pl_run *r, pl_input *in)
{
	if (!r->cache || in->classpath || in->result_hit)
		return;
	tc_error e;
	tc_error_clear(&e);
	/* before the commit: a one-file output is still at its stage; its copy goes in first,
	 * for the result names its hash */
	const char *file = in->stage ? in->stage : in->out;
	if (one_file(in)) {
		struct stat st;
		if (stat(file, &st) != 0 ||
		    cache_put_file(r->cache, in->result_key, "out", file, NULL, &in->out_hash, &e) != TC_OK)
			return;
		in->out_size = (uint64_t)st.st_size;
		in->out_known = true;
	}
	tc_buf b;
	buf_init(&b);
	w_u64(&b, in->count);
	w_u64(&b, in->bytes_out);
	if (one_file(in)) {
		w_u64(&b, in->out_size);
		w_u64(&b, in->out_hash.lo);
		w_u64(&b, in->out_hash.hi);
	}
	for (size_t i = in->first; i < in->first + in->count; i++) {
		const pl_unit *u = &r->units[i];
		bool dex = u->kind == UNIT_DEX && u->dex;
		w_u64(&b, (uint64_t)u->changed | (uint64_t)(dex && u->dex->left) << 1 | (uint64_t)(dex && u->dex->marker) << 2);
		w_u64(&b, u->instrumented);
		w_u64(&b, u->skipped);
		w_u64(&b, u->focus_injected);
		w_u64(&b, u->focus_added);
		w_u64(&b, u->checked);
		w_u64(&b, u->check_refused);
		w_u64(&b, u->input_fails);
		w_u64(&b, u->in_size);
		w_u64(&b, u->out_size);
		uint64_t nr = 0;
		for (const pl_report *p = u->reports; p; p = p->next)
			nr++;
		w_u64(&b, nr);
		for (const pl_report *p = u->reports; p; p = p->next)
			w_str(&b, p->text);
		/* a directory's rewritten files are kept with the result */
		bool keep = !one_file(in) && u->changed && u->out;
		w_u64(&b, keep ? u->out_len : 0);
		if (keep)
			buf_bytes(&b, u->out, u->out_len);
	}
	if (!b.err)
		cache_put(r->cache, in->result_key, "result", b.data, b.len, &e);
	buf_free(&b);
}

/* --- the whole run ------------------------------------------------------------------ */

static const char *const MAP_KIND[2] = {"traced", "ignored"};

static void w_key(tc_buf *b, cache_key k)
{
	w_u64(b, k.lo);
	w_u64(b, k.hi);
}

static cache_key r_key(rd *p)
{
	cache_key k;
	k.lo = r_u64(p);
	k.hi = r_u64(p);
	return k;
}

static void map_path(const pl_run *r, int which, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", r->opt->mapping_dir, out_mapping_names[which]);
}

/* The summary's counters, in a fixed order. */
#define SUM_FIELDS(X) \
	X(classes) X(instrumented) X(malformed) X(by_name) X(abstract) X(modules) X(blocked) \
	X(activities) X(focus_added) X(focus_injected) X(focus_refused) X(methods_instrumented) \
	X(methods_skipped) X(traced) X(ignored) X(dex_files) X(dex_changed) X(dex_left) X(dex_malformed) \
	X(dex_checked) X(dex_check_refused) X(dex_input_fails) X(methods_already) X(classes_already)

/* The run key (pl_run.run_key): every input's facts key in order, the base mapping and the
 * options; only for a run whose outputs are all one file (pl_run.run_memo). */
static int run_key(pl_run *r, tc_error *err)
{
	const tc_options *o = r->opt;
	r->run_memo = true;
	for (size_t i = 0; i < r->ninputs; i++)
		if (!r->inputs[i].classpath && !one_file(&r->inputs[i]))
			r->run_memo = false; /* a directory's output is many files: not replayed */
	if (!r->run_memo)
		return TC_OK;
	cache_hasher *h = cache_hasher_new();
	if (!h)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "cache", "no memory");
	cache_hash_u64(h, RUN_VERSION);
	cache_hash(h, &r->cache_env, sizeof r->cache_env);
	cache_hash_u64(h, (uint64_t)o->deflate_level);
	cache_hash_u64(h, o->strict);
	cache_hash_u64(h, o->check_runtime);
	cache_hash_u64(h, o->base_mapping != NULL);
	int rc = o->base_mapping ? hash_path_into(h, o->base_mapping, err) : TC_OK;
	cache_hash_u64(h, r->ninputs);
	for (size_t i = 0; i < r->ninputs; i++) {
		const pl_input *in = &r->inputs[i];
		cache_hash(h, &in->facts_key, sizeof in->facts_key);
		cache_hash_u64(h, (uint64_t)in->jar | (uint64_t)in->dex << 1);
	}
	r->run_key = cache_digest(h);
	cache_hasher_free(h);
	return rc;
}

/* A run entry as read, before anything of the run changes. */
typedef struct replay {
	struct replay_out {
		uint64_t count, bytes_in, bytes_out, apk, size;
		cache_key result, hash;
	} *v;                  /* by input */
	pl_summary s;
	cache_key map_hash[2];
	uint64_t map_size[2];
	uint64_t marker;       /* the input that carries the build id, from 1; 0: none */
} replay;

/* Reads the run entry b into x (*ok: it is one of this format). */
static int read_run(pl_run *r, const tc_buf *b, replay *x, bool *ok, tc_error *err)
{
	rd p = {b->data, b->data + b->len, false, &r->workers[0]};
	pl_summary *s = &x->s;
	if (!(x->v = calloc(r->ninputs ? r->ninputs : 1, sizeof *x->v)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "cache", "no memory");
	p.bad = r_u64(&p) != r->ninputs;
	for (size_t i = 0; i < r->ninputs && !p.bad; i++) {
		if (r->inputs[i].classpath)
			continue;
		struct replay_out *v = &x->v[i];
		v->count = r_u64(&p);
		v->bytes_in = r_u64(&p);
		v->bytes_out = r_u64(&p);
		v->apk = r_u64(&p);
		v->size = r_u64(&p);
		v->result = r_key(&p);
		v->hash = r_key(&p);
	}
#define GET(f) s->f = r_u64(&p);
	SUM_FIELDS(GET)
#undef GET
	p.bad |= r_u64(&p) != V_COUNT;
	for (int k = 0; k < V_COUNT; k++)
		s->by_verdict[k] = r_u64(&p);
	uint64_t np = r_u64(&p);
	if (np > (uint64_t)(p.end - p.p))
		p.bad = true;
	if (!p.bad && np && !(s->problems = calloc((size_t)np, sizeof *s->problems)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "cache", "no memory");
	for (uint64_t k = 0; k < np && !p.bad; k++) {
		pl_problem *q = &s->problems[s->nproblems++];
		uint64_t in = r_u64(&p);
		q->input = in < r->ninputs ? (size_t)in : 0;
		p.bad |= in >= r->ninputs;
		q->name = r_str(&p);
		q->what = r_str(&p);
		q->detail = r_str(&p);
		p.bad |= !q->name || !q->what;
	}
	for (int k = 0; k < 2; k++) {
		x->map_size[k] = r_u64(&p);
		x->map_hash[k] = r_key(&p);
	}
	x->marker = r_u64(&p);
	p.bad |= x->marker > r->ninputs;
	*ok = !p.bad && p.p == p.end;
	return TC_OK;
}

/* Every output, then both mapping files: in place already, or staged from the cache
 * (*ok: every copy the cache holds was there). */
static int stage_run(pl_run *r, const replay *x, bool *ok, tc_error *err)
{
	int rc = TC_OK;
	tc_error e;
	tc_error_clear(&e);
	for (size_t i = 0; i < r->ninputs && *ok; i++) {
		pl_input *in = &r->inputs[i];
		if (in->classpath)
			continue;
		if (out_holds(in->out, x->v[i].size, x->v[i].hash)) {
			in->out_same = true;
			continue;
		}
		if ((rc = out_stage_file(in, err)) != TC_OK)
			break;
		*ok = cache_get_file(r->cache, x->v[i].result, "out", in->stage, &e);
	}
	if (*ok && rc == TC_OK)
		rc = out_mapping_dir(r, err);
	for (int k = 0; k < 2 && *ok && rc == TC_OK; k++) {
		char path[4200];
		map_path(r, k, path, sizeof path);
		if (out_holds(path, x->map_size[k], x->map_hash[k]))
			continue;
		if ((rc = out_stage_mapping(r, k, err)) != TC_OK)
			break;
		*ok = cache_get_file(r->cache, x->map_hash[k], MAP_KIND[k], r->map_stage[k], &e);
	}
	return rc;
}

/* The inputs and the summary as the entry gives them: the run is replayed. */
static void apply_run(pl_run *r, replay *x)
{
	for (size_t i = 0; i < r->ninputs; i++) {
		pl_input *in = &r->inputs[i];
		in->facts_hit = true;
		if (in->classpath)
			continue;
		in->result_hit = true;
		in->count = (size_t)x->v[i].count;
		in->bytes_in = x->v[i].bytes_in;
		in->bytes_out = x->v[i].bytes_out;
		in->apk = x->v[i].apk != 0;
	}
	r->marker_in = x->marker ? &r->inputs[x->marker - 1] : NULL;
	free(r->sum.problems);
	r->sum = x->s;
	x->s.problems = NULL;
	r->replayed = true;
}

int memo_run(pl_run *r, bool *hit, tc_error *err)
{
	*hit = false;
	if (!r->cache)
		return TC_OK;
	int rc = run_key(r, err);
	if (rc != TC_OK || !r->run_memo)
		return rc;
	tc_buf b;
	buf_init(&b);
	if (!cache_get(r->cache, r->run_key, "run", &b)) {
		buf_free(&b);
		return TC_OK;
	}
	replay x = {0};
	bool ok = false;
	rc = read_run(r, &b, &x, &ok, err);
	buf_free(&b);
	if (rc == TC_OK && ok) {
		rc = stage_run(r, &x, &ok, err);
		if (rc == TC_OK && ok) {
			apply_run(r, &x);
			*hit = true;
		} else {
			out_unstage_run(r); /* what was staged before the failure or a missing copy */
		}
	}
	free(x.s.problems);
	free(x.v);
	return rc;
}

/* A mapping file as written (output.c noted its size and hash), kept by content: a run
 * that changed no method's line shares the copy. */
static bool save_mapping(pl_run *r, int which)
{
	char path[4200];
	map_path(r, which, path, sizeof path);
	tc_error e;
	tc_error_clear(&e);
	return cache_has(r->cache, r->map_hash[which], MAP_KIND[which]) ||
	       cache_put_file(r->cache, r->map_hash[which], MAP_KIND[which], path, &r->map_hash[which], NULL, &e) ==
	               TC_OK;
}

void memo_save_run(pl_run *r)
{
	if (!r->cache || !r->run_memo || r->replayed || !r->map_known[0] || !r->map_known[1])
		return;
	bool traced = save_mapping(r, 0), ignored = save_mapping(r, 1);
	if (!traced || !ignored)
		return;
	tc_buf b;
	buf_init(&b);
	w_u64(&b, r->ninputs);
	for (size_t i = 0; i < r->ninputs; i++) {
		const pl_input *in = &r->inputs[i];
		if (in->classpath)
			continue;
		if (!in->out_known) {
			buf_free(&b);
			return;
		}
		w_u64(&b, in->count);
		w_u64(&b, in->bytes_in);
		w_u64(&b, in->bytes_out);
		w_u64(&b, in->apk);
		w_u64(&b, in->out_size);
		w_key(&b, in->result_key);
		w_key(&b, in->out_hash);
	}
	const pl_summary *s = &r->sum;
#define PUT(f) w_u64(&b, s->f);
	SUM_FIELDS(PUT)
#undef PUT
	w_u64(&b, V_COUNT);
	for (int k = 0; k < V_COUNT; k++)
		w_u64(&b, s->by_verdict[k]);
	w_u64(&b, s->nproblems);
	for (size_t k = 0; k < s->nproblems; k++) {
		w_u64(&b, s->problems[k].input);
		w_str(&b, s->problems[k].name);
		w_str(&b, s->problems[k].what);
		w_str(&b, s->problems[k].detail);
	}
	for (int k = 0; k < 2; k++) {
		w_u64(&b, r->map_size[k]);
		w_key(&b, r->map_hash[k]);
	}
	w_u64(&b, r->marker_in ? (uint64_t)(r->marker_in - r->inputs) + 1 : 0);
	tc_error e;
	tc_error_clear(&e);
	if (!b.err)
		cache_put(r->cache, r->run_key, "run", b.data, b.len, &e);
	buf_free(&b);
}

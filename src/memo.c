/* The cache (cache.h) in the pipeline, per input, in two steps:
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
 * So a warm run assigns ids exactly as a cold run does (decide() runs on the same
 * facts), and any change that could change an output changes a key. Entries are
 * checksummed; one that fails is recomputed (cache.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache.h"
#include "pipeline.h"
#include "walk.h"

#define FACTS_VERSION 3
#define RESULT_VERSION 2

/* --- a small binary format ---------------------------------------------------------- */

/* LEB128: most numbers here are small */
static void w_u64(cf_buf *b, uint64_t v)
{
	while (v >= 0x80) {
		buf_u1(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	buf_u1(b, (uint8_t)v);
}

/* a string as its length + 1 (0: NULL), then its bytes */
static void w_strn(cf_buf *b, const char *s, size_t n)
{
	if (!s) {
		w_u64(b, 0);
		return;
	}
	w_u64(b, (uint64_t)n + 1);
	buf_bytes(b, s, n);
}

static void w_str(cf_buf *b, const char *s)
{
	w_strn(b, s, s ? strlen(s) : 0);
}

typedef struct rd {
	const uint8_t *p, *end;
	bool bad;
	worker *w;
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
	char *s = keep_str(r->w, (const char *)p, n);
	if (!s)
		r->bad = true;
	return s;
}

/* --- keys ------------------------------------------------------------------------------ */

static int hash_path_into(cache_hasher *h, const char *path, cf_error *err)
{
	cache_key k;
	uint64_t size;
	if (cache_hash_file(path, &k, &size, err) != CF_OK)
		return err->code;
	cache_hash_u64(h, size);
	cache_hash_u64(h, k.lo);
	cache_hash_u64(h, k.hi);
	return CF_OK;
}

int memo_begin(run *r, cf_error *err)
{
	const tc_options *o = r->opt;
	if (!o->cache_dir)
		return CF_OK;
	if (cache_open(&r->cache, o->cache_dir, o->cache_max_bytes, err) != CF_OK)
		return err->code;
	cache_hasher *h = cache_hasher_new();
	if (!h)
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, "cache", "no memory");
	/* the tool itself: any other build of it gives other keys */
	cache_hash_str(h, "tc-instrument cache " TC_VERSION);
	int rc = hash_path_into(h, "/proc/self/exe", err);
	if (rc != CF_OK) {
		/* no /proc: the version and the build's time stand for the binary */
		cf_error_clear(err);
		cache_hash_str(h, __DATE__ " " __TIME__);
		rc = CF_OK;
	}
	cache_hash_str(h, o->beat);
	cache_hash_u64(h, o->blocklist != NULL);
	if (o->blocklist)
		rc = hash_path_into(h, o->blocklist, err);
	cache_hash_u64(h, o->proguard != NULL);
	if (rc == CF_OK && o->proguard)
		rc = hash_path_into(h, o->proguard, err);
	r->cache_env = cache_digest(h);
	cache_hasher_free(h);
	return rc;
}

void memo_end(run *r)
{
	if (r->cache) {
		r->cache_stats = cache_get_stats(r->cache);
		cache_close(r->cache);
		r->cache = NULL;
	}
}

/* An input's facts key: its kind and content (a directory: every file's relative path
 * and bytes, in sorted order). */
static int facts_key(run *r, input *in, bool dir, cf_error *err)
{
	cache_hasher *h = cache_hasher_new();
	if (!h)
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, "cache", "no memory");
	cache_hash_u64(h, FACTS_VERSION);
	cache_hash(h, &r->cache_env, sizeof r->cache_env);
	cache_hash_u64(h, (uint64_t)in->classpath << 1 | dir);
	int rc = CF_OK;
	if (!dir) {
		rc = hash_path_into(h, in->in, err);
	} else {
		char **files;
		size_t n;
		if ((rc = list_files(in->in, &files, &n, err)) == CF_OK) {
			for (size_t i = 0; i < n && rc == CF_OK; i++) {
				char path[4200];
				path_join(path, sizeof path, in->in, "/", files[i]);
				cache_hash_str(h, files[i]);
				rc = hash_path_into(h, path, err);
			}
			free_list(files, n);
		}
	}
	in->facts_key = cache_digest(h);
	cache_hasher_free(h);
	return rc;
}

/* --- facts -------------------------------------------------------------------------- */

static void put_unit_facts(cf_buf *b, const unit *u)
{
	w_u64(b, u->kind);
	w_u64(b, u->entry);
	w_str(b, u->name);
	w_u64(b, (uint64_t)u->candidate | (uint64_t)u->traceable << 1 | (uint64_t)u->blocked << 2 |
	         (uint64_t)u->focus_declared << 3 | (uint64_t)u->focus_final << 4 | (uint64_t)u->info.encrypted << 5);
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
	const meth *m0 = u->nmethods ? &u->methods[0] : NULL;
	w_strn(b, m0 ? m0->line : NULL, m0 ? m0->class_len : 0);
	for (uint32_t k = 0; k < u->nmethods; k++) {
		const meth *m = &u->methods[k];
		w_u64(b, m->index);
		w_u64(b, m->access);
		w_u64(b, m->verdict);
		w_u64(b, m->name_len);
		w_u64(b, m->hash);
		w_strn(b, m->line + m->class_len + 1, m->line_len - m->class_len - 1);
	}
}

/* Units made from facts; dex files get a model to be read later (memo_load_dex). */
static int get_units(run *r, input *in, rd *p, cf_error *err)
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
		unit *u = unit_new(r, in, name, err);
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
		u->methods = nm ? arena_array(&p->w->keep, nm, sizeof(meth)) : NULL;
		if (nm && !u->methods)
			return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, "cache", "no memory");
		size_t clen = 0;
		const uint8_t *cls = r_bytes(p, &clen);
		for (uint64_t k = 0; k < nm && !p->bad; k++) {
			meth *m = &u->methods[k];
			memset(m, 0, sizeof *m);
			m->index = (uint16_t)r_u64(p);
			m->access = (uint32_t)r_u64(p);
			m->verdict = (uint8_t)r_u64(p);
			m->name_len = (uint32_t)r_u64(p);
			m->hash = (uint32_t)r_u64(p);
			size_t rlen = 0;
			const uint8_t *rest = r_bytes(p, &rlen);
			char *line = rest && cls ? arena_alloc(&p->w->keep, clen + 1 + rlen + 1) : NULL;
			if (!line || m->verdict >= V_COUNT) {
				p->bad = true;
				break;
			}
			memcpy(line, cls, clen);
			line[clen] = ' ';
			memcpy(line + clen + 1, rest, rlen);
			line[clen + 1 + rlen] = '\0';
			m->line = line;
			m->class_len = (uint32_t)clen;
			m->line_len = (uint32_t)(clen + 1 + rlen);
		}
		if (u->kind == UNIT_DEX) {
			/* its bytes are read, and parsed, only if its result must be computed */
			if (!(dex = calloc(1, sizeof *dex)))
				return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, "cache", "no memory");
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
	return CF_OK;
}

int memo_facts(run *r, input *in, bool dir, bool *hit, cf_error *err)
{
	*hit = false;
	if (!r->cache)
		return CF_OK;
	if (facts_key(r, in, dir, err) != CF_OK)
		return err->code;
	cf_buf b;
	buf_init(&b);
	if (!cache_get(r->cache, in->facts_key, "facts", &b)) {
		buf_free(&b);
		return CF_OK;
	}
	rd p = {b.data, b.data + b.len, false, &r->workers[0]};
	size_t before = r->nunits;
	int rc = get_units(r, in, &p, err);
	buf_free(&b);
	if (rc != CF_OK)
		return rc;
	if (p.bad || p.p != p.end) {
		/* checksummed, so only an entry of another format: forget what it made */
		for (size_t i = before; i < r->nunits; i++)
			if (r->units[i].kind == UNIT_DEX)
				dexin_free(r->units[i].dex);
		r->nunits = before;
		return CF_OK;
	}
	*hit = true;
	in->facts_hit = true;
	return CF_OK;
}

void memo_save_facts(run *r, input *in)
{
	if (!r->cache || in->facts_hit)
		return;
	cf_buf b;
	buf_init(&b);
	w_u64(&b, in->count);
	w_u64(&b, in->bytes_in);
	w_u64(&b, in->apk);
	for (size_t i = in->first; i < in->first + in->count; i++)
		put_unit_facts(&b, &r->units[i]);
	cf_error e;
	cf_error_clear(&e);
	if (!b.err)
		cache_put(r->cache, in->facts_key, "facts", b.data, b.len, &e);
	buf_free(&b);
}

/* --- results ------------------------------------------------------------------------ */

/* The result key: the facts' key and what was decided across inputs. */
static cache_key result_key(run *r, const input *in)
{
	cache_hasher *h = cache_hasher_new();
	if (!h)
		return (cache_key){0, 0};
	cache_hash_u64(h, RESULT_VERSION);
	cache_hash(h, &in->facts_key, sizeof in->facts_key);
	cache_hash_u64(h, (uint64_t)r->opt->deflate_level);
	for (size_t i = in->first; i < in->first + in->count; i++) {
		const unit *u = &r->units[i];
		cache_hash_u64(h, (uint64_t)u->activity | (uint64_t)u->add_focus << 1 | (uint64_t)u->focus_refused << 2);
		for (uint32_t k = 0; k < u->nmethods; k++)
			cache_hash_u64(h, u->methods[k].verdict == V_TRACE ? u->methods[k].id : 0);
	}
	cache_key k = cache_digest(h);
	cache_hasher_free(h);
	return k;
}

/* Whether the input's output is one file (a jar, an APK, a dex file). */
static bool one_file(const input *in)
{
	return in->jar || in->dex;
}

int memo_result(run *r, input *in, bool *hit, cf_error *err)
{
	*hit = false;
	if (!r->cache || in->classpath)
		return CF_OK;
	in->result_key = result_key(r, in);
	cf_buf b;
	buf_init(&b);
	if (!cache_get(r->cache, in->result_key, "result", &b)) {
		buf_free(&b);
		return CF_OK;
	}
	rd p = {b.data, b.data + b.len, false, &r->workers[0]};
	bool ok = r_u64(&p) == in->count;
	uint64_t bytes_out = r_u64(&p);
	/* read into scratch first: the units change only when the whole entry is good */
	typedef struct res {
		uint64_t flags, instrumented, skipped, focus_injected, focus_added, in_size, out_size;
		report *reports;
		const char *out;
		size_t out_len;
	} res;
	res *v = calloc(in->count ? in->count : 1, sizeof *v);
	if (!v) {
		buf_free(&b);
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, "cache", "no memory");
	}
	for (size_t i = 0; ok && i < in->count && !p.bad; i++) {
		res *x = &v[i];
		x->flags = r_u64(&p);
		x->instrumented = r_u64(&p);
		x->skipped = r_u64(&p);
		x->focus_injected = r_u64(&p);
		x->focus_added = r_u64(&p);
		x->in_size = r_u64(&p);
		x->out_size = r_u64(&p);
		uint64_t nr = r_u64(&p);
		report **tail = &x->reports;
		for (uint64_t k = 0; k < nr && !p.bad; k++) {
			report *rep = arena_zalloc(&r->workers[0].keep, sizeof *rep);
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
	/* the output file itself, into the input's stage */
	if (ok && one_file(in)) {
		if (out_stage_file(in, err) != CF_OK) {
			free(v);
			return err->code;
		}
		cf_error e;
		cf_error_clear(&e);
		ok = cache_get_file(r->cache, in->result_key, "out", in->stage, &e);
		if (!ok)
			out_abort(in);
	}
	if (ok) {
		for (size_t i = 0; i < in->count; i++) {
			unit *u = &r->units[in->first + i];
			const res *x = &v[i];
			u->changed = x->flags & 1;
			if (u->kind == UNIT_DEX && u->dex)
				u->dex->left = x->flags >> 1 & 1;
			u->instrumented = (uint32_t)x->instrumented;
			u->skipped = (uint32_t)x->skipped;
			u->focus_injected = (uint32_t)x->focus_injected;
			u->focus_added = (uint32_t)x->focus_added;
			u->in_size = x->in_size;
			u->out_size = x->out_size;
			u->reports = x->reports;
			u->out = (uint8_t *)x->out;
			u->out_len = x->out_len;
		}
		if (one_file(in))
			in->bytes_out = bytes_out; /* a directory's is summed from its units */
		in->result_hit = true;
		*hit = true;
	}
	free(v);
	return CF_OK;
}

void memo_save_result(run *r, input *in)
{
	if (!r->cache || in->classpath || in->result_hit)
		return;
	cf_buf b;
	buf_init(&b);
	w_u64(&b, in->count);
	w_u64(&b, in->bytes_out);
	for (size_t i = in->first; i < in->first + in->count; i++) {
		const unit *u = &r->units[i];
		w_u64(&b, (uint64_t)u->changed | (uint64_t)(u->kind == UNIT_DEX && u->dex && u->dex->left) << 1);
		w_u64(&b, u->instrumented);
		w_u64(&b, u->skipped);
		w_u64(&b, u->focus_injected);
		w_u64(&b, u->focus_added);
		w_u64(&b, u->in_size);
		w_u64(&b, u->out_size);
		uint64_t nr = 0;
		for (const report *p = u->reports; p; p = p->next)
			nr++;
		w_u64(&b, nr);
		for (const report *p = u->reports; p; p = p->next)
			w_str(&b, p->text);
		/* a directory's rewritten files are kept with the result */
		bool keep = !one_file(in) && u->changed && u->out;
		w_u64(&b, keep ? u->out_len : 0);
		if (keep)
			buf_bytes(&b, u->out, u->out_len);
	}
	cf_error e;
	cf_error_clear(&e);
	/* before the commit: a one-file output is still at its stage */
	const char *file = in->stage ? in->stage : in->out;
	if (!b.err && (!one_file(in) || cache_put_file(r->cache, in->result_key, "out", file, &e) == CF_OK))
		cache_put(r->cache, in->result_key, "result", b.data, b.len, &e);
	buf_free(&b);
}

/* Everything tc-instrument writes: class files in directories, jars, the two mapping
 * files and the statistics. Each file is written beside its destination under a
 * temporary name and renamed into place, so a reader never sees half a file. */
/* nftw is an XSI function. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "walk.h"
#include "pipeline.h"
#include "zlib_io.h"

static int mkdirs(worker *w, const char *path, cf_error *err)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash)
		return CF_OK;
	size_t n = (size_t)(slash - path);
	if (n == 0 || n >= sizeof dir)
		return n == 0 ? CF_OK : cf_fail(err, CF_EIO, CF_NO_OFFSET, path, "path too long");
	memcpy(dir, path, n);
	dir[n] = '\0';
	if (w && strcmp(w->made_dir, dir) == 0)
		return CF_OK;
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(dir, 0777) != 0 && errno != EEXIST)
			return cf_fail(err, CF_EIO, CF_NO_OFFSET, dir, "cannot create directory: %s",
			               strerror(errno));
		*p = c;
		if (!c)
			break;
	}
	if (w)
		snprintf(w->made_dir, sizeof w->made_dir, "%s", dir);
	return CF_OK;
}

int out_write_file(worker *w, const char *path, const uint8_t *data, size_t len, bool fresh,
                   cf_error *err)
{
	if (mkdirs(w, path, err) != CF_OK)
		return err->code;
	char tmp[4200];
	if (fresh)
		path_join(tmp, sizeof tmp, path, "", "");
	else
		snprintf(tmp, sizeof tmp, "%s.tc-tmp.%ld.%p", path, (long)getpid(), (void *)w);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, path, "cannot create: %s", strerror(errno));
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = errno;
			close(fd);
			unlink(tmp);
			return cf_fail(err, CF_EIO, CF_NO_OFFSET, path, "cannot write: %s", strerror(e));
		}
		done += (size_t)n;
	}
	if (close(fd) != 0 || (!fresh && rename(tmp, path) != 0)) {
		int e = errno;
		unlink(tmp);
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, path, "cannot write: %s", strerror(e));
	}
	return CF_OK;
}

/* in->stage: "OUT.tc-tmp.PID" beside the output (without the trailing slashes of
 * "DIR/", which would put it inside). */
static int stage_name(input *in, cf_error *err)
{
	size_t len = strlen(in->out);
	while (len > 1 && in->out[len - 1] == '/')
		len--;
	size_t n = len + 64;
	if (!(in->stage = malloc(n)))
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, in->out, "no memory");
	snprintf(in->stage, n, "%.*s.tc-tmp.%ld", (int)len, in->out, (long)getpid());
	return CF_OK;
}

int out_stage_file(input *in, cf_error *err)
{
	if (in->stage)
		return CF_OK;
	if (mkdirs(NULL, in->out, err) != CF_OK)
		return err->code;
	struct stat st;
	if (stat(in->out, &st) == 0 && S_ISDIR(st.st_mode))
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, in->out, "is a directory, the output of a %s must be a file",
		               in->dex ? "dex file" : "jar");
	return stage_name(in, err);
}

/* A directory output that does not exist yet is built beside it and renamed into
 * place at the end: one rename makes the whole directory appear at once, and each file
 * is created only once. An existing directory is updated file by file (each one
 * atomically) and nothing else in it is touched. */
int out_stage_dir(input *in, cf_error *err)
{
	struct stat st;
	if (stat(in->out, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return cf_fail(err, CF_EIO, CF_NO_OFFSET, in->out, "exists and is not a directory");
		return CF_OK;
	}
	if (errno != ENOENT)
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, in->out, "cannot stat: %s", strerror(errno));
	if (stage_name(in, err) != CF_OK)
		return err->code;
	char probe[4200];
	snprintf(probe, sizeof probe, "%s/.", in->stage);
	if (mkdirs(NULL, probe, err) != CF_OK) {
		free(in->stage);
		in->stage = NULL;
		return err->code;
	}
	return CF_OK;
}

int out_commit(input *in, cf_error *err)
{
	if (!in->stage)
		return CF_OK;
	if (rename(in->stage, in->out) != 0)
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, in->out, "cannot rename %s into place: %s",
		               in->stage, strerror(errno));
	free(in->stage);
	in->stage = NULL;
	return CF_OK;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void out_abort(input *in)
{
	if (!in->stage)
		return;
	nftw(in->stage, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(in->stage);
	in->stage = NULL;
}

int out_jar_entry(run *r, unit *u, worker *w, const uint8_t *data, size_t len, cf_error *err)
{
	u->out_crc = zio_crc32(data, len);
	u->out_size = len;
	/* A stored entry stays stored; any other is deflated. */
	u->out_method = u->info.method == 0 ? 0 : 8;
	if (u->out_method == 8) {
		char label[4200];
		snprintf(label, sizeof label, "%s!%s", u->in->out, u->name);
		if (!w->deflater && !(w->deflater = zio_deflater_new(r->opt->deflate_level)))
			return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "cannot start deflate");
		if (zio_deflate(w->deflater, data, len, &w->zout, label, err) != CF_OK)
			return err->code;
		data = w->zout.data;
		len = w->zout.len;
	}
	/* Held until the jar is written, in the worker's arena. */
	u->out_len = len;
	if (!(u->out = arena_dup(&w->outs, data, len)))
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, u->name, "no memory");
	return CF_OK;
}

/* An APK's v1 signature files: stale once a dex changes, so dropped (apksigner makes
 * new ones; the v2+ signing block is not an entry and goes with the old archive). */
static bool is_signature(const char *name)
{
	if (strncmp(name, "META-INF/", 9) || strchr(name + 9, '/'))
		return false;
	const char *dot = strrchr(name, '.');
	return !strcmp(name + 9, "MANIFEST.MF") ||
	       (dot && (!strcmp(dot, ".SF") || !strcmp(dot, ".RSA") || !strcmp(dot, ".DSA") || !strcmp(dot, ".EC")));
}

int out_write_jar(run *r, input *in, cf_error *err)
{
	if (out_stage_file(in, err) != CF_OK)
		return err->code;
	struct stat st;
	tc_jar_writer *jw;
	if (jar_writer_open(&jw, in->stage, err) != CF_OK)
		return err->code;
	if (in->apk)
		jar_writer_align(jw, 4, 4096); /* what zipalign -p 4 makes */
	if (jar_writer_copy_comment(jw, in->zip, err) != CF_OK) {
		jar_writer_abort(jw);
		return err->code;
	}
	for (size_t i = in->first; i < in->first + in->count; i++) {
		unit *u = &r->units[i];
		int rc;
		if (u->kind == UNIT_DEXCLASS || (in->apk && is_signature(u->name)))
			continue;
		if (u->changed && u->out) {
			rc = jar_writer_replace(jw, in->zip, u->entry, u->out_method, u->out, u->out_len,
			                        u->out_size, u->out_crc, err);
		} else {
			rc = jar_writer_copy(jw, in->zip, u->entry, err);
		}
		if (rc != CF_OK) {
			jar_writer_abort(jw);
			return rc;
		}
	}
	if (jar_writer_finish(jw, err) != CF_OK)
		return err->code;
	if (stat(in->stage, &st) == 0)
		in->bytes_out = (uint64_t)st.st_size;
	return CF_OK;
}

int out_mapping_dir(run *r, cf_error *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/.", r->opt->mapping_dir);
	if (mkdirs(NULL, path, err) != CF_OK)
		return err->code;
	struct stat st;
	if (stat(r->opt->mapping_dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, r->opt->mapping_dir, "is not a directory");
	return CF_OK;
}

static int write_text(run *r, const char *name, const cf_buf *b, cf_error *err)
{
	char path[4096]; /* the directory exists: out_mapping_dir ran before any output */
	snprintf(path, sizeof path, "%s/%s", r->opt->mapping_dir, name);
	if (b->err)
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, path, "no memory");
	return out_write_file(NULL, path, b->data, b->len, false, err);
}

static void put_str(cf_buf *b, const char *s)
{
	buf_bytes(b, s, strlen(s));
}

static void put_uint(cf_buf *b, uint32_t v)
{
	char d[10];
	size_t n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < sizeof d);
	while (n)
		buf_u1(b, (uint8_t)d[--n]);
}

int out_write_mappings(run *r, cf_error *err)
{
	cf_buf b;
	buf_init(&b);
	for (size_t i = 0; i < r->ntraced; i++) {
		const meth *m = r->traced[i];
		put_uint(&b, m->id);
		buf_u1(&b, ',');
		put_uint(&b, m->access);
		buf_u1(&b, ',');
		put_str(&b, m->line);
		buf_u1(&b, '\n');
	}
	put_str(&b, TC_DISPATCH_LINE "\n");
	int rc = write_text(r, "methodMapping.txt", &b, err);
	buf_clear(&b);
	put_str(&b, "ignore methods:\n");
	for (size_t i = 0; i < r->nignored && rc == CF_OK; i++) {
		put_str(&b, r->ignored[i]->line);
		buf_u1(&b, '\n');
	}
	if (rc == CF_OK)
		rc = write_text(r, "ignoreMethodMapping.txt", &b, err);
	buf_free(&b);
	return rc;
}

int out_write_stats(run *r, double total, cf_error *err)
{
	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s/instrument-stats.json", r->opt->mapping_dir);
	snprintf(tmp, sizeof tmp, "%s.tc-tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, path, "cannot create: %s", strerror(errno));
	uint64_t classes = 0, instrumented = 0, malformed = 0, by_name = 0, abstract = 0, modules = 0,
	         blocked = 0, activities = 0, focus_added = 0, focus_injected = 0, focus_refused = 0,
	         methods_instrumented = 0, methods_skipped = 0, ignored[V_COUNT] = {0};
	uint64_t bytes_in = 0, bytes_out = 0, dex_files = 0, dex_changed = 0, dex_left = 0, dex_malformed = 0;
	bool apk = false;
	for (size_t i = 0; i < r->nunits; i++) {
		const unit *u = &r->units[i];
		if (u->in->classpath)
			continue;
		apk |= u->in->apk;
		if (u->kind == UNIT_DEX) {
			dex_files++;
			dex_changed += u->changed;
			dex_left += u->dex->left;
			dex_malformed += u->state == US_MALFORMED;
		}
		if (u->kind != UNIT_CLASS && u->kind != UNIT_DEXCLASS)
			continue;
		classes++;
		instrumented += u->changed;
		malformed += u->state == US_MALFORMED;
		by_name += !u->candidate;
		modules += u->state == US_OK && (u->access & 0x8000);
		abstract += u->state == US_OK && u->candidate && !(u->access & 0x8000) &&
		            (u->access & (0x0200 | 0x0400));
		blocked += u->traceable && u->blocked;
		activities += u->activity;
		focus_added += u->focus_added;
		focus_injected += u->focus_injected;
		focus_refused += u->focus_refused;
		methods_instrumented += u->instrumented;
		methods_skipped += u->skipped;
	}
	for (size_t i = 0; i < r->nignored; i++)
		ignored[r->ignored[i]->verdict]++;
	json j;
	json_init(&j, f);
	json_begin(&j, NULL, '{');
	json_str(&j, "tool", "tc-instrument");
	json_u64(&j, "threads", (uint64_t)r->nworkers);
	json_begin(&j, "inputs", '[');
	for (size_t i = 0; i < r->ninputs; i++) {
		const input *in = &r->inputs[i];
		if (in->classpath)
			continue;
		bytes_in += in->bytes_in;
		bytes_out += in->bytes_out;
		json_begin(&j, NULL, '{');
		json_str(&j, "in", in->in);
		json_str(&j, "out", in->out);
		json_str(&j, "kind", in->apk ? "apk" : in->jar ? "jar" : in->dex ? "dex" : "directory");
		json_u64(&j, "entries", in->count);
		json_u64(&j, "bytes_in", in->bytes_in);
		json_u64(&j, "bytes_out", in->bytes_out);
		json_end(&j, '}');
	}
	json_end(&j, ']');
	json_begin(&j, "classes", '{');
	json_u64(&j, "total", classes);
	json_u64(&j, "instrumented", instrumented);
	json_u64(&j, "unchanged", classes - instrumented);
	json_u64(&j, "malformed", malformed);
	json_u64(&j, "skipped_by_name", by_name);
	json_u64(&j, "abstract_or_interface", abstract);
	json_u64(&j, "module_info", modules);
	json_u64(&j, "blocked", blocked);
	json_u64(&j, "activities", activities);
	json_u64(&j, "focus_method_added", focus_added);
	json_u64(&j, "focus_method_instrumented", focus_injected);
	json_u64(&j, "focus_method_refused", focus_refused);
	json_end(&j, '}');
	if (r->opt->cache_dir) {
		uint64_t facts = 0, results = 0, inputs = 0;
		for (size_t i = 0; i < r->ninputs; i++) {
			inputs += !r->inputs[i].classpath;
			facts += r->inputs[i].facts_hit;
			results += r->inputs[i].result_hit;
		}
		json_begin(&j, "cache", '{');
		json_str(&j, "dir", r->opt->cache_dir);
		json_u64(&j, "inputs", inputs);
		json_u64(&j, "facts_reused", facts);
		json_u64(&j, "results_reused", results);
		json_u64(&j, "entries_read", r->cache_stats.hits);
		json_u64(&j, "entries_missing", r->cache_stats.misses);
		json_u64(&j, "entries_damaged", r->cache_stats.damaged);
		json_u64(&j, "entries_written", r->cache_stats.writes);
		json_u64(&j, "entries_evicted", r->cache_stats.evicted);
		json_end(&j, '}');
	}
	json_begin(&j, "dex", '{');
	json_u64(&j, "files", dex_files);
	json_u64(&j, "rewritten", dex_changed);
	json_u64(&j, "left_unchanged", dex_left);
	json_u64(&j, "malformed", dex_malformed);
	json_end(&j, '}');
	json_begin(&j, "methods", '{');
	json_u64(&j, "traced", r->ntraced);
	json_u64(&j, "ignored", r->nignored);
	json_begin(&j, "ignored_by_reason", '{');
	json_u64(&j, "empty", ignored[V_EMPTY]);
	json_u64(&j, "getset", ignored[V_GETSET]);
	json_u64(&j, "single", ignored[V_SINGLE]);
	json_u64(&j, "blocked", ignored[V_BLOCKED]);
	json_u64(&j, "keepmethod", ignored[V_KEEPMETHOD]);
	json_end(&j, '}');
	json_u64(&j, "instrumented", methods_instrumented);
	json_u64(&j, "skipped", methods_skipped);
	json_end(&j, '}');
	json_begin(&j, "problems", '[');
	for (size_t i = 0; i < r->nunits; i++) {
		const unit *u = &r->units[i];
		if (!(u->state == US_MALFORMED && !u->in->classpath) && !u->reports)
			continue;
		char where[4200];
		if (u->in->dex)
			snprintf(where, sizeof where, "%s", u->in->in);
		else
			path_join(where, sizeof where, u->in->in, u->in->jar ? "!" : "/", u->name);
		if (u->state == US_MALFORMED && !u->in->classpath) {
			json_begin(&j, NULL, '{');
			json_str(&j, "file", where);
			json_str(&j, "problem", u->kind == UNIT_DEX ? "malformed dex, copied unchanged"
			                                            : "malformed class, copied unchanged");
			json_str(&j, "detail", u->error);
			json_end(&j, '}');
		}
		for (const report *p = u->reports; p; p = p->next) {
			json_begin(&j, NULL, '{');
			json_str(&j, "file", where);
			json_str(&j, "problem", p->text);
			json_end(&j, '}');
		}
	}
	json_end(&j, ']');
	json_begin(&j, "bytes", '{');
	json_u64(&j, "in", bytes_in);
	json_u64(&j, "out", bytes_out);
	json_end(&j, '}');
	json_begin(&j, "time_ms", '{');
	json_num(&j, "read", r->t_read * 1e3);
	json_num(&j, "collect", r->t_collect * 1e3);
	json_num(&j, "decide", r->t_decide * 1e3);
	json_num(&j, "trace", r->t_trace * 1e3);
	json_num(&j, "write", r->t_write * 1e3);
	json_num(&j, "mappings", r->t_map * 1e3);
	json_num(&j, "total", total * 1e3);
	json_end(&j, '}');
	json_end(&j, '}');
	if (ferror(f) | (fclose(f) != 0) || rename(tmp, path) != 0) {
		unlink(tmp);
		return cf_fail(err, CF_EIO, CF_NO_OFFSET, path, "cannot write");
	}
	if (!r->opt->quiet) {
		char dex[160] = "";
		if (dex_files)
			snprintf(dex, sizeof dex, " in %llu dex files (%llu rewritten, %llu left unchanged, %llu malformed)",
			         (unsigned long long)dex_files, (unsigned long long)dex_changed,
			         (unsigned long long)dex_left, (unsigned long long)dex_malformed);
		char kept[64] = "";
		if (ignored[V_KEEPMETHOD])
			snprintf(kept, sizeof kept, " (%llu by -keepmethod)", (unsigned long long)ignored[V_KEEPMETHOD]);
		fprintf(stderr,
		        "tc-instrument: %llu classes (%llu instrumented, %llu malformed)%s, %zu methods traced, "
		        "%zu ignored%s, %llu not instrumented; %.1f MB -> %.1f MB in %.2f s\n",
		        (unsigned long long)classes, (unsigned long long)instrumented,
		        (unsigned long long)malformed, dex, r->ntraced, r->nignored, kept,
		        (unsigned long long)methods_skipped, bytes_in / 1e6, bytes_out / 1e6, total);
		if (apk)
			fprintf(stderr, "tc-instrument: the APK's old signature was removed: sign it with apksigner "
			                "(apksigner sign --ks KEYSTORE OUT.apk) before installing it\n");
	}
	return CF_OK;
}

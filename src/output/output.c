/* Everything tc-instrument writes: class files in directories, jars (one of several
 * inputs joined: out_join), the two mapping
 * files and the statistics. Each file is written beside its destination under a
 * temporary name and renamed into place, so a reader never sees half a file. */
/* nftw is an XSI function. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "json.h"
#include "method_mapping.h"
#include "containers/walk.h"
#include "pipeline/pipeline.h"
#include "pipeline/pool.h"
#include "containers/zlib_io.h"

static int mkdirs(pl_worker *w, const char *path, tc_error *err)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash)
		return TC_OK;
	size_t n = (size_t)(slash - path);
	if (n == 0 || n >= sizeof dir)
		return n == 0 ? TC_OK : tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "path too long");
	memcpy(dir, path, n);
	dir[n] = '\0';
	if (w && strcmp(w->made_dir, dir) == 0)
		return TC_OK;
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(dir, 0777) != 0 && errno != EEXIST)
			return tc_fail(err, TC_EIO, TC_NO_OFFSET, dir, "cannot create directory: %s",
			               strerror(errno));
		*p = c;
		if (!c)
			break;
	}
	if (w)
		snprintf(w->made_dir, sizeof w->made_dir, "%s", dir);
	return TC_OK;
}

/* A file left as it is because it already holds what would be written gets a new
 * modification time all the same, as if written: tools that compare times (make) see
 * it as new. */
static void touch(const char *path)
{
	utimensat(AT_FDCWD, path, NULL, 0);
}

/* Whether the regular file at path holds exactly data[0..len). */
static bool holds(const char *path, const uint8_t *data, size_t len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO there must not block */
	if (fd < 0)
		return false;
	struct stat st;
	bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == len;
	if (same && len) {
		void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		same = p != MAP_FAILED && memcmp(p, data, len) == 0;
		if (p != MAP_FAILED)
			munmap(p, len);
	}
	close(fd);
	return same;
}

bool out_holds(const char *path, uint64_t size, cache_key hash)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != size)
		return false;
	cache_key k;
	uint64_t n;
	tc_error e;
	tc_error_clear(&e);
	return cache_hash_file(path, &k, &n, &e) == TC_OK && n == size && k.lo == hash.lo && k.hi == hash.hi;
}

int out_write_file(pl_worker *w, const char *path, const uint8_t *data, size_t len, bool fresh,
                   tc_error *err)
{
	if (mkdirs(w, path, err) != TC_OK)
		return err->code;
	/* an unchanged file is not written again (a warm run over an existing directory) */
	if (!fresh && holds(path, data, len)) {
		touch(path);
		return TC_OK;
	}
	char tmp[4200];
	if (fresh)
		walk_path_join(tmp, sizeof tmp, path, "", "");
	else
		snprintf(tmp, sizeof tmp, "%s.tc-tmp.%ld.%p", path, (long)getpid(), (void *)w);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot create: %s", strerror(errno));
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = errno;
			close(fd);
			unlink(tmp);
			return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot write: %s", strerror(e));
		}
		done += (size_t)n;
	}
	if (close(fd) != 0 || (!fresh && rename(tmp, path) != 0)) {
		int e = errno;
		unlink(tmp);
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot write: %s", strerror(e));
	}
	return TC_OK;
}

/* in->stage: "OUT.tc-tmp.PID" beside the output (without the trailing slashes of
 * "DIR/", which would put it inside). */
static int stage_name(pl_input *in, tc_error *err)
{
	size_t len = strlen(in->out);
	while (len > 1 && in->out[len - 1] == '/')
		len--;
	size_t n = len + 64;
	if (!(in->stage = malloc(n)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->out, "no memory");
	snprintf(in->stage, n, "%.*s.tc-tmp.%ld", (int)len, in->out, (long)getpid());
	return TC_OK;
}

int out_stage_file(pl_input *in, tc_error *err)
{
	if (in->stage)
		return TC_OK;
	if (mkdirs(NULL, in->out, err) != TC_OK)
		return err->code;
	struct stat st;
	if (stat(in->out, &st) == 0 && S_ISDIR(st.st_mode))
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, in->out, "is a directory, the output of a %s must be a file",
		               in->dex ? "dex file" : "jar");
	return stage_name(in, err);
}

/* A directory output is built beside it and moved into place at the end. One that does
 * not exist yet appears at once, with one rename, each file created only once; into an
 * existing one the files that changed are moved one by one (each atomically) and
 * nothing else in it is touched. Either way a run that fails leaves it as it was. */
int out_stage_dir(pl_input *in, tc_error *err)
{
	struct stat st;
	if (stat(in->out, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return tc_fail(err, TC_EIO, TC_NO_OFFSET, in->out, "exists and is not a directory");
		in->merge = true;
	} else if (errno != ENOENT) {
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, in->out, "cannot stat: %s", strerror(errno));
	}
	if (stage_name(in, err) != TC_OK)
		return err->code;
	char probe[4200];
	snprintf(probe, sizeof probe, "%s/.", in->stage);
	if (mkdirs(NULL, probe, err) != TC_OK) {
		free(in->stage);
		in->stage = NULL;
		return err->code;
	}
	return TC_OK;
}

int out_dir_file(pl_worker *w, pl_unit *u, const uint8_t *data, size_t len, tc_error *err)
{
	char path[4200];
	if (u->in->merge) {
		/* an unchanged file is not written again (a warm run over an existing directory) */
		walk_path_join(path, sizeof path, u->in->out, "/", u->name);
		if ((u->out_same = holds(path, data, len)))
			return TC_OK;
	}
	walk_path_join(path, sizeof path, u->in->stage, "/", u->name);
	return out_write_file(w, path, data, len, true, err);
}

/* Moves the files under stage/rel into out/rel, making the directories they need. */
static int merge(const char *stage, const char *out, const char *rel, tc_error *err)
{
	char from[4200], to[4200];
	walk_path_join(from, sizeof from, stage, *rel ? "/" : "", rel);
	DIR *d = opendir(from);
	if (!d)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, from, "cannot open directory: %s", strerror(errno));
	int rc = TC_OK;
	struct dirent *e;
	while (rc == TC_OK && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char sub[4200];
		struct stat st;
		if (walk_path_join(sub, sizeof sub, rel, *rel ? "/" : "", e->d_name) >= sizeof sub ||
		    walk_path_join(from, sizeof from, stage, "/", sub) >= sizeof from ||
		    walk_path_join(to, sizeof to, out, "/", sub) >= sizeof to) {
			rc = tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, out, "path too long under it");
		} else if (lstat(from, &st) != 0) {
			rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, from, "cannot stat: %s", strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			if (mkdir(to, 0777) != 0 && errno != EEXIST)
				rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, to, "cannot create directory: %s", strerror(errno));
			else
				rc = merge(stage, out, sub, err);
		} else if (rename(from, to) != 0) {
			rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, to, "cannot move %s into place: %s", from, strerror(errno));
		}
	}
	closedir(d);
	return rc;
}

int out_commit(pl_run *r, pl_input *in, tc_error *err)
{
	if (in->out_same)
		touch(in->out);
	if (!in->stage)
		return TC_OK;
	if (in->merge) {
		if (merge(in->stage, in->out, "", err) != TC_OK)
			return err->code;
		out_abort(in); /* the stage's directories, now empty */
		/* files that already held their bytes get a new time all the same (make) */
		char path[4200];
		for (size_t k = in->first; k < in->first + in->count; k++)
			if (r->units[k].out_same) {
				walk_path_join(path, sizeof path, in->out, "/", r->units[k].name);
				touch(path);
			}
		return TC_OK;
	}
	if (rename(in->stage, in->out) != 0)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, in->out, "cannot rename %s into place: %s",
		               in->stage, strerror(errno));
	free(in->stage);
	in->stage = NULL;
	return TC_OK;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void out_abort(pl_input *in)
{
	if (!in->stage)
		return;
	nftw(in->stage, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(in->stage);
	in->stage = NULL;
}

/* Entry `name` of a directory part, read from dir and added to the joined jar, deflated. */
static int join_file(pl_run *r, tc_jar_writer *jw, const char *dir, const char *name, tc_buf *in, tc_buf *z,
                     struct zio_deflater **d, tc_error *err)
{
	char path[4200];
	walk_path_join(path, sizeof path, dir, "/", name);
	if (tc_file_read(path, in, r->max_input, TC_LIMIT_OPTION, err) != TC_OK)
		return err->code;
	if (!*d && !(*d = zio_deflater_new(r->opt->deflate_level ? r->opt->deflate_level : 1)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, path, "cannot start deflate");
	if (zio_deflate(*d, in->data, in->len, z, path, err) != TC_OK)
		return err->code;
	return jar_writer_add(jw, name, 8, z->data, z->len, in->len, zio_crc32(in->data, in->len), err);
}

/* Whether name is among the directory entries seen[0..n), else added to them. */
static bool seen_dir(const char ***seen, size_t *n, size_t *cap, const char *name, bool *nomem)
{
	for (size_t k = 0; k < *n; k++)
		if (!strcmp((*seen)[k], name))
			return true;
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 32;
		const char **s = realloc(*seen, c * sizeof *s);
		if (!s) {
			*nomem = true;
			return true;
		}
		*seen = s;
		*cap = c;
	}
	(*seen)[(*n)++] = name;
	return false;
}

/* The parts of the group whose first input is lead, joined into its jar. */
static int join_group(pl_run *r, size_t lead, tc_error *err)
{
	const char *out = r->inputs[lead].joined_out;
	tc_jar_writer *jw;
	if (jar_writer_open(&jw, out, err) != TC_OK)
		return err->code;
	tc_buf in, z;
	buf_init(&in);
	buf_init(&z);
	struct zio_deflater *d = NULL;
	tc_jar *jars[64];
	size_t njars = 0;
	const char **seen = NULL;
	size_t nseen = 0, capseen = 0;
	bool nomem = false;
	int rc = TC_OK;
	for (size_t i = lead; rc == TC_OK && i < r->ninputs && r->inputs[i].joined_out && r->inputs[i].lead == lead;
	     i++) {
		const pl_input *p = &r->inputs[i];
		if (p->dir) {
			char **files;
			size_t n;
			if ((rc = walk_list_files(p->part, &files, &n, err)) != TC_OK)
				break;
			for (size_t k = 0; k < n && rc == TC_OK; k++)
				rc = join_file(r, jw, p->part, files[k], &in, &z, &d, err);
			walk_free_list(files, n);
			continue;
		}
		/* the names of directory entries live in their jar: each stays open to the end */
		if (njars == sizeof jars / sizeof *jars) {
			for (size_t k = 0; k < njars; k++)
				jar_close(jars[k]);
			njars = 0;
			nseen = 0; /* past 64 jars a directory entry may repeat: harmless */
		}
		tc_jar *jar;
		if ((rc = jar_open(&jar, p->part, err)) != TC_OK)
			break;
		jars[njars++] = jar;
		for (uint64_t k = 0; k < jar_count(jar) && rc == TC_OK; k++) {
			if (jar_is_dir(jar, k) && seen_dir(&seen, &nseen, &capseen, jar_name(jar, k), &nomem))
				continue;
			rc = jar_writer_copy(jw, jar, k, err);
		}
		if (rc == TC_OK && nomem)
			rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, out, "no memory");
	}
	if (rc == TC_OK)
		rc = jar_writer_finish(jw, err);
	else
		jar_writer_abort(jw);
	for (size_t k = 0; k < njars; k++)
		jar_close(jars[k]);
	free(seen);
	zio_deflater_free(d);
	buf_free(&in);
	buf_free(&z);
	return rc;
}

int out_join(pl_run *r, tc_error *err)
{
	for (size_t i = 0; i < r->ninputs; i++) {
		if (!r->inputs[i].joined_out || r->inputs[i].lead != i)
			continue;
		if (join_group(r, i, err) != TC_OK)
			return err->code;
		for (size_t k = i; k < r->ninputs && r->inputs[k].joined_out && r->inputs[k].lead == i; k++)
			nftw(r->inputs[k].part, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	return TC_OK;
}

void out_unjoin(pl_run *r)
{
	for (size_t i = 0; i < r->ninputs; i++)
		if (r->inputs[i].part)
			nftw(r->inputs[i].part, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void mapping_path(const pl_run *r, int which, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", r->opt->mapping_dir, out_mapping_names[which]);
}

int out_stage_mapping(pl_run *r, int which, tc_error *err)
{
	char path[4200];
	mapping_path(r, which, path, sizeof path);
	size_t n = strlen(path) + 64;
	if (!(r->map_stage[which] = malloc(n)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "cache", "no memory"); /* a replay's */
	snprintf(r->map_stage[which], n, "%s.tc-tmp.%ld", path, (long)getpid());
	return TC_OK;
}

int out_commit_mappings(pl_run *r, tc_error *err)
{
	for (int k = 0; k < 2; k++) {
		char path[4200];
		mapping_path(r, k, path, sizeof path);
		if (!r->map_stage[k]) {
			touch(path); /* as if written */
			continue;
		}
		if (rename(r->map_stage[k], path) != 0) {
			int e = errno;
			out_unstage_run(r);
			return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot rename into place: %s", strerror(e));
		}
		free(r->map_stage[k]);
		r->map_stage[k] = NULL;
	}
	return TC_OK;
}

void out_abort_mappings(pl_run *r)
{
	for (int k = 0; k < 2; k++) {
		if (r->map_stage[k])
			unlink(r->map_stage[k]);
		free(r->map_stage[k]);
		r->map_stage[k] = NULL;
	}
}

void out_unstage_run(pl_run *r)
{
	for (size_t i = 0; i < r->ninputs; i++) {
		out_abort(&r->inputs[i]);
		r->inputs[i].out_same = false;
	}
	out_abort_mappings(r);
}

int out_deflate_level(const pl_run *r, const pl_input *in)
{
	return r->opt->deflate_level ? r->opt->deflate_level : in->apk ? 6 : 1;
}

/* The worker's deflater at the output's level, made on first use; NULL out of memory. */
static zio_deflater *deflater(pl_run *r, pl_worker *w, const pl_input *in)
{
	zio_deflater **d = &w->deflater[in->apk];
	if (!*d)
		*d = zio_deflater_new(out_deflate_level(r, in));
	return *d;
}

/* A pushed index: the unit's, and which of its parts. */
#define PART_BITS 24

static int split_entry(pl_run *r, pl_unit *u, pl_worker *w, const uint8_t *data, size_t len, tc_error *err)
{
	pl_split *s = calloc(1, sizeof *s);
	size_t n = (len + ZIO_PART - 1) / ZIO_PART;
	if (!s || n >= (size_t)1 << PART_BITS)
		goto nomem;
	u->split = s;
	if (data == w->out.data) {
		/* the worker's output buffer (a dex just written): taken, not copied */
		s->data = buf_take(&w->out, &s->len);
	} else if ((s->data = malloc(len))) {
		memcpy(s->data, data, len);
		s->len = len;
	}
	s->nparts = n;
	s->part = calloc(n, sizeof *s->part);
	s->part_len = calloc(n, sizeof *s->part_len);
	s->crc = calloc(n, sizeof *s->crc);
	if (!s->data || !s->part || !s->part_len || !s->crc)
		goto nomem;
	size_t unit = (size_t)(u - r->units);
	for (size_t k = 0; k < n; k++)
		if (pool_queue_push(r->parts, unit << PART_BITS | k) != 0)
			goto nomem;
	return TC_OK;
nomem:
	if (!u->split)
		free(s);
	return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
}

void out_jar_split_free(pl_unit *u)
{
	pl_split *s = u->split;
	if (!s)
		return;
	for (size_t k = 0; s->part && k < s->nparts; k++)
		free(s->part[k]);
	free(s->part);
	free(s->part_len);
	free(s->crc);
	free(s->data);
	free(s);
	u->split = NULL;
}

int out_jar_part(pl_run *r, size_t index, pl_worker *w, tc_error *err)
{
	pl_unit *u = &r->units[index >> PART_BITS];
	pl_split *s = u->split;
	size_t k = index & (((size_t)1 << PART_BITS) - 1);
	size_t at = k * ZIO_PART, n = s->len - at < ZIO_PART ? s->len - at : ZIO_PART;
	char label[4200];
	snprintf(label, sizeof label, "%s!%s", u->in->out, u->name);
	zio_deflater *d = deflater(r, w, u->in);
	if (!d)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "cannot start deflate");
	if (zio_deflate_part(d, s->data + at, n, k + 1 == s->nparts, &w->zout, label, err) != TC_OK)
		return err->code;
	s->crc[k] = zio_crc32(s->data + at, n);
	if (!(s->part[k] = malloc(w->zout.len)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
	memcpy(s->part[k], w->zout.data, w->zout.len);
	s->part_len[k] = w->zout.len;
	return TC_OK;
}

void out_jar_entry_drop(pl_unit *u)
{
	u->out = NULL;
	u->out_len = 0;
	if (u->split)
		u->split->dropped = true;
}

int out_jar_join(pl_run *r, pl_unit *u, tc_error *err)
{
	pl_split *s = u->split;
	if (s->dropped) {
		out_jar_split_free(u);
		return TC_OK;
	}
	size_t total = 0;
	uint32_t crc = 0;
	for (size_t k = 0; k < s->nparts; k++) {
		total += s->part_len[k];
		size_t n = k + 1 < s->nparts ? ZIO_PART : s->len - k * ZIO_PART;
		crc = k ? zio_crc32_combine(crc, s->crc[k], n) : s->crc[0];
	}
	uint8_t *p = arena_alloc(&r->workers[0].outs, total);
	if (!p) {
		out_jar_split_free(u);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	}
	u->out = p;
	u->out_len = total;
	u->out_crc = crc;
	for (size_t k = 0; k < s->nparts; k++) {
		memcpy(p, s->part[k], s->part_len[k]);
		p += s->part_len[k];
	}
	out_jar_split_free(u);
	return TC_OK;
}

int out_jar_entry(pl_run *r, pl_unit *u, pl_worker *w, const uint8_t *data, size_t len, uint8_t *room,
                  size_t room_len, tc_error *err)
{
	u->out_size = len;
	/* A stored entry stays stored; any other is deflated. */
	u->out_method = u->info.method == 0 ? 0 : 8;
	if (u->out_method == 8 && len > ZIO_PART && r->parts)
		return split_entry(r, u, w, data, len, err);
	u->out_crc = zio_crc32(data, len);
	if (u->out_method == 8) {
		char label[4200];
		snprintf(label, sizeof label, "%s!%s", u->in->out, u->name);
		zio_deflater *d = deflater(r, w, u->in);
		if (!d)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "cannot start deflate");
		if (zio_deflate(d, data, len, &w->zout, label, err) != TC_OK)
			return err->code;
		data = w->zout.data;
		len = w->zout.len;
	}
	/* Held until the jar is written: in memory already in use when it fits, else in
	 * fresh memory of the worker's arena (its pages zeroed by the kernel). */
	u->out_len = len;
	if (room && len <= room_len) {
		memcpy(room, data, len);
		u->out = room;
	} else if (!(u->out = arena_dup(&w->outs, data, len))) {
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	}
	return TC_OK;
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

int out_write_jar(pl_run *r, pl_input *in, tc_error *err)
{
	if (out_stage_file(in, err) != TC_OK)
		return err->code;
	struct stat st;
	tc_jar_writer *jw;
	if (jar_writer_open(&jw, in->stage, err) != TC_OK)
		return err->code;
	if (in->apk)
		jar_writer_align(jw, 4, 4096); /* what zipalign -p 4 makes */
	if (jar_writer_copy_comment(jw, in->zip, err) != TC_OK) {
		jar_writer_abort(jw);
		return err->code;
	}
	bool marker = r->marker_in == in && r->marker_unit == SIZE_MAX;
	for (size_t i = in->first; i < in->first + in->count; i++) {
		pl_unit *u = &r->units[i];
		int rc;
		if (u->kind == UNIT_DEXCLASS || (in->apk && is_signature(u->name)))
			continue;
		/* the marker of an earlier run: replaced by this run's, at the end */
		if (marker && strcmp(u->name, OUT_MARKER_CLASS ".class") == 0)
			continue;
		if (u->changed && u->out) {
			rc = jar_writer_replace(jw, in->zip, u->entry, u->out_method, u->out, u->out_len,
			                        u->out_size, u->out_crc, err);
		} else {
			rc = jar_writer_copy(jw, in->zip, u->entry, err);
		}
		if (rc != TC_OK) {
			jar_writer_abort(jw);
			return rc;
		}
	}
	if (marker) {
		tc_buf b;
		buf_init(&b);
		int rc = out_marker_class(&b, r->marker_id);
		if (rc != TC_OK)
			rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->out, "no memory");
		else
			rc = jar_writer_add(jw, OUT_MARKER_CLASS ".class", 0, b.data, b.len, b.len, zio_crc32(b.data, b.len), err);
		buf_free(&b);
		if (rc != TC_OK) {
			jar_writer_abort(jw);
			return rc;
		}
	}
	if (jar_writer_finish(jw, err) != TC_OK)
		return err->code;
	if (stat(in->stage, &st) == 0)
		in->bytes_out = (uint64_t)st.st_size;
	return TC_OK;
}

int out_mapping_dir(pl_run *r, tc_error *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/.", r->opt->mapping_dir);
	if (mkdirs(NULL, path, err) != TC_OK)
		return err->code;
	struct stat st;
	if (stat(r->opt->mapping_dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, r->opt->mapping_dir, "is not a directory");
	return TC_OK;
}

static void put_str(tc_buf *b, const char *s)
{
	buf_bytes(b, s, strlen(s));
}

/* A mapping file written a megabyte at a time (for a large class path it is tens of MB,
 * which should not sit in memory whole), hashed as it goes, and compared with the file
 * already there: while they agree nothing is written, so that an unchanged mapping is
 * left as it is. The old file is read a piece at a time into a buffer, not mapped: its
 * pages would count in the run's memory, and the writing runs beside phase 2. */
typedef struct text_out {
	char path[4096], tmp[4200];
	tc_buf b;
	cache_hasher *h;
	uint64_t size;
	int old;            /* the existing file, or -1 */
	uint64_t old_len;
	uint8_t *cmp;       /* a piece of it */
	size_t cmp_cap;
	bool same;          /* the bytes so far equal the existing file's */
	int fd;             /* the temporary file, once they differ */
	bool failed;
	bool reading;       /* the failure was reading the old file */
	int err;
} text_out;

enum { TEXT_CHUNK = 1 << 20 };

static bool text_write(text_out *t, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(t->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			t->err = errno;
			return false;
		}
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* n bytes of the old file from offset at into t->cmp; false if it cannot give them. */
static bool text_old(text_out *t, uint64_t at, size_t n)
{
	if (n > t->cmp_cap) {
		uint8_t *c = realloc(t->cmp, n);
		if (!c)
			return false;
		t->cmp = c;
		t->cmp_cap = n;
	}
	for (size_t got = 0; got < n;) {
		ssize_t k = pread(t->old, t->cmp + got, n - got, (off_t)(at + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	return true;
}

/* Starts the temporary file with the part that agreed with the old one; false on failure. */
static bool text_diverge(text_out *t)
{
	t->same = false;
	snprintf(t->tmp, sizeof t->tmp, "%s.tc-tmp.%ld", t->path, (long)getpid());
	t->fd = open(t->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	bool ok = t->fd >= 0;
	for (uint64_t at = 0, n; ok && at < t->size; at += n) {
		n = t->size - at < TEXT_CHUNK ? t->size - at : TEXT_CHUNK;
		if (!text_old(t, at, (size_t)n)) {
			t->err = errno ? errno : EIO;
			t->reading = true;
			ok = false;
		} else {
			ok = text_write(t, t->cmp, (size_t)n);
		}
	}
	if (!ok) {
		if (!t->err)
			t->err = errno ? errno : EIO;
		t->failed = true;
	}
	return ok;
}

static void text_flush(text_out *t)
{
	const uint8_t *p = t->b.data;
	size_t n = t->b.len;
	t->b.len = 0;
	if (t->failed || !n)
		return;
	cache_hash(t->h, p, n);
	if (t->same && t->old >= 0 && t->size + n <= t->old_len && text_old(t, t->size, n) && !memcmp(t->cmp, p, n)) {
		t->size += n;
		return;
	}
	/* the first difference: the file is written from here on */
	if (t->same && !text_diverge(t))
		return;
	if (!text_write(t, p, n))
		t->failed = true;
	t->size += n;
}

static void text_need(text_out *t)
{
	if (t->b.len >= TEXT_CHUNK)
		text_flush(t);
}

static int text_open(pl_run *r, text_out *t, int which, tc_error *err)
{
	memset(t, 0, sizeof *t);
	t->fd = -1;
	t->old = -1;
	t->same = true;
	/* the directory exists: out_mapping_dir ran before any output */
	snprintf(t->path, sizeof t->path, "%s/%s", r->opt->mapping_dir, out_mapping_names[which]);
	buf_init(&t->b);
	if (!buf_reserve(&t->b, TEXT_CHUNK + 8192) || !(t->h = cache_hasher_new())) {
		buf_free(&t->b);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, t->path, "no memory");
	}
	int fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO there must not block */
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		t->old = fd;
		t->old_len = (uint64_t)st.st_size;
	} else if (fd >= 0) {
		close(fd);
	}
	return TC_OK;
}

static int text_close(pl_run *r, text_out *t, int which, tc_error *err)
{
	text_flush(t);
	bool nomem = t->b.err;
	buf_free(&t->b);
	cache_key hash = cache_digest(t->h);
	cache_hasher_free(t->h);
	/* a prefix of the existing file, or a new empty one: written after all */
	if (t->same && (t->size != t->old_len || t->old < 0))
		text_diverge(t);
	if (t->old >= 0)
		close(t->old);
	free(t->cmp);
	if (t->fd >= 0 && close(t->fd) != 0 && !t->failed) {
		t->err = errno;
		t->failed = true;
	}
	if (nomem || t->failed) {
		if (!t->same)
			unlink(t->tmp);
		if (nomem)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, t->path, "no memory");
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, t->path, "cannot %s: %s",
		               t->reading ? "read the file already there, to compare" : "write", strerror(t->err));
	}
	/* staged: out_commit_mappings renames it into place with the outputs' commit (or
	 * only touches a file that already held these bytes) */
	if (!t->same && !(r->map_stage[which] = strdup(t->tmp))) {
		unlink(t->tmp);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, t->path, "no memory");
	}
	/* what was written, for the cache (memo_save_run) */
	r->map_hash[which] = hash;
	r->map_size[which] = t->size;
	r->map_known[which] = true;
	return TC_OK;
}

const char *const out_mapping_names[2] = {"methodMapping.txt", "ignoreMethodMapping.txt"};

/* Traced method m's line of methodMapping.txt, appended to b, and hashed into id (the
 * build id, mapfile/method_mapping.h) unless id is NULL: the one place both the writer and
 * out_build_id make the lines, so that the id is the file's. */
static void put_traced(tc_buf *b, const pl_meth *m, mm_build_id *id)
{
	size_t at = b->len;
	mm_put_entry(b, m->id, m->access, m->cls, m->class_len, m->rest, m->rest_len);
	if (id && b->len > at)
		mm_build_id_line(id, (const char *)b->data + at, b->len - at - 1); /* without its '\n' */
}

int out_write_mappings(pl_run *r, tc_error *err)
{
	text_out t;
	if (text_open(r, &t, 0, err) != TC_OK)
		return err->code;
	/* The build id of these lines, hashed as they are written, unless out_plan_marker
	 * computed it from the same lines already (out_build_id). */
	bool hash = !r->marker_id;
	mm_build_id id;
	mm_build_id_init(&id);
	for (size_t i = 0; i < r->ntraced; i++) {
		put_traced(&t.b, r->traced[i], hash ? &id : NULL);
		text_need(&t);
	}
	put_str(&t.b, MM_DISPATCH_LINE "\n");
	mm_build_id_line(&id, MM_DISPATCH_LINE, sizeof MM_DISPATCH_LINE - 1);
	if (text_close(r, &t, 0, err) != TC_OK || text_open(r, &t, 1, err) != TC_OK)
		return err->code;
	r->written_id = hash ? mm_build_id_final(&id) : r->marker_id;
	put_str(&t.b, MM_IGNORE_HEADER "\n");
	for (size_t i = 0; i < r->nignored; i++) {
		const pl_meth *m = r->ignored[i];
		mm_put_ignored(&t.b, m->cls, m->class_len, m->rest, m->rest_len);
		text_need(&t);
	}
	if (text_close(r, &t, 1, err) != TC_OK)
		return err->code;
	r->mappings_written = true;
	return TC_OK;
}

uint64_t out_build_id(const pl_run *r)
{
	mm_build_id id;
	mm_build_id_init(&id);
	tc_buf b;
	buf_init(&b);
	for (size_t i = 0; i < r->ntraced; i++) {
		buf_clear(&b);
		put_traced(&b, r->traced[i], &id);
	}
	buf_free(&b);
	mm_build_id_line(&id, MM_DISPATCH_LINE, sizeof MM_DISPATCH_LINE - 1);
	return mm_build_id_final(&id);
}

/* The marker class (pipeline.h, OUT_MARKER_CLASS), a class file of its own (JVMS 4):
 * public final synthetic class BuildId { public static final String ID = "<hex>"; }
 * The constant is the field's ConstantValue, so reading the field (reflection)
 * initializes nothing and runs no code; no methods, so no constructor to verify. Major
 * 50 (Java 6): no StackMapTable, accepted by d8 and R8 as by every JVM we support. */
static void marker_class(tc_buf *b, const char hex[MM_BUILD_ID_HEX])
{
	static const char *const utf8[] = {OUT_MARKER_CLASS, "java/lang/Object", OUT_MARKER_FIELD,
	                                   "Ljava/lang/String;", "ConstantValue"};
	buf_u4(b, 0xCAFEBABEu);
	buf_u2(b, 0);
	buf_u2(b, 50);
	buf_u2(b, 10);                      /* constant_pool_count: entries 1..9 */
	buf_u1(b, 1);                       /* #1 Utf8 this class */
	buf_u2(b, (uint16_t)strlen(utf8[0]));
	buf_puts(b, utf8[0]);
	buf_u1(b, 7);                       /* #2 Class #1 */
	buf_u2(b, 1);
	buf_u1(b, 1);                       /* #3 Utf8 java/lang/Object */
	buf_u2(b, (uint16_t)strlen(utf8[1]));
	buf_puts(b, utf8[1]);
	buf_u1(b, 7);                       /* #4 Class #3 */
	buf_u2(b, 3);
	for (int i = 2; i < 5; i++) {       /* #5 name, #6 descriptor, #7 attribute name */
		buf_u1(b, 1);
		buf_u2(b, (uint16_t)strlen(utf8[i]));
		buf_puts(b, utf8[i]);
	}
	buf_u1(b, 1);                       /* #8 Utf8 the id */
	buf_u2(b, MM_BUILD_ID_HEX - 1);
	buf_putn(b, hex, MM_BUILD_ID_HEX - 1);
	buf_u1(b, 8);                       /* #9 String #8 */
	buf_u2(b, 8);
	buf_u2(b, 0x1031);                  /* public final super synthetic */
	buf_u2(b, 2);
	buf_u2(b, 4);
	buf_u2(b, 0);                       /* interfaces */
	buf_u2(b, 1);                       /* fields */
	buf_u2(b, 0x0019);                  /* public static final */
	buf_u2(b, 5);
	buf_u2(b, 6);
	buf_u2(b, 1);
	buf_u2(b, 7);                       /* ConstantValue: #9 */
	buf_u4(b, 2);
	buf_u2(b, 9);
	buf_u2(b, 0);                       /* methods */
	buf_u2(b, 0);                       /* attributes */
}

int out_marker_class(tc_buf *b, uint64_t id)
{
	char hex[MM_BUILD_ID_HEX];
	mm_build_id_hex(id, hex);
	marker_class(b, hex);
	return b->err ? TC_ENOMEM : TC_OK;
}

/* Whether the units of in hold a class at the path its name gives (a class root). */
static bool class_root(const pl_run *r, const pl_input *in)
{
	for (size_t k = in->first; k < in->first + in->count; k++) {
		const pl_unit *u = &r->units[k];
		size_t n = u->cls ? strlen(u->cls) : 0;
		if (u->kind == UNIT_CLASS && n && strncmp(u->name, u->cls, n) == 0 && strcmp(u->name + n, ".class") == 0)
			return true;
	}
	return false;
}

/* The dex unit of in that gets the marker: classes.dex (the primary dex, which every
 * loader of the app reads), else the first dex that parses; SIZE_MAX if none. */
static size_t marker_dex(const pl_run *r, const pl_input *in)
{
	size_t first = SIZE_MAX;
	for (size_t k = in->first; k < in->first + in->count; k++) {
		const pl_unit *u = &r->units[k];
		if (u->kind != UNIT_DEX || u->state == US_MALFORMED)
			continue;
		const char *base = strrchr(u->name, '/');
		base = base ? base + 1 : u->name;
		if (strcmp(base, "classes.dex") == 0 || (in->dex && !in->jar))
			return k;
		if (first == SIZE_MAX)
			first = k;
	}
	return first;
}

void out_plan_marker(pl_run *r)
{
	r->marker_in = NULL;
	r->marker_unit = SIZE_MAX;
	r->marker_id = 0;
	for (size_t i = 0; i < r->ninputs && !r->marker_in; i++) {
		const pl_input *in = &r->inputs[i];
		if (in->classpath)
			continue;
		bool classes = false;
		for (size_t k = in->first; k < in->first + in->count && !classes; k++)
			classes = r->units[k].kind == UNIT_CLASS;
		if (classes) {
			if (class_root(r, in))
				r->marker_in = in;
		} else if ((r->marker_unit = marker_dex(r, in)) != SIZE_MAX) {
			r->marker_in = in;
		}
	}
	if (r->hooks || r->marker_unit != SIZE_MAX)
		r->marker_id = out_build_id(r);
}

int out_build_id_marker(pl_run *r, tc_error *err)
{
	const pl_input *in = r->marker_in;
	if (!in)
		return TC_OK;
	if (r->marker_unit != SIZE_MAX) {
		const dexin *x = r->units[r->marker_unit].dex;
		if (!x || !x->marker)
			r->marker_in = NULL; /* not written: the dex's reports say why */
		return TC_OK;
	}
	if (in->jar)
		return TC_OK; /* out_write_jar added it */
	char path[4200];
	tc_buf b;
	buf_init(&b);
	if (out_marker_class(&b, r->marker_id) != TC_OK) {
		buf_free(&b);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->out, "no memory");
	}
	walk_path_join(path, sizeof path, in->stage, "/", OUT_MARKER_CLASS ".class");
	int rc = out_write_file(&r->workers[0], path, b.data, b.len, true, err);
	buf_free(&b);
	if (rc != TC_OK)
		r->marker_in = NULL;
	return rc;
}

/* The build id of the method mapping as written: what tc-trace will hash. */
static int mapping_file_id(const char *path, uint64_t *out, tc_error *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot open: %s", strerror(errno));
	mm_build_id id;
	mm_build_id_init(&id);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0)
		mm_build_id_line(&id, line, (size_t)n - (line[n - 1] == '\n'));
	bool bad = ferror(f);
	free(line);
	fclose(f);
	if (bad)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot read");
	*out = mm_build_id_final(&id);
	return TC_OK;
}

int out_write_build_id(pl_run *r, tc_error *err)
{
	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s/%s", r->opt->mapping_dir, out_mapping_names[0]);
	/* A run that computed its outputs hashed the mapping's lines as it wrote them, and
	 * the marker holds that id (tests/samples/sample_app.sh reads a ring through the
	 * mapping, which tc-trace hashes); a run replayed from the cache hashes the file it
	 * put in place. On a large APK: about 6 ms at the run's end. */
	if (!r->replayed && r->mappings_written)
		r->build_id = r->written_id;
	else if (mapping_file_id(path, &r->build_id, err) != TC_OK)
		return err->code;
	char hex[MM_BUILD_ID_HEX];
	mm_build_id_hex(r->build_id, hex);
	snprintf(path, sizeof path, "%s/%s", r->opt->mapping_dir, MM_BUILD_ID_FILE);
	snprintf(tmp, sizeof tmp, "%s.tc-tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot create: %s", strerror(errno));
	bool bad = fprintf(f, "%s\n", hex) < 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot write: %s", strerror(e));
	}
	return TC_OK;
}

int out_summarize(pl_run *r, tc_error *err)
{
	if (r->replayed)
		return TC_OK;
	pl_summary *s = &r->sum;
	free(s->problems);
	memset(s, 0, sizeof *s);
	size_t cap = 0;
	for (size_t i = 0; i < r->nunits; i++) {
		const pl_unit *u = &r->units[i];
		if (u->in->classpath)
			continue;
		bool bad = u->state == US_MALFORMED;
		for (const pl_report *p = u->reports; p; p = p->next)
			cap++;
		cap += bad;
		if (u->kind == UNIT_DEX) {
			s->dex_files++;
			s->dex_changed += u->changed;
			s->dex_left += u->dex->left;
			s->dex_malformed += bad;
		}
		if (u->kind != UNIT_CLASS && u->kind != UNIT_DEXCLASS)
			continue;
		s->classes++;
		s->instrumented += u->changed;
		s->malformed += bad;
		s->by_name += !u->candidate;
		s->modules += u->state == US_OK && (u->access & 0x8000);
		s->abstract += u->state == US_OK && u->candidate && !(u->access & 0x8000) &&
		               (u->access & (0x0200 | 0x0400));
		s->blocked += u->traceable && u->blocked;
		s->activities += u->activity;
		s->focus_added += u->focus_added;
		s->focus_injected += u->focus_injected;
		s->focus_refused += u->focus_refused;
		s->methods_instrumented += u->instrumented;
		s->methods_skipped += u->skipped;
		s->methods_already += u->already;
		s->classes_already += u->already != 0;
		s->dex_checked += u->checked;
		s->dex_check_refused += u->check_refused;
		s->dex_input_fails += u->input_fails;
	}
	s->traced = r->ntraced;
	s->ignored = r->nignored;
	for (size_t i = 0; i < r->nignored; i++)
		s->by_verdict[r->ignored[i]->verdict]++;
	if (cap && !(s->problems = malloc(cap * sizeof *s->problems)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "statistics", "no memory");
	for (size_t i = 0; i < r->nunits; i++) {
		const pl_unit *u = &r->units[i];
		if (u->in->classpath)
			continue;
		size_t in = (size_t)(u->in - r->inputs);
		if (u->state == US_MALFORMED)
			s->problems[s->nproblems++] = (pl_problem){in, u->name,
			                                        u->kind == UNIT_DEX ? "malformed dex, copied unchanged"
			                                                            : "malformed class, copied unchanged",
			                                        u->error};
		for (const pl_report *p = u->reports; p; p = p->next)
			s->problems[s->nproblems++] = (pl_problem){in, u->name, p->text, NULL};
	}
	return TC_OK;
}

static uint64_t outputs_same(const pl_run *r)
{
	uint64_t n = 0;
	for (size_t i = 0; i < r->ninputs; i++)
		n += r->inputs[i].out_same;
	return n;
}

/* What the statistics and the summary add up over the outputs. */
typedef struct totals {
	uint64_t bytes_in, bytes_out;
	bool apk;
} totals;

static totals sum_outputs(const pl_run *r)
{
	totals t = {0, 0, false};
	for (size_t i = 0; i < r->ninputs; i++) {
		const pl_input *in = &r->inputs[i];
		if (in->classpath)
			continue;
		t.apk |= in->apk;
		t.bytes_in += in->bytes_in;
		t.bytes_out += in->bytes_out;
	}
	return t;
}

/* instrument-stats.json's text (malloc), or NULL without memory. */
static char *stats_json(const pl_run *r, double total, const totals *t)
{
	const pl_summary *s = &r->sum;
	json j;
	json_init_pretty(&j);
	json_begin_object(&j);
	json_kv_string(&j, "tool", "tc-instrument");
	char hex[MM_BUILD_ID_HEX];
	mm_build_id_hex(r->build_id, hex);
	json_kv_string(&j, "buildId", hex);
	json_kv_string(&j, "buildIdMarker",
	               !r->marker_in ? "" : r->marker_in->joined_out ? r->marker_in->joined_out : r->marker_in->out);
	json_kv_uint(&j, "threads", (uint64_t)r->nworkers);
	json_key(&j, "inputs");
	json_begin_array(&j);
	for (size_t i = 0; i < r->ninputs; i++) {
		const pl_input *in = &r->inputs[i];
		if (in->classpath)
			continue;
		json_begin_object(&j);
		json_kv_string(&j, "in", in->in);
		json_kv_string(&j, "out", in->joined_out ? in->joined_out : in->out ? in->out : "");
		json_kv_string(&j, "kind", in->apk ? "apk" : in->jar ? "jar" : in->dex ? "dex" : "directory");
		json_kv_uint(&j, "entries", in->count);
		json_kv_uint(&j, "bytes_in", in->bytes_in);
		json_kv_uint(&j, "bytes_out", in->bytes_out);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "classes");
	json_begin_object(&j);
	json_kv_uint(&j, "total", s->classes);
	json_kv_uint(&j, "instrumented", s->instrumented);
	json_kv_uint(&j, "unchanged", s->classes - s->instrumented);
	json_kv_uint(&j, "malformed", s->malformed);
	json_kv_uint(&j, "skipped_by_name", s->by_name);
	json_kv_uint(&j, "abstract_or_interface", s->abstract);
	json_kv_uint(&j, "module_info", s->modules);
	json_kv_uint(&j, "blocked", s->blocked);
	json_kv_uint(&j, "activities", s->activities);
	json_kv_uint(&j, "focus_method_added", s->focus_added);
	json_kv_uint(&j, "focus_method_instrumented", s->focus_injected);
	json_kv_uint(&j, "focus_method_refused", s->focus_refused);
	json_kv_uint(&j, "already_instrumented", s->classes_already);
	json_end_object(&j);
	if (r->opt->cache_dir) {
		uint64_t facts = 0, results = 0, inputs = 0;
		for (size_t i = 0; i < r->ninputs; i++) {
			inputs += !r->inputs[i].classpath;
			facts += r->inputs[i].facts_hit;
			results += r->inputs[i].result_hit;
		}
		json_key(&j, "cache");
		json_begin_object(&j);
		json_kv_string(&j, "dir", r->opt->cache_dir ? r->opt->cache_dir : "");
		json_kv_uint(&j, "inputs", inputs);
		json_kv_bool(&j, "run_reused", r->replayed);
		json_kv_uint(&j, "facts_reused", facts);
		json_kv_uint(&j, "results_reused", results);
		json_kv_uint(&j, "outputs_in_place", outputs_same(r));
		json_kv_uint(&j, "entries_read", r->cache_stats.hits);
		json_kv_uint(&j, "entries_missing", r->cache_stats.misses);
		json_kv_uint(&j, "entries_damaged", r->cache_stats.damaged);
		json_kv_uint(&j, "entries_written", r->cache_stats.writes);
		json_kv_uint(&j, "entries_evicted", r->cache_stats.evicted);
		json_end_object(&j);
	}
	json_key(&j, "dex");
	json_begin_object(&j);
	json_kv_uint(&j, "files", s->dex_files);
	json_kv_uint(&j, "rewritten", s->dex_changed);
	json_kv_uint(&j, "left_unchanged", s->dex_left);
	json_kv_uint(&j, "malformed", s->dex_malformed);
	json_kv_uint(&j, "methods_checked", s->dex_checked);
	json_kv_uint(&j, "methods_refused_by_check", s->dex_check_refused);
	json_kv_uint(&j, "methods_failing_before", s->dex_input_fails);
	json_end_object(&j);
	json_key(&j, "methods");
	json_begin_object(&j);
	json_kv_uint(&j, "traced", s->traced);
	json_kv_uint(&j, "ignored", s->ignored);
	json_key(&j, "ignored_by_reason");
	json_begin_object(&j);
	json_kv_uint(&j, "empty", s->by_verdict[V_EMPTY]);
	json_kv_uint(&j, "getset", s->by_verdict[V_GETSET]);
	json_kv_uint(&j, "single", s->by_verdict[V_SINGLE]);
	json_kv_uint(&j, "blocked", s->by_verdict[V_BLOCKED]);
	json_kv_uint(&j, "keepmethod", s->by_verdict[V_KEEPMETHOD]);
	json_kv_uint(&j, "inline", s->by_verdict[V_INLINE]);
	json_end_object(&j);
	json_kv_uint(&j, "instrumented", s->methods_instrumented);
	json_kv_uint(&j, "skipped", s->methods_skipped);
	json_kv_uint(&j, "already_instrumented", s->methods_already);
	json_end_object(&j);
	json_key(&j, "problems");
	json_begin_array(&j);
	for (size_t i = 0; i < s->nproblems; i++) {
		const pl_problem *p = &s->problems[i];
		const pl_input *in = &r->inputs[p->input];
		char where[4200];
		if (in->dex)
			snprintf(where, sizeof where, "%s", in->in);
		else
			walk_path_join(where, sizeof where, in->in, in->jar ? "!" : "/", p->name);
		json_begin_object(&j);
		json_kv_string(&j, "file", where);
		json_kv_string(&j, "problem", p->what);
		if (p->detail)
			json_kv_string(&j, "detail", p->detail);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "bytes");
	json_begin_object(&j);
	json_kv_uint(&j, "in", t->bytes_in);
	json_kv_uint(&j, "out", t->bytes_out);
	json_end_object(&j);
	json_key(&j, "time_ms");
	json_begin_object(&j);
	json_kv_fixed(&j, "read", r->t_read * 1e3, 3);
	json_kv_fixed(&j, "collect", r->t_collect * 1e3, 3);
	json_kv_fixed(&j, "decide", r->t_decide * 1e3, 3);
	json_kv_fixed(&j, "trace", r->t_trace * 1e3, 3);
	json_kv_fixed(&j, "write", r->t_write * 1e3, 3);
	json_kv_fixed(&j, "mappings", r->t_map * 1e3, 3);
	json_kv_fixed(&j, "total", total * 1e3, 3);
	json_end_object(&j);
	json_end_object(&j);
	return json_take(&j);
}

/* instrument-stats.json in the mapping directory, written under a temporary name and
 * renamed into place. */
static int write_stats(const pl_run *r, double total, const totals *t, tc_error *err)
{
	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s/instrument-stats.json", r->opt->mapping_dir);
	snprintf(tmp, sizeof tmp, "%s.tc-tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot create: %s", strerror(errno));
	char *text = stats_json(r, total, t);
	if (!text) {
		fclose(f);
		unlink(tmp);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, path, "out of memory");
	}
	fputs(text, f);
	free(text);
	if (ferror(f) | (fclose(f) != 0) || rename(tmp, path) != 0) {
		unlink(tmp);
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot write");
	}
	return TC_OK;
}

/* A whole dex copied as it was is news the build must not miss (its classes run
 * untraced): each one on stderr, with where and why, whatever --quiet says. */
static void print_dex_problems(const pl_run *r)
{
	const pl_summary *s = &r->sum;
	for (size_t i = 0; i < s->nproblems; i++) {
		const pl_problem *p = &s->problems[i];
		const pl_input *in = &r->inputs[p->input];
		if (strncmp(p->what, "malformed dex", 13) && strncmp(p->what, "dex left unchanged", 18))
			continue;
		if (in->dex)
			fprintf(stderr, "tc-instrument: %s: %s%s%s\n", in->in, p->what, p->detail ? ": " : "",
			        p->detail ? p->detail : "");
		else
			fprintf(stderr, "tc-instrument: %s%s%s: %s%s%s\n", in->in, in->jar ? "!" : "/", p->name, p->what,
			        p->detail ? ": " : "", p->detail ? p->detail : "");
	}
}

/* The marker's output, counted from 1 among the outputs (the order of --out). */
static size_t marker_index(const pl_run *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ninputs; i++) {
		if (r->inputs[i].classpath)
			continue;
		n++;
		if (&r->inputs[i] == r->marker_in)
			break;
	}
	return n;
}

/* The summary on stderr: the counts, methods instrumented before, the build id, the
 * APK's signature. */
static void print_summary(const pl_run *r, double total, const totals *t)
{
	const pl_summary *s = &r->sum;
	char hex[MM_BUILD_ID_HEX];
	mm_build_id_hex(r->build_id, hex);
	char dex[160] = "";
	if (s->dex_files)
		snprintf(dex, sizeof dex, " in %llu dex files (%llu rewritten, %llu left unchanged, %llu malformed)",
		         (unsigned long long)s->dex_files, (unsigned long long)s->dex_changed,
		         (unsigned long long)s->dex_left, (unsigned long long)s->dex_malformed);
	char kept[96] = "";
	if (s->by_verdict[V_KEEPMETHOD] && s->by_verdict[V_INLINE])
		snprintf(kept, sizeof kept, " (%llu by -keepmethod, %llu by -keepinlinable)",
		         (unsigned long long)s->by_verdict[V_KEEPMETHOD], (unsigned long long)s->by_verdict[V_INLINE]);
	else if (s->by_verdict[V_KEEPMETHOD])
		snprintf(kept, sizeof kept, " (%llu by -keepmethod)",
		         (unsigned long long)s->by_verdict[V_KEEPMETHOD]);
	else if (s->by_verdict[V_INLINE])
		snprintf(kept, sizeof kept, " (%llu by -keepinlinable)", (unsigned long long)s->by_verdict[V_INLINE]);
	fprintf(stderr,
	        "tc-instrument: %llu classes (%llu instrumented, %llu malformed)%s, %zu methods traced, "
	        "%zu ignored%s, %llu not instrumented; %.1f MB -> %.1f MB in %.2f s\n",
	        (unsigned long long)s->classes, (unsigned long long)s->instrumented,
	        (unsigned long long)s->malformed, dex, (size_t)s->traced, (size_t)s->ignored, kept,
	        (unsigned long long)s->methods_skipped, t->bytes_in / 1e6, t->bytes_out / 1e6, total);
	/* an Activity the run may have missed: the fix is an option */
	for (size_t i = 0; i < s->nproblems; i++)
		if (strstr(s->problems[i].what, PL_SUPERS_NOTE))
			fprintf(stderr, "tc-instrument: %s\n", s->problems[i].what);
	if (s->methods_already)
		fprintf(stderr, "tc-instrument: %llu methods in %llu classes were instrumented already (a probe "
		        "AppMethodBeat.i(id), or the focus method a run added): left as they are, with their "
		        "probes' ids\n",
		        (unsigned long long)s->methods_already, (unsigned long long)s->classes_already);
	/* (no paths: the line is the same for the same inputs wherever they are) */
	if (r->marker_in)
		fprintf(stderr, "tc-instrument: build id %s (the mapping directory's %s), recorded by the runtime "
		        "from the class %s in output %zu (in the order of --out)\n", hex, MM_BUILD_ID_FILE,
		        OUT_MARKER_CLASS, marker_index(r));
	else
		fprintf(stderr, "tc-instrument: build id %s (the mapping directory's %s); no output carries it (no "
		        "output is a class root or holds a dex file that takes the marker class %s): recordings "
		        "of this build have no build id\n", hex, MM_BUILD_ID_FILE, OUT_MARKER_CLASS);
	if (t->apk)
		fprintf(stderr, "tc-instrument: the APK's old signature was removed: sign it with apksigner "
		                "(apksigner sign --ks KEYSTORE OUT.apk) before installing it\n");
}

int out_write_stats(pl_run *r, double total, tc_error *err)
{
	totals t = sum_outputs(r);
	if (write_stats(r, total, &t, err) != TC_OK)
		return err->code;
	print_dex_problems(r);
	if (!r->opt->quiet)
		print_summary(r, total, &t);
	return TC_OK;
}

/* d_type and DT_* in <dirent.h> are not POSIX; glibc, musl and the BSDs have them. */
#define _DEFAULT_SOURCE

#include "containers/walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "containers/jar.h"
#include "file.h"

size_t walk_path_join(char *dst, size_t size, const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b), n = la + ls + lb;
	if (size == 0)
		return n;
	size_t k = 0;
	const char *parts[3] = {a, sep, b};
	size_t lens[3] = {la, ls, lb};
	for (int i = 0; i < 3 && k + 1 < size; i++) {
		size_t c = lens[i] < size - 1 - k ? lens[i] : size - 1 - k;
		memcpy(dst + k, parts[i], c);
		k += c;
	}
	dst[k] = '\0';
	return n;
}

typedef struct list {
	char **items;
	size_t n, cap;
} list;

static int push(list *l, const char *s)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		char **p = realloc(l->items, cap * sizeof *p);
		if (!p)
			return -1;
		l->items = p;
		l->cap = cap;
	}
	if (!(l->items[l->n] = strdup(s)))
		return -1;
	l->n++;
	return 0;
}

static int scan(const char *root, const char *rel, list *l, tc_error *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
	DIR *d = opendir(path);
	if (!d)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot open directory: %s",
		               strerror(errno));
	int rc = TC_OK;
	struct dirent *e;
	while ((e = readdir(d)) && rc == TC_OK) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char sub[4096];
		size_t w = walk_path_join(sub, sizeof sub, rel, *rel ? "/" : "", e->d_name);
		if (w >= sizeof sub) {
			rc = tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, path, "path too long under it");
			break;
		}
		/* d_type saves a stat per file; some file systems leave it unknown. */
		bool dir = e->d_type == DT_DIR, reg = e->d_type == DT_REG;
		if (e->d_type == DT_UNKNOWN || e->d_type == DT_LNK) {
			char full[8192];
			snprintf(full, sizeof full, "%s/%s", root, sub);
			struct stat st;
			if (stat(full, &st) != 0) {
				rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, full, "cannot stat: %s", strerror(errno));
				break;
			}
			dir = S_ISDIR(st.st_mode);
			reg = S_ISREG(st.st_mode);
		}
		if (dir)
			rc = scan(root, sub, l, err);
		else if (reg && push(l, sub) != 0)
			rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, path, "no memory");
	}
	closedir(d);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int walk_list_files(const char *dir, char ***out, size_t *n, tc_error *err)
{
	list l = {0};
	int rc = scan(dir, "", &l, err);
	if (rc != TC_OK) {
		walk_free_list(l.items, l.n);
		return rc;
	}
	qsort(l.items, l.n, sizeof *l.items, cmp_str);
	*out = l.items;
	*n = l.n;
	return TC_OK;
}

void walk_free_list(char **items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

/* Whether a file or entry is one the walk delivers. */
static bool wanted(const char *name, bool dex)
{
	return ends_with(name, ".class") || (dex && ends_with(name, ".dex"));
}

static int walk_jar(const char *path, bool dex, walk_fn fn, void *ctx, tc_error *err)
{
	tc_jar *jar;
	if (jar_open(&jar, path, err) != TC_OK)
		return err->code;
	tc_buf buf;
	buf_init(&buf);
	int rc = TC_OK;
	for (uint64_t i = 0; i < jar_count(jar) && rc == TC_OK; i++) {
		const char *name = jar_name(jar, i);
		if (!name || !wanted(name, dex) || jar_is_dir(jar, i))
			continue;
		if ((rc = jar_read(jar, i, &buf, TC_MAX_INPUT_BYTES, NULL, err)) != TC_OK)
			break;
		char label[4096];
		snprintf(label, sizeof label, "%s!%s", path, name);
		rc = fn(ctx, label, buf.data, buf.len);
	}
	buf_free(&buf);
	jar_close(jar);
	return rc;
}

static int walk(const char *path, bool dex, walk_fn fn, void *ctx, tc_error *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot stat: %s", strerror(errno));
	tc_buf buf;
	buf_init(&buf);
	int rc = TC_OK;
	if (S_ISDIR(st.st_mode)) {
		char **files;
		size_t n;
		if ((rc = walk_list_files(path, &files, &n, err)) != TC_OK)
			return rc;
		for (size_t i = 0; i < n && rc == TC_OK; i++) {
			if (!wanted(files[i], dex))
				continue;
			char full[8192];
			snprintf(full, sizeof full, "%s/%s", path, files[i]);
			if ((rc = tc_file_read(full, &buf, TC_MAX_INPUT_BYTES, TC_LIMIT_OPTION, err)) == TC_OK)
				rc = fn(ctx, full, buf.data, buf.len);
		}
		walk_free_list(files, n);
	} else if (wanted(path, dex)) {
		if ((rc = tc_file_read(path, &buf, TC_MAX_INPUT_BYTES, TC_LIMIT_OPTION, err)) == TC_OK)
			rc = fn(ctx, path, buf.data, buf.len);
	} else {
		rc = walk_jar(path, dex, fn, ctx, err);
	}
	buf_free(&buf);
	return rc;
}

int walk_classes(const char *path, walk_fn fn, void *ctx, tc_error *err)
{
	return walk(path, false, fn, ctx, err);
}

int walk_classes_and_dex(const char *path, walk_fn fn, void *ctx, tc_error *err)
{
	return walk(path, true, fn, ctx, err);
}

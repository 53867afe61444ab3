#define _XOPEN_SOURCE 700

#include "ctest.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *ct_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *p = malloc(4096);
	cr_assert(p);
	snprintf(p, 4096, "%s/tc-compiler-test.XXXXXX", base && *base ? base : "/tmp");
	cr_assert(mkdtemp(p), "mkdtemp %s: %s", p, strerror(errno));
	return p;
}

char *ct_path(const char *dir, const char *rel)
{
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *p = malloc(n);
	cr_assert(p);
	snprintf(p, n, "%s/%s", dir, rel);
	return p;
}

static void mkparents(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		cr_assert(mkdir(buf, 0777) == 0 || errno == EEXIST, "mkdir %s: %s", buf, strerror(errno));
		*s = '/';
	}
}

void ct_write(const char *path, const void *data, size_t len)
{
	mkparents(path);
	FILE *f = fopen(path, "wb");
	cr_assert(f, "cannot create %s: %s", path, strerror(errno));
	cr_assert(len == 0 || fwrite(data, 1, len, f) == len);
	cr_assert(fclose(f) == 0);
}

void ct_write_str(const char *path, const char *text)
{
	ct_write(path, text, strlen(text));
}

char *ct_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0, got;
	char *b = malloc(cap + 1);
	cr_assert(b);
	while ((got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			b = realloc(b, (cap *= 2) + 1);
			cr_assert(b);
		}
	}
	fclose(f);
	b[n] = '\0';
	if (len)
		*len = n;
	return b;
}

bool ct_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void ct_rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *ct_err(const tc_error *err)
{
	static char buf[2048];
	tc_error_format(err, buf, sizeof buf);
	return buf;
}

size_t ct_lines(const char *text)
{
	size_t n = 0;
	for (const char *p = text; *p; p++)
		if (*p == '\n' || p[1] == '\0')
			n++;
	return n;
}

/* The scratch directory of the fuzz targets that run the whole tool (fuzz_instrument.c,
 * fuzz_apk.c): one per process, under $TC_FUZZ_TMP (else /dev/shm, else /tmp), emptied
 * before each input and removed at exit. Header-only: each target is one program. */
#ifndef TC_FUZZ_DIR_H
#define TC_FUZZ_DIR_H

#include <dirent.h>
#include <ftw.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static char fz_root[256];

static int fz_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void fz_rm_rf(const char *path)
{
	nftw(path, fz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void fz_cleanup(void)
{
	fz_rm_rf(fz_root);
}

/* Makes the directory once ("tc-fuzz-TAG.XXXXXX"). */
static void fz_setup(const char *tag)
{
	if (fz_root[0])
		return;
	const char *base = getenv("TC_FUZZ_TMP");
	if (!base) {
		struct stat st;
		base = stat("/dev/shm", &st) == 0 ? "/dev/shm" : "/tmp";
	}
	snprintf(fz_root, sizeof fz_root, "%s/tc-fuzz-%s.XXXXXX", base, tag);
	CHECK(mkdtemp(fz_root));
	atexit(fz_cleanup);
}

/* Empties it for the next input. */
static void fz_reset(void)
{
	fz_rm_rf(fz_root);
	CHECK(mkdir(fz_root, 0700) == 0);
}

static void fz_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", fz_root, name);
}

static bool fz_exists(const char *name)
{
	char p[512];
	struct stat st;
	fz_path(p, sizeof p, name);
	return stat(p, &st) == 0;
}

static void fz_write(const char *name, const uint8_t *data, size_t size)
{
	char p[512];
	fz_path(p, sizeof p, name);
	FILE *f = fopen(p, "wb");
	CHECK(f);
	CHECK(size == 0 || fwrite(data, 1, size, f) == size);
	CHECK(fclose(f) == 0);
}

/* The file's bytes (malloc'd), or NULL when it cannot be opened. */
static uint8_t *fz_read(const char *name, size_t *len)
{
	char p[512];
	fz_path(p, sizeof p, name);
	FILE *f = fopen(p, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0, got;
	uint8_t *b = malloc(cap);
	CHECK(b);
	while ((got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			b = realloc(b, cap *= 2);
			CHECK(b);
		}
	}
	fclose(f);
	*len = n;
	return b;
}

/* No temporary file of the tool's is left at the top of the directory. */
static void fz_check_no_temp(void)
{
	char p[512];
	fz_path(p, sizeof p, "");
	DIR *d = opendir(p);
	CHECK(d);
	struct dirent *e;
	while ((e = readdir(d)))
		CHECK(!strstr(e->d_name, "tc-tmp"));
	closedir(d);
}

#endif

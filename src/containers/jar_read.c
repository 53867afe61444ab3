/* The jar module's reader (jar.h): an archive mapped (or read) whole, its central
 * directory indexed and checked against every local header, entries read in place
 * (stored, deflated) or through libzip (any other method). The writer is jar_write.c. */
/* MAP_POPULATE is not POSIX. */
#define _DEFAULT_SOURCE
#include "containers/jar.h"
#include "bytes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include "containers/jar_format.h"
#include "containers/map_guard.h"
#include "containers/zlib_io.h"

/* Archives up to this size are read in at once when mapped (see load). */
#define POPULATE_MAX ((uint64_t)64 << 20)
/* Deflate expands at most about 1032:1 (RFC 1951 maximum match of 258 bytes per
 * 2-bit code); an entry that claims more is corrupt, and would only make us allocate. */
#define MAX_RATIO 1100

static uint32_t at(uint64_t off)
{
	return off < TC_NO_OFFSET ? (uint32_t)off : TC_NO_OFFSET;
}

/* Finds field `id` in an extra block (4.5.1: id, length, data), or NULL. A block that
 * does not parse as such has no field. */
static const uint8_t *find_extra(const uint8_t *x, size_t len, uint16_t id, uint16_t *flen)
{
	size_t p = 0;
	while (len - p >= 4) {
		uint16_t fid = get_le2(x + p), n = get_le2(x + p + 2);
		if (n > len - p - 4)
			return NULL;
		if (fid == id) {
			*flen = n;
			return x + p + 4;
		}
		p += 4 + (size_t)n;
	}
	return NULL;
}

typedef struct dir {
	uint64_t offset, size, count;
	uint64_t end;       /* where the end records start: the directory must end before */
	bool zip64;
} dir;

/* The end record at p (4.3.16) and, when a Zip64 locator precedes it (4.3.15), the
 * Zip64 end record it points at (4.3.14), which then holds the real sizes. */
static int read_end(tc_jar *jar, size_t p, dir *d, tc_error *err)
{
	const uint8_t *b = jar->base, *e = b + p;
	if (get_le2(e + 4) != 0 || get_le2(e + 6) != 0 || get_le2(e + 8) != get_le2(e + 10))
		return tc_fail(err, TC_EUNSUPPORTED, at(p), jar->label, "a multi-disk archive");
	d->count = get_le2(e + 10);
	d->size = get_le4(e + 12);
	d->offset = get_le4(e + 16);
	d->end = p;
	d->zip64 = false;
	if (p >= LOCATOR64_LEN && get_le4(e - LOCATOR64_LEN) == SIG_LOCATOR64) {
		const uint8_t *l = e - LOCATOR64_LEN;
		uint64_t z = get_le8(l + 8);
		if (get_le4(l + 4) != 0 || get_le4(l + 16) > 1)
			return tc_fail(err, TC_EUNSUPPORTED, at(p - LOCATOR64_LEN), jar->label, "a multi-disk archive");
		if (z > p - LOCATOR64_LEN || p - LOCATOR64_LEN - z < END64_LEN || get_le4(b + z) != SIG_END64)
			return tc_fail(err, TC_EFORMAT, at(p - LOCATOR64_LEN), jar->label,
			               "the Zip64 locator points at no Zip64 end record (%llu)", (unsigned long long)z);
		const uint8_t *z64 = b + z;
		if (get_le4(z64 + 16) != 0 || get_le4(z64 + 20) != 0 || get_le8(z64 + 24) != get_le8(z64 + 32))
			return tc_fail(err, TC_EUNSUPPORTED, at(z), jar->label, "a multi-disk archive");
		d->count = get_le8(z64 + 32);
		d->size = get_le8(z64 + 40);
		d->offset = get_le8(z64 + 48);
		d->end = z;
		d->zip64 = true;
	}
	if (d->offset > d->end || d->size > d->end - d->offset)
		return tc_fail(err, TC_EFORMAT, at(p), jar->label,
		               "the central directory (%llu bytes at %llu) lies outside the archive of %zu bytes",
		               (unsigned long long)d->size, (unsigned long long)d->offset, jar->len);
	return TC_OK;
}

/* The end record is the last thing in the archive but its comment, found by searching
 * backwards. A record counts when the central directory it gives starts with a central
 * header (or is empty); like the JDK's ZipFile, one whose comment does not reach
 * exactly the end of the file (bytes appended to the archive) counts only when that
 * directory also ends right at it. Otherwise the search goes on: the bytes found were
 * part of a comment or of appended data. */
static int find_dir(tc_jar *jar, dir *d, tc_error *err)
{
	const uint8_t *b = jar->base;
	size_t len = jar->len;
	if (len < END_LEN)
		return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, jar->label,
		               "not a jar: %zu bytes, no zip end record", len);
	size_t lo = len - END_LEN > MAX16 ? len - END_LEN - MAX16 : 0;
	tc_error first; /* why the record that reaches the end of the file was refused */
	tc_error_clear(&first);
	for (size_t p = len - END_LEN + 1; p-- > lo;) {
		if (b[p] != 'P' || get_le4(b + p) != SIG_END || p + END_LEN + get_le2(b + p + 20) > len)
			continue;
		bool exact = p + END_LEN + get_le2(b + p + 20) == len;
		tc_error probe;
		tc_error_clear(&probe);
		if (read_end(jar, p, d, &probe) != TC_OK) {
			if (exact && !first.code)
				first = probe;
			continue;
		}
		bool empty = d->count == 0 && d->size == 0;
		if (!(exact && empty) && (d->size < CENTRAL_LEN || get_le4(b + d->offset) != SIG_CENTRAL ||
		                          (!exact && d->offset + d->size != d->end)))
			continue;
		jar->comment = b + p + END_LEN;
		jar->comment_len = get_le2(b + p + 20);
		return TC_OK;
	}
	if (first.code) {
		*err = first;
		return first.code;
	}
	return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, jar->label, "not a jar: no zip end record");
}

/* 4.5.3: the Zip64 extra field holds, in this order, each of the sizes and offset whose
 * header field is all ones. */
static int zip64_fields(tc_jar *jar, entry *e, uint64_t pos, uint16_t disk, tc_error *err)
{
	bool need_u = e->usize == MAX32, need_c = e->csize == MAX32, need_l = e->local == MAX32;
	if (!need_u && !need_c && !need_l && disk != MAX16)
		return TC_OK;
	uint16_t n = 0;
	const uint8_t *x = find_extra(e->cextra, e->cextra_len, EXTRA_ZIP64, &n);
	size_t want = 8u * (need_u + need_c + need_l);
	if (!x || n < want)
		return tc_fail(err, TC_EFORMAT, at(pos), jar->label,
		               "entry %s: its Zip64 extra field is missing or short", e->name);
	if (need_u)
		e->usize = get_le8(x), x += 8;
	if (need_c)
		e->csize = get_le8(x), x += 8;
	if (need_l)
		e->local = get_le8(x), x += 8;
	if (disk == MAX16 && (n < want + 4 || get_le4(x) != 0))
		return tc_fail(err, TC_EUNSUPPORTED, at(pos), jar->label, "a multi-disk archive");
	return TC_OK;
}

/* 4.3.7: the local header must agree with the central directory (the name, the
 * method and, without a data descriptor, the CRC and sizes), and the bytes must lie
 * before the central directory. */
static int check_local(tc_jar *jar, entry *e, const dir *d, tc_error *err)
{
	const uint8_t *b = jar->base;
	char label[1600];
	if (e->local > d->offset || d->offset - e->local < LOCAL_LEN || get_le4(b + e->local) != SIG_LOCAL) {
		entry_label(jar, (uint64_t)(e - jar->e), label, sizeof label);
		return tc_fail(err, TC_EFORMAT, at(e->local), label, "no local header where the central directory says");
	}
	const uint8_t *l = b + e->local;
	uint16_t nlen = get_le2(l + 26), xlen = get_le2(l + 28);
	uint64_t data = e->local + LOCAL_LEN + nlen + xlen;
	const char *why = NULL;
	if (data > d->offset)
		why = "the local header runs into the central directory";
	else if (nlen != e->name_len || memcmp(l + LOCAL_LEN, e->name, nlen) != 0)
		why = "the local header names another entry (inconsistent archive)";
	else if (get_le2(l + 8) != e->method)
		why = "the local header gives another compression method (inconsistent archive)";
	else if (!(e->flags & FLAG_DESCRIPTOR) &&
	         (get_le4(l + 14) != e->crc || (get_le4(l + 18) != MAX32 && get_le4(l + 18) != e->csize) ||
	          (get_le4(l + 22) != MAX32 && get_le4(l + 22) != e->usize)))
		why = "the local header gives another CRC or size (inconsistent archive)";
	else if (e->csize > d->offset - data)
		why = "the entry's bytes run past the start of the central directory (cut off?)";
	if (why) {
		entry_label(jar, (uint64_t)(e - jar->e), label, sizeof label);
		return tc_fail(err, TC_EFORMAT, at(e->local), label, "%s", why);
	}
	e->lextra = l + LOCAL_LEN + nlen;
	e->lextra_len = xlen;
	e->data = data;
	return TC_OK;
}

static int index_dir(tc_jar *jar, tc_error *err)
{
	dir d = {0};
	if (find_dir(jar, &d, err) != TC_OK)
		return err->code;
	const uint8_t *b = jar->base;
	/* Every record takes at least CENTRAL_LEN bytes, which bounds what a damaged count
	 * could make us allocate. */
	uint64_t cap = d.size / CENTRAL_LEN;
	if (!(jar->e = calloc(cap ? cap : 1, sizeof *jar->e)) || !(jar->names = malloc(d.size + 1)))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, jar->label, "no memory for the central directory");
	char *names = jar->names;
	uint64_t pos = d.offset, end = d.offset + d.size, n = 0;
	while (pos < end) {
		const uint8_t *c = b + pos;
		if (end - pos < CENTRAL_LEN || get_le4(c) != SIG_CENTRAL)
			return tc_fail(err, TC_EFORMAT, at(pos), jar->label, "central directory record %llu is damaged",
			               (unsigned long long)n);
		entry *e = &jar->e[n];
		e->made_by = get_le2(c + 4);
		e->needed = get_le2(c + 6);
		e->flags = get_le2(c + 8);
		e->method = get_le2(c + 10);
		e->time = get_le2(c + 12);
		e->date = get_le2(c + 14);
		e->crc = get_le4(c + 16);
		e->csize = get_le4(c + 20);
		e->usize = get_le4(c + 24);
		e->name_len = get_le2(c + 28);
		e->cextra_len = get_le2(c + 30);
		e->comment_len = get_le2(c + 32);
		uint16_t disk = get_le2(c + 34);
		e->iattr = get_le2(c + 36);
		e->eattr = get_le4(c + 38);
		e->local = get_le4(c + 42);
		uint64_t rec = (uint64_t)CENTRAL_LEN + e->name_len + e->cextra_len + e->comment_len;
		if (rec > end - pos)
			return tc_fail(err, TC_EFORMAT, at(pos), jar->label,
			               "central directory record %llu runs past the directory", (unsigned long long)n);
		const uint8_t *name = c + CENTRAL_LEN;
		if (memchr(name, 0, e->name_len))
			return tc_fail(err, TC_EFORMAT, at(pos), jar->label, "entry %llu: its name holds a NUL byte",
			               (unsigned long long)n);
		memcpy(names, name, e->name_len);
		names[e->name_len] = '\0';
		e->name = names;
		names += e->name_len + 1;
		e->cextra = name + e->name_len;
		e->comment = e->cextra + e->cextra_len;
		if (zip64_fields(jar, e, pos, disk, err) != TC_OK)
			return err->code;
		if (disk != 0 && disk != MAX16)
			return tc_fail(err, TC_EUNSUPPORTED, at(pos), jar->label, "a multi-disk archive");
		if (check_local(jar, e, &d, err) != TC_OK)
			return err->code;
		pos += rec;
		n++;
	}
	/* Writers without Zip64 give the count modulo 65536 (the JDK reads such jars). */
	if (n != d.count && (d.zip64 || (n & MAX16) != d.count))
		return tc_fail(err, TC_EFORMAT, at(d.end), jar->label,
		               "the end record counts %llu entries, the central directory holds %llu",
		               (unsigned long long)d.count, (unsigned long long)n);
	jar->n = n;
	return TC_OK;
}

static tc_jar *new_jar(const char *label)
{
	tc_jar *jar = calloc(1, sizeof *jar);
	if (jar) {
		snprintf(jar->label, sizeof jar->label, "%s", label);
		jar->guard = -1;
	}
	return jar;
}

/* The file mapped read-only (one system call, no copy); read into memory when it
 * cannot be mapped. Only a regular file: a FIFO would block, a device never end. */
static int load(tc_jar *jar, const char *path, tc_error *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot open: %s", strerror(errno));
	struct stat st;
	int rc = TC_OK;
	if (fstat(fd, &st) != 0) {
		rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot stat: %s", strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "is a directory, not a jar");
	} else if (!S_ISREG(st.st_mode)) {
		rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "not a regular file, not a jar");
	} else if (st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX) {
		int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
		/* one fault-in up front, for an archive read whole anyway; a large one (an APK
		 * with big assets, or no archive at all) is paged in as it is read instead, and
		 * given back as it is copied */
		if ((uint64_t)st.st_size <= POPULATE_MAX)
			flags |= MAP_POPULATE;
#endif
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, flags, fd, 0);
		if (m != MAP_FAILED) {
			jar->map = m;
			jar->base = m;
			jar->len = (size_t)st.st_size;
			/* cut short while mapped (a build still writing it): zeros, and jar_damaged */
			jar->guard = map_guard_add(m, jar->len);
		}
	}
	if (rc == TC_OK && !jar->map) {
		tc_buf buf;
		buf_init(&buf);
		uint8_t chunk[65536];
		ssize_t got;
		while ((got = read(fd, chunk, sizeof chunk)) > 0 || (got < 0 && errno == EINTR))
			if (got > 0)
				buf_bytes(&buf, chunk, (size_t)got);
		if (got < 0)
			rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot read: %s", strerror(errno));
		else if (buf.err)
			rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, path, "no memory");
		size_t len = 0;
		jar->owned = buf_take(&buf, &len);
		jar->base = jar->owned;
		jar->len = len;
		buf_free(&buf);
	}
	close(fd);
	return rc;
}

int jar_open(tc_jar **out, const char *path, tc_error *err)
{
	*out = NULL;
	tc_jar *jar = new_jar(path);
	if (!jar)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, path, "no memory");
	int rc = load(jar, path, err);
	if (rc == TC_OK)
		rc = index_dir(jar, err);
	if (rc != TC_OK) {
		jar_close(jar);
		return rc;
	}
	*out = jar;
	return TC_OK;
}

int jar_open_buffer(tc_jar **out, const void *data, size_t len, const char *label, tc_error *err)
{
	*out = NULL;
	tc_jar *jar = new_jar(label);
	if (!jar)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
	jar->base = data;
	jar->len = len;
	int rc = index_dir(jar, err);
	if (rc != TC_OK) {
		jar_close(jar);
		return rc;
	}
	*out = jar;
	return TC_OK;
}

bool jar_damaged(const tc_jar *jar)
{
	return jar && map_guard_damaged(jar->guard);
}

void jar_release(tc_jar *jar)
{
	if (jar && jar->map)
		madvise(jar->map, jar->len, MADV_DONTNEED);
}

void jar_close(tc_jar *jar)
{
	if (!jar)
		return;
	if (jar->za)
		zip_discard(jar->za);
	if (jar->map) {
		map_guard_remove(jar->guard);
		munmap(jar->map, jar->len);
	}
	free(jar->owned);
	free(jar->e);
	free(jar->names);
	free(jar);
}

uint64_t jar_count(const tc_jar *jar)
{
	return jar->n;
}

static int by_name(const void *a, const void *b)
{
	const entry *x = *(const entry *const *)a, *y = *(const entry *const *)b;
	size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c = memcmp(x->name, y->name, n);
	if (c)
		return c;
	if (x->name_len != y->name_len)
		return x->name_len < y->name_len ? -1 : 1;
	return x < y ? -1 : x > y; /* the earlier record first */
}

int jar_check_unique(const tc_jar *jar, tc_error *err)
{
	if (jar->n < 2)
		return TC_OK;
	const entry **v = malloc(jar->n * sizeof *v);
	if (!v)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, jar->label, "no memory");
	for (uint64_t i = 0; i < jar->n; i++)
		v[i] = &jar->e[i];
	qsort(v, jar->n, sizeof *v, by_name);
	int rc = TC_OK;
	for (uint64_t i = 1; i < jar->n && rc == TC_OK; i++) {
		if (v[i]->name_len != v[i - 1]->name_len || memcmp(v[i]->name, v[i - 1]->name, v[i]->name_len))
			continue;
		char label[1600];
		entry_label(jar, (uint64_t)(v[i] - jar->e), label, sizeof label);
		rc = tc_fail(err, TC_EFORMAT, at(v[i]->local), label,
		             "the archive holds this name twice (local headers at %llu and %llu)",
		             (unsigned long long)v[i - 1]->local, (unsigned long long)v[i]->local);
	}
	free(v);
	return rc;
}

const char *jar_name(const tc_jar *jar, uint64_t i)
{
	return i < jar->n ? jar->e[i].name : NULL;
}

bool jar_is_dir(const tc_jar *jar, uint64_t i)
{
	const entry *e = &jar->e[i];
	return e->name_len > 0 && e->name[e->name_len - 1] == '/';
}

void jar_stat(const tc_jar *jar, uint64_t i, jar_info *out)
{
	const entry *e = &jar->e[i];
	out->size = e->usize;
	out->comp_size = e->csize;
	out->crc = e->crc;
	out->method = e->method;
	out->encrypted = (e->flags & FLAG_ENCRYPTED) != 0;
}

const uint8_t *jar_raw(const tc_jar *jar, uint64_t i)
{
	return jar->base + jar->e[i].data;
}

static int zfail(tc_error *err, int code, const char *label, const char *what, zip_error_t *ze)
{
	return tc_fail(err, code, TC_NO_OFFSET, label, "%s: %s", what, zip_error_strerror(ze));
}

/* Other compression methods (bzip2, LZMA, ...): libzip, on the same bytes. */
static int read_other(tc_jar *jar, uint64_t i, tc_buf *buf, const char *label, tc_error *err)
{
	if (!jar->za) {
		zip_error_t ze;
		zip_error_init(&ze);
		zip_source_t *src = zip_source_buffer_create(jar->base, jar->len, 0, &ze);
		if (src && !(jar->za = zip_open_from_source(src, ZIP_RDONLY, &ze)))
			zip_source_free(src);
		int rc = jar->za ? TC_OK : zfail(err, TC_EFORMAT, label, "libzip cannot read the jar", &ze);
		zip_error_fini(&ze);
		if (rc != TC_OK)
			return rc;
	}
	const char *name = zip_get_name(jar->za, i, ZIP_FL_ENC_RAW);
	if (!name || strcmp(name, jar->e[i].name) != 0)
		return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label, "libzip reads this jar differently");
	zip_file_t *f = zip_fopen_index(jar->za, i, 0);
	if (!f)
		return zfail(err, TC_EUNSUPPORTED, label, "cannot open entry", zip_get_error(jar->za));
	uint64_t size = jar->e[i].usize;
	/* One byte past the declared size shows an entry longer than its header says;
	 * libzip checks the CRC at the end. */
	zip_int64_t got = zip_fread(f, buf->data, size + 1);
	int rc = TC_OK;
	if (got < 0)
		rc = zfail(err, TC_EFORMAT, label, "corrupt entry", zip_file_get_error(f));
	else if ((uint64_t)got != size)
		rc = tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, label, "entry holds %lld bytes, header says %llu",
		             (long long)got, (unsigned long long)size);
	zip_fclose(f);
	buf->len = rc == TC_OK ? (size_t)size : 0;
	return rc;
}

int jar_read(tc_jar *jar, uint64_t i, tc_buf *buf, uint64_t max_size, zio_inflater *z,
             tc_error *err)
{
	const entry *e = &jar->e[i];
	char label[1600];
	entry_label(jar, i, label, sizeof label);
	buf_clear(buf);
	if (e->flags & FLAG_ENCRYPTED)
		return tc_fail(err, TC_EUNSUPPORTED, at(e->local), label, "encrypted entry");
	if (e->usize > max_size)
		return tc_fail(err, TC_ELIMIT, at(e->local), label,
		               "%llu bytes once inflated, more than the input limit of %llu MB (--max-input-mb)",
		               (unsigned long long)e->usize, (unsigned long long)(max_size >> 20));
	const uint8_t *raw = jar->base + e->data;
	if (e->method == 8) {
		if (e->usize / MAX_RATIO > e->csize + 1)
			return tc_fail(err, TC_EFORMAT, at(e->local), label,
			               "%llu bytes cannot inflate to the %llu the header says",
			               (unsigned long long)e->csize, (unsigned long long)e->usize);
		return zio_inflate(z, raw, (size_t)e->csize, (size_t)e->usize, e->crc, buf, label, err);
	}
	if (!buf_reserve(buf, (size_t)e->usize + 1))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory for %llu bytes",
		               (unsigned long long)e->usize);
	if (e->method != 0)
		return read_other(jar, i, buf, label, err);
	if (e->csize != e->usize)
		return tc_fail(err, TC_EFORMAT, at(e->local), label, "stored entry of %llu bytes, header says %llu",
		               (unsigned long long)e->csize, (unsigned long long)e->usize);
	if (zio_crc32(raw, (size_t)e->usize) != e->crc)
		return tc_fail(err, TC_EFORMAT, at(e->data), label, "CRC-32 mismatch: corrupt entry");
	buf_bytes(buf, raw, (size_t)e->usize);
	return TC_OK;
}

#include "jar.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

struct tc_jar {
	zip_t *za;
	char label[1024];
};

struct tc_jar_writer {
	zip_t *za;
	char *path;
};

static int zfail(cf_error *err, int code, const char *label, const char *what, zip_error_t *ze)
{
	return cf_fail(err, code, CF_NO_OFFSET, label, "%s: %s", what, zip_error_strerror(ze));
}

static int open_source(tc_jar **out, zip_source_t *src, const char *label, cf_error *err)
{
	*out = NULL;
	tc_jar *jar = calloc(1, sizeof *jar);
	if (!jar) {
		zip_source_free(src);
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "no memory");
	}
	snprintf(jar->label, sizeof jar->label, "%s", label);
	zip_error_t ze;
	zip_error_init(&ze);
	/* ZIP_CHECKCONS: reject archives whose local and central headers disagree. */
	jar->za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
	if (!jar->za) {
		int rc = zfail(err, zip_error_code_zip(&ze) == ZIP_ER_MEMORY ? CF_ENOMEM : CF_EFORMAT, label,
		               "not a readable jar", &ze);
		zip_error_fini(&ze);
		zip_source_free(src);
		free(jar);
		return rc;
	}
	zip_error_fini(&ze);
	*out = jar;
	return CF_OK;
}

int jar_open(tc_jar **out, const char *path, cf_error *err)
{
	zip_error_t ze;
	zip_error_init(&ze);
	zip_source_t *src = zip_source_file_create(path, 0, -1, &ze);
	if (!src) {
		int rc = zfail(err, CF_EIO, path, "cannot open", &ze);
		zip_error_fini(&ze);
		return rc;
	}
	zip_error_fini(&ze);
	return open_source(out, src, path, err);
}

int jar_open_buffer(tc_jar **out, const void *data, size_t len, const char *label, cf_error *err)
{
	zip_error_t ze;
	zip_error_init(&ze);
	zip_source_t *src = zip_source_buffer_create(data, len, 0, &ze);
	if (!src) {
		int rc = zfail(err, CF_ENOMEM, label, "cannot read buffer", &ze);
		zip_error_fini(&ze);
		return rc;
	}
	zip_error_fini(&ze);
	return open_source(out, src, label, err);
}

void jar_close(tc_jar *jar)
{
	if (!jar)
		return;
	if (jar->za)
		zip_discard(jar->za);
	free(jar);
}

uint64_t jar_count(const tc_jar *jar)
{
	zip_int64_t n = zip_get_num_entries(jar->za, 0);
	return n < 0 ? 0 : (uint64_t)n;
}

const char *jar_name(tc_jar *jar, uint64_t i)
{
	return zip_get_name(jar->za, i, ZIP_FL_ENC_RAW);
}

bool jar_is_dir(tc_jar *jar, uint64_t i)
{
	const char *n = jar_name(jar, i);
	size_t len = n ? strlen(n) : 0;
	return len > 0 && n[len - 1] == '/';
}

int jar_read(tc_jar *jar, uint64_t i, cf_buf *buf, uint64_t max_size, cf_error *err)
{
	const char *name = jar_name(jar, i);
	char label[1600];
	snprintf(label, sizeof label, "%s!%s", jar->label, name ? name : "?");
	zip_stat_t st;
	if (zip_stat_index(jar->za, i, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
		return zfail(err, CF_EFORMAT, label, "cannot stat entry", zip_get_error(jar->za));
	if (st.size > max_size)
		return cf_fail(err, CF_ELIMIT, CF_NO_OFFSET, label, "entry of %llu bytes exceeds %llu",
		               (unsigned long long)st.size, (unsigned long long)max_size);
	buf_clear(buf);
	if (!buf_reserve(buf, (size_t)st.size + 1))
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "no memory for %llu bytes",
		               (unsigned long long)st.size);
	zip_file_t *f = zip_fopen_index(jar->za, i, 0);
	if (!f)
		return zfail(err, CF_EFORMAT, label, "cannot open entry", zip_get_error(jar->za));
	/* Read one byte past the declared size: an entry that inflates to more than its
	 * header says is corrupt. libzip also checks the CRC at the end. */
	zip_int64_t got = zip_fread(f, buf->data, st.size + 1);
	int rc = CF_OK;
	if (got < 0)
		rc = zfail(err, CF_EFORMAT, label, "corrupt entry", zip_file_get_error(f));
	else if ((zip_uint64_t)got != st.size)
		rc = cf_fail(err, CF_EFORMAT, CF_NO_OFFSET, label, "entry holds %lld bytes, header says %llu",
		             (long long)got, (unsigned long long)st.size);
	zip_fclose(f);
	buf->len = rc == CF_OK ? (size_t)st.size : 0;
	return rc;
}

int jar_stat(tc_jar *jar, uint64_t i, jar_info *out, cf_error *err)
{
	zip_stat_t st;
	if (zip_stat_index(jar->za, i, 0, &st) != 0) {
		const char *name = jar_name(jar, i);
		char label[1600];
		snprintf(label, sizeof label, "%s!%s", jar->label, name ? name : "?");
		return zfail(err, CF_EFORMAT, label, "cannot stat entry", zip_get_error(jar->za));
	}
	out->size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
	out->comp_size = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
	out->crc = (st.valid & ZIP_STAT_CRC) ? st.crc : 0;
	out->method = (st.valid & ZIP_STAT_COMP_METHOD) ? st.comp_method : 0xFFFF;
	out->encrypted = (st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE;
	return CF_OK;
}

int jar_read_raw(tc_jar *jar, uint64_t i, cf_buf *buf, cf_error *err)
{
	const char *name = jar_name(jar, i);
	char label[1600];
	snprintf(label, sizeof label, "%s!%s", jar->label, name ? name : "?");
	jar_info info;
	if (jar_stat(jar, i, &info, err) != CF_OK)
		return err->code;
	buf_clear(buf);
	if (info.comp_size > SIZE_MAX - 1 || !buf_reserve(buf, (size_t)info.comp_size + 1))
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, label, "no memory for %llu bytes",
		               (unsigned long long)info.comp_size);
	zip_file_t *f = zip_fopen_index(jar->za, i, ZIP_FL_COMPRESSED);
	if (!f)
		return zfail(err, CF_EFORMAT, label, "cannot open entry", zip_get_error(jar->za));
	zip_int64_t got = zip_fread(f, buf->data, info.comp_size);
	int rc = CF_OK;
	if (got < 0 || (zip_uint64_t)got != info.comp_size)
		rc = cf_fail(err, CF_EFORMAT, CF_NO_OFFSET, label, "entry is cut off (%lld of %llu bytes)",
		             (long long)got, (unsigned long long)info.comp_size);
	zip_fclose(f);
	buf->len = rc == CF_OK ? (size_t)info.comp_size : 0;
	return rc;
}

/* --- writing ------------------------------------------------------------------------- */

int jar_writer_open(tc_jar_writer **out, const char *path, cf_error *err)
{
	*out = NULL;
	tc_jar_writer *w = calloc(1, sizeof *w);
	if (!w || !(w->path = strdup(path))) {
		free(w);
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, path, "no memory");
	}
	int ze = 0;
	/* libzip writes to a temporary file beside path and renames it in zip_close. */
	w->za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &ze);
	if (!w->za) {
		zip_error_t e;
		zip_error_init_with_code(&e, ze);
		int rc = zfail(err, CF_EIO, path, "cannot create", &e);
		zip_error_fini(&e);
		free(w->path);
		free(w);
		return rc;
	}
	*out = w;
	return CF_OK;
}

/* Name, time, comment, attributes and extra fields of src entry i onto dst entry j. */
static int copy_meta(tc_jar_writer *w, zip_uint64_t j, tc_jar *src, uint64_t i, const char *label,
                     cf_error *err)
{
	zip_stat_t st;
	if (zip_stat_index(src->za, i, 0, &st) != 0)
		return zfail(err, CF_EFORMAT, label, "cannot stat entry", zip_get_error(src->za));
	if ((st.valid & ZIP_STAT_MTIME) && zip_file_set_mtime(w->za, j, st.mtime, 0) != 0)
		return zfail(err, CF_EIO, label, "cannot set time", zip_get_error(w->za));
	zip_uint32_t clen = 0;
	const char *comment = zip_file_get_comment(src->za, i, &clen, ZIP_FL_ENC_RAW);
	if (comment && clen &&
	    zip_file_set_comment(w->za, j, comment, (zip_uint16_t)clen, 0) != 0)
		return zfail(err, CF_EIO, label, "cannot set comment", zip_get_error(w->za));
	zip_uint8_t os;
	zip_uint32_t attr;
	if (zip_file_get_external_attributes(src->za, i, 0, &os, &attr) == 0 &&
	    zip_file_set_external_attributes(w->za, j, 0, os, attr) != 0)
		return zfail(err, CF_EIO, label, "cannot set attributes", zip_get_error(w->za));
	static const zip_flags_t where[] = {ZIP_FL_CENTRAL, ZIP_FL_LOCAL};
	for (int k = 0; k < 2; k++) {
		zip_int16_t n = zip_file_extra_fields_count(src->za, i, where[k]);
		for (zip_int16_t e = 0; e < n; e++) {
			zip_uint16_t id, len;
			const zip_uint8_t *data =
				zip_file_extra_field_get(src->za, i, (zip_uint16_t)e, &id, &len, where[k]);
			/* libzip owns the Zip64 field (0x0001) and writes it where needed. */
			if (!data || id == 0x0001)
				continue;
			if (zip_file_extra_field_set(w->za, j, id, ZIP_EXTRA_FIELD_NEW, data, len, where[k]) != 0)
				return zfail(err, CF_EIO, label, "cannot copy an extra field", zip_get_error(w->za));
		}
	}
	return CF_OK;
}

static int add(tc_jar_writer *w, tc_jar *src, uint64_t i, zip_source_t *zs, bool deflate,
               cf_error *err)
{
	const char *name = jar_name(src, i);
	char label[1024];
	snprintf(label, sizeof label, "%s!%s", w->path, name ? name : "?");
	if (!zs)
		return zfail(err, CF_ENOMEM, label, "cannot make a source", zip_get_error(w->za));
	if (!name) {
		zip_source_free(zs);
		return cf_fail(err, CF_EFORMAT, CF_NO_OFFSET, label, "entry %llu has no name",
		               (unsigned long long)i);
	}
	zip_int64_t j = zip_file_add(w->za, name, zs, ZIP_FL_ENC_GUESS);
	if (j < 0) {
		zip_source_free(zs);
		return zfail(err, CF_EIO, label, "cannot add entry", zip_get_error(w->za));
	}
	/* A stored entry stays stored, copied or rewritten: libzip would deflate a raw copy
	 * of it by default. */
	zip_stat_t st;
	bool stored = zip_stat_index(src->za, i, 0, &st) == 0 && (st.valid & ZIP_STAT_COMP_METHOD) &&
	              st.comp_method == ZIP_CM_STORE;
	if (stored || deflate) {
		zip_int32_t method = stored ? ZIP_CM_STORE : ZIP_CM_DEFLATE;
		if (zip_set_file_compression(w->za, (zip_uint64_t)j, method, 0) != 0)
			return zfail(err, CF_EIO, label, "cannot set compression", zip_get_error(w->za));
	}
	return copy_meta(w, (zip_uint64_t)j, src, i, label, err);
}

int jar_writer_copy(tc_jar_writer *w, tc_jar *src, uint64_t i, cf_error *err)
{
	/* start 0, length -1: libzip copies the compressed bytes as they are. */
	zip_source_t *zs = zip_source_zip(w->za, src->za, i, 0, 0, -1);
	return add(w, src, i, zs, false, err);
}

int jar_writer_replace(tc_jar_writer *w, tc_jar *src, uint64_t i, uint8_t *data, size_t len,
                       cf_error *err)
{
	zip_source_t *zs = zip_source_buffer(w->za, data, len, 1);
	if (!zs)
		free(data);
	return add(w, src, i, zs, true, err);
}

/* A zip source of data deflated already. Its stat reports the compression method, so
 * zip_close copies the bytes instead of compressing them again (zip_close.c, add_data). */
typedef struct deflated_src {
	uint8_t *data;
	size_t len, pos;
	uint64_t size;
	uint32_t crc;
	zip_error_t error;
} deflated_src;

static zip_int64_t deflated_cb(void *ud, void *data, zip_uint64_t len, zip_source_cmd_t cmd)
{
	deflated_src *s = ud;
	switch (cmd) {
	case ZIP_SOURCE_OPEN:
		s->pos = 0;
		return 0;
	case ZIP_SOURCE_READ: {
		size_t n = s->len - s->pos < len ? s->len - s->pos : (size_t)len;
		memcpy(data, s->data + s->pos, n);
		s->pos += n;
		return (zip_int64_t)n;
	}
	case ZIP_SOURCE_CLOSE:
		return 0;
	case ZIP_SOURCE_STAT: {
		zip_stat_t *st = data;
		zip_stat_init(st);
		st->valid = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC;
		st->size = s->size;
		st->comp_size = s->len;
		st->comp_method = ZIP_CM_DEFLATE;
		st->crc = s->crc;
		return sizeof *st;
	}
	case ZIP_SOURCE_ERROR:
		return zip_error_to_data(&s->error, data, len);
	case ZIP_SOURCE_FREE:
		zip_error_fini(&s->error);
		free(s->data);
		free(s);
		return 0;
	case ZIP_SOURCE_SUPPORTS:
		return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE,
		                                      ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, -1);
	default:
		zip_error_set(&s->error, ZIP_ER_OPNOTSUPP, 0);
		return -1;
	}
}

int jar_writer_replace_deflated(tc_jar_writer *w, tc_jar *src, uint64_t i, uint8_t *deflated,
                                size_t comp_len, uint64_t size, uint32_t crc, cf_error *err)
{
	deflated_src *s = calloc(1, sizeof *s);
	if (!s) {
		free(deflated);
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, w->path, "no memory");
	}
	s->data = deflated;
	s->len = comp_len;
	s->size = size;
	s->crc = crc;
	zip_error_init(&s->error);
	zip_source_t *zs = zip_source_function(w->za, deflated_cb, s);
	if (!zs) {
		zip_error_fini(&s->error);
		free(deflated);
		free(s);
	}
	return add(w, src, i, zs, false, err);
}

int jar_writer_copy_comment(tc_jar_writer *w, tc_jar *src, cf_error *err)
{
	int len = 0;
	const char *c = zip_get_archive_comment(src->za, &len, ZIP_FL_ENC_RAW);
	if (c && len > 0 && zip_set_archive_comment(w->za, c, (zip_uint16_t)len) != 0)
		return zfail(err, CF_EIO, w->path, "cannot set the archive comment", zip_get_error(w->za));
	return CF_OK;
}

/* libzip writes no file at all for an archive without entries (and removes an old
 * one), but a build expects its output jar: an empty archive is its end record alone. */
static int write_empty_zip(const char *path, cf_error *err)
{
	static const uint8_t eocd[22] = {'P', 'K', 5, 6};
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	if (!tmp)
		return cf_fail(err, CF_ENOMEM, CF_NO_OFFSET, path, "no memory");
	snprintf(tmp, n, "%s.tctmp", path);
	FILE *f = fopen(tmp, "wb");
	int rc = CF_OK;
	if (!f) {
		rc = cf_fail(err, CF_EIO, CF_NO_OFFSET, path, "cannot create %s: %s", tmp, strerror(errno));
	} else {
		bool ok = fwrite(eocd, 1, sizeof eocd, f) == sizeof eocd;
		ok = (fclose(f) == 0) && ok;
		if (!ok || rename(tmp, path) != 0) {
			int e = errno;
			remove(tmp);
			rc = cf_fail(err, CF_EIO, CF_NO_OFFSET, path, "cannot write: %s", strerror(e));
		}
	}
	free(tmp);
	return rc;
}

int jar_writer_finish(tc_jar_writer *w, cf_error *err)
{
	int rc = CF_OK;
	if (zip_get_num_entries(w->za, 0) == 0) {
		zip_discard(w->za);
		rc = write_empty_zip(w->path, err);
	} else if (zip_close(w->za) != 0) {
		rc = zfail(err, CF_EIO, w->path, "cannot write", zip_get_error(w->za));
		zip_discard(w->za);
	}
	free(w->path);
	free(w);
	return rc;
}

void jar_writer_abort(tc_jar_writer *w)
{
	if (!w)
		return;
	zip_discard(w->za);
	free(w->path);
	free(w);
}

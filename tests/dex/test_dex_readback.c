/* The read-back of every dex tc-instrument writes (containers/dexin.c, dexin_write): the
 * writer's output parsed again by the reader, which checks what ART's file verifier
 * checks. The writer passes it on every input we have, so the path taken when it does
 * not is planted here: this executable is linked with -Wl,--wrap=dex_parse, and the
 * wrapper fails the parse of a buffer of at least plant_min bytes that is not an input
 * (plant_skip: the input's length). A dex that fails its check is left as it was and
 * reported, a dex file's and an APK's alike (in an APK, a large dex is checked while the
 * other workers deflate its parts, for nothing then: the entry is the input's); the run
 * goes on, and the other dex files are instrumented. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "dex.h"
#include "dexbuild.h"
#include "instrument_run.h"

int __real_dex_parse(dex_file *d, arena *a, const uint8_t *data, size_t len, tc_error *err);

static size_t plant_min = SIZE_MAX, plant_skip[2];
static int planted;

int __wrap_dex_parse(dex_file *d, arena *a, const uint8_t *data, size_t len, tc_error *err);
int __wrap_dex_parse(dex_file *d, arena *a, const uint8_t *data, size_t len, tc_error *err)
{
	if (len >= plant_min && len != plant_skip[0] && len != plant_skip[1]) {
		__atomic_fetch_add(&planted, 1, __ATOMIC_RELAXED);
		memset(d, 0, sizeof *d);
		return tc_fail(err, TC_EFORMAT, 112, "header", "planted read-back failure");
	}
	return __real_dex_parse(d, a, data, len, err);
}

static arena A;

static void setup(void)
{
	arena_init(&A);
	ir_setup();
	plant_min = SIZE_MAX;
	plant_skip[0] = plant_skip[1] = 0;
	planted = 0;
}

static void teardown(void)
{
	ir_teardown();
	arena_free(&A);
}

TestSuite(dex_readback, .init = setup, .fini = teardown);

/* A dex of `classes` classes whose run() calls another method (each one to trace), and
 * `bulk` more method ids, which make it large. */
static uint8_t *make_dex(const char *prefix, uint32_t classes, uint32_t bulk, size_t *len)
{
	dex_file d;
	db_init(&d, &A);
	tc_error e;
	tc_error_clear(&e);
	uint32_t callee;
	cr_assert_eq(dex_intern_method(&d, "Lp/Other;", "work", "()V", &callee, &e), TC_OK);
	for (uint32_t i = 0; i < classes; i++) {
		char desc[64];
		snprintf(desc, sizeof desc, "L%s/C%u;", prefix, i);
		uint32_t k = db_class(&d, desc, DACC_PUBLIC);
		dex_insn code[] = {db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0), db_op(DEX_OP_RETURN_VOID)};
		db_method(&d, k, "run", "()V", DACC_PUBLIC | DACC_STATIC, db_code(&d, 0, 0, 0, code, 2));
	}
	if (bulk) {
		char desc[64];
		snprintf(desc, sizeof desc, "L%s/Many;", prefix);
		db_bulk_methods(&d, desc, bulk);
	}
	tc_buf b;
	buf_init(&b);
	cr_assert_eq(dex_write(&d, &b, &e), TC_OK, "%s", e.message);
	return buf_take(&b, len);
}

static int instrument(const char *in, const char *out, int threads)
{
	tc_error e;
	int rc = ir_instrument((const char *const[][2]){{in, out}}, 1, threads, &e);
	cr_expect_eq(rc, TC_OK, "%s", e.message);
	return rc;
}

/* An entry of a zip, whole. */
static uint8_t *entry(const char *zipfile, const char *name, size_t *len)
{
	int ze;
	zip_t *z = zip_open(ir_path(zipfile), ZIP_RDONLY | ZIP_CHECKCONS, &ze);
	cr_assert(z, "%s: a sound zip (%d)", zipfile, ze);
	zip_stat_t st;
	cr_assert_eq(zip_stat(z, name, 0, &st), 0, "%s in %s", name, zipfile);
	uint8_t *b = malloc(st.size + 1);
	zip_file_t *f = zip_fopen(z, name, 0);
	cr_assert(f && zip_fread(f, b, st.size) == (zip_int64_t)st.size);
	zip_fclose(f);
	zip_close(z);
	*len = st.size;
	return b;
}

Test(dex_readback, a_dex_file_that_fails_its_check_is_written_as_it_was_and_reported)
{
	size_t len;
	uint8_t *in = make_dex("a", 20, 0, &len);
	ir_save("in.dex", in, len);
	plant_min = 1;
	plant_skip[0] = len;
	cr_assert_eq(instrument("in.dex", "out.dex", 2), TC_OK);
	cr_expect_eq(planted, 1, "the written dex was read back once (%d)", planted);
	size_t n;
	uint8_t *out = ir_load("out.dex", &n);
	cr_expect(n == len && !memcmp(in, out, len), "the output is the input, unchanged");
	size_t slen;
	char *s = (char *)ir_load("map/instrument-stats.json", &slen);
	cr_expect(strstr(s, "dex left unchanged") && strstr(s, "planted read-back failure"), "%s", s);
	cr_expect(strstr(s, "\"skipped\": 20"), "its 20 traced methods counted as not instrumented: %s", s);
	cr_expect(strstr(s, "\"buildIdMarker\": \"\""), "the marker it would have carried is gone: %s", s);
	free(in);
	free(out);
	free(s);
}

/* An APK with a dex of more than one part (ZIO_PART, 512 KiB: its parts deflate on the
 * other workers while it is checked) that fails its check, and a small dex that passes. */
static void apk_case(int threads)
{
	size_t big_len, small_len;
	uint8_t *big = make_dex("b", 50, 40000, &big_len), *small = make_dex("s", 10, 0, &small_len);
	cr_assert_gt(big_len, (size_t)512 << 10, "the big dex (%zu bytes) is deflated in parts", big_len);
	int ze;
	zip_t *z = zip_open(ir_path("in.apk"), ZIP_CREATE | ZIP_TRUNCATE, &ze);
	cr_assert(z);
	cr_assert_geq(zip_file_add(z, "classes.dex", zip_source_buffer(z, big, big_len, 0), 0), 0);
	cr_assert_geq(zip_file_add(z, "classes2.dex", zip_source_buffer(z, small, small_len, 0), 0), 0);
	cr_assert_eq(zip_close(z), 0);
	plant_min = big_len / 2; /* the big dex's read-back, not the small one's */
	plant_skip[0] = big_len;
	cr_assert_eq(instrument("in.apk", "out.apk", threads), TC_OK);
	cr_expect_eq(planted, 1, "the big dex was read back once (%d)", planted);
	size_t n;
	uint8_t *out = entry("out.apk", "classes.dex", &n);
	cr_expect(n == big_len && !memcmp(out, big, n), "-j%d: the failed dex is the input's, unchanged", threads);
	free(out);
	out = entry("out.apk", "classes2.dex", &n);
	cr_expect(n > small_len, "-j%d: the other dex is instrumented (%zu -> %zu bytes)", threads, small_len, n);
	dex_file d;
	arena a;
	arena_init(&a);
	tc_error e;
	tc_error_clear(&e);
	cr_expect_eq(__real_dex_parse(&d, &a, out, n, &e), TC_OK, "-j%d: and sound: %s", threads, e.message);
	arena_free(&a);
	free(out);
	size_t slen;
	char *s = (char *)ir_load("map/instrument-stats.json", &slen);
	cr_expect(strstr(s, "classes.dex") && strstr(s, "dex left unchanged") && strstr(s, "planted read-back failure"),
	          "-j%d: %s", threads, s);
	free(s);
	free(big);
	free(small);
}

Test(dex_readback, in_an_apk_a_large_dex_that_fails_its_check_while_its_parts_deflate_is_copied)
{
	apk_case(2);
}

Test(dex_readback, in_an_apk_a_large_dex_that_fails_its_check_is_copied_with_one_thread)
{
	apk_case(1);
}

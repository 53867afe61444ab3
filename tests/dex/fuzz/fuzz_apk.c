/* libFuzzer target for the APK path: tc_instrument() on an APK (an input starting "PK",
 * written as in.apk) or on a lone dex (an input starting "dex\n", its size and checksum
 * fixed first as fuzz_dex.c does, written as in.dex), into a fresh output.
 *
 * Invariants, any of which aborts (a crash for libFuzzer):
 *   - the call returns TC_OK or a negative status equal to err.code, with a message;
 *   - on failure nothing was written: no output, no mapping file, nothing temporary;
 *   - on success the output exists and, for an APK, is a zip our reader opens whose
 *     local headers follow one another in order, each local extra block a sequence of
 *     whole fields (4.5.1: what `unzip -t` checks), each stored entry's data aligned
 *     (4 bytes, 4096 for *.so) with exactly one alignment field (0xd935);
 *   - every dex written (an APK's classes*.dex entry, or the lone dex) is the input's
 *     bytes unchanged, or a file the reader accepts: the tool never emits a dex it
 *     cannot read.
 *
 * Seeds: seeds-apk/ (small APKs made by make_apk_seeds.py from our own seed dex).
 * Built by tests/fuzz/run.sh -T apk (clang -fsanitize=fuzzer,address,undefined) and by
 * meson into a replay program (tests/fuzz/replay.c) that runs the seeds and the
 * regressions in every build. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dex.h"
#include "fuzz.h"
#include "fuzz_dir.h"
#include "pipeline/instrument.h"
#include "containers/jar.h"

static void check_clean(const char *out)
{
	CHECK(!fz_exists(out));
	CHECK(!fz_exists("map/methodMapping.txt"));
	CHECK(!fz_exists("map/ignoreMethodMapping.txt"));
	CHECK(!fz_exists("map/instrument-stats.json"));
	fz_check_no_temp();
}

static int run(const char *in, const char *out, bool two_threads, tc_error *err)
{
	char pin[512], pout[512], pmap[512];
	fz_path(pin, sizeof pin, in);
	fz_path(pout, sizeof pout, out);
	fz_path(pmap, sizeof pmap, "map");
	tc_pair pair = {pin, pout, false};
	tc_options o = {
		.pairs = &pair,
		.npairs = 1,
		.mapping_dir = pmap,
		.beat = "com/tencent/matrix/trace/core/AppMethodBeat",
		.threads = two_threads ? 2 : 1,
		.deflate_level = 1,
		.quiet = true,
		.max_input = (uint64_t)64 << 20,
	};
	tc_error_clear(err);
	int rc = tc_instrument(&o, err);
	CHECK(rc == TC_OK || (rc < 0 && rc >= TC_EARG));
	CHECK(rc == err->code);
	if (rc != TC_OK)
		CHECK(err->message[0] != '\0');
	return rc;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* A written dex is the input's bytes or a file the reader accepts. */
static void check_dex(const uint8_t *got, size_t len, const uint8_t *was, size_t was_len)
{
	if (was && len == was_len && !memcmp(got, was, len))
		return;
	arena a;
	arena_init(&a);
	dex_file d;
	tc_error e;
	tc_error_clear(&e);
	if (dex_parse(&d, &a, got, len, &e) != TC_OK) {
		fprintf(stderr, "a written dex does not read back: %s at %u\n", e.message, e.offset);
		abort();
	}
	arena_free(&a);
}

static bool is_dex_entry(const char *name)
{
	size_t n = strlen(name);
	return !strchr(name, '/') && !strncmp(name, "classes", 7) && n > 4 && !strcmp(name + n - 4, ".dex");
}

/* The output APK, read back: its local headers, extra blocks, alignment, and dex. */
static void check_apk(void)
{
	char pin[512], pout[512];
	fz_path(pin, sizeof pin, "in.apk");
	fz_path(pout, sizeof pout, "out.apk");
	size_t len;
	uint8_t *z = fz_read("out.apk", &len);
	CHECK(z);
	tc_jar *out = NULL, *in = NULL;
	tc_error e;
	tc_error_clear(&e);
	CHECK(jar_open(&out, pout, &e) == TC_OK);
	CHECK(jar_open(&in, pin, &e) == TC_OK);
	tc_buf b, c;
	buf_init(&b);
	buf_init(&c);
	size_t off = 0;
	for (uint64_t i = 0; i < jar_count(out); i++) {
		jar_info info;
		jar_stat(out, i, &info);
		CHECK(off + 30 <= len && !memcmp(z + off, "PK\3\4", 4));
		uint16_t nl = le16(z + off + 26), xl = le16(z + off + 28);
		CHECK(off + 30 + (size_t)nl + xl <= len);
		const uint8_t *x = z + off + 30 + nl;
		size_t p = 0, aligns = 0;
		while (p + 4 <= xl) {
			size_t n = le16(x + p + 2);
			CHECK(p + 4 + n <= xl);
			if (le16(x + p) == 0xd935)
				aligns++;
			p += 4 + n;
		}
		const char *name = jar_name(out, i);
		size_t data = off + 30 + nl + xl;
		if (info.method == 0) {
			/* no other bytes can follow: the padding is inside the field */
			CHECK(p == xl);
			CHECK(aligns == 1);
			size_t want = strlen(name) > 3 && !strcmp(name + strlen(name) - 3, ".so") ? 4096 : 4;
			CHECK(data % want == 0);
		}
		CHECK(data + (size_t)info.comp_size <= len && !memcmp(jar_raw(out, i), z + data, (size_t)info.comp_size));
		if (is_dex_entry(name) && jar_read(out, i, &b, (uint64_t)64 << 20, NULL, &e) == TC_OK) {
			/* the same entry of the input, if it reads */
			const uint8_t *was = NULL;
			size_t was_len = 0;
			for (uint64_t k = 0; k < jar_count(in); k++) {
				tc_error e2;
				tc_error_clear(&e2);
				if (!strcmp(jar_name(in, k), name) && jar_read(in, k, &c, (uint64_t)64 << 20, NULL, &e2) == TC_OK) {
					was = c.data;
					was_len = c.len;
					break;
				}
			}
			check_dex(b.data, b.len, was, was_len);
		}
		tc_error_clear(&e);
		off = data + (size_t)info.comp_size;
	}
	buf_free(&b);
	buf_free(&c);
	jar_close(out);
	jar_close(in);
	free(z);
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
	fz_setup("apk");
	fz_reset();
	bool apk = size >= 2 && input[0] == 'P' && input[1] == 'K';
	bool dex = size >= 4 && !memcmp(input, "dex\n", 4);
	if (!apk && !dex) {
		fz_rm_rf(fz_root);
		return 0;
	}
	uint8_t *data = malloc(size ? size : 1);
	CHECK(data);
	memcpy(data, input, size);
	if (dex && size >= 36) {
		/* the size and the checksum first, as fuzz_dex.c: mutations reach past them */
		for (int i = 0; i < 4; i++)
			data[32 + i] = (uint8_t)(size >> (8 * i));
		uint32_t sum = dex_adler32(data, size);
		for (int i = 0; i < 4; i++)
			data[8 + i] = (uint8_t)(sum >> (8 * i));
	}
	const char *in = apk ? "in.apk" : "in.dex", *out = apk ? "out.apk" : "out.dex";
	fz_write(in, data, size);
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	tc_error err;
	if (run(in, out, h % 2, &err) != TC_OK) {
		check_clean(out);
	} else {
		CHECK(fz_exists(out));
		CHECK(fz_exists("map/methodMapping.txt"));
		CHECK(fz_exists("map/instrument-stats.json"));
		if (apk) {
			check_apk();
		} else {
			size_t len;
			uint8_t *got = fz_read(out, &len);
			CHECK(got);
			check_dex(got, len, data, size);
			free(got);
		}
	}
	free(data);
	fz_rm_rf(fz_root);
	return 0;
}

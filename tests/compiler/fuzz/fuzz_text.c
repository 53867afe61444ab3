/* libFuzzer target for tc-instrument's text inputs: the ProGuard/R8 mapping
 * (pg_parse), the block list (rules_parse) and methodMapping.txt (mapping_load).
 *
 * Byte 0 picks the parser, the rest is the text. After a successful parse the result
 * is queried with names cut from the text itself (the lookups must stay in bounds
 * whatever they are given), and an error must carry its code and a message. Built
 * like fuzz_instrument.c (tests/fuzz/run.sh -T text, and tests/fuzz/replay.c). */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "maps/base_mapping.h"
#include "maps/proguard.h"
#include "rules.h"
#include "../../fuzz/fuzz.h"


static void failed(int rc, const tc_error *err)
{
	CHECK(rc < 0 && rc == err->code);
	CHECK(err->message[0] != '\0');
}

/* Words of the text (runs of non-space bytes, at most 300), NUL-terminated in buf. */
static size_t words(const char *text, size_t len, char **out, size_t max, char *buf)
{
	size_t n = 0, k = 0;
	for (size_t i = 0; i < len && n < max;) {
		while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\0'))
			i++;
		size_t start = k;
		while (i < len && text[i] != ' ' && text[i] != '\n' && text[i] != '\0' && k - start < 300)
			buf[k++] = text[i++];
		if (k > start) {
			buf[k++] = '\0';
			out[n++] = buf + start;
		}
		while (i < len && text[i] != ' ' && text[i] != '\n' && text[i] != '\0')
			i++;
	}
	return n;
}

static void fuzz_proguard(const char *text, size_t len, char **w, size_t nw)
{
	pg_map *m = NULL;
	tc_error err;
	tc_error_clear(&err);
	int rc = pg_parse(&m, text, len, "fuzz", &err);
	if (rc != TC_OK) {
		CHECK(!m);
		failed(rc, &err);
		return;
	}
	CHECK(m);
	char name[64], desc[128], big[4096], bigd[8192];
	for (size_t i = 0; i < nw; i++) {
		const char *cls = w[i];
		const char *orig = pg_class(m, cls);
		if (orig)
			CHECK(pg_obfuscate_class(m, orig) != NULL);
		(void)pg_obfuscate_class(m, cls);
		const char *mn = i + 1 < nw ? w[i + 1] : "a";
		const char *md = i + 2 < nw ? w[i + 2] : "()V";
		if (pg_method(m, cls, mn, md, name, sizeof name, desc, sizeof desc))
			CHECK(strlen(name) < sizeof name && strlen(desc) < sizeof desc);
		(void)pg_method(m, cls, mn, md, big, sizeof big, bigd, sizeof bigd);
		(void)pg_desc(m, md, desc, sizeof desc);
	}
	(void)pg_class_count(m);
	pg_free(m);
}

static void fuzz_rules(const char *text, size_t len, char **w, size_t nw)
{
	tc_rules *r = NULL;
	tc_error err;
	tc_error_clear(&err);
	CHECK(rules_new(&r, &err) == TC_OK);
	int rc = rules_parse(r, text, len, "fuzz", &err);
	if (rc != TC_OK)
		failed(rc, &err);
	for (size_t i = 0; i < nw; i++) {
		(void)rules_blocks_class(r, w[i]);
		(void)rules_blocks_method(r, w[i], strlen(w[i]));
	}
	CHECK(rules_blocks_class(r, "android.app.Activity"));
	rules_free(r);
}

static void fuzz_mapping(const char *text, size_t len, char **w, size_t nw)
{
	static char path[64];
	if (!path[0])
		snprintf(path, sizeof path, "/tmp/tc-fuzz-text.%ld", (long)getpid());
	FILE *f = fopen(path, "wb");
	CHECK(f);
	CHECK(len == 0 || fwrite(text, 1, len, f) == len);
	CHECK(fclose(f) == 0);
	mapping *m = NULL;
	tc_error err;
	tc_error_clear(&err);
	int rc = mapping_load(&m, path, &err);
	unlink(path);
	if (rc != TC_OK) {
		CHECK(!m);
		failed(rc, &err);
		return;
	}
	for (size_t i = 0; i < nw; i++)
		(void)mapping_id(m, w[i]);
	CHECK(mapping_max_id(m) != MM_ID_DISPATCH);
	FILE *out = fopen("/dev/null", "w");
	CHECK(out);
	size_t changed = 1;
	CHECK(mapping_diff(m, m, out, &changed, &err) == TC_OK);
	CHECK(changed == 0);
	fclose(out);
	mapping_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	char **w = malloc(64 * sizeof *w);
	char *buf = malloc(len + 64);
	CHECK(w && buf);
	size_t nw = words(text, len, w, 64, buf);
	switch (data[0] % 3) {
	case 0: fuzz_proguard(text, len, w, nw); break;
	case 1: fuzz_rules(text, len, w, nw); break;
	default: fuzz_mapping(text, len, w, nw); break;
	}
	free(w);
	free(buf);
	return 0;
}

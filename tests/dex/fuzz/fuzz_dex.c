/* libFuzzer target: the dex reader, writer and editor on arbitrary bytes.
 * The size and checksum of each input are fixed first, so that mutations reach past
 * the header.
 * Invariants, beyond not crashing:
 *  - a file the reader accepts is written, and the written file is read again and
 *    written again byte for byte (the writer's output is canonical and stable);
 *  - with every method hooked (entry, before returns, a catch-all), what the editor
 *    accepts still writes a file the reader accepts;
 *  - the method checker (dex_verify.h) runs on every method before and after, and a
 *    method it accepts is still accepted once hooked (what tc-instrument relies on). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dex.h"
#include "dex_edit.h"
#include "dex_hook.h"
#include "dex_verify.h"
#include "fuzz.h"

/* Whether the checker accepts method m with code c (or without code: c NULL). */
static bool accepted(const dex_verify_file *f, const dex_class *k, const dex_emethod *m, dex_code *c, arena *scratch)
{
	dex_emethod as = {m->idx, m->flags, c};
	dex_verify_result r;
	arena_reset(scratch);
	CHECK(dex_verify_method(f, k, &as, scratch, &r) == 0);
	return !r.failed && !r.locking;
}

static void hook_all(dex_file *d, arena *scratch, arena *keep, uint32_t in, uint32_t out)
{
	dex_verify_file f;
	CHECK(dex_verify_file_init(&f, d, keep) == TC_OK);
	for (uint32_t k = 0; k < d->nclasses; k++) {
		dex_cdata *cd = d->classes[k].data;
		for (uint32_t i = 0; i < dex_cdata_nmethods(cd); i++) {
			dex_emethod *m = dex_cdata_method(cd, i);
			bool before = accepted(&f, &d->classes[k], m, m->code, scratch);
			if (!m->code)
				continue;
			arena_reset(scratch);
			tc_error e;
			tc_error_clear(&e);
			dex_editor *ed;
			dex_code *c;
			dex_hook h = {.entry = in, .exit = out, .value = (int32_t)i + 1, .extra = DEX_NO_INDEX,
			           .after_init = dex_str_eq(d, d->methods.v[m->idx].name, "<init>")};
			if (dex_edit_open(&ed, d, m->code, m->idx, (m->flags & DACC_STATIC) != 0, scratch, &e) == TC_OK &&
			    dex_hook_apply(ed, &h, &e) == TC_OK && dex_edit_commit(ed, keep, &c, &e) == TC_OK) {
				CHECK(!before || accepted(&f, &d->classes[k], m, c, scratch));
				m->code = c;
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
	/* The file size and the checksum first: a mutated file would stop at them, before
	 * anything deeper. */
	uint8_t *data = malloc(size ? size : 1);
	if (!data)
		return 0;
	memcpy(data, input, size);
	if (size >= 36)
		for (int i = 0; i < 4; i++)
			data[32 + i] = (uint8_t)(size >> (8 * i));
	if (size >= 12) {
		uint32_t sum = dex_adler32(data, size);
		for (int i = 0; i < 4; i++)
			data[8 + i] = (uint8_t)(sum >> (8 * i));
	}
	arena a, a2, a3, scratch, keep;
	arena_init(&a);
	arena_init(&a2);
	arena_init(&a3);
	arena_init(&scratch);
	arena_init(&keep);
	tc_buf b1, b2;
	buf_init(&b1);
	buf_init(&b2);
	tc_error e;
	tc_error_clear(&e);
	dex_file d, d2, d3;
	if (dex_parse(&d, &a, data, size, &e) != TC_OK)
		goto done;
	CHECK(e.code == TC_OK);
	if (dex_write(&d, &b1, &e) != TC_OK)
		goto done; /* e.g. a const-string past 65535 in code the editor refuses */
	CHECK(dex_parse(&d2, &a2, b1.data, b1.len, &e) == TC_OK);
	CHECK(dex_write(&d2, &b2, &e) == TC_OK);
	CHECK(b1.len == b2.len && !memcmp(b1.data, b2.data, b1.len));
	uint32_t in, out;
	if (dex_intern_method(&d2, "Ltc/P;", "i", "(I)V", &in, &e) != TC_OK ||
	    dex_intern_method(&d2, "Ltc/P;", "o", "(I)V", &out, &e) != TC_OK || !dex_ids_fit(&d2))
		goto done;
	hook_all(&d2, &scratch, &keep, in, out);
	tc_error_clear(&e);
	buf_clear(&b2);
	if (dex_write(&d2, &b2, &e) == TC_OK)
		CHECK(dex_parse(&d3, &a3, b2.data, b2.len, &e) == TC_OK);
done:
	free(data);
	buf_free(&b1);
	buf_free(&b2);
	arena_free(&a);
	arena_free(&a2);
	arena_free(&a3);
	arena_free(&scratch);
	arena_free(&keep);
	return 0;
}

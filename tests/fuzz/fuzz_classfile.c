/* libFuzzer target for the class-file reader, writer and code editor.
 *
 * Input: one byte of edit flags, then a class file. The class is parsed; when that
 * succeeds the writer must give back exactly the class bytes (the writer mirrors the
 * reader). Then every method with code is opened with the code editor and edited as
 * the flags say, and committed. A failed open or commit must leave the method's Code
 * attribute as it was; a successful commit must give a class that writes, parses
 * again, writes again to the same bytes, and whose edited methods the editor opens
 * again (the editor must never emit what it cannot read). With no edit flags, every
 * method is opened and committed unedited, and the class must come back byte for byte
 * (unless a switch has nonzero padding bytes, which the editor writes as zeros). Any
 * broken invariant aborts, so libFuzzer reports it like a crash.
 *
 * Flags (byte 0):
 *   0x01 insert at method entry (CODE_FALLTHROUGH before instruction 0)
 *   0x02 insert before every return (CODE_AT_TARGET)
 *   0x04 add an outermost catch-all handler that rethrows
 *   0x08 code_force_long_branches
 *   0x10 in constructors, insert after this-initialization instead of at entry
 *   0x20 insert before pseudo-random instructions, both places
 *   0x40 without 0x08: insert 33,000 bytes of nop before the middle instruction of the
 *        first method with code (widening, limits; only there and then, it is slow)
 *   0x80 inserted code calls a static method added to the constant pool
 *
 * Built by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined, and by
 * meson into a replay program (replay.c) that runs tests/fuzz/regressions/. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classfile.h"
#include "code.h"
#include "fuzz.h"

enum {
	F_ENTRY = 0x01,
	F_RETURNS = 0x02,
	F_HANDLER = 0x04,
	F_LONG = 0x08,
	F_THIS_INIT = 0x10,
	F_RANDOM = 0x20,
	F_BLOAT = 0x40,
	F_CALLS = 0x80,
};

enum { BLOAT = 33000 };

/* The flags that ask for an edit; without any, methods are committed unedited. */
#define F_EDITS (F_ENTRY | F_RETURNS | F_HANDLER | F_LONG | F_RANDOM | F_BLOAT)

/* JVMS 6.5: switch padding "should" be zero; the editor always writes zeros. */
static bool zero_padding(code_editor *ed)
{
	const cf_code *c = code_body(ed);
	for (uint32_t i = 0; i < code_ninsns(ed); i++) {
		const cf_insn *in = code_insn(ed, i);
		if (!cf_op_has(in->op, OPF_SWITCH))
			continue;
		for (uint32_t k = in->off + 1; (k & 3) != 0; k++)
			if (c->code[k])
				return false;
	}
	return true;
}

static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

/* A straight-line sequence with no net stack effect: a call, or a push and a pop. */
static uint32_t probe(uint8_t *p, uint16_t ref)
{
	if (ref) {
		p[0] = OP_INVOKESTATIC;
		put_u2(p + 1, ref);
		return 3;
	}
	p[0] = OP_ICONST_0;
	p[1] = OP_POP;
	return 2;
}

/* Edits method m as the flags say. Returns the status of code_open/code_commit, or
 * 1 when the method was not touched on purpose. */
static int edit(cf_class *cls, cf_member *m, uint32_t mi, uint8_t flags, uint16_t ref, arena *scratch,
                const uint8_t *bloat, bool *canonical, tc_error *err)
{
	code_editor *ed;
	if (code_open(&ed, cls, m, scratch, err) != TC_OK) {
		CHECK(err->code < 0);
		return err->code;
	}
	if (!zero_padding(ed))
		*canonical = false;
	uint32_t n = code_ninsns(ed);
	CHECK(n > 0);
	for (uint32_t i = 0; i < n; i++) {
		const cf_insn *in = code_insn(ed, i);
		CHECK(in != NULL);
		CHECK(code_at(ed, in->off) == i);
		int d = code_depth(ed, i);
		CHECK(d >= -1 && d <= 65535);
	}
	CHECK(code_insn(ed, n) == NULL);

	uint8_t seq[8];
	uint32_t len = probe(seq, flags & F_CALLS ? ref : 0);
	tc_error e2;
	uint32_t start = 0;
	if ((flags & F_THIS_INIT) && cp_utf8_eq(&cls->cp, m->name, "<init>")) {
		uint32_t init;
		tc_error_clear(&e2);
		if (code_this_init(ed, &init, &e2) == TC_OK) {
			CHECK(init + 1 < n);
			CHECK(cf_op_has(code_insn(ed, init)->op, OPF_INVOKE));
			start = init + 1;
		} else {
			CHECK(e2.code < 0);
		}
	}
	/* Refusals of single insertions are part of the API (e.g. fall-through into an
	 * instruction nothing falls into); they must not break the editor. */
	if (flags & F_ENTRY) {
		tc_error_clear(&e2);
		int rc = code_insert(ed, start, CODE_FALLTHROUGH, seq, len, &e2);
		CHECK(rc == e2.code);
	}
	uint32_t h = mix(mi * 2654435761U + flags);
	for (uint32_t i = 0; i < n; i++) {
		const cf_insn *in = code_insn(ed, i);
		if ((flags & F_RETURNS) && cf_op_has(in->op, OPF_RETURN)) {
			tc_error_clear(&e2);
			CHECK(code_insert(ed, i, CODE_AT_TARGET, seq, len, &e2) == e2.code);
		}
		if (flags & F_RANDOM) {
			h = mix(h + i);
			if (h % 5 == 0) {
				tc_error_clear(&e2);
				enum code_place where = (h >> 8) & 1 ? CODE_AT_TARGET : CODE_FALLTHROUGH;
				uint8_t nop = OP_NOP;
				CHECK(code_insert(ed, i, where, &nop, 1, &e2) == e2.code);
			}
		}
	}
	if ((flags & F_BLOAT) && n > 1) {
		tc_error_clear(&e2);
		CHECK(code_insert(ed, n / 2, CODE_AT_TARGET, bloat, BLOAT, &e2) == e2.code);
	}
	if (flags & F_HANDLER) {
		uint8_t hs[8];
		uint32_t hl = probe(hs, flags & F_CALLS ? ref : 0);
		hs[hl++] = OP_ATHROW;
		tc_error_clear(&e2);
		if (start < n)
			CHECK(code_add_handler(ed, start, n, 0, hs, hl, &e2) == e2.code);
	}
	if (flags & F_LONG)
		code_force_long_branches(ed, 1);
	return code_commit(ed, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t flags = data[0];
	data++;
	size--;

	arena a, scratch;
	arena_init(&a);
	arena_init(&scratch);
	tc_buf out, out2;
	buf_init(&out);
	buf_init(&out2);
	static uint8_t bloat[BLOAT];
	bool *committed = NULL;
	tc_error err;
	tc_error_clear(&err);
	cf_class cls;
	if (cf_parse(&cls, &a, data, size, &err) != TC_OK) {
		CHECK(err.code < 0 && err.code != TC_ENOMEM);
		CHECK(err.offset == TC_NO_OFFSET || err.offset <= size);
		goto done;
	}
	CHECK(cf_write(&cls, &out, &err) == TC_OK);
	CHECK(out.len == size && memcmp(out.data, data, size) == 0);

	uint16_t ref = 0;
	if (flags & F_CALLS)
		ref = cp_add_methodref(&cls.cp, "tc/Fuzz", "p", "()V", false, &err);
	tc_error_clear(&err);
	committed = calloc(cls.nmethods ? cls.nmethods : 1, sizeof *committed);
	CHECK(committed);
	if (bloat[0] != OP_NOP)
		memset(bloat, OP_NOP, BLOAT);
	bool bloated = (flags & (F_BLOAT | F_LONG)) != F_BLOAT;
	bool canonical = true;
	for (uint32_t i = 0; i < cls.nmethods; i++) {
		cf_member *m = &cls.methods[i];
		cf_attr *code = cf_method_code(&cls, m);
		if (!code)
			continue;
		const uint8_t *before = code->data;
		uint32_t before_len = code->len;
		arena_reset(&scratch);
		tc_error_clear(&err);
		uint8_t f = bloated ? flags & ~F_BLOAT : flags;
		bloated = bloated || (flags & F_BLOAT);
		int rc = edit(&cls, m, i, f, ref, &scratch, bloat, &canonical, &err);
		CHECK(rc == err.code);
		if (rc == TC_OK) {
			committed[i] = true;
		} else {
			/* A refused edit leaves the method untouched. */
			CHECK(code->data == before && code->len == before_len);
		}
	}

	buf_clear(&out);
	tc_error_clear(&err);
	CHECK(cf_write(&cls, &out, &err) == TC_OK);
	if (!(flags & (F_EDITS | F_CALLS)) && canonical) {
		/* Nothing edited (and no probe added to the pool): relocating through the
		 * identity map must change nothing. */
		CHECK(out.len == size && memcmp(out.data, data, size) == 0);
	}
	{
		/* The edited class reads back, writes back identically, and its edited
		 * methods open in the editor again. */
		arena a2;
		arena_init(&a2);
		cf_class again;
		tc_error_clear(&err);
		int rc = cf_parse(&again, &a2, out.data, out.len, &err);
		if (rc != TC_OK) {
			char msg[512];
			tc_error_format(&err, msg, sizeof msg);
			fprintf(stderr, "edited class does not parse: %s\n", msg);
		}
		CHECK(rc == TC_OK);
		CHECK(cf_write(&again, &out2, &err) == TC_OK);
		CHECK(out2.len == out.len && memcmp(out2.data, out.data, out.len) == 0);
		CHECK(again.nmethods == cls.nmethods);
		for (uint32_t i = 0; i < again.nmethods; i++) {
			if (!committed[i])
				continue;
			arena_reset(&scratch);
			code_editor *ed;
			tc_error_clear(&err);
			rc = code_open(&ed, &again, &again.methods[i], &scratch, &err);
			if (rc != TC_OK) {
				char msg[512];
				tc_error_format(&err, msg, sizeof msg);
				fprintf(stderr, "edited method %u does not open: %s\n", i, msg);
			}
			CHECK(rc == TC_OK);
		}
		arena_free(&a2);
	}

done:
	free(committed);
	buf_free(&out);
	buf_free(&out2);
	arena_free(&a);
	arena_free(&scratch);
	return 0;
}

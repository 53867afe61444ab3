/* The base's small modules: the UTF-8 decoder and encoder, the error record's two
 * funnels, the arena's limit and reuse, the byte buffer's sticky error and bounds,
 * the bounds-checked reader, the whole-file reader and the option table's lookup. (The
 * JSON writer and reader have their own files.) */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "bytes.h"
#include "file.h"
#include "opt.h"
#include "tc_error.h"
#include "utf8.h"

static size_t dec(const char *s, size_t avail, uint32_t *cp)
{
	return utf8_decode((const unsigned char *)s, avail, cp);
}

Test(utf8, decodes_each_length)
{
	uint32_t cp;
	cr_assert_eq(dec("A", SIZE_MAX, &cp), 1); cr_assert_eq(cp, 'A');
	cr_assert_eq(dec("\xC3\xA9", SIZE_MAX, &cp), 2); cr_assert_eq(cp, 0xE9);
	cr_assert_eq(dec("\xE2\x82\xAC", SIZE_MAX, &cp), 3); cr_assert_eq(cp, 0x20AC);
	cr_assert_eq(dec("\xF0\x9F\x98\x80", SIZE_MAX, &cp), 4); cr_assert_eq(cp, 0x1F600);
	cr_assert_eq(dec("\xF4\x8F\xBF\xBF", SIZE_MAX, &cp), 4); cr_assert_eq(cp, 0x10FFFF);
}

Test(utf8, refuses_what_rfc3629_forbids)
{
	uint32_t cp;
	cr_assert_eq(dec("\xC0\x80", SIZE_MAX, &cp), 0, "overlong NUL (modified UTF-8's)");
	cr_assert_eq(dec("\xE0\x80\xAF", SIZE_MAX, &cp), 0, "overlong '/'");
	cr_assert_eq(dec("\xED\xA0\x80", SIZE_MAX, &cp), 0, "a surrogate");
	cr_assert_eq(dec("\xF4\x90\x80\x80", SIZE_MAX, &cp), 0, "past U+10FFFF");
	cr_assert_eq(dec("\x80", SIZE_MAX, &cp), 0, "a lone continuation byte");
	cr_assert_eq(dec("\xF8\x88\x80\x80\x80", SIZE_MAX, &cp), 0, "a 5-byte form");
	cr_assert_eq(dec("\xC3" "A", SIZE_MAX, &cp), 0, "a missing continuation byte");
}

Test(utf8, never_reads_past_a_nul_or_the_bound)
{
	uint32_t cp;
	/* a C string cut inside a sequence: the NUL stops it */
	cr_assert_eq(dec("\xE2\x82", SIZE_MAX, &cp), 0);
	/* bounded input: the bytes after avail are never looked at */
	const char s[] = "\xE2\x82\xAC";
	cr_assert_eq(dec(s, 2, &cp), 0);
	cr_assert_eq(dec(s, 3, &cp), 3);
	cr_assert_eq(dec(s, 0, &cp), 0);
}

Test(utf8, encode_round_trips_every_length)
{
	static const uint32_t cps[] = { 0x01, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF };
	for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
		char b[5] = { 0 };
		size_t n = utf8_encode(cps[i], b);
		uint32_t cp;
		cr_assert_eq(dec(b, n, &cp), n, "U+%X", (unsigned)cps[i]);
		cr_assert_eq(cp, cps[i]);
	}
}

Test(error, tc_fail_keeps_the_first_cause_and_context_never_rewords)
{
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(tc_fail(&e, TC_ETRUNC, 12, "constant pool #3", "needs %d bytes", 4), TC_ETRUNC);
	cr_assert_eq(tc_fail(&e, TC_EIO, 0, "cleanup", "second"), TC_EIO);
	cr_assert_eq(e.code, TC_ETRUNC);
	cr_assert_str_eq(e.message, "needs 4 bytes");
	cr_assert_eq(e.offset, 12);
	tc_error_context(&e, "a.jar!p/X.class", "p.X", "m()V");
	tc_error_context(&e, "other", "q.Y", "n()V");
	cr_assert_str_eq(e.file, "a.jar!p/X.class");
	cr_assert_str_eq(e.cls, "p.X");
	char line[2048];
	tc_error_format(&e, line, sizeof line);
	cr_assert(strstr(line, "a.jar!p/X.class") && strstr(line, "needs 4 bytes") && strstr(line, "12"), "%s",
	          line);
}

Test(error, tc_set_replaces_and_may_read_itself)
{
	tc_error e;
	tc_error_clear(&e);
	tc_fail(&e, TC_ETRUNC, 1, "x", "first");
	cr_assert_eq(tc_set(&e, TC_EIO, "ring: %s", e.message), TC_EIO);
	cr_assert_eq(e.code, TC_EIO);
	cr_assert_str_eq(e.message, "ring: first");
	cr_assert_eq(e.offset, TC_NO_OFFSET);
	cr_assert_eq(tc_set(NULL, TC_EARG, "no record"), TC_EARG);
}

Test(error, a_long_message_is_cut_not_overrun)
{
	tc_error e;
	tc_error_clear(&e);
	char big[2000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	tc_set(&e, TC_EIO, "%s", big);
	cr_assert_eq(strlen(e.message), sizeof e.message - 1);
}

Test(arena, limit_refuses_and_reset_reuses)
{
	arena a;
	arena_init(&a);
	a.limit = 1000;
	char *p = arena_alloc(&a, 600);
	cr_assert_not_null(p);
	cr_assert_eq((uintptr_t)p % 16, 0);
	cr_assert_null(arena_alloc(&a, 600), "past the limit");
	cr_assert_null(arena_array(&a, SIZE_MAX / 2, 4), "n * size overflows");
	arena_reset(&a);
	cr_assert_not_null(arena_alloc(&a, 600), "after a reset the limit counts again");
	char *s = arena_strndup(&a, "abcdef", 3);
	cr_assert_str_eq(s, "abc");
	unsigned char *z = arena_zalloc(&a, 64);
	for (int i = 0; i < 64; i++)
		cr_assert_eq(z[i], 0);
	arena_free(&a);
	arena_free(&a); /* freed twice: still valid, as a zeroed one */
	arena zero = { 0 };
	cr_assert_not_null(arena_alloc(&zero, 10));
	arena_free(&zero);
}

Test(buf, text_stays_nul_terminated_and_errors_stick)
{
	tc_buf b;
	buf_init(&b);
	buf_puts(&b, "ab");
	buf_printf(&b, "%d", 42);
	buf_putc(&b, '!');
	cr_assert_eq(b.len, 5);
	cr_assert_str_eq(b.str, "ab42!");
	b.limit = 8;
	buf_puts(&b, "0123456789");
	cr_assert_eq(b.err, TC_ENOMEM);
	size_t len = b.len;
	buf_puts(&b, "x"); /* ignored once failed */
	cr_assert_eq(b.len, len);
	cr_assert_leq(b.len, 8);
	buf_free(&b);
}

Test(buf, fixed_memory_is_never_outgrown)
{
	uint8_t mem[4];
	tc_buf b;
	buf_fixed(&b, mem, sizeof mem);
	buf_u2(&b, 0x1234);
	buf_u2(&b, 0x5678);
	cr_assert_eq(b.err, TC_OK);
	cr_assert_eq(mem[0], 0x12);
	cr_assert_eq(mem[3], 0x78);
	buf_u1(&b, 1);
	cr_assert_eq(b.err, TC_ENOMEM);
	cr_assert_eq(b.len, 4);
}

Test(reader, reads_big_endian_and_fails_past_the_end_once)
{
	const uint8_t data[] = { 0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x05 };
	tc_error e;
	tc_error_clear(&e);
	tc_reader r = rd_init(data, sizeof data, &e);
	cr_assert_eq(rd_u4(&r), 0xCAFEBABEu);
	cr_assert_eq(rd_u2(&r), 5);
	cr_assert(rd_ok(&r));
	cr_assert_eq(rd_u2(&r), 0, "past the end reads as 0");
	cr_assert_not(rd_ok(&r));
	cr_assert_eq(e.code, TC_ETRUNC);
	cr_assert_eq(e.offset, 6);
}

Test(opt, finds_a_row_by_its_long_or_short_name)
{
	static const tc_opt t[] = {
		{ "--mapping", "-m", 1, 1 }, { "--quiet", NULL, 0, 3 }, { "--output", "-o", 1, 2 },
	};
	size_t n = sizeof t / sizeof t[0];
	cr_assert_eq(tc_opt_find(t, n, "--mapping", false), 0);
	cr_assert_eq(tc_opt_find(t, n, "-m", false), 0);
	cr_assert_eq(tc_opt_find(t, n, "-o", false), 2);
	cr_assert_eq(tc_opt_find(t, n, "--quiet", true), 1);
	cr_assert_eq(tc_opt_find(t, n, "-o", true), -1, "a short name, where only long ones count (--name=value)");
	cr_assert_eq(tc_opt_find(t, n, "--map", false), -1, "a prefix is no name");
	cr_assert_eq(tc_opt_find(t, n, "--mapping=x", false), -1, "splitting off a value is the program's");
	cr_assert_eq(tc_opt_find(t, 0, "--mapping", false), -1);
}

/* A scratch directory of its own, removed by the test. */
static char *scratch_dir(void)
{
	char *d = strdup("/tmp/tc-test-base-XXXXXX");
	cr_assert(d && mkdtemp(d));
	return d;
}

Test(file, reads_a_whole_file_and_names_the_path_in_every_error)
{
	char *d = scratch_dir(), path[256], fifo[256], missing[256];
	snprintf(path, sizeof path, "%s/f", d);
	snprintf(fifo, sizeof fifo, "%s/fifo", d);
	snprintf(missing, sizeof missing, "%s/none", d);
	FILE *f = fopen(path, "wb");
	cr_assert(f);
	fputs("twelve bytes", f);
	fclose(f);
	cr_assert_eq(mkfifo(fifo, 0600), 0);

	tc_buf b;
	buf_init(&b);
	buf_puts(&b, "old");
	tc_error e;
	tc_error_clear(&e);
	char text[1200];
	cr_assert_eq(tc_file_read(path, &b, UINT64_MAX, NULL, &e), TC_OK);
	cr_assert_eq(b.len, 12, "the buffer is cleared first");
	cr_assert_eq(memcmp(b.data, "twelve bytes", 12), 0);

	cr_assert_eq(tc_file_read(path, &b, 11, "--max-x", &e), TC_ELIMIT, "beyond max");
	tc_error_format(&e, text, sizeof text);
	cr_assert(strstr(text, path) && strstr(text, "12 bytes") && strstr(text, "(--max-x)"), "%s", text);

	tc_error_clear(&e); /* tc_fail keeps the first cause */
	cr_assert_eq(tc_file_read(missing, &b, UINT64_MAX, NULL, &e), TC_EIO);
	tc_error_format(&e, text, sizeof text);
	cr_assert(strstr(text, missing) && strstr(text, "cannot open: No such file"), "%s", text);

	/* a FIFO nobody writes to is refused at once, not waited on */
	tc_error_clear(&e);
	cr_assert_eq(tc_file_read(fifo, &b, UINT64_MAX, NULL, &e), TC_EIO);
	tc_error_format(&e, text, sizeof text);
	cr_assert(strstr(text, fifo) && strstr(text, "not a regular file (a FIFO)"), "%s", text);
	tc_error_clear(&e);
	cr_assert_eq(tc_file_read(d, &b, UINT64_MAX, NULL, &e), TC_EIO);
	tc_error_format(&e, text, sizeof text);
	cr_assert(strstr(text, "(a directory)"), "%s", text);

	buf_free(&b);
	unlink(path);
	unlink(fifo);
	rmdir(d);
	free(d);
}

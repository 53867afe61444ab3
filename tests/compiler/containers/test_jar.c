/* The jar module (src/containers/jar_*.c): its zip reader on archives built here byte by byte, its
 * errors (code, byte offset, message), and its writer, whose output is read back by
 * libzip (with ZIP_CHECKCONS) as the independent judge. The builder below writes what
 * it is told, through zlib alone, without using the module under test. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>
#include <zlib.h>

#include "ctest.h"
#include "containers/jar.h"

/* --- a zip builder (APPNOTE.TXT 4.3), independent of src/containers/jar_*.c -------------------- */

typedef struct zb_entry {
	const char *name;
	size_t name_len;        /* 0: strlen(name) */
	const char *data;       /* uncompressed content */
	int method;             /* 0 or 8 */
	bool descriptor;        /* flag bit 3: zero CRC and sizes locally, a descriptor after */
	bool zip64;             /* sizes and offset in a Zip64 field of the central record */
	const char *lextra, *cextra;
	size_t lextra_len, cextra_len;
	const char *comment;
	uint16_t made_by, time, date;
	uint32_t eattr;
} zb_entry;

typedef struct zb_opts {
	const char *comment;
	bool zip64_end;         /* Zip64 end record and locator */
	long count_delta;       /* added to the end record's entry count */
	uint32_t cd_offset_delta;
	uint16_t disk;          /* "number of this disk" in the end record */
} zb_opts;

static void p16(tc_buf *b, uint16_t v)
{
	uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
	buf_bytes(b, x, 2);
}

static void p32(tc_buf *b, uint32_t v)
{
	p16(b, (uint16_t)v);
	p16(b, (uint16_t)(v >> 16));
}

static void p64(tc_buf *b, uint64_t v)
{
	p32(b, (uint32_t)v);
	p32(b, (uint32_t)(v >> 32));
}

static size_t raw_deflate(const char *data, size_t len, uint8_t *out, size_t cap)
{
	z_stream z = {0};
	cr_assert_eq(deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t n = z.total_out;
	deflateEnd(&z);
	return n;
}

/* Offsets of what was built, for the tests of errors. */
typedef struct zb_where {
	size_t local[8], data[8], central[8], cd_offset, end;
} zb_where;

static void zb_build(tc_buf *out, const zb_entry *es, size_t n, const zb_opts *o, zb_where *w)
{
	static uint8_t comp[8][4096];
	size_t clen[8];
	uint32_t crc[8];
	size_t local[8];
	buf_init(out);
	for (size_t i = 0; i < n; i++) {
		const zb_entry *e = &es[i];
		size_t nl = e->name_len ? e->name_len : strlen(e->name), dl = strlen(e->data);
		crc[i] = (uint32_t)crc32(0, (const Bytef *)e->data, (uInt)dl);
		if (e->method == 8) {
			clen[i] = raw_deflate(e->data, dl, comp[i], sizeof comp[i]);
		} else {
			memcpy(comp[i], e->data, dl);
			clen[i] = dl;
		}
		local[i] = out->len;
		if (w)
			w->local[i] = out->len;
		p32(out, 0x04034b50);
		p16(out, 20);
		p16(out, e->descriptor ? 8 : 0);
		p16(out, (uint16_t)e->method);
		p16(out, e->time);
		p16(out, e->date);
		p32(out, e->descriptor ? 0 : crc[i]);
		p32(out, e->descriptor ? 0 : (uint32_t)clen[i]);
		p32(out, e->descriptor ? 0 : (uint32_t)dl);
		p16(out, (uint16_t)nl);
		p16(out, (uint16_t)e->lextra_len);
		buf_bytes(out, e->name, nl);
		buf_bytes(out, e->lextra, e->lextra_len);
		if (w)
			w->data[i] = out->len;
		buf_bytes(out, comp[i], clen[i]);
		if (e->descriptor) {
			p32(out, 0x08074b50);
			p32(out, crc[i]);
			p32(out, (uint32_t)clen[i]);
			p32(out, (uint32_t)dl);
		}
	}
	size_t cd = out->len;
	for (size_t i = 0; i < n; i++) {
		const zb_entry *e = &es[i];
		size_t nl = e->name_len ? e->name_len : strlen(e->name), dl = strlen(e->data);
		size_t cl = e->comment ? strlen(e->comment) : 0;
		if (w)
			w->central[i] = out->len;
		p32(out, 0x02014b50);
		p16(out, e->made_by ? e->made_by : 0x0314);
		p16(out, e->zip64 ? 45 : 20);
		p16(out, e->descriptor ? 8 : 0);
		p16(out, (uint16_t)e->method);
		p16(out, e->time);
		p16(out, e->date);
		p32(out, crc[i]);
		p32(out, e->zip64 ? 0xFFFFFFFF : (uint32_t)clen[i]);
		p32(out, e->zip64 ? 0xFFFFFFFF : (uint32_t)dl);
		p16(out, (uint16_t)nl);
		p16(out, (uint16_t)(e->cextra_len + (e->zip64 ? 28 : 0)));
		p16(out, (uint16_t)cl);
		p16(out, 0);
		p16(out, 0);
		p32(out, e->eattr);
		p32(out, e->zip64 ? 0xFFFFFFFF : (uint32_t)local[i]);
		buf_bytes(out, e->name, nl);
		buf_bytes(out, e->cextra, e->cextra_len);
		if (e->zip64) {
			p16(out, 1);
			p16(out, 24);
			p64(out, dl);
			p64(out, clen[i]);
			p64(out, local[i]);
		}
		buf_bytes(out, e->comment, cl);
	}
	size_t cd_size = out->len - cd;
	uint64_t count = (uint64_t)((long)n + (o ? o->count_delta : 0));
	if (o && o->zip64_end) {
		size_t at = out->len;
		p32(out, 0x06064b50);
		p64(out, 44);
		p16(out, 45);
		p16(out, 45);
		p32(out, 0);
		p32(out, 0);
		p64(out, count);
		p64(out, count);
		p64(out, cd_size);
		p64(out, cd);
		p32(out, 0x07064b50);
		p32(out, 0);
		p64(out, at);
		p32(out, 1);
	}
	if (w) {
		w->cd_offset = cd;
		w->end = out->len;
	}
	const char *comment = o && o->comment ? o->comment : "";
	p32(out, 0x06054b50);
	p16(out, o ? o->disk : 0);
	p16(out, o ? o->disk : 0);
	p16(out, o && o->zip64_end ? 0xFFFF : (uint16_t)count);
	p16(out, o && o->zip64_end ? 0xFFFF : (uint16_t)count);
	p32(out, o && o->zip64_end ? 0xFFFFFFFF : (uint32_t)cd_size);
	p32(out, o && o->zip64_end ? 0xFFFFFFFF : (uint32_t)cd + (o ? o->cd_offset_delta : 0));
	p16(out, (uint16_t)strlen(comment));
	buf_bytes(out, comment, strlen(comment));
	cr_assert_eq(out->err, 0);
}

/* Four entries with every feature the writer must keep. */
static const zb_entry rich[] = {
	{.name = "META-INF/", .data = "", .lextra = "\xfe\xca\0\0", .lextra_len = 4,
	 .time = 0x6000, .date = 0x5421, .eattr = 0x41ed0010},
	{.name = "a/B.class", .data = "class bytes class bytes class bytes", .method = 8,
	 .descriptor = true, .comment = "an entry comment", .time = 0x7a31, .date = 0x5a8c,
	 .eattr = 0x81a40000,
	 .lextra = "UT\x05\0\x03\x10\x20\x30\x40", .lextra_len = 9,
	 .cextra = "UT\x05\0\x03\x10\x20\x30\x40", .cextra_len = 9},
	{.name = "res/stored.txt", .data = "kept as it is", .method = 0, .time = 0x1234,
	 .date = 0x4321, .made_by = 0x0014},
	/* Alignment padding, as Android's zipalign writes it: no extra field at all. */
	{.name = "odd-extra", .data = "x", .method = 8, .lextra = "\0\0\0", .lextra_len = 3,
	 .zip64 = true},
};
#define NRICH (sizeof rich / sizeof rich[0])

static tc_jar *open_buf(const tc_buf *b, tc_error *err)
{
	tc_jar *jar = NULL;
	tc_error_clear(err);
	int rc = jar_open_buffer(&jar, b->data, b->len, "t.jar", err);
	cr_assert_eq(rc, err->code);
	return jar;
}

Test(jar_read, entries_of_every_kind)
{
	tc_buf b;
	zb_opts o = {.comment = "the jar comment"};
	zb_build(&b, rich, NRICH, &o, NULL);
	tc_error err;
	tc_jar *jar = open_buf(&b, &err);
	cr_assert(jar, "%s", ct_err(&err));
	cr_assert_eq(jar_count(jar), NRICH);
	cr_assert(jar_is_dir(jar, 0));
	cr_assert_not(jar_is_dir(jar, 1));
	tc_buf got;
	buf_init(&got);
	for (uint64_t i = 0; i < NRICH; i++) {
		cr_assert_str_eq(jar_name(jar, i), rich[i].name);
		jar_info info;
		jar_stat(jar, i, &info);
		cr_assert_eq(info.size, strlen(rich[i].data));
		cr_assert_eq(info.method, rich[i].method);
		cr_assert_eq(info.crc, (uint32_t)crc32(0, (const Bytef *)rich[i].data, (uInt)info.size));
		cr_assert_not(info.encrypted);
		cr_assert_eq(jar_read(jar, i, &got, 1 << 20, NULL, &err), TC_OK, "%s", ct_err(&err));
		cr_assert_eq(got.len, info.size);
		cr_assert_eq(memcmp(got.data, rich[i].data, got.len), 0);
	}
	/* Stored bytes are the content itself. */
	cr_assert_eq(memcmp(jar_raw(jar, 2), "kept as it is", 13), 0);
	cr_assert_eq(jar_read(jar, 1, &got, 10, NULL, &err), TC_ELIMIT);
	buf_free(&got);
	jar_close(jar);
	buf_free(&b);
}

Test(jar_read, zip64_end_records_and_fields)
{
	tc_buf b;
	zb_opts o = {.zip64_end = true};
	zb_build(&b, rich, NRICH, &o, NULL);
	tc_error err;
	tc_jar *jar = open_buf(&b, &err);
	cr_assert(jar, "%s", ct_err(&err));
	cr_assert_eq(jar_count(jar), NRICH);
	jar_info info;
	jar_stat(jar, 3, &info);
	cr_assert_eq(info.size, 1);
	tc_buf got;
	buf_init(&got);
	cr_assert_eq(jar_read(jar, 3, &got, 100, NULL, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(got.len, 1);
	cr_assert_eq(got.data[0], 'x');
	buf_free(&got);
	jar_close(jar);
	buf_free(&b);
}

/* n empty stored entries "e0", "e1", ... and an end record without Zip64 whose count
 * is n modulo 65,536, as writers without Zip64 make them. */
static void many_entries(tc_buf *b, int n)
{
	buf_init(b);
	uint32_t *offs = malloc((size_t)n * sizeof *offs);
	cr_assert(offs);
	char name[16];
	for (int i = 0; i < n; i++) {
		offs[i] = (uint32_t)b->len;
		int nl = snprintf(name, sizeof name, "e%d", i);
		p32(b, 0x04034b50);
		for (int k = 0; k < 11; k++)
			p16(b, 0);
		p16(b, (uint16_t)nl);
		p16(b, 0);
		buf_bytes(b, name, (size_t)nl);
	}
	size_t cd = b->len;
	for (int i = 0; i < n; i++) {
		int nl = snprintf(name, sizeof name, "e%d", i);
		p32(b, 0x02014b50);
		for (int k = 0; k < 12; k++)
			p16(b, 0);
		p16(b, (uint16_t)nl);
		for (int k = 0; k < 6; k++)
			p16(b, 0);
		p32(b, offs[i]);
		buf_bytes(b, name, (size_t)nl);
	}
	size_t size = b->len - cd;
	p32(b, 0x06054b50);
	p32(b, 0);
	p16(b, (uint16_t)(n & 0xFFFF));
	p16(b, (uint16_t)(n & 0xFFFF));
	p32(b, (uint32_t)size);
	p32(b, (uint32_t)cd);
	p16(b, 0);
	free(offs);
	cr_assert_eq(b->err, 0);
}

/* The JDK reads such jars of more than 65,535 entries; so do we. */
Test(jar_read, count_modulo_65536)
{
	enum { N = 65537 };
	tc_buf b;
	many_entries(&b, N);
	tc_error err;
	tc_jar *jar = open_buf(&b, &err);
	cr_assert(jar, "%s", ct_err(&err));
	cr_assert_eq(jar_count(jar), N);
	cr_assert_str_eq(jar_name(jar, N - 1), "e65536");
	jar_close(jar);
	buf_free(&b);
}

/* Bytes appended after the archive (a signature, a stray end record among them) do
 * not hide it, as with the JDK's ZipFile; an end record whose directory does not end
 * right at it is not taken for the real one. */
Test(jar_read, bytes_after_the_archive)
{
	tc_buf b;
	zb_build(&b, rich, NRICH, NULL, NULL);
	static const uint8_t stray[22] = {'P', 'K', 5, 6, 0, 0, 0, 0, 1, 0, 1, 0, 46, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	buf_bytes(&b, "trailing junk", 13);
	buf_bytes(&b, stray, sizeof stray);
	buf_bytes(&b, "PK", 2);
	tc_error err;
	tc_jar *jar = open_buf(&b, &err);
	cr_assert(jar, "%s", ct_err(&err));
	cr_assert_eq(jar_count(jar), NRICH);
	jar_close(jar);
	buf_free(&b);
}

/* Each damage: where it is made, the code and offset expected, words of the message. */
typedef void (*damage_fn)(tc_buf *b, const zb_where *w);

static void set_u16(tc_buf *b, size_t at, uint16_t v)
{
	b->data[at] = (uint8_t)v;
	b->data[at + 1] = (uint8_t)(v >> 8);
}

static void set_u32(tc_buf *b, size_t at, uint32_t v)
{
	set_u16(b, at, (uint16_t)v);
	set_u16(b, at + 2, (uint16_t)(v >> 16));
}

static void no_end(tc_buf *b, const zb_where *w)
{
	b->data[w->end] = 'X';
}

static void cd_outside(tc_buf *b, const zb_where *w)
{
	set_u32(b, w->end + 16, (uint32_t)b->len);
}

static void local_name(tc_buf *b, const zb_where *w)
{
	b->data[w->local[2] + 30] ^= 0x20; /* "res/..." -> "Res/..." */
}

static void local_crc(tc_buf *b, const zb_where *w)
{
	b->data[w->local[2] + 14] ^= 1;
}

static void local_method(tc_buf *b, const zb_where *w)
{
	set_u16(b, w->local[2] + 8, 8);
}

static void no_local(tc_buf *b, const zb_where *w)
{
	set_u32(b, w->central[2] + 42, (uint32_t)w->local[2] + 1);
}

static void count_off(tc_buf *b, const zb_where *w)
{
	set_u16(b, w->end + 10, 3);
	set_u16(b, w->end + 8, 3);
}

static void nul_name(tc_buf *b, const zb_where *w)
{
	b->data[w->central[2] + 46 + 3] = 0;
}

static void bytes_past(tc_buf *b, const zb_where *w)
{
	/* The stored entry claims more bytes than lie before the central directory. */
	set_u32(b, w->central[2] + 20, 100000);
	set_u32(b, w->central[2] + 24, 100000);
	set_u32(b, w->local[2] + 18, 100000);
	set_u32(b, w->local[2] + 22, 100000);
}

static void multi_disk(tc_buf *b, const zb_where *w)
{
	set_u16(b, w->end + 4, 1);
}

static void central_sig(tc_buf *b, const zb_where *w)
{
	b->data[w->central[1]] = 'Q';
}

static void zip64_missing(tc_buf *b, const zb_where *w)
{
	set_u32(b, w->central[2] + 24, 0xFFFFFFFF);
}

static const struct {
	const char *what;
	damage_fn fn;
	int code;
	int at;       /* -1 none; 0..7 local header of entry N; 10 + N central record; 20 end */
	const char *words;
} damages[] = {
	{"no end record", no_end, TC_EFORMAT, -1, "no zip end record"},
	{"directory outside", cd_outside, TC_EFORMAT, 20, "lies outside the archive"},
	{"local name", local_name, TC_EFORMAT, 2, "names another entry"},
	{"local CRC", local_crc, TC_EFORMAT, 2, "another CRC or size"},
	{"local method", local_method, TC_EFORMAT, 2, "another compression method"},
	{"no local header", no_local, TC_EFORMAT, -2, "no local header"},
	{"count", count_off, TC_EFORMAT, 20, "the end record counts 3 entries"},
	{"NUL in a name", nul_name, TC_EFORMAT, 12, "NUL byte"},
	{"bytes past", bytes_past, TC_EFORMAT, 2, "run past the start of the central directory"},
	{"multi-disk", multi_disk, TC_EUNSUPPORTED, 20, "multi-disk"},
	{"central signature", central_sig, TC_EFORMAT, 11, "record 1 is damaged"},
	{"Zip64 field missing", zip64_missing, TC_EFORMAT, 12, "Zip64 extra field is missing"},
};

Test(jar_read, damaged_archives_are_errors_with_offsets)
{
	for (size_t k = 0; k < sizeof damages / sizeof damages[0]; k++) {
		tc_buf b;
		zb_where w;
		zb_build(&b, rich, NRICH, NULL, &w);
		damages[k].fn(&b, &w);
		tc_error err;
		tc_jar *jar = open_buf(&b, &err);
		cr_assert_null(jar, "%s: opened", damages[k].what);
		cr_assert_eq(err.code, damages[k].code, "%s: %s", damages[k].what, ct_err(&err));
		cr_assert(strstr(err.message, damages[k].words), "%s: %s", damages[k].what, ct_err(&err));
		cr_assert(strstr(err.part, "t.jar"), "%s: %s", damages[k].what, ct_err(&err));
		int at = damages[k].at;
		uint32_t want = at == -1 ? TC_NO_OFFSET
		              : at == -2 ? (uint32_t)w.local[2] + 1
		              : at == 20 ? (uint32_t)w.end
		              : at >= 10 ? (uint32_t)w.central[at - 10] : (uint32_t)w.local[at];
		cr_assert_eq(err.offset, want, "%s: offset %u, want %u (%s)", damages[k].what,
		             err.offset, want, ct_err(&err));
		buf_free(&b);
	}
}

Test(jar_read, corrupt_bytes_are_found_when_read)
{
	tc_buf b;
	zb_where w;
	zb_build(&b, rich, NRICH, NULL, &w);
	b.data[w.data[2]] ^= 1;     /* the stored entry: its CRC no longer matches */
	b.data[w.data[1] + 3] ^= 0x55; /* the deflated one */
	tc_error err;
	tc_jar *jar = open_buf(&b, &err);
	cr_assert(jar, "%s", ct_err(&err));
	tc_buf got;
	buf_init(&got);
	cr_assert_eq(jar_read(jar, 2, &got, 1 << 20, NULL, &err), TC_EFORMAT);
	cr_assert(strstr(err.message, "CRC-32"), "%s", ct_err(&err));
	cr_assert(strstr(err.part, "t.jar!res/stored.txt"), "%s", ct_err(&err));
	tc_error_clear(&err);
	cr_assert_eq(jar_read(jar, 1, &got, 1 << 20, NULL, &err), TC_EFORMAT);
	cr_assert(strstr(err.part, "t.jar!a/B.class"), "%s", ct_err(&err));
	buf_free(&got);
	jar_close(jar);
	buf_free(&b);
}

Test(jar_read, sizes_deflate_cannot_reach)
{
	tc_buf b;
	zb_where w;
	zb_build(&b, rich, NRICH, NULL, &w);
	/* "odd-extra": 3 deflated bytes claiming 1,000,000 (its Zip64 field). */
	size_t z = w.central[3] + 46 + strlen("odd-extra") + 4;
	for (int k = 0; k < 8; k++)
		b.data[z + k] = (uint8_t)((uint64_t)1000000 >> (8 * k));
	set_u32(&b, w.local[3] + 22, 0xFFFFFFFF); /* the local size defers to the Zip64 one */
	tc_error err;
	tc_jar *jar = open_buf(&b, &err);
	cr_assert(jar, "%s", ct_err(&err));
	tc_buf got;
	buf_init(&got);
	cr_assert_eq(jar_read(jar, 3, &got, 1 << 30, NULL, &err), TC_EFORMAT);
	cr_assert(strstr(err.message, "cannot inflate"), "%s", ct_err(&err));
	cr_assert_eq(got.cap, 0, "nothing was allocated for the claimed size");
	buf_free(&got);
	jar_close(jar);
	buf_free(&b);
}

/* --- the writer, judged by libzip --------------------------------------------------- */

static char *tmp;

static void setup(void)
{
	tmp = ct_tmpdir();
}

static void teardown(void)
{
	ct_rm_rf(tmp);
	free(tmp);
}

static zip_t *zopen(const char *path)
{
	int ze = 0;
	zip_t *z = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
	cr_assert(z, "libzip cannot open %s: error %d", path, ze);
	return z;
}

/* Every field libzip shows of entry i, both archives. */
static void same_entry(zip_t *a, zip_t *b, zip_uint64_t i, bool same_bytes)
{
	zip_stat_t sa, sb;
	cr_assert_eq(zip_stat_index(a, i, 0, &sa), 0);
	cr_assert_eq(zip_stat_index(b, i, 0, &sb), 0);
	cr_assert_str_eq(sa.name, sb.name);
	cr_assert_eq(sa.mtime, sb.mtime, "%s: time", sa.name);
	cr_assert_eq(sa.size, sb.size, "%s: size", sa.name);
	if (same_bytes) {
		cr_assert_eq(sa.crc, sb.crc, "%s: crc", sa.name);
		cr_assert_eq(sa.comp_size, sb.comp_size, "%s: compressed size", sa.name);
		cr_assert_eq(sa.comp_method, sb.comp_method, "%s: method", sa.name);
	}
	zip_uint32_t la = 0, lb = 0;
	const char *ca = zip_file_get_comment(a, i, &la, ZIP_FL_ENC_RAW);
	const char *cb = zip_file_get_comment(b, i, &lb, ZIP_FL_ENC_RAW);
	cr_assert_eq(la, lb, "%s: comment", sa.name);
	cr_assert(la == 0 || memcmp(ca, cb, la) == 0, "%s: comment", sa.name);
	zip_uint8_t oa, ob;
	zip_uint32_t xa, xb;
	cr_assert_eq(zip_file_get_external_attributes(a, i, 0, &oa, &xa), 0);
	cr_assert_eq(zip_file_get_external_attributes(b, i, 0, &ob, &xb), 0);
	cr_assert_eq(oa, ob, "%s: system", sa.name);
	cr_assert_eq(xa, xb, "%s: attributes", sa.name);
	static const zip_flags_t where[] = {ZIP_FL_CENTRAL, ZIP_FL_LOCAL};
	for (int k = 0; k < 2; k++) {
		zip_int16_t na = zip_file_extra_fields_count(a, i, where[k]);
		zip_int16_t nb = zip_file_extra_fields_count(b, i, where[k]);
		cr_assert_eq(na, nb, "%s: extra fields", sa.name);
		for (zip_int16_t e = 0; e < na; e++) {
			zip_uint16_t ia, ib, lea, leb;
			const zip_uint8_t *da = zip_file_extra_field_get(a, i, (zip_uint16_t)e, &ia, &lea, where[k]);
			const zip_uint8_t *db = zip_file_extra_field_get(b, i, (zip_uint16_t)e, &ib, &leb, where[k]);
			cr_assert(da && db);
			cr_assert_eq(ia, ib);
			cr_assert_eq(lea, leb);
			cr_assert_eq(memcmp(da, db, lea), 0, "%s: extra field %u", sa.name, ia);
		}
	}
	/* The content, inflated and CRC-checked by libzip. */
	char got[4096];
	zip_file_t *f = zip_fopen_index(b, i, 0);
	cr_assert(f, "%s: libzip cannot open it", sa.name);
	zip_int64_t n = zip_fread(f, got, sizeof got);
	cr_assert_eq((zip_uint64_t)n, sb.size, "%s: read %lld", sa.name, (long long)n);
	zip_fclose(f);
}

/* The source archive b written to tmp/in.jar and opened, and a writer started on
 * tmp/out.jar. */
typedef struct pair {
	char *in, *out;
	tc_jar *src;
	tc_jar_writer *w;
} pair;

static void pair_open(pair *p, const tc_buf *b)
{
	p->in = ct_path(tmp, "in.jar");
	p->out = ct_path(tmp, "out.jar");
	ct_write(p->in, b->data, b->len);
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(jar_open(&p->src, p->in, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(jar_writer_open(&p->w, p->out, &err), TC_OK, "%s", ct_err(&err));
}

static void pair_close(pair *p)
{
	jar_close(p->src);
	free(p->in);
	free(p->out);
}

Test(jar_write, copies_keep_every_field, .init = setup, .fini = teardown)
{
	tc_buf b;
	zb_opts o = {.comment = "the jar comment"};
	zb_build(&b, rich, NRICH, &o, NULL);
	pair p;
	pair_open(&p, &b);
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(jar_writer_copy_comment(p.w, p.src, &err), TC_OK);
	for (uint64_t i = 0; i < NRICH; i++)
		cr_assert_eq(jar_writer_copy(p.w, p.src, i, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(jar_writer_finish(p.w, &err), TC_OK, "%s", ct_err(&err));

	zip_t *za = zopen(p.in), *zb = zopen(p.out);
	cr_assert_eq(zip_get_num_entries(zb, 0), (zip_int64_t)NRICH);
	for (zip_uint64_t i = 0; i < NRICH; i++) {
		if (i == 3)
			continue; /* its Zip64 field is gone: compared below */
		same_entry(za, zb, i, true);
	}

	int cl = 0;
	const char *c = zip_get_archive_comment(zb, &cl, ZIP_FL_ENC_RAW);
	cr_assert_eq(cl, (int)strlen("the jar comment"));
	cr_assert_eq(memcmp(c, "the jar comment", (size_t)cl), 0);
	zip_discard(za);
	zip_discard(zb);

	/* Read back by the module itself: raw bytes identical, descriptors gone, the
	 * unparsable local extra kept, the Zip64 field dropped (nothing needs it). */
	tc_jar *back;
	cr_assert_eq(jar_open(&back, p.out, &err), TC_OK, "%s", ct_err(&err));
	for (uint64_t i = 0; i < NRICH; i++) {
		jar_info x, y;
		jar_stat(p.src, i, &x);
		jar_stat(back, i, &y);
		cr_assert(x.size == y.size && x.comp_size == y.comp_size && x.crc == y.crc &&
		          x.method == y.method, "entry %llu", (unsigned long long)i);
		cr_assert_eq(memcmp(jar_raw(p.src, i), jar_raw(back, i), x.comp_size), 0);
	}
	size_t len;
	uint8_t *o2 = (uint8_t *)ct_read(p.out, &len);
	size_t off = 0;
	for (uint64_t i = 0; i < NRICH; i++) {
		cr_assert_eq(memcmp(o2 + off, "PK\3\4", 4), 0, "entry %llu at %zu", (unsigned long long)i, off);
		cr_assert_eq(o2[off + 6] & 8, 0, "entry %llu: no data descriptor", (unsigned long long)i);
		uint16_t nl = (uint16_t)(o2[off + 26] | o2[off + 27] << 8);
		uint16_t xl = (uint16_t)(o2[off + 28] | o2[off + 29] << 8);
		cr_assert_eq(xl, rich[i].lextra_len, "entry %llu: local extra", (unsigned long long)i);
		cr_assert(xl == 0 || memcmp(o2 + off + 30 + nl, rich[i].lextra, xl) == 0);
		jar_info y;
		jar_stat(back, i, &y);
		off += 30 + nl + xl + y.comp_size;
	}
	cr_assert_eq(memcmp(o2 + off, "PK\1\2", 4), 0, "the directory follows the last entry");
	/* Central records keep their extra fields, except the source's Zip64 field (libzip
	 * does not show that one): nothing in the new archive needs it, and its offset
	 * would be stale. */
	for (uint64_t i = 0; i < NRICH; i++) {
		uint16_t nl = (uint16_t)(o2[off + 28] | o2[off + 29] << 8);
		uint16_t xl = (uint16_t)(o2[off + 30] | o2[off + 31] << 8);
		uint16_t ml = (uint16_t)(o2[off + 32] | o2[off + 33] << 8);
		cr_assert_eq(xl, rich[i].cextra_len, "entry %llu: central extra", (unsigned long long)i);
		cr_assert(xl == 0 || memcmp(o2 + off + 46 + nl, rich[i].cextra, xl) == 0);
		off += 46 + (size_t)nl + xl + ml;
	}
	cr_assert_eq(memcmp(o2 + off, "PK\5\6", 4), 0, "the end record follows the directory");
	free(o2);
	jar_close(back);
	pair_close(&p);
	buf_free(&b);
}

Test(jar_write, replaced_entries_keep_metadata, .init = setup, .fini = teardown)
{
	tc_buf b;
	zb_build(&b, rich, NRICH, NULL, NULL);
	pair p;
	pair_open(&p, &b);
	tc_error err;
	tc_error_clear(&err);
	const char *nc = "new class bytes, longer than before";
	uint8_t def[256];
	size_t dl = raw_deflate(nc, strlen(nc), def, sizeof def);
	uint32_t crc = (uint32_t)crc32(0, (const Bytef *)nc, (uInt)strlen(nc));
	const char *ns = "new stored";
	uint32_t crc2 = (uint32_t)crc32(0, (const Bytef *)ns, (uInt)strlen(ns));
	cr_assert_eq(jar_writer_copy(p.w, p.src, 0, &err), TC_OK);
	cr_assert_eq(jar_writer_replace(p.w, p.src, 1, 8, def, dl, strlen(nc), crc, &err), TC_OK);
	cr_assert_eq(jar_writer_replace(p.w, p.src, 2, 0, (const uint8_t *)ns, strlen(ns), strlen(ns), crc2,
	                                &err), TC_OK);
	/* A stored entry's length is its size. */
	cr_assert_eq(jar_writer_replace(p.w, p.src, 3, 0, (const uint8_t *)ns, 3, 4, 0, &err), TC_EARG);
	tc_error_clear(&err);
	cr_assert_eq(jar_writer_finish(p.w, &err), TC_OK, "%s", ct_err(&err));

	zip_t *za = zopen(p.in), *zb = zopen(p.out);
	cr_assert_eq(zip_get_num_entries(zb, 0), 3);
	same_entry(za, zb, 0, true);
	zip_stat_t st;
	cr_assert_eq(zip_stat_index(zb, 1, 0, &st), 0);
	cr_assert_str_eq(st.name, "a/B.class");
	cr_assert_eq(st.size, strlen(nc));
	cr_assert_eq(st.comp_method, ZIP_CM_DEFLATE);
	cr_assert_eq(zip_stat_index(zb, 2, 0, &st), 0);
	cr_assert_eq(st.comp_method, ZIP_CM_STORE);
	char got[64] = {0};
	zip_file_t *f = zip_fopen_index(zb, 1, 0);
	cr_assert_eq(zip_fread(f, got, sizeof got), (zip_int64_t)strlen(nc));
	zip_fclose(f);
	cr_assert_str_eq(got, nc);
	/* Name, time, comment, attributes and extra fields are the source's. */
	zip_uint32_t cl;
	const char *c = zip_file_get_comment(zb, 1, &cl, ZIP_FL_ENC_RAW);
	cr_assert_eq(cl, strlen("an entry comment"));
	cr_assert_eq(memcmp(c, "an entry comment", cl), 0);
	zip_stat_t s0;
	zip_stat_index(za, 1, 0, &s0);
	cr_assert_eq(zip_stat_index(zb, 1, 0, &st), 0);
	cr_assert_eq(s0.mtime, st.mtime);
	zip_discard(za);
	zip_discard(zb);
	pair_close(&p);
	buf_free(&b);
}

Test(jar_write, zip64_end_past_65535_entries, .init = setup, .fini = teardown)
{
	enum { N = 70000 };
	tc_buf b;
	many_entries(&b, N);
	pair p;
	pair_open(&p, &b);
	tc_error err;
	tc_error_clear(&err);
	for (uint64_t i = 0; i < N; i++)
		cr_assert_eq(jar_writer_copy(p.w, p.src, i, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(jar_writer_finish(p.w, &err), TC_OK, "%s", ct_err(&err));
	zip_t *z = zopen(p.out);
	cr_assert_eq(zip_get_num_entries(z, 0), N);
	cr_assert_str_eq(zip_get_name(z, N - 1, ZIP_FL_ENC_RAW), "e69999");
	zip_discard(z);
	tc_jar *back;
	cr_assert_eq(jar_open(&back, p.out, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(jar_count(back), N);
	cr_assert_str_eq(jar_name(back, N - 1), "e69999");
	jar_close(back);
	pair_close(&p);
	buf_free(&b);
}

Test(jar_write, comment_that_could_pass_for_an_end_record, .init = setup, .fini = teardown)
{
	tc_buf b;
	zb_opts o = {.comment = "looks like PK\5\6 to a reader"};
	zb_build(&b, rich, NRICH, &o, NULL);
	tc_error err;
	tc_jar *src = open_buf(&b, &err);
	cr_assert(src, "%s", ct_err(&err));
	char *out = ct_path(tmp, "out.jar");
	tc_jar_writer *w;
	cr_assert_eq(jar_writer_open(&w, out, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(jar_writer_copy_comment(w, src, &err), TC_EFORMAT);
	cr_assert(strstr(err.message, "end-record signature"), "%s", ct_err(&err));
	jar_writer_abort(w);
	cr_assert_not(ct_exists(out));
	jar_close(src);
	free(out);
	buf_free(&b);
}

Test(jar_write, empty_archive_is_its_end_record, .init = setup, .fini = teardown)
{
	char *out = ct_path(tmp, "empty.jar");
	tc_error err;
	tc_error_clear(&err);
	tc_jar_writer *w;
	cr_assert_eq(jar_writer_open(&w, out, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(jar_writer_finish(w, &err), TC_OK, "%s", ct_err(&err));
	size_t len;
	char *data = ct_read(out, &len);
	cr_assert_eq(len, 22);
	cr_assert_eq(memcmp(data, "PK\5\6", 4), 0);
	free(data);
	tc_jar *back;
	cr_assert_eq(jar_open(&back, out, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(jar_count(back), 0);
	jar_close(back);
	free(out);
}

Test(jar_write, abort_and_failure_leave_nothing, .init = setup, .fini = teardown)
{
	tc_buf b;
	zb_build(&b, rich, NRICH, NULL, NULL);
	pair p;
	pair_open(&p, &b);
	tc_error err;
	tc_error_clear(&err);
	cr_assert_eq(jar_writer_copy(p.w, p.src, 1, &err), TC_OK);
	jar_writer_abort(p.w);
	cr_assert_not(ct_exists(p.out));
	char *tmp0 = ct_path(tmp, "out.jar.tc-tmp0");
	cr_assert_not(ct_exists(tmp0), "the temporary file is removed");
	/* A destination in a directory that does not exist. */
	char *bad = ct_path(tmp, "no/such/dir/out.jar");
	cr_assert_eq(jar_writer_open(&p.w, bad, &err), TC_EIO);
	cr_assert(strstr(err.part, "no/such/dir/out.jar"), "%s", ct_err(&err));
	free(tmp0);
	free(bad);
	pair_close(&p);
	buf_free(&b);
}

/* The local extra block of the entry whose local header is at `off`: every field whole
 * (4.5.1, what `unzip -t` checks), exactly one alignment field (0xd935), last, holding
 * the alignment and zeros, and the data aligned to it. Returns the offset of the next
 * local header. */
static size_t check_aligned(const uint8_t *z, size_t off, uint16_t want_align, const char *name)
{
	uint16_t nl = (uint16_t)(z[off + 26] | z[off + 27] << 8);
	uint16_t xl = (uint16_t)(z[off + 28] | z[off + 29] << 8);
	uint32_t cs = (uint32_t)z[off + 18] | (uint32_t)z[off + 19] << 8 | (uint32_t)z[off + 20] << 16 |
	              (uint32_t)z[off + 21] << 24;
	const uint8_t *x = z + off + 30 + nl;
	size_t p = 0, aligns = 0, last = 0;
	while (p + 4 <= xl) {
		uint16_t id = (uint16_t)(x[p] | x[p + 1] << 8), n = (uint16_t)(x[p + 2] | x[p + 3] << 8);
		cr_assert_leq(p + 4 + n, xl, "%s: field 0x%04x of %u bytes runs past the block", name, id, n);
		if (id == 0xd935) {
			aligns++;
			cr_assert_geq(n, 2, "%s: alignment field too short", name);
			cr_assert_eq(x[p + 4] | x[p + 5] << 8, want_align, "%s: alignment", name);
			for (size_t k = 6; k < 4 + (size_t)n; k++)
				cr_assert_eq(x[p + k], 0, "%s: padding", name);
		} else {
			cr_assert_neq(id, 0, "%s: old zero padding left", name);
		}
		last = p;
		p += 4 + (size_t)n;
	}
	cr_assert_eq(p, xl, "%s: %zu bytes after the last field", name, (size_t)xl - p);
	cr_assert_eq(aligns, 1, "%s: %zu alignment fields", name, aligns);
	cr_assert_eq(x[last] | x[last + 1] << 8, 0xd935, "%s: the alignment field is last", name);
	cr_assert_eq((off + 30 + nl + xl) % want_align, 0, "%s: data at %zu", name, off + 30 + nl + xl);
	return off + 30 + nl + xl + cs;
}

/* Entry i of zb, read by libzip, holds exactly the string want. */
static void expect_entry_data(zip_t *zb, zip_uint64_t i, const char *want)
{
	char got[64] = {0};
	zip_file_t *zf = zip_fopen_index(zb, i, 0);
	cr_assert(zf, "entry %llu opens", (unsigned long long)i);
	cr_assert_eq(zip_fread(zf, got, sizeof got), (zip_int64_t)strlen(want));
	zip_fclose(zf);
	cr_assert_str_eq(got, want);
}

/* zipalign before build tools 24 padded with bare zero bytes (1 to 3 of them, not a
 * field); apksigner and zipalign -p write a 0xd935 field. The writer must leave one
 * alignment field and nothing that reads as a broken field (issue 18: "00 00 35 d9 ..."
 * made `unzip -t` report "EF block length (55605 bytes) exceeds remaining EF data"). */
static const zb_entry padded[] = {
	{.name = "a", .data = "one", .lextra = "\0", .lextra_len = 1},
	{.name = "bb", .data = "two", .lextra = "\0\0", .lextra_len = 2},
	{.name = "ccc", .data = "three", .lextra = "\0\0\0", .lextra_len = 3},
	{.name = "dddd", .data = "four", .lextra = "\0\0\0\0\0\0", .lextra_len = 6},
	{.name = "e", .data = "an old alignment field", .lextra = "\x35\xd9\x03\0\x04\0\0", .lextra_len = 7},
	{.name = "f", .data = "a time field and padding", .lextra = "UT\x05\0\x03\x10\x20\x30\x40\0\0",
	 .lextra_len = 11},
	{.name = "lib/arm64-v8a/libx.so", .data = "ELF", .lextra = "\0\0", .lextra_len = 2},
	{.name = "g", .data = "a field longer than the block", .lextra = "\x01\x02\xff\0\0", .lextra_len = 5},
};
#define NPADDED (sizeof padded / sizeof padded[0])

Test(jar_write, alignment_field_replaces_old_padding, .init = setup, .fini = teardown)
{
	tc_buf b;
	zb_build(&b, padded, NPADDED, NULL, NULL);
	pair p;
	pair_open(&p, &b);
	tc_error err;
	tc_error_clear(&err);
	jar_writer_align(p.w, 4, 4096);
	for (uint64_t i = 0; i < NPADDED; i++)
		cr_assert_eq(jar_writer_copy(p.w, p.src, i, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(jar_writer_finish(p.w, &err), TC_OK, "%s", ct_err(&err));
	size_t len;
	uint8_t *z = (uint8_t *)ct_read(p.out, &len);
	size_t off = 0;
	for (size_t i = 0; i < NPADDED; i++)
		off = check_aligned(z, off, strstr(padded[i].name, ".so") ? 4096 : 4, padded[i].name);
	cr_assert_eq(memcmp(z + off, "PK\1\2", 4), 0, "the directory follows the last entry");
	tc_jar *back;
	cr_assert_eq(jar_open(&back, p.out, &err), TC_OK, "%s", ct_err(&err));
	zip_t *zb = zopen(p.out);
	for (zip_uint64_t i = 0; i < NPADDED; i++) {
		zip_uint16_t id, n;
		const zip_uint8_t *d = zip_file_extra_field_get(zb, i, 0, &id, &n, ZIP_FL_LOCAL);
		if (i == 5) {
			cr_assert(d && id == 0x5455 && n == 5 && !memcmp(d, "\x03\x10\x20\x30\x40", 5),
			          "the time field of f is kept, first");
		}
		expect_entry_data(zb, i, padded[i].data);
	}
	zip_discard(zb);
	jar_close(back);
	free(z);
	pair_close(&p);
	buf_free(&b);
}

/* Without alignment (a jar, an APK's deflated entries) the local extra block is copied
 * field by field: a field longer than the block (a local header whose extra length is
 * wrong, its block running into the data; found by the APK fuzzer) is dropped, with what
 * follows it, so that every field of the new header is whole; 1 to 3 bytes of old
 * padding at the end stay as they were. */
static const zb_entry overlong[] = {
	{.name = "h", .data = "a field longer than the block", .lextra = "\x01\x02\xff\0\0", .lextra_len = 5},
	{.name = "i", .data = "old padding", .lextra = "\0\0", .lextra_len = 2},
	{.name = "j", .data = "a time field, then too long a field",
	 .lextra = "UT\x05\0\x03\x10\x20\x30\x40\x01\x02\x40\0\0\0", .lextra_len = 15},
};

Test(jar_write, a_field_longer_than_the_block_is_dropped_without_alignment, .init = setup, .fini = teardown)
{
	tc_buf b;
	zb_build(&b, overlong, 3, NULL, NULL);
	pair p;
	pair_open(&p, &b);
	tc_error err;
	tc_error_clear(&err);
	for (uint64_t i = 0; i < 3; i++)
		cr_assert_eq(jar_writer_copy(p.w, p.src, i, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_eq(jar_writer_finish(p.w, &err), TC_OK, "%s", ct_err(&err));
	size_t len;
	uint8_t *z = (uint8_t *)ct_read(p.out, &len);
	static const uint16_t want_xl[] = {0, 2, 9};
	size_t off = 0;
	for (size_t i = 0; i < 3; i++) {
		uint16_t nl = (uint16_t)(z[off + 26] | z[off + 27] << 8);
		uint16_t xl = (uint16_t)(z[off + 28] | z[off + 29] << 8);
		uint32_t cs = (uint32_t)z[off + 18] | (uint32_t)z[off + 19] << 8 | (uint32_t)z[off + 20] << 16 |
		              (uint32_t)z[off + 21] << 24;
		const uint8_t *x = z + off + 30 + nl;
		cr_expect_eq(xl, want_xl[i], "%s: %u bytes of extra block", overlong[i].name, xl);
		for (size_t q = 0; q + 4 <= xl;) {
			size_t n = (size_t)(x[q + 2] | x[q + 3] << 8);
			cr_expect_leq(q + 4 + n, xl, "%s: a field runs past the block", overlong[i].name);
			q += 4 + n;
		}
		off += 30 + nl + xl + cs;
	}
	zip_t *zb = zopen(p.out);
	for (zip_uint64_t i = 0; i < 3; i++)
		expect_entry_data(zb, i, overlong[i].data);
	zip_discard(zb);
	free(z);
	pair_close(&p);
	buf_free(&b);
}

Test(jar_read, a_name_twice_is_found_by_jar_check_unique)
{
	static const zb_entry twice[] = {
		{.name = "a", .data = "1"}, {.name = "b", .data = "2"}, {.name = "ab", .data = "3"},
		{.name = "b", .data = "4", .method = 8},
	};
	tc_buf b;
	zb_where w;
	zb_build(&b, twice, 4, NULL, &w);
	tc_error err;
	tc_jar *jar = open_buf(&b, &err);
	cr_assert(jar, "the reader takes it (the JVM does): %s", ct_err(&err));
	cr_expect_eq(jar_count(jar), 4);
	cr_expect_eq(jar_check_unique(jar, &err), TC_EFORMAT);
	cr_expect_eq(err.offset, w.local[3], "at the second one");
	cr_expect(strstr(err.part, "t.jar!b"), "%s", ct_err(&err));
	cr_expect(strstr(err.message, "twice (local headers at"), "%s", ct_err(&err));
	jar_close(jar);
	buf_free(&b);
	zb_build(&b, twice, 3, NULL, NULL);
	jar = open_buf(&b, &err);
	cr_assert(jar);
	cr_expect_eq(jar_check_unique(jar, &err), TC_OK, "%s", ct_err(&err));
	jar_close(jar);
	buf_free(&b);
}

/* A jar cut short while it is mapped (a build still writing it): the pages past the new
 * end read as zeros instead of raising SIGBUS, the entry then fails its CRC check, and
 * jar_damaged says why (containers/map_guard.h). */
Test(jar_read, cut_short_while_mapped)
{
	/* eight stored entries of 4000 bytes (the builder's largest): about 32 KB */
	static char data[4001];
	for (size_t i = 0; i < sizeof data - 1; i++)
		data[i] = (char)('a' + i % 23);
	zb_entry es[8];
	static const char *const names[8] = {"e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7"};
	for (int i = 0; i < 8; i++)
		es[i] = (zb_entry){.name = names[i], .data = data, .method = 0};
	tc_buf b;
	zb_build(&b, es, 8, &(zb_opts){0}, NULL);
	char path[] = "/tmp/tc-jar-cut.XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, b.data, b.len), (ssize_t)b.len);
	tc_error err;
	tc_error_clear(&err);
	tc_jar *jar = NULL;
	cr_assert_eq(jar_open(&jar, path, &err), TC_OK, "%s", ct_err(&err));
	cr_assert_not(jar_damaged(jar));
	jar_release(jar); /* its pages given back: read again from the file */
	cr_assert_eq(ftruncate(fd, 4096), 0);
	tc_buf got;
	buf_init(&got);
	int rc = jar_read(jar, 6, &got, 1 << 20, NULL, &err); /* past the cut */
	cr_assert_neq(rc, TC_OK, "the zeros past the cut pass the CRC check");
	cr_assert(jar_damaged(jar));
	jar_close(jar);
	close(fd);
	unlink(path);
	buf_free(&got);
	buf_free(&b);
}

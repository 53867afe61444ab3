/* The jar module's writer (jar.h): a new archive streamed entry by entry to a temporary
 * file beside its destination, each entry a raw copy of one the reader indexed
 * (jar_read.c) or new bytes under its name and metadata, then the central directory. */
/* MADV_DONTNEED is not POSIX. */
#define _DEFAULT_SOURCE
#include "containers/jar.h"
#include "bytes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "containers/jar_format.h"

/* APPNOTE.TXT 4.4.3: the version needed to extract what this writer writes. */
#define VERSION_DEFLATE 20
#define VERSION_ZIP64 45
/* Entries copied from a mapped archive are written in pieces of this size, each given
 * back once written (add_entry). */
#define RELEASE_PIECE ((uint64_t)8 << 20)

typedef struct wentry {
	const entry *src;
	uint16_t needed, flags, method;
	uint32_t crc;
	uint64_t csize, usize, local;
} wentry;

struct tc_jar_writer {
	char *path, *tmp;
	FILE *f;
	uint64_t pos;
	int ioerr;        /* errno of the first failed write; later writes are skipped */
	wentry *e;
	size_t n, cap;
	const uint8_t *comment;
	uint16_t comment_len;
	uint32_t align, so_align; /* of stored entries' data; 0: none */
	uint8_t extra[MAX16 + 1]; /* an extra block being rewritten */
	entry **own;      /* the entries jar_writer_add made (wentry.src points at them) */
	size_t nown, capown;
};

void jar_writer_align(tc_jar_writer *w, uint32_t align, uint32_t so_align)
{
	w->align = align;
	w->so_align = so_align;
}


static void put(tc_jar_writer *w, const void *p, size_t n)
{
	if (!w->ioerr && n && fwrite(p, 1, n, w->f) != n)
		w->ioerr = errno ? errno : EIO;
	w->pos += n;
}

static uint32_t low32(uint64_t v)
{
	return v >= MAX32 ? MAX32 : (uint32_t)v;
}

#define EXTRA_ALIGN 0xd935 /* Android's (apksigner, zipalign -p): u16 alignment, then zeros */

/* An extra block rebuilt for the new archive (4.5.1: fields of id, length, data), into
 * w->extra: the source's fields without its Zip64 field (this writer adds its own where
 * needed, its values would be stale), then the `nz64` values z64 as a new Zip64 field.
 * With `align`, also without an alignment field or the empty fields of id 0 that old
 * zipalign's zero padding parses as (the caller adds a new alignment field). What does
 * not parse as fields: 1 to 3 bytes left (old zipalign's padding) are kept as they are
 * when nothing follows them, and dropped when a field would follow: behind them, the new
 * field would be read as part of a field of the old bytes (`unzip -t`: "bad extra-field
 * entry"); a field longer than the block is dropped, with what follows it: a reader of
 * the new header would read past the block (a local header whose extra length is wrong,
 * its block running into the entry's data). Returns the length, or -1 when the result
 * would pass 65,535 bytes. */
static long rebuild_extra(tc_jar_writer *w, const uint8_t *x, size_t len, const uint64_t *z64,
                          int nz64, bool align)
{
	size_t out = 0, p = 0;
	while (len - p >= 4) {
		uint16_t id = get_le2(x + p);
		size_t n = 4 + (size_t)get_le2(x + p + 2);
		if (n > len - p)
			break;
		if (id != EXTRA_ZIP64 && !(align && (id == EXTRA_ALIGN || (id == 0 && n == 4)))) {
			memcpy(w->extra + out, x + p, n);
			out += n;
		}
		p += n;
	}
	if (p < len && len - p < 4 && nz64 == 0 && !align) {
		memcpy(w->extra + out, x + p, len - p);
		out += len - p;
	}
	if (nz64 > 0) {
		if (out + 4 + 8 * (size_t)nz64 > MAX16)
			return -1;
		put_le2(w->extra + out, EXTRA_ZIP64);
		put_le2(w->extra + out + 2, (uint16_t)(8 * nz64));
		out += 4;
		for (int k = 0; k < nz64; k++, out += 8)
			put_le8(w->extra + out, z64[k]);
	}
	return (long)out;
}

int jar_writer_open(tc_jar_writer **out, const char *path, tc_error *err)
{
	*out = NULL;
	tc_jar_writer *w = calloc(1, sizeof *w);
	size_t n = strlen(path) + 32;
	if (!w || !(w->path = strdup(path)) || !(w->tmp = malloc(n))) {
		if (w)
			free(w->path);
		free(w);
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, path, "no memory");
	}
	/* O_EXCL on a name of our own; mode 0666 lets the umask decide, as for any file
	 * the build creates. */
	int fd = -1;
	for (int k = 0; k < 100 && fd < 0; k++) {
		snprintf(w->tmp, n, "%s.tc-tmp%d", path, k);
		fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || !(w->f = fdopen(fd, "wb"))) {
		int rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, path, "cannot create %s: %s", w->tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			remove(w->tmp);
		}
		free(w->tmp);
		free(w->path);
		free(w);
		return rc;
	}
	setvbuf(w->f, NULL, _IOFBF, (size_t)1 << 20);
	*out = w;
	return TC_OK;
}

/* 4.3.7: the local header; sizes and CRC in place (no data descriptor), in a Zip64
 * field when they do not fit in 32 bits. */
static int add_entry(tc_jar_writer *w, wentry *we, const uint8_t *data, bool mapped, const char *label,
                     tc_error *err)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;
		wentry *e = realloc(w->e, cap * sizeof *e);
		if (!e)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, label, "no memory");
		w->e = e;
		w->cap = cap;
	}
	const entry *s = we->src;
	we->local = w->pos;
	we->flags &= (uint16_t)~FLAG_DESCRIPTOR;
	bool z64 = we->usize >= MAX32 || we->csize >= MAX32;
	uint64_t v[2] = {we->usize, we->csize};
	bool align = w->align && we->method == 0;
	long xlen = rebuild_extra(w, s->lextra, s->lextra_len, v, z64 ? 2 : 0, align);
	if (xlen < 0)
		return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, label, "no room for a Zip64 extra field");
	if (z64 && we->needed < VERSION_ZIP64)
		we->needed = VERSION_ZIP64;
	if (align) {
		/* the padding goes inside an alignment field of at least 6 bytes (id, size,
		 * u16 alignment), as apksigner writes it: zeros outside a field would be read
		 * as the header of one */
		uint32_t a = w->align;
		size_t nlen = s->name_len;
		if (w->so_align && nlen > 3 && !memcmp(s->name + nlen - 3, ".so", 3))
			a = w->so_align;
		uint64_t at = w->pos + LOCAL_LEN + nlen + (uint64_t)xlen;
		size_t pad = (size_t)((a - (at + 6) % a) % a) + 6;
		if ((size_t)xlen + pad > MAX16)
			return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, label, "no room for an alignment field");
		put_le2(w->extra + xlen, EXTRA_ALIGN);
		put_le2(w->extra + xlen + 2, (uint16_t)(pad - 4));
		put_le2(w->extra + xlen + 4, (uint16_t)a);
		memset(w->extra + xlen + 6, 0, pad - 6);
		xlen += (long)pad;
	}
	uint8_t h[LOCAL_LEN];
	put_le4(h, SIG_LOCAL);
	put_le2(h + 4, we->needed);
	put_le2(h + 6, we->flags);
	put_le2(h + 8, we->method);
	put_le2(h + 10, s->time);
	put_le2(h + 12, s->date);
	put_le4(h + 14, we->crc);
	put_le4(h + 18, z64 ? MAX32 : (uint32_t)we->csize);
	put_le4(h + 22, z64 ? MAX32 : (uint32_t)we->usize);
	put_le2(h + 26, s->name_len);
	put_le2(h + 28, (uint16_t)xlen);
	put(w, h, sizeof h);
	put(w, s->name, s->name_len);
	put(w, w->extra, (size_t)xlen);
	/* Bytes from a mapped archive are written a piece at a time, each piece's pages
	 * given back once written (they stay in the page cache): copying a large asset
	 * does not hold it all. */
	for (uint64_t done = 0, piece; done < we->csize; done += piece) {
		piece = we->csize - done < RELEASE_PIECE ? we->csize - done : RELEASE_PIECE;
		put(w, data + done, (size_t)piece);
		uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
		uintptr_t a = ((uintptr_t)(data + done) + page - 1) & ~(page - 1);
		uintptr_t b = ((uintptr_t)(data + done) + (uintptr_t)piece) & ~(page - 1);
		if (mapped && we->csize > RELEASE_PIECE && b > a)
			madvise((void *)a, (size_t)(b - a), MADV_DONTNEED);
	}
	w->e[w->n++] = *we;
	if (w->ioerr)
		return tc_fail(err, TC_EIO, TC_NO_OFFSET, w->path, "cannot write: %s", strerror(w->ioerr));
	return TC_OK;
}

int jar_writer_copy(tc_jar_writer *w, const tc_jar *src, uint64_t i, tc_error *err)
{
	const entry *s = &src->e[i];
	wentry we = {s, s->needed, s->flags, s->method, s->crc, s->csize, s->usize, 0};
	char label[1600];
	entry_label(src, i, label, sizeof label);
	return add_entry(w, &we, src->base + s->data, src->map != NULL, label, err);
}

int jar_writer_replace(tc_jar_writer *w, const tc_jar *src, uint64_t i, uint16_t method,
                       const uint8_t *data, size_t len, uint64_t size, uint32_t crc,
                       tc_error *err)
{
	const entry *s = &src->e[i];
	char label[1600];
	entry_label(src, i, label, sizeof label);
	if ((method != 0 && method != 8) || (method == 0 && len != size))
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, label, "cannot write method %u", method);
	uint16_t needed = s->needed < VERSION_DEFLATE ? VERSION_DEFLATE : s->needed;
	/* Bits 1-2 describe the source's deflater, and bit 0 its encryption: neither
	 * holds for the new bytes. */
	uint16_t flags = s->flags & (uint16_t)~(FLAG_DEFLATE_OPTS | FLAG_ENCRYPTED);
	wentry we = {s, needed, flags, method, crc, len, size, 0};
	return add_entry(w, &we, data, false, label, err);
}

int jar_writer_add(tc_jar_writer *w, const char *name, uint16_t method, const uint8_t *data, size_t len,
                   uint64_t size, uint32_t crc, tc_error *err)
{
	size_t nlen = strlen(name);
	if (nlen == 0 || nlen > MAX16 || name[nlen - 1] == '/')
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, w->path, "cannot add an entry named '%s'", name);
	if ((method != 0 && method != 8) || (method == 0 && len != size))
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, name, "cannot write method %u", method);
	if (w->nown == w->capown) {
		size_t cap = w->capown ? w->capown * 2 : 64;
		entry **own = realloc(w->own, cap * sizeof *own);
		if (!own)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, name, "no memory");
		w->own = own;
		w->capown = cap;
	}
	/* the entry and its name in one block, freed with the writer */
	entry *e = calloc(1, sizeof *e + nlen + 1);
	if (!e)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, name, "no memory");
	w->own[w->nown++] = e;
	char *copy = (char *)(e + 1);
	memcpy(copy, name, nlen + 1);
	bool utf8 = false;
	for (size_t k = 0; k < nlen; k++)
		utf8 |= (unsigned char)name[k] >= 0x80;
	e->name = copy;
	e->name_len = (uint16_t)nlen;
	e->made_by = VERSION_DEFLATE; /* MS-DOS attributes (none), APPNOTE 2.0 */
	e->needed = method == 8 ? VERSION_DEFLATE : 10;
	e->flags = utf8 ? 0x0800u : 0; /* 4.4.4 bit 11: the name is UTF-8 */
	e->method = method;
	e->time = 0;
	e->date = (uint16_t)((0 << 9) | (2 << 5) | 1); /* 4.4.6: 1980-02-01 */
	wentry we = {e, e->needed, e->flags, method, crc, len, size, 0};
	return add_entry(w, &we, data, false, name, err);
}

int jar_writer_copy_comment(tc_jar_writer *w, const tc_jar *src, tc_error *err)
{
	/* Readers find the end record by searching backwards from the end of the file,
	 * through the comment: a signature in it could pass for the record. */
	static const uint8_t sig[4] = {'P', 'K', 5, 6};
	for (size_t k = 0; k + 4 <= src->comment_len; k++)
		if (memcmp(src->comment + k, sig, 4) == 0)
			return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, src->label,
			               "the jar comment holds an end-record signature: zip readers could take it for the end of the archive");
	w->comment = src->comment;
	w->comment_len = src->comment_len;
	return TC_OK;
}

/* 4.3.12 central directory records, then 4.3.14-16 the end records (Zip64 ones when
 * the count, a size or an offset does not fit). */
static int put_directory(tc_jar_writer *w, tc_error *err)
{
	uint64_t start = w->pos;
	for (size_t k = 0; k < w->n && !w->ioerr; k++) {
		const wentry *we = &w->e[k];
		const entry *s = we->src;
		uint64_t v[3];
		int nv = 0;
		if (we->usize >= MAX32)
			v[nv++] = we->usize;
		if (we->csize >= MAX32)
			v[nv++] = we->csize;
		if (we->local >= MAX32)
			v[nv++] = we->local;
		long xlen = rebuild_extra(w, s->cextra, s->cextra_len, v, nv, false);
		if (xlen < 0)
			return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, w->path,
			               "entry %s: no room for a Zip64 extra field", s->name);
		uint16_t needed = nv > 0 && we->needed < VERSION_ZIP64 ? VERSION_ZIP64 : we->needed;
		uint8_t h[CENTRAL_LEN];
		put_le4(h, SIG_CENTRAL);
		put_le2(h + 4, s->made_by);
		put_le2(h + 6, needed);
		put_le2(h + 8, we->flags);
		put_le2(h + 10, we->method);
		put_le2(h + 12, s->time);
		put_le2(h + 14, s->date);
		put_le4(h + 16, we->crc);
		put_le4(h + 20, low32(we->csize));
		put_le4(h + 24, low32(we->usize));
		put_le2(h + 28, s->name_len);
		put_le2(h + 30, (uint16_t)xlen);
		put_le2(h + 32, s->comment_len);
		put_le2(h + 34, 0);
		put_le2(h + 36, s->iattr);
		put_le4(h + 38, s->eattr);
		put_le4(h + 42, low32(we->local));
		put(w, h, sizeof h);
		put(w, s->name, s->name_len);
		put(w, w->extra, (size_t)xlen);
		put(w, s->comment, s->comment_len);
	}
	uint64_t size = w->pos - start;
	if (w->n >= MAX16 || size >= MAX32 || start >= MAX32) {
		uint64_t at64 = w->pos;
		uint8_t z[END64_LEN + LOCATOR64_LEN];
		put_le4(z, SIG_END64);
		put_le8(z + 4, END64_LEN - 12); /* the record's size after this field */
		put_le2(z + 12, VERSION_ZIP64);
		put_le2(z + 14, VERSION_ZIP64);
		put_le4(z + 16, 0);
		put_le4(z + 20, 0);
		put_le8(z + 24, w->n);
		put_le8(z + 32, w->n);
		put_le8(z + 40, size);
		put_le8(z + 48, start);
		uint8_t *l = z + END64_LEN;
		put_le4(l, SIG_LOCATOR64);
		put_le4(l + 4, 0);
		put_le8(l + 8, at64);
		put_le4(l + 16, 1);
		put(w, z, sizeof z);
	}
	uint8_t e[END_LEN];
	uint16_t count = w->n >= MAX16 ? MAX16 : (uint16_t)w->n;
	put_le4(e, SIG_END);
	put_le2(e + 4, 0);
	put_le2(e + 6, 0);
	put_le2(e + 8, count);
	put_le2(e + 10, count);
	put_le4(e + 12, low32(size));
	put_le4(e + 16, low32(start));
	put_le2(e + 20, w->comment_len);
	put(w, e, sizeof e);
	put(w, w->comment, w->comment_len);
	return TC_OK;
}

static void writer_free(tc_jar_writer *w)
{
	for (size_t k = 0; k < w->nown; k++)
		free(w->own[k]);
	free(w->own);
	free(w->e);
	free(w->tmp);
	free(w->path);
	free(w);
}

int jar_writer_finish(tc_jar_writer *w, tc_error *err)
{
	int rc = put_directory(w, err);
	if (rc != TC_OK) {
		jar_writer_abort(w);
		return rc;
	}
	if (!w->ioerr && fflush(w->f) != 0)
		w->ioerr = errno;
	if (fclose(w->f) != 0 && !w->ioerr)
		w->ioerr = errno;
	w->f = NULL;
	if (!w->ioerr && rename(w->tmp, w->path) != 0)
		w->ioerr = errno;
	if (w->ioerr) {
		rc = tc_fail(err, TC_EIO, TC_NO_OFFSET, w->path, "cannot write: %s", strerror(w->ioerr));
		remove(w->tmp);
	}
	writer_free(w);
	return rc;
}

void jar_writer_abort(tc_jar_writer *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	remove(w->tmp);
	writer_free(w);
}

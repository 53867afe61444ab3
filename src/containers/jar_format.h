/* What the jar module's reader (jar_read.c) and writer (jar_write.c) share: the zip
 * format's signatures and sizes (PKWARE APPNOTE.TXT 6.3), an entry as the reader indexed
 * it and the archive it belongs to, which the writer copies from. Internal to the two:
 * everyone else goes through jar.h. */
#ifndef TC_JAR_FORMAT_H
#define TC_JAR_FORMAT_H

#include <stdint.h>
#include <stdio.h>

#include "containers/jar.h"

/* APPNOTE.TXT 4.3: signatures and fixed header sizes. */
#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_END 0x06054b50u
#define SIG_END64 0x06064b50u
#define SIG_LOCATOR64 0x07064b50u
#define LOCAL_LEN 30
#define CENTRAL_LEN 46
#define END_LEN 22
#define END64_LEN 56
#define LOCATOR64_LEN 20
#define FLAG_ENCRYPTED 0x0001u
#define FLAG_DEFLATE_OPTS 0x0006u /* 4.4.4 bits 1-2: the level a deflater used */
#define FLAG_DESCRIPTOR 0x0008u   /* sizes and CRC follow the data (4.3.9) */
#define EXTRA_ZIP64 0x0001u
#define MAX16 0xFFFFu
#define MAX32 0xFFFFFFFFu

/* A central directory record (4.3.12), with its local header's extra block and where its
 * bytes start. */
typedef struct entry {
	const char *name;
	const uint8_t *cextra, *lextra, *comment;
	uint16_t name_len, cextra_len, lextra_len, comment_len;
	uint16_t made_by, needed, flags, method, time, date, iattr;
	uint32_t eattr, crc;
	uint64_t csize, usize;
	uint64_t local, data; /* offsets of the local header and of the bytes */
} entry;

/* An archive open for reading: its bytes, its entries in directory order. */
struct tc_jar {
	const uint8_t *base;
	size_t len;
	void *map;        /* the mapped file, or NULL */
	int guard;        /* its map_guard slot (containers/map_guard.h), or -1 */
	uint8_t *owned;   /* the file read into memory when it could not be mapped */
	entry *e;
	uint64_t n;
	char *names;      /* all names, each NUL-terminated */
	const uint8_t *comment;
	uint16_t comment_len;
	struct zip *za;   /* libzip (zip_t), opened on first use for other compression methods */
	char label[1024];
};

/* "JAR!ENTRY", the label of entry i in errors. */
static inline void entry_label(const tc_jar *jar, uint64_t i, char *buf, size_t size)
{
	snprintf(buf, size, "%s!%s", jar->label, jar->e[i].name);
}

#endif

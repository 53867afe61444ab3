/* A dex file as a model that can be edited and written back ("Dalvik executable
 * format", versions 035 to 039; see shared/reference/dex.md).
 *
 * Index spaces. Every index in the model (in ids, class data, code, annotations, debug
 * info) is a *model index*: the input's own index for what the input had, and the next
 * free number for what was added (dex_intern_*). Added ids are not sorted in; the writer
 * sorts every id section, computes model->file maps and rewrites every index-bearing
 * place through them, so edits never invalidate an index already handed out.
 *
 * Items. Data items (type lists, code, debug info, annotations, class data, ...) are
 * structs that start with a dex_item; they are shared by pointer exactly where the input
 * shared them by offset (d8 shares debug info between methods). Never edit a shared
 * item in place: make a new one (dex_item_new) and point the owner at it. The writer
 * emits every item reachable from the ids and class definitions once, in the input's
 * section order and, within a section, in input order followed by new items in the
 * order of the ids and classes that use them; an unedited canonical input is written
 * back byte for byte.
 *
 * Ownership. A parsed dex lives in one arena (the caller's) and borrows the input
 * buffer, which must outlive it: strings, instructions and raw encoded values point
 * into it. Not thread-safe: one thread edits one dex at a time; items made elsewhere
 * (dex_code from a worker's arena) may be attached as long as they outlive the write. */
#ifndef TC_DEX_H
#define TC_DEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "bytes.h"
#include "tc_error.h"

#define DEX_NO_INDEX 0xffffffffu

/* Access flags (dex only where noted). */
enum {
	DACC_PUBLIC = 0x1, DACC_PRIVATE = 0x2, DACC_PROTECTED = 0x4, DACC_STATIC = 0x8,
	DACC_FINAL = 0x10, DACC_SYNCHRONIZED = 0x20, DACC_VOLATILE = 0x40, DACC_BRIDGE = 0x40,
	DACC_TRANSIENT = 0x80, DACC_VARARGS = 0x80, DACC_NATIVE = 0x100, DACC_INTERFACE = 0x200,
	DACC_ABSTRACT = 0x400, DACC_STRICT = 0x800, DACC_SYNTHETIC = 0x1000,
	DACC_ANNOTATION = 0x2000, DACC_ENUM = 0x4000,
	DACC_CONSTRUCTOR = 0x10000,           /* dex only */
	DACC_DECLARED_SYNCHRONIZED = 0x20000, /* dex only */
};

/* map_list item types. */
enum {
	DT_HEADER = 0x0000, DT_STRING_ID = 0x0001, DT_TYPE_ID = 0x0002, DT_PROTO_ID = 0x0003,
	DT_FIELD_ID = 0x0004, DT_METHOD_ID = 0x0005, DT_CLASS_DEF = 0x0006,
	DT_CALL_SITE_ID = 0x0007, DT_METHOD_HANDLE = 0x0008,
	DT_MAP_LIST = 0x1000, DT_TYPE_LIST = 0x1001, DT_ANNOTATION_SET_REF_LIST = 0x1002,
	DT_ANNOTATION_SET = 0x1003, DT_CLASS_DATA = 0x2000, DT_CODE = 0x2001,
	DT_STRING_DATA = 0x2002, DT_DEBUG_INFO = 0x2003, DT_ANNOTATION = 0x2004,
	DT_ENCODED_ARRAY = 0x2005, DT_ANNOTATIONS_DIRECTORY = 0x2006, DT_HIDDENAPI = 0xf000,
};

/* The head of every data item. off: where the input had it (0 for a new item: no data
 * item can sit at 0). seq, out, mark: the writer's (new items are placed in the order
 * the writer meets them: ids first, then classes in order). */
typedef struct dex_item {
	uint32_t off;
	uint32_t seq;
	uint32_t out;
	uint32_t mark;
} dex_item;

typedef struct dex_str {
	dex_item it;           /* the string_data_item */
	const uint8_t *data;   /* MUTF-8, without the terminating NUL */
	uint32_t len;          /* bytes */
	uint32_t utf16;        /* length in UTF-16 code units */
} dex_str;

typedef struct dex_tlist {
	dex_item it;
	uint32_t n;
	uint32_t *types;       /* type indices */
} dex_tlist;

typedef struct dex_proto {
	uint32_t shorty;       /* string */
	uint32_t ret;          /* type */
	dex_tlist *params;     /* NULL: no parameters */
} dex_proto;

typedef struct dex_fid {
	uint32_t cls, type, name;
} dex_fid;

typedef struct dex_mid {
	uint32_t cls, proto, name;
} dex_mid;

/* A raw encoded structure whose indices the writer rewrites: an annotation_item, an
 * encoded_array_item or a debug_info_item. */
typedef struct dex_blob {
	dex_item it;
	const uint8_t *data;
	uint32_t len;
} dex_blob;

typedef struct dex_aset {
	dex_item it;
	uint32_t n;
	dex_blob **annos;      /* annotation items, sorted by their type */
} dex_aset;

typedef struct dex_asref {
	dex_item it;
	uint32_t n;
	dex_aset **sets;       /* entries may be NULL */
} dex_asref;

typedef struct dex_amember {
	uint32_t idx;          /* field or method */
	dex_aset *set;
} dex_amember;

typedef struct dex_aparam {
	uint32_t idx;          /* method */
	dex_asref *ref;
} dex_aparam;

typedef struct dex_adir {
	dex_item it;
	dex_aset *cls;         /* may be NULL */
	uint32_t nfields, nmethods, nparams;
	dex_amember *fields, *methods;
	dex_aparam *params;
} dex_adir;

typedef struct dex_catch {
	uint32_t type;         /* type index */
	uint32_t addr;         /* code units */
} dex_catch;

/* One encoded_catch_handler. */
typedef struct dex_handler {
	uint32_t n;
	dex_catch *catches;
	uint32_t catch_all;    /* address, or DEX_NO_INDEX */
} dex_handler;

typedef struct dex_try {
	uint32_t start;        /* code units */
	uint32_t count;        /* code units, 1..65535 */
	uint32_t handler;      /* index into the code's handlers */
} dex_try;

typedef struct dex_code {
	dex_item it;
	uint16_t regs, ins, outs;
	uint32_t ninsns;       /* code units */
	const uint8_t *insns;  /* 2 * ninsns bytes, little-endian code units */
	uint32_t ntries, nhandlers;
	dex_try *tries;
	dex_handler *handlers;
	dex_blob *debug;       /* may be NULL */
} dex_code;

typedef struct dex_efield {
	uint32_t idx, flags;
} dex_efield;

typedef struct dex_emethod {
	uint32_t idx, flags;
	dex_code *code;        /* NULL for abstract and native methods */
} dex_emethod;

typedef struct dex_cdata {
	dex_item it;
	uint32_t nsfields, nifields, ndmethods, nvmethods;
	dex_efield *sfields, *ifields;
	dex_emethod *dmethods, *vmethods;
} dex_cdata;

/* The methods of cd as one list: the direct ones, then the virtual ones. */
static inline uint32_t dex_cdata_nmethods(const dex_cdata *cd)
{
	return cd ? cd->ndmethods + cd->nvmethods : 0;
}

static inline dex_emethod *dex_cdata_method(const dex_cdata *cd, uint32_t i)
{
	return i < cd->ndmethods ? &cd->dmethods[i] : &cd->vmethods[i - cd->ndmethods];
}

typedef struct dex_class {
	uint32_t type, flags, super, source; /* super and source may be DEX_NO_INDEX */
	dex_tlist *ifaces;
	dex_adir *annos;
	dex_cdata *data;
	dex_blob *values;      /* static values (encoded_array_item) */
} dex_class;

typedef struct dex_mhandle {
	uint16_t kind;
	uint32_t idx;          /* field or method, by kind */
} dex_mhandle;

/* An id section that grows: the input's entries, then added ones. */
#define DEX_VEC(T) struct { T *v; uint32_t n, in, cap; }

typedef struct dex_file {
	arena *a;
	const uint8_t *data;   /* the input (borrowed) */
	size_t len;
	int version;           /* 35 .. 39 */
	DEX_VEC(dex_str) strings;
	DEX_VEC(uint32_t) types;  /* string index of each type's descriptor */
	DEX_VEC(dex_proto) protos;
	DEX_VEC(dex_fid) fields;
	DEX_VEC(dex_mid) methods;
	uint32_t nclasses;
	dex_class *classes;
	uint32_t ncall_sites, nmhandles;
	dex_blob **call_sites; /* encoded_array_items */
	dex_mhandle *mhandles;
	/* layout facts of the input, so that the writer can repeat them */
	uint16_t order[24];    /* section types in the input's map order */
	uint32_t norder;
	bool data_to_end;      /* data_size reached the end of the file */
	uint32_t gen;          /* the writer's marks */
} dex_file;

/* Parses data[0..len) into d (allocated from a). Every read is bounds-checked; every
 * offset must land on an item of the right type; ids must be in the order ART enforces.
 * Refused with TC_EUNSUPPORTED: container (041) files, hidden-API data, link sections. */
int dex_parse(dex_file *d, arena *a, const uint8_t *data, size_t len, tc_error *err);

/* Whether data starts like a dex file ("dex\n0NN\0"). */
bool dex_is_dex(const uint8_t *data, size_t len);

/* Writes the whole file: ids sorted, every index rewritten, items laid out, map list,
 * checksum and signature. Uses the items' out/mark fields (not reentrant per dex). */
int dex_write(dex_file *d, tc_buf *out, tc_error *err);

/* --- adding ids (model indices of existing equal ids are returned) --------------- */

/* s: MUTF-8 bytes (no NUL inside; use C0 80 for U+0000). */
int dex_intern_string(dex_file *d, const char *s, size_t len, uint32_t *idx, tc_error *err);
/* A type descriptor ("Lcom/x/Y;", "I", "[J"). */
int dex_intern_type(dex_file *d, const char *desc, uint32_t *idx, tc_error *err);
/* A method descriptor ("(ILjava/lang/String;)V"). */
int dex_intern_proto(dex_file *d, const char *desc, uint32_t *idx, tc_error *err);
int dex_intern_method(dex_file *d, const char *cls, const char *name, const char *desc, uint32_t *idx,
                      tc_error *err);
/* A field id: class and type descriptors, the name. */
int dex_intern_field(dex_file *d, const char *cls, const char *name, const char *type, uint32_t *idx,
                     tc_error *err);

/* The id counts, to take back ids added since (only while nothing refers to them yet:
 * e.g. when they would not fit, see dex_ids_fit). */
typedef struct dex_mark {
	uint32_t strings, types, protos, fields, methods;
} dex_mark;
void dex_mark_ids(const dex_file *d, dex_mark *m);
void dex_rollback_ids(dex_file *d, const dex_mark *m);

/* Whether the ids fit the format: 65,535 types and protos, 65,536 fields and methods
 * (instructions carry 16-bit indices). */
bool dex_ids_fit(const dex_file *d);
/* When they do not: the first kind past its limit, as "a dex holds at most 65,535 type
 * ids (this one would need 65,536)" into buf, which is returned; NULL when they fit. */
const char *dex_ids_over(const dex_file *d, char *buf, size_t size);

/* A new item of `size` bytes (a struct starting with dex_item), zeroed, from d's arena.
 * Items may also come from another arena (a worker's): zeroed, they are new items. */
void *dex_item_new(dex_file *d, size_t size);

/* --- reading the model ------------------------------------------------------------- */

static inline const dex_str *dex_string(const dex_file *d, uint32_t idx)
{
	return idx < d->strings.n ? &d->strings.v[idx] : NULL;
}

/* The descriptor of type idx as a NUL-free byte range; NULL if out of range. */
const uint8_t *dex_type_desc(const dex_file *d, uint32_t idx, uint32_t *len);

/* Whether string idx equals the C string s. */
bool dex_str_eq(const dex_file *d, uint32_t idx, const char *s);

/* Writes "(params)ret" of proto idx into buf (NUL-terminated); false if it does not fit. */
bool dex_proto_desc(const dex_file *d, uint32_t idx, char *buf, size_t size);

/* Number of argument words of proto idx (J and D count 2), plus 1 unless is_static. */
uint32_t dex_proto_words(const dex_file *d, uint32_t idx, bool is_static);

/* "La/b/C;->name(desc)" of method idx, for messages. */
void dex_method_label(const dex_file *d, uint32_t idx, char *buf, size_t size);

/* Whether member `idx` (a method, or a field with field set) of class k carries an
 * annotation of type `desc` ("Ljava/lang/Deprecated;"). */
bool dex_member_annotated(const dex_file *d, const dex_class *k, uint32_t idx, bool field, const char *desc);

/* Compares two MUTF-8 strings as sequences of UTF-16 code units (the order of
 * string_ids). The inputs must be valid MUTF-8. */
int dex_mutf8_cmp(const uint8_t *a, uint32_t alen, const uint8_t *b, uint32_t blen);

/* Checks s as MUTF-8 ART accepts (no 4-byte forms, no overlong forms but C0 80, no NUL)
 * and counts its UTF-16 units; false if invalid. */
bool dex_mutf8_check(const uint8_t *s, uint32_t len, uint32_t *utf16);

/* The header's sizes and offsets, from a raw file (for tc-dump). */
typedef struct dex_header {
	uint8_t magic[8];
	uint32_t checksum;
	uint8_t signature[20];
	uint32_t file_size, header_size, endian_tag, link_size, link_off, map_off;
	uint32_t string_ids_size, string_ids_off, type_ids_size, type_ids_off, proto_ids_size,
		proto_ids_off, field_ids_size, field_ids_off, method_ids_size, method_ids_off,
		class_defs_size, class_defs_off, data_size, data_off;
} dex_header;

int dex_read_header(const uint8_t *data, size_t len, dex_header *h, tc_error *err);

/* Adler-32 of [12, len) as the header's checksum field wants it. */
uint32_t dex_adler32(const uint8_t *data, size_t len);

#endif

/* A test-only class-file builder: small hand-made inputs for the unit tests.
 *
 * It writes exactly what it is told, malformed or not: the constant pool in the order
 * entries are added, methods with raw code bytes, exception tables and any attribute
 * bodies the test assembles itself (bv_* helpers). Nothing here uses the library under
 * test, so a bug there cannot hide in both the input and the check. Out of memory and
 * more than 64 methods, 16 fields or interfaces, or 8 attributes in one list abort:
 * this is test code. */
#ifndef TC_TEST_BUILDER_H
#define TC_TEST_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growable byte vector, big-endian appends. */
typedef struct bvec {
	uint8_t *d;
	size_t n, cap;
} bvec;

void bv_u1(bvec *v, uint32_t x);
void bv_u2(bvec *v, uint32_t x);
void bv_u4(bvec *v, uint32_t x);
void bv_bytes(bvec *v, const void *p, size_t n);
void bv_free(bvec *v);

/* Byte helpers for code written as arrays: {OP_SIPUSH, U2(300), ...}. They evaluate
 * their argument more than once: pass plain values. */
#define U2(x) (uint8_t)(((unsigned)(x) >> 8) & 0xff), (uint8_t)((unsigned)(x) & 0xff)
#define U4(x) (uint8_t)(((uint32_t)(x) >> 24) & 0xff), (uint8_t)(((uint32_t)(x) >> 16) & 0xff), \
              (uint8_t)(((uint32_t)(x) >> 8) & 0xff), (uint8_t)((uint32_t)(x) & 0xff)
#define BYTES(...) ((const uint8_t[]){__VA_ARGS__}), sizeof((const uint8_t[]){__VA_ARGS__})

typedef struct bld bld;
typedef struct bld_method bld_method;

bld *bld_new(uint16_t major, uint16_t minor);
void bld_free(bld *b);

/* Constant pool: each call appends an entry (no deduplication) and returns its index. */
uint16_t bld_utf8(bld *b, const char *s);
uint16_t bld_utf8_raw(bld *b, const void *s, uint16_t len);
uint16_t bld_class(bld *b, const char *name);
uint16_t bld_string(bld *b, const char *s);
uint16_t bld_int(bld *b, int32_t v);
uint16_t bld_float_bits(bld *b, uint32_t bits);
uint16_t bld_long(bld *b, int64_t v);          /* takes two indices */
uint16_t bld_double_bits(bld *b, uint64_t bits); /* takes two indices */
uint16_t bld_nametype(bld *b, const char *name, const char *desc);
uint16_t bld_fieldref(bld *b, const char *cls, const char *name, const char *desc);
uint16_t bld_methodref(bld *b, const char *cls, const char *name, const char *desc);
uint16_t bld_imethodref(bld *b, const char *cls, const char *name, const char *desc);
uint16_t bld_methodhandle(bld *b, uint8_t kind, uint16_t ref);
uint16_t bld_methodtype(bld *b, const char *desc);
uint16_t bld_dynamic(bld *b, uint16_t bsm, const char *name, const char *desc);
uint16_t bld_indy(bld *b, uint16_t bsm, const char *name, const char *desc);
uint16_t bld_module(bld *b, const char *name);
uint16_t bld_package(bld *b, const char *name);
/* Any bytes as one entry taking `slots` indices (malformed pools). */
uint16_t bld_cp_raw(bld *b, const void *bytes, size_t len, uint16_t slots);
/* Overrides constant_pool_count (otherwise the next free index). */
void bld_cp_count(bld *b, uint32_t count);
uint16_t bld_cp_next(const bld *b);
/* The Utf8 "Code" that Code attributes are named by; otherwise bld_finish adds it. */
uint16_t bld_code_name(bld *b);

/* Header. Defaults: ACC_PUBLIC|ACC_SUPER, this "T", super "java/lang/Object". */
void bld_access(bld *b, uint16_t access);
void bld_this(bld *b, uint16_t cls_index);
void bld_super(bld *b, uint16_t cls_index);
uint16_t bld_this_index(bld *b);   /* creates the default entries on first use */
void bld_interface(bld *b, uint16_t cls_index);

void bld_field(bld *b, uint16_t access, const char *name, const char *desc);

/* A method with a Code attribute (max_stack/max_locals/code given), or without code
 * (bld_method_nocode). Nested Code attributes and exception entries are added to the
 * method until the next bld_method* call or bld_finish. */
bld_method *bld_method_code(bld *b, uint16_t access, const char *name, const char *desc,
                            uint16_t max_stack, uint16_t max_locals, const uint8_t *code,
                            size_t len);
bld_method *bld_method_nocode(bld *b, uint16_t access, const char *name, const char *desc);
void bld_exc(bld_method *m, uint16_t start, uint16_t end, uint16_t handler, uint16_t type);
void bld_code_attr(bld_method *m, const char *name, const void *body, size_t len);
void bld_method_attr(bld_method *m, const char *name, const void *body, size_t len);
/* The Code attribute's body is taken as given (malformed Code attributes). */
void bld_code_raw(bld_method *m, const void *body, size_t len);

void bld_class_attr(bld *b, const char *name, const void *body, size_t len);

/* A public no-argument constructor calling Object.<init>: aload_0, invokespecial, return. */
void bld_default_init(bld *b);

/* The class file; the caller frees it. Records where parts start (below). */
uint8_t *bld_finish(bld *b, size_t *len);

/* Offsets in the last finished file, for checks of error offsets. */
typedef struct bld_layout {
	size_t cp_start;            /* offset of constant_pool_count */
	size_t cp_entry[512];       /* offset of the tag of entry i (i < 512) */
	size_t header;              /* access_flags */
	size_t fields;              /* fields_count */
	size_t methods;             /* methods_count */
	size_t method[16];          /* access_flags of method i */
	size_t code[16];            /* body of method i's Code attribute (max_stack) */
	size_t code_bytes[16];      /* code[0] of method i */
	size_t code_attr[16][8];    /* body of nested attribute k of method i's Code */
	size_t class_attrs;         /* attributes_count of the class */
	size_t end;
} bld_layout;
const bld_layout *bld_last_layout(const bld *b);

#endif

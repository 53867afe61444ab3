/* The class-file model (JVMS 4): read, edit, write.
 *
 * cf_parse builds a cf_class whose structures live in the caller's arena and whose
 * byte strings (Utf8 entries, attribute bodies, code) are BORROWED from the input
 * buffer: keep the input alive and unchanged until the class is written or dropped.
 * Attributes stay raw bytes; the ones the editor needs are decoded on demand (Code by
 * cf_code_parse, the rest by the code editor). An edit replaces an attribute's bytes
 * with new ones in the arena. cf_write mirrors cf_parse, so an unedited class is
 * written back byte for byte. */
#ifndef TC_CLASSFILE_H
#define TC_CLASSFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "bytes.h"
#include "tc_error.h"
#include "cp.h"

/* Versions this library reads: 45.0 (JDK 1.1) to 69.0 (Java 25). */
#define CF_MAJOR_MIN 45
#define CF_MAJOR_MAX 69

enum {
	ACC_PUBLIC = 0x0001,
	ACC_PRIVATE = 0x0002,
	ACC_PROTECTED = 0x0004,
	ACC_STATIC = 0x0008,
	ACC_FINAL = 0x0010,
	ACC_SUPER = 0x0020,
	ACC_SYNCHRONIZED = 0x0020,
	ACC_VOLATILE = 0x0040,
	ACC_BRIDGE = 0x0040,
	ACC_TRANSIENT = 0x0080,
	ACC_VARARGS = 0x0080,
	ACC_NATIVE = 0x0100,
	ACC_INTERFACE = 0x0200,
	ACC_ABSTRACT = 0x0400,
	ACC_STRICT = 0x0800,
	ACC_SYNTHETIC = 0x1000,
	ACC_ANNOTATION = 0x2000,
	ACC_ENUM = 0x4000,
	ACC_MODULE = 0x8000,
};

typedef struct cf_attr {
	uint16_t name;       /* CONSTANT_Utf8 index */
	uint32_t len;
	const uint8_t *data; /* the body (after attribute_length) */
	uint32_t off;        /* offset of the body in the input; TC_NO_OFFSET if new */
} cf_attr;

typedef struct cf_member {
	uint16_t access;
	uint16_t name, desc; /* CONSTANT_Utf8 indices */
	uint16_t nattrs;
	cf_attr *attrs;
	uint32_t off;        /* offset of access_flags in the input */
} cf_member;

typedef struct cf_class {
	uint16_t minor, major;
	cp_pool cp;
	uint16_t access;
	uint16_t this_class, super_class; /* super_class 0 only for java/lang/Object, module-info */
	uint16_t ninterfaces;
	uint16_t *interfaces;
	uint16_t nfields;
	cf_member *fields;
	uint16_t nmethods;
	cf_member *methods;
	uint16_t nattrs;
	cf_attr *attrs;
	arena *arena;
	size_t input_len;
} cf_class;

/* Parses a whole class file. The version must be within 45.0..69.0, every count and
 * length must fit, every constant-pool reference must have the right tag, and nothing
 * may follow the last attribute. */
int cf_parse(cf_class *cls, arena *a, const uint8_t *data, size_t len, tc_error *err);

/* Appends the class file to out. Fails with TC_ENOMEM if out ran out of memory. */
int cf_write(const cf_class *cls, tc_buf *out, tc_error *err);

/* The first attribute with that name, or NULL. */
cf_attr *cf_find_attr(const cf_class *cls, cf_attr *attrs, uint16_t n, const char *name);

/* "name" of this class (internal form), borrowed from the pool, with its length. */
const uint8_t *cf_class_name(const cf_class *cls, uint32_t *len);

/* Writes "name(desc)" or "name desc" style labels for errors and dumps: the member's
 * name and descriptor joined with no separator, NUL-terminated and truncated. */
void cf_member_label(const cf_class *cls, const cf_member *m, char *buf, size_t size);

/* Adds a method at the end of the method table (attrs are copied by pointer). */
int cf_add_method(cf_class *cls, const cf_member *m, tc_error *err);

/* Replaces the body of attribute `at` of member m, or appends a new attribute named
 * `name` when at is NULL. Bytes are borrowed: allocate them in cls->arena. */
int cf_set_attr(cf_class *cls, cf_attr **attrs, uint16_t *nattrs, cf_attr *at, const char *name,
                const uint8_t *data, uint32_t len, tc_error *err);

/* --- The Code attribute (JVMS 4.7.3) ---------------------------------------------- */

typedef struct cf_exc {
	uint16_t start, end, handler, type; /* type 0 = any */
} cf_exc;

typedef struct cf_code {
	uint16_t max_stack, max_locals;
	uint32_t len;
	const uint8_t *code;
	uint32_t code_off;   /* offset of code[0] in the class file (errors) */
	uint16_t nexc;
	cf_exc *exc;
	uint16_t nattrs;
	cf_attr *attrs;
	bool old_format;     /* class files before 45.3: u1 max_stack/max_locals, u2 code_length */
} cf_code;

/* The Code attribute of m, or NULL when it has none (abstract, native). */
cf_attr *cf_method_code(const cf_class *cls, const cf_member *m);

/* Decodes a Code attribute body: sizes, exception table (ranges within the code,
 * catch types that are Classes) and nested attributes. Instructions are not decoded
 * here (see code_scan in code.h). */
int cf_code_parse(const cf_class *cls, const cf_attr *attr, cf_code *out, tc_error *err);
/* Writes the body of a Code attribute (the part after attribute_length). */
void cf_code_write(const cf_code *code, tc_buf *out);
/* The number of bytes cf_code_write writes. */
size_t cf_code_size(const cf_code *code);

#endif

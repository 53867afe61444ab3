/* StackMapTable (JVMS 4.7.4): verification types, frames, decode and encode.
 *
 * Frames are kept in their compressed form, as in the file: a long or double is one
 * entry of `locals` or `stack`. Object types carry their name so that types from the
 * method descriptor (which may have no Class entry) compare equal to decoded ones.
 * The encoder keeps each frame's original frame_type whenever it still describes the
 * frame (so an unedited table is written back byte for byte) and otherwise picks the
 * smallest form. */
#ifndef TC_SMT_H
#define TC_SMT_H

#include <stdbool.h>
#include <stdint.h>

#include "classfile.h"

enum {
	VT_TOP = 0,
	VT_INT = 1,
	VT_FLOAT = 2,
	VT_DOUBLE = 3,
	VT_LONG = 4,
	VT_NULL = 5,
	VT_UNINIT_THIS = 6,
	VT_OBJECT = 7,
	VT_UNINIT = 8,
};

typedef struct smt_vtype {
	uint8_t tag;
	uint16_t cpidx;       /* VT_OBJECT: its Class entry, 0 when only the name is known */
	uint32_t off;         /* VT_UNINIT: code offset of the `new` */
	const uint8_t *name;  /* VT_OBJECT: internal name or array descriptor */
	uint32_t name_len;
} smt_vtype;

typedef struct smt_frame {
	uint32_t off;         /* code offset the frame applies to */
	uint8_t type;         /* frame_type as read; SMT_NEW for frames made by an edit */
	uint32_t at;          /* offset of frame_type in the input, for errors (decoded frames) */
	uint16_t nlocals, nstack;
	smt_vtype *locals, *stack;
} smt_frame;

#define SMT_NEW 128 /* a reserved frame_type value: "choose the smallest form" */

bool smt_vtype_eq(const smt_vtype *a, const smt_vtype *b);
static inline bool smt_wide(uint8_t tag)
{
	return tag == VT_LONG || tag == VT_DOUBLE;
}

/* The implicit first frame (JVMS 4.10.1.6): this (uninitializedThis in <init> of any
 * class but java/lang/Object) and the parameters. */
int smt_initial(const cf_class *cls, const cf_member *m, arena *a, smt_vtype **locals,
                uint16_t *nlocals, tc_error *err);

/* A verification type for the field descriptor at d[0..len). long/double give one entry. */
bool smt_from_desc(const uint8_t *d, uint32_t len, smt_vtype *out);

/* Decodes the table: frames in offset order. Offsets are only checked to increase and
 * stay below code_len; the editor checks they sit on instructions. */
int smt_decode(const cf_class *cls, const cf_attr *attr, uint32_t code_len,
               const smt_vtype *init, uint16_t ninit, arena *a, smt_frame **frames,
               uint32_t *nframes, tc_error *err);

/* Encodes frames (sorted by offset, distinct) into out: number_of_entries and entries.
 * Object types without a Class entry get one (find-or-add), which may fail with
 * TC_ELIMIT when the pool is full. */
int smt_encode(cp_pool *cp, const smt_frame *frames, uint32_t n, const smt_vtype *init,
               uint16_t ninit, tc_buf *out, tc_error *err);

const char *smt_tag_name(uint8_t tag);

#endif

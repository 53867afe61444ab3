/* A Dalvik type checker for tests: the rules ART's method verifier applies to one
 * method (runtime/verifier/method_verifier.cc, register_line.cc, reg_type.cc),
 * written again over dex/'s model, without a class hierarchy. See README.md here.
 *
 * Registers are typed by abstract interpretation to a fixed point over the control
 * flow graph: branches, switch targets, and exception edges (a throwing instruction in
 * a try flows its state *before* the instruction into each handler). Reference
 * assignability between classes is not checked (the framework classes are absent);
 * categories are: int vs float vs reference vs wide pairs, undefined registers,
 * uninitialized objects, the result register, monitors.
 *
 * Hard failures stop the method (as in ART). Locking failures (ART's soft
 * VERIFY_ERROR_LOCKING: the class loads, the method runs interpreted) are recorded
 * separately and the check goes on. */
#ifndef TC_VFY_H
#define TC_VFY_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "dex.h"

/* What a file needs once: type indices of the descriptors the rules name. */
typedef struct vfy_file {
	const dex_file *d;
	uint32_t t_object, t_string, t_class, t_throwable, t_mhandle, t_mtype;
	bool kinds_ok; /* the checker's operand kinds agree with dex_op's wide flags */
	bool strict_monitors; /* beyond ART: a throwing instruction with a monitor held
	                       * must be inside a try (set by the caller) */
} vfy_file;

typedef struct vfy_result {
	bool failed;       /* a hard failure: msg, pc, op */
	bool locking;      /* a locking failure: lock_msg, lock_pc, lock_op */
	bool at_insn;      /* the hard failure is at an instruction (else method-level) */
	uint8_t op, lock_op;
	uint32_t pc, lock_pc;
	char msg[320];
	char lock_msg[320];
} vfy_result;

void vfy_file_init(vfy_file *f, const dex_file *d);

/* Checks method m (with code) of class cls. Scratch memory comes from a, which the
 * caller resets between methods. Returns 0, or CF_ENOMEM. */
int vfy_method(const vfy_file *f, const dex_class *cls, const dex_emethod *m, arena *a, vfy_result *out);

#endif

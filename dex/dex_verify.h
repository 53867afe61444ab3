/* A Dalvik type checker: the rules ART's method verifier applies to one method
 * (runtime/verifier/method_verifier.cc, register_line.cc, reg_type.cc), written again
 * over dex/'s model, without a class hierarchy. tc-instrument checks every method it
 * rewrites with it; tc-dexverify (tests/dex/verify) runs it over whole files. The rules,
 * with ART's source for each and what is left out: tests/dex/verify/README.md.
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
#ifndef TC_DEX_VERIFY_H
#define TC_DEX_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "dex.h"

/* The work budget: a check counts its steps (an instruction interpreted, a register
 * merged, copied or scanned) and gives up past work_factor x the method's size, where
 * the size is its code units plus its registers times its control-flow edges into
 * stored lines (a first pass over the method costs about one size). A clean method
 * needs a few sizes (each loop re-walks its body until its types settle); the budget
 * bounds a method the rules would make loop, and an adversarial one. Over the budget,
 * or past DEX_VERIFY_MAX_WORK steps or DEX_VERIFY_MAX_LINE_BYTES of register lines
 * whatever the size, the verdict is "too costly to verify": not accepted. */
#define DEX_VERIFY_WORK_FACTOR 64
#define DEX_VERIFY_MAX_WORK (UINT64_C(1) << 30)
#define DEX_VERIFY_MAX_LINE_BYTES ((size_t)64 << 20)

/* What a file needs once: type indices of the descriptors the rules name, and options. */
typedef struct dex_verify_file {
	const dex_file *d;
	uint32_t t_object, t_string, t_class, t_throwable, t_mhandle, t_mtype;
	uint32_t s_init, s_clinit; /* string indices of "<init>" and "<clinit>" */
	/* of the types and protos the file had at init (later ones are looked up): each
	 * type's first descriptor character and component type (NONE), each proto's
	 * argument words */
	uint32_t ntypes, nprotos;
	uint8_t *tchar;
	uint32_t *tcomp;
	uint32_t *pwords;
	bool kinds_ok; /* the checker's operand kinds agree with dex_op's wide flags */
	bool strict_monitors; /* beyond ART: a throwing instruction with a monitor held
	                       * must be inside a try (set by the caller) */
	uint32_t work_factor; /* DEX_VERIFY_WORK_FACTOR unless the caller sets another */
} dex_verify_file;

typedef struct dex_verify_result {
	bool failed;       /* not accepted: a hard failure, or too costly (msg, pc, op) */
	bool costly;       /* failed because the check went over its budget */
	bool locking;      /* a locking failure: lock_msg, lock_pc, lock_op */
	bool at_insn;      /* the hard failure is at an instruction (else method-level) */
	uint8_t op, lock_op;
	uint32_t pc, lock_pc;
	uint64_t work;     /* steps taken */
	uint64_t size;     /* the method's size as the budget counts it (0 if not reached) */
	char msg[320];
	char lock_msg[320];
} dex_verify_result;

/* Prepares f for the methods of d, with its tables from a (which must outlive f).
 * Returns TC_OK or TC_ENOMEM. d may gain ids later (tc-instrument adds its calls'):
 * the checker looks those up as it meets them. */
int dex_verify_file_init(dex_verify_file *f, const dex_file *d, arena *a);

/* Checks method m of class cls (without code: only what ART checks of abstract and
 * native methods). Scratch memory comes from a, which the caller resets between
 * methods. Returns 0, or TC_ENOMEM. The verdict is in out: accepted when neither
 * failed nor locking. */
int dex_verify_method(const dex_verify_file *f, const dex_class *cls, const dex_emethod *m, arena *a,
                      dex_verify_result *out);

#endif

/* The code editor: decode a method body into instructions whose branches point at
 * instructions, insert straight-line code, add an outermost handler, lay the method
 * out again and relocate every offset-bearing structure.
 *
 * Layout of one original instruction i after edits:
 *
 *     [fall-through code of i] [at-target code of i] [instruction i]
 *
 * A jump, switch case or handler that targeted i lands on its at-target code; only
 * the previous instruction falling through runs its fall-through code (so code put at
 * method entry, or right after this() / super() in a constructor, is never re-run by
 * a loop back to it). Inserted code must be straight-line, leave the stack as it found
 * it and write no local; it then needs no stack-map frame of its own.
 *
 * After edits code_commit lays the method out until nothing moves: switch padding is
 * recomputed, goto/jsr become goto_w/jsr_w, and conditional branches that no longer
 * reach become an inverted branch around a goto_w (with the stack-map frame that the
 * verifier then needs after it). One old->new offset map is pushed through branch and
 * switch targets, the exception table, LineNumberTable, LocalVariable(Type)Table,
 * Runtime(In)VisibleTypeAnnotations and StackMapTable (including Uninitialized(offset)
 * types). max_stack is recomputed. A method that would grow past 65535 bytes is
 * refused (TC_ELIMIT) and left untouched; so is every other failure: the method's Code
 * attribute is only replaced when code_commit succeeds. */
#ifndef TC_CODE_H
#define TC_CODE_H

#include <stdint.h>

#include "classfile.h"
#include "opcodes.h"

typedef struct code_editor code_editor;

enum code_place {
	CODE_AT_TARGET,   /* jumps to the instruction land on the inserted code */
	CODE_FALLTHROUGH, /* only falling through from the previous instruction runs it */
};

/* Decodes method m of cls and checks every instruction (opcodes, operands,
 * constant-pool tags, branch targets on instruction boundaries), the exception table
 * and the Code attributes it relocates. All memory comes from `scratch`, which must
 * outlive the editor; code_commit writes its result into cls->arena. */
int code_open(code_editor **out, cf_class *cls, cf_member *m, arena *scratch, tc_error *err);

/* The original instructions, in offset order. */
uint32_t code_ninsns(const code_editor *ed);
const cf_insn *code_insn(const code_editor *ed, uint32_t i);
/* Index of the instruction at offset off, or UINT32_MAX. */
uint32_t code_at(const code_editor *ed, uint32_t off);
const cf_code *code_body(const code_editor *ed);

/* Inserts bytes before original instruction i (i == 0 with CODE_FALLTHROUGH is the
 * method entry). The bytes are decoded and checked: complete instructions, no branch,
 * switch, return, throw, store or iinc, constant-pool operands of the right tag, net
 * stack effect zero. Several insertions at one place run in the order they were made.
 * CODE_FALLTHROUGH before an instruction that nothing falls into is refused. */
int code_insert(code_editor *ed, uint32_t i, enum code_place where, const uint8_t *bytes,
                uint32_t len, tc_error *err);

/* Appends a handler block after the code and an exception-table entry, after all
 * existing ones (so it is outermost), covering original instructions [from, to)
 * (to == code_ninsns: to the end) with catch_type (0 = any). The block receives the
 * exception on the stack, must be straight-line and end in athrow or a return. Its
 * stack-map frame has no locals and the caught type on the stack. */
int code_add_handler(code_editor *ed, uint32_t from, uint32_t to, uint16_t catch_type,
                     const uint8_t *bytes, uint32_t len, tc_error *err);

/* In a constructor, the index of the invokespecial <init> that initializes `this`
 * (its receiver is uninitializedThis on every path). TC_EUNSUPPORTED when the method
 * is no constructor, never initializes this, or does so at several places. */
int code_this_init(code_editor *ed, uint32_t *insn, tc_error *err);

/* Stack depth (words) before original instruction i, or -1 where unknown (dead code,
 * or an analysis that failed). Computed on first use. */
int code_depth(code_editor *ed, uint32_t i);

/* Lays out, relocates and replaces the method's Code attribute. On failure nothing
 * of the method changes (constant-pool entries added meanwhile stay, unused). */
int code_commit(code_editor *ed, tc_error *err);

/* Options for tests: force every goto/jsr wide and every conditional inverted, so that
 * the long forms and their frames are exercised on small methods. */
void code_force_long_branches(code_editor *ed, int on);

#endif

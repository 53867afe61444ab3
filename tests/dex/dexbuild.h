/* Dex models made from scratch for unit tests: an empty file, classes with methods
 * whose code is given as instructions (dex_insn) or as raw code units. Test code: failures
 * abort through Criterion. */
#ifndef TC_DEXBUILD_H
#define TC_DEXBUILD_H

#include <stdint.h>

#include "dex.h"
#include "dex_op.h"

/* An empty dex 038 model in a. */
void db_init(dex_file *d, arena *a);
/* Adds class `desc` (super java/lang/Object) and returns its index. */
uint32_t db_class(dex_file *d, const char *desc, uint32_t flags);
/* The same with a super class. */
uint32_t db_class_super(dex_file *d, const char *desc, const char *super, uint32_t flags);
/* Appends n method ids "m00000".. of class desc, proto ()V, without the interning
 * search (they are new by construction): for files near the 65,536 limit. */
void db_bulk_methods(dex_file *d, const char *desc, uint32_t n);
/* Appends n type ids "Lt/T00000;".. (descriptors new by construction): for files near
 * the 65,535 limit. */
void db_bulk_types(dex_file *d, uint32_t n);
/* Adds a method to class k with the given code (NULL: abstract/native); returns its
 * model method index. Direct when static, private or a constructor. */
uint32_t db_method(dex_file *d, uint32_t k, const char *name, const char *desc, uint32_t flags,
                   dex_code *code);
/* A code item from instructions (encoded in order; branch targets as given). */
dex_code *db_code(dex_file *d, uint16_t regs, uint16_t ins, uint16_t outs, const dex_insn *insns, uint32_t n);
/* A code item from raw code units. */
dex_code *db_code_units(dex_file *d, uint16_t regs, uint16_t ins, uint16_t outs, const uint16_t *units,
                        uint32_t n);
/* Encodes instructions into units (returns the count); for tests that build payloads. */
uint32_t db_encode(const dex_insn *insns, uint32_t n, uint16_t *units);
/* Writes d and parses the result into again (in a2); the written bytes stay in buf. */
void db_rewrite(dex_file *d, tc_buf *buf, dex_file *again, arena *a2);
/* A method index by class descriptor, name and descriptor, or DEX_NO_INDEX. */
uint32_t db_find(const dex_file *d, const char *cls, const char *name, const char *desc);

/* Shorthands for instructions. */
dex_insn db_op(uint8_t op);
dex_insn db_a(uint8_t op, uint32_t a);
dex_insn db_ab(uint8_t op, uint32_t a, uint32_t b);
dex_insn db_lit(uint8_t op, uint32_t a, int64_t lit);
dex_insn db_branch(uint8_t op, uint32_t a, uint32_t b, int32_t target);
dex_insn db_invoke(uint8_t op, uint32_t method, const uint16_t *regs, uint8_t n);
dex_insn db_idx(uint8_t op, uint32_t a, uint32_t idx);

#endif

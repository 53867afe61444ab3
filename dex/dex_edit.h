/* Editing the code of one method: insert instruction sequences, add a trailing catch-all
 * handler, take scratch registers, then lay everything out again.
 *
 * Relocation works on instructions, not offsets: the code is decoded into a list whose
 * branches, switch targets, handler addresses and try ranges point at instructions;
 * dex_edit_commit lays it out until nothing moves (branch forms grow: goto -> goto/16 ->
 * goto/32, an out-of-range if-* becomes the inverted test over a goto/32; payloads are
 * moved to the end at even addresses), then derives the try items, the handlers and the
 * debug info (addresses relocated) from the list.
 *
 * Exceptions: inserted code is covered by no try item (a probe's scratch register must
 * not flow into an original handler, and a probe after a monitor-exit must not be
 * covered by the monitor's handler); original instructions keep their handler lists.
 *
 * Registers: parameters arrive in the last ins_size registers. dex_edit_scratch grows the
 * frame by k and moves every parameter back where the original code expects it, at the
 * very start (slicer's approach): the k top registers are then unused by the original
 * code everywhere. Without it, inserted code may only use registers the caller knows to
 * be dead where it runs (non-parameters at entry; anything but the returned register
 * before a return; anything in a handler that rethrows).
 *
 * Memory: decoding and layout use the scratch arena given to dex_edit_open; the committed
 * code (dex_code, instructions, tries, handlers, a new debug_info item) comes from the
 * arena given to dex_edit_commit and belongs to the caller. The dex model is only read, so
 * several threads may edit methods of one dex at once. */
#ifndef TC_DEX_EDIT_H
#define TC_DEX_EDIT_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "tc_error.h"
#include "dex.h"
#include "dex_op.h"

typedef struct dex_editor dex_editor;

/* Where an insertion before instruction i is entered. FALLTHROUGH: only by falling
 * into it (branches to i still reach i itself, e.g. a loop back to pc 0 does not
 * repeat an entry probe); AT_TARGET: branches, switch targets and handler addresses
 * that named i now name the insertion (a probe before a return). */
enum dex_edit_where { DEX_EDIT_FALLTHROUGH, DEX_EDIT_AT_TARGET };

/* Decodes `code` of method `method` (a model index) of d. Fails on what the format
 * forbids (undecodable instructions, branches into the middle of an instruction or a
 * payload, a switch that does not point at its payload kind). */
int dex_edit_open(dex_editor **out, const dex_file *d, const dex_code *code, uint32_t method,
                  bool is_static, arena *scratch, tc_error *err);

/* The original instructions (payloads excluded), in address order. */
uint32_t dex_edit_count(const dex_editor *e);
const dex_insn *dex_edit_insn(const dex_editor *e, uint32_t i);
uint32_t dex_edit_addr(const dex_editor *e, uint32_t i);
/* The instruction at address addr, or UINT32_MAX. */
uint32_t dex_edit_at(const dex_editor *e, uint32_t addr);

/* Inserts seq[0..n) before instruction i (i == dex_edit_count() is not allowed: every
 * method ends in a return, throw or goto). Insertions at one instruction keep the order
 * of the calls. seq holds non-branching instructions (no payloads, no branches); the
 * registers are the caller's. Refused before move-result* and move-exception. */
int dex_edit_insert(dex_editor *e, uint32_t i, enum dex_edit_where where, const dex_insn *seq, uint32_t n,
                    tc_error *err);

/* Replaces original instruction i by d, a non-branching instruction of any size (e.g.
 * const-string by const-string/jumbo). */
int dex_edit_replace(dex_editor *e, uint32_t i, const dex_insn *d, tc_error *err);

/* Appends seq (which must begin with move-exception and end with throw) as a handler,
 * and makes it the catch-all of every original instruction in [from, to) whose handler
 * list has none. Refused (TC_EUNSUPPORTED) when a throwing instruction in the range
 * runs with a monitor held and has no catch-all of its own: the new handler would merge
 * two monitor depths, which ART rejects. At most one per method. */
int dex_edit_catch_all(dex_editor *e, uint32_t from, uint32_t to, const dex_insn *seq, uint32_t n, tc_error *err);

/* The same over the instructions i with cover[i] (cover has dex_edit_count() entries),
 * wherever they lie. */
int dex_edit_catch_all_of(dex_editor *e, const bool *cover, const dex_insn *seq, uint32_t n, tc_error *err);

/* Grows the frame by k registers (the parameters are moved back at entry) and returns
 * the first of the k new ones, which the original code never uses. At most once. */
int dex_edit_scratch(dex_editor *e, uint32_t k, uint32_t *first, tc_error *err);

uint16_t dex_edit_regs(const dex_editor *e);
uint16_t dex_edit_ins(const dex_editor *e);

/* The index of the instruction right after the call that initializes `this` in a
 * constructor: the only invoke-direct of an <init> on the uninitialized `this` (or a
 * move-object copy of it) on every path. Fails when there is no such single call. */
int dex_edit_after_this_init(const dex_editor *e, uint32_t *i, tc_error *err);

/* The instructions that paths from instruction `from` (included) reach over normal and
 * exception edges, in *seen (dex_edit_count() entries, from the editor's scratch arena).
 * A path ends at instruction `stop` (UINT32_MAX: none), except for stop's exception
 * edges: it may throw before it takes effect. */
int dex_edit_reach(const dex_editor *e, uint32_t from, uint32_t stop, bool **seen, tc_error *err);

/* Lays the code out and returns the new code item, allocated from `keep`; outs_size
 * grows to what inserted invokes need. The original is untouched. */
int dex_edit_commit(dex_editor *e, arena *keep, dex_code **out, tc_error *err);

#endif

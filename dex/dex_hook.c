#include "dex_hook.h"

#include <assert.h>
#include <string.h>

#define NONE UINT32_MAX

/* const vS, #value */
static dex_insn load(uint32_t reg, int32_t value)
{
	dex_insn d = {0};
	d.a = reg;
	d.lit = value;
	if (value >= INT16_MIN && value <= INT16_MAX) {
		d.op = DEX_OP_CONST_16;
		d.fmt = DF_21s;
	} else {
		d.op = DEX_OP_CONST;
		d.fmt = DF_31i;
	}
	return d;
}

/* invoke-static on words registers from first: the short form where every register
 * fits four bits, the range form otherwise (the registers are consecutive). */
static dex_insn call(uint32_t method, uint32_t first, uint32_t words)
{
	dex_insn d = {0};
	d.idx = method;
	d.nargs = (uint8_t)words;
	if (first + words <= 16 && words <= 5) {
		d.op = DEX_OP_INVOKE_STATIC;
		d.fmt = DF_35c;
		for (uint32_t k = 0; k < words; k++)
			d.args[k] = (uint16_t)(first + k);
	} else {
		d.op = DEX_OP_INVOKE_STATIC_RANGE;
		d.fmt = DF_3rc;
		d.a = first;
	}
	return d;
}

/* The scratch register of the probe before return instruction r in a frame of regs
 * (at least 3) registers: the lowest one that holds no half of what r returns.
 * The rule for every scratch register of this file: it is below registers_size (ART
 * rejects a method naming a register past its frame) and never one half of a wide
 * value still to be read; where the frame has no such register it grows
 * (dex_edit_scratch) instead. */
static uint32_t free_before(const dex_insn *r, uint32_t regs)
{
	uint32_t w = r->op == DEX_OP_RETURN_VOID ? 0 : r->op == DEX_OP_RETURN_WIDE ? 2 : 1;
	uint32_t s = w == 0 || r->a > 0 ? 0 : w;
	assert(s < regs);
	(void)regs;
	return s;
}

/* In a constructor i() runs right after the call that initializes this (instruction
 * start - 1), so o() must run only on paths through that call, wherever the compiler
 * laid them out: the catch-all covers (*cover) every instruction but those that run
 * before the call, e.g. an argument check's throw laid out at the end, or a handler
 * around the call; code laid out before the call and reached after it is covered.
 * Returns never run before the call (dex_edit_after_this_init). A throwing instruction
 * that runs both before and after the call can be neither covered (an o() without
 * i()) nor left out (an i() without o()): refused. */
static int after_init(dex_editor *e, uint32_t start, bool **cover, tc_error *err)
{
	bool *before, *after;
	if (dex_edit_reach(e, 0, start - 1, &before, err) != 0 || dex_edit_reach(e, start, NONE, &after, err) != 0)
		return err->code;
	for (uint32_t i = 0; i < dex_edit_count(e); i++) {
		if (before[i] && after[i] && dex_op_has(dex_edit_insn(e, i)->op, DEX_OPF_CAN_THROW))
			return tc_fail(err, TC_EUNSUPPORTED, TC_NO_OFFSET, "code",
			               "%s runs both before and after the init call (code unit %u)",
			               dex_op_table[dex_edit_insn(e, i)->op].name, dex_edit_addr(e, i));
		after[i] = !before[i];
	}
	*cover = after;
	return 0;
}

int dex_hook_apply(dex_editor *e, const dex_hook *h, tc_error *err)
{
	uint32_t regs = dex_edit_regs(e), ins = dex_edit_ins(e), n = dex_edit_count(e);
	/* Three registers always leave one beside a returned wide pair (free_before), and
	 * two for the handler. */
	bool grow = h->after_init || regs < 3 || (h->entry != DEX_NO_INDEX && regs == ins);
	uint32_t top = NONE;
	if (grow) {
		if (dex_edit_scratch(e, 2, &top, err) != 0)
			return err->code;
		if (top + 1 > 255)
			return tc_fail(err, TC_EUNSUPPORTED, TC_NO_OFFSET, "code",
			               "%u registers: no scratch register below 256 for const", top + 2);
	}
	uint32_t start = 0;
	bool *cover = NULL; /* what the catch-all covers; NULL: everything */
	if (h->after_init && (dex_edit_after_this_init(e, &start, err) != 0 || after_init(e, start, &cover, err) != 0))
		return err->code;
	dex_insn seq[4];
	uint32_t k = 0;
	if (h->entry != DEX_NO_INDEX) {
		uint32_t s = grow ? top : 0;
		seq[k++] = load(s, h->value);
		seq[k++] = call(h->entry, s, 1);
	}
	if (h->extra != DEX_NO_INDEX)
		seq[k++] = call(h->extra, regs - ins, h->extra_words);
	if (k && dex_edit_insert(e, start, DEX_EDIT_FALLTHROUGH, seq, k, err) != 0)
		return err->code;
	if (h->exit == DEX_NO_INDEX)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		const dex_insn *r = dex_edit_insn(e, i);
		if (!dex_op_has(r->op, DEX_OPF_RETURN))
			continue;
		uint32_t s = grow ? top : free_before(r, regs);
		seq[0] = load(s, h->value);
		seq[1] = call(h->exit, s, 1);
		if (dex_edit_insert(e, i, DEX_EDIT_AT_TARGET, seq, 2, err) != 0)
			return err->code;
	}
	uint32_t ex = grow ? top : 0, sv = grow ? top + 1 : 1;
	dex_insn hs[4] = {{.op = DEX_OP_MOVE_EXCEPTION, .fmt = DF_11x, .a = ex}, load(sv, h->value),
	                  call(h->exit, sv, 1), {.op = DEX_OP_THROW, .fmt = DF_11x, .a = ex}};
	return cover ? dex_edit_catch_all_of(e, cover, hs, 4, err) : dex_edit_catch_all(e, 0, n, hs, 4, err);
}

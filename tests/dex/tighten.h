/* Tight frames for the stress tests: a method's code with registers_size lowered as far
 * as its code allows, so that hooks meet frames with no spare register on real code
 * (R8 allocates registers that tightly; d8's debug builds, the corpus, leave room).
 *
 * Registers are renamed as whole registers: every mention of register r becomes
 * map[r], so the code computes the same thing. Two registers may share one number when
 * their lifetimes never meet (liveness over normal and exception edges, a handler's
 * registers live at every throwing instruction its try covers): at no instruction is
 * one live or written while the other is live or written. Then every value still
 * reaches its reads, and a register that holds two values only holds the dead one
 * where paths join, which ART's verifier merges to a conflict nobody reads.
 *  - locals that must stay adjacent (a wide operand, a range, two neighbouring
 *    arguments of a 35c call) move as one block;
 *  - a block of locals goes into parameter registers whose lifetimes it does not meet
 *    (an unused or dead `this` or argument, as R8 reuses them), else into a lower local
 *    (single registers only), else keeps its own place, numbered from v0;
 *  - in a method with monitors, registers are only moved into registers no instruction
 *    names (ART tracks locks per register and merges lock state at joins, dead or not);
 *  - parameters stay the last ins_size registers; registers_size stays >= outs_size
 *    when outs_size > 5 (ART's dex file verifier); every operand must still fit its
 *    format, else only moves to lower numbers are made.
 * Register numbers in the debug info would be stale: a renamed method loses it. */
#ifndef TC_TIGHTEN_H
#define TC_TIGHTEN_H

#include <stdint.h>

#include "arena.h"
#include "dex.h"

typedef struct tighten_stats {
	uint32_t methods;     /* methods looked at */
	uint32_t tightened;   /* frames made smaller */
	uint32_t removed;     /* registers removed, in total */
	uint32_t into_params; /* local registers now sharing a parameter's register */
	uint32_t no_locals;   /* frames left with registers_size == ins_size */
	uint32_t under3;      /* frames left with fewer than 3 registers */
	uint32_t skipped;     /* code that does not decode or is too large (left as it was) */
} tighten_stats;

/* The tight version of c: a new code item from keep, or c itself when nothing can be
 * removed. scratch holds the analysis (the caller resets it). */
dex_code *tighten(const dex_file *d, dex_code *c, arena *keep, arena *scratch, tighten_stats *st);

#endif

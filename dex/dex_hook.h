/* Entry and exit hooks on one method, on top of the code editor (slicer's EntryHook
 * and ExitHook, in one pass): a static method taking an int is called at entry, before
 * every return and exactly once on every exceptional exit, so that every entry call is
 * matched by one exit call on every path.
 *
 *   entry (constructors with after_init: right after the call that initializes this)
 *       const vS, #value; invoke-static {vS}, entry
 *       invoke-static {p0, p1 ...}, extra          (optional: the first extra_words
 *                                                    parameter words, e.g. this and a flag)
 *   before every return*:                const vS, #value; invoke-static {vS}, exit
 *   a catch-all over the rest:           move-exception vE; const vS, #value;
 *                                        invoke-static {vS}, exit; throw vE
 *   (in a constructor the catch-all covers no code that runs before the init call,
 *   wherever it lies: an exit there would close an entry never made)
 *
 * Registers: a non-parameter register at entry, any register but the returned one
 * before a return, any two in the handler; where the frame has too few, or in a
 * constructor (whose registers may be live right after the init call), two registers
 * are added on top and the parameters moved back at entry (dex_edit_scratch). */
#ifndef TC_DEX_HOOK_H
#define TC_DEX_HOOK_H

#include <stdbool.h>
#include <stdint.h>

#include "dex_edit.h"

typedef struct dex_hook {
	uint32_t entry;       /* method index of a static (I)V, or DEX_NO_INDEX */
	uint32_t exit;        /* method index of a static (I)V, or DEX_NO_INDEX */
	int32_t value;        /* the int both receive */
	bool after_init;      /* a constructor: hook in after this() / super() */
	uint32_t extra;       /* a static method called after the entry hook, or DEX_NO_INDEX */
	uint32_t extra_words; /* parameter words it receives (from p0) */
} dex_hook;

/* Applies the hooks to the method e was opened on (nothing else may have been edited
 * yet); dex_edit_commit then gives the code. Fails (TC_EUNSUPPORTED) where the method
 * cannot be hooked safely: a frame past 256 registers, a constructor without a single
 * initializing call or with throwing code that runs both before and after it, a monitor
 * held where the catch-all would cover it. */
int dex_hook_apply(dex_editor *e, const dex_hook *h, tc_error *err);

#endif

#include "filter.h"

#include <string.h>

#include "arena.h"
#include "dex.h"
#include "dex_edit.h"
#include "dex_hook.h"
#include "dex_op.h"
#include "opcodes.h"

static bool simple_is(const char *simple, size_t len, const char *gen)
{
	size_t n = strlen(gen);
	/* "Gen.class" or "Gen$anything.class" */
	return len > n && memcmp(simple, gen, n) == 0 &&
	       (strcmp(simple + n, ".class") == 0 || simple[n] == '$');
}

bool filter_file(const char *name)
{
	size_t len = strlen(name);
	if (len < 6 || strcmp(name + len - 6, ".class") != 0)
		return false;
	const char *slash = strrchr(name, '/');
	const char *simple = slash ? slash + 1 : name;
	size_t slen = strlen(simple);
	return !simple_is(simple, slen, "R") && !simple_is(simple, slen, "Manifest") &&
	       !simple_is(simple, slen, "BuildConfig");
}

uint32_t filter_traced_size(const filter_view *v)
{
	if (v->traced)
		return v->traced;
	return v->size + FILTER_PROBE_ENTRY + FILTER_PROBE_RETURN * v->returns + FILTER_PROBE_HANDLER +
	       FILTER_PROBE_SWITCH * v->switches;
}

enum filter_verdict filter_decide(const filter_view *v, uint32_t inline_limit)
{
	if (!v->code)
		return FILTER_EMPTY;
	bool getset = !v->other && !v->invoke && (!v->special || (v->ctor && v->special == 1));
	if (getset)
		return FILTER_GETSET;
	if (!v->invoke && !v->special)
		return FILTER_SINGLE;
	if (inline_limit && v->size && v->size <= inline_limit && filter_traced_size(v) > inline_limit)
		return FILTER_INLINE;
	return FILTER_TRACE;
}

int filter_method(const cf_class *cls, const cf_member *m, uint32_t inline_limit, enum filter_verdict *out,
                  tc_error *err)
{
	filter_view v = {0};
	cf_attr *attr = cf_method_code(cls, m);
	if (!attr) {
		*out = filter_decide(&v, inline_limit);
		return TC_OK;
	}
	cf_code code;
	if (cf_code_parse(cls, attr, &code, err) != TC_OK)
		return err->code;
	v.code = true;
	v.ctor = cp_utf8_eq(&cls->cp, m->name, "<init>");
	v.size = code.len;
	uint32_t len;
	for (uint32_t off = 0; off < code.len; off += len) {
		uint8_t op;
		/* Lengths and opcodes are all this needs; methods that get traced are
		 * decoded in full (and checked) when they are instrumented. After wide, op is
		 * the widened opcode, as ASM reports it. */
		if (!(len = cf_insn_length(code.code, code.len, off, &op)))
			return tc_fail(err, TC_EOPCODE, code.code_off + off, "Code",
			               "bad or cut-off instruction 0x%02x at %u", code.code[off], off);
		if (cf_op_has(op, OPF_RETURN))
			v.returns++;
		else if (op == OP_TABLESWITCH || op == OP_LOOKUPSWITCH)
			v.switches++;
		if (op == OP_INVOKESPECIAL)
			v.special++;
		else if (cf_op_has(op, OPF_INVOKE))
			v.invoke++;
		else if (!(op <= OP_SALOAD || cf_op_has(op, OPF_FIELD | OPF_RETURN)))
			v.other++;
	}
	*out = filter_decide(&v, inline_limit);
	return TC_OK;
}

/* Dalvik's accessor-like instructions (see filter.h). */
static bool dex_accessor(uint8_t op)
{
	return op <= DEX_OP_MOVE_OBJECT_16 || (op >= DEX_OP_RETURN_VOID && op <= DEX_OP_CONST_CLASS) ||
	       (op >= DEX_OP_AGET && op <= DEX_OP_AGET_SHORT) || (op >= DEX_OP_IGET && op <= DEX_OP_SPUT_SHORT) ||
	       op == DEX_OP_CONST_METHOD_HANDLE || op == DEX_OP_CONST_METHOD_TYPE;
}

/* m once hooked as inject_dex.c does (*h zero where the hook refuses the method: it is
 * reported when instrumented). The method indices do not change the size (invoke-static
 * is 35c or 3rc whatever the index); the id's does. */
typedef struct hooked {
	uint32_t units, tries;
} hooked;

static int dex_hooked(const dex_file *d, const dex_emethod *m, bool ctor, bool focus, int32_t id, arena *scratch,
                      hooked *out, tc_error *err)
{
	arena_reset(scratch);
	*out = (hooked){0, 0};
	dex_hook h = {.entry = 0, .exit = 0, .value = id, .after_init = ctor,
	           .extra = focus ? 0 : DEX_NO_INDEX, .extra_words = 2};
	dex_editor *e;
	dex_code *c;
	tc_error e2;
	tc_error_clear(&e2);
	if (dex_edit_open(&e, d, m->code, m->idx, (m->flags & DACC_STATIC) != 0, scratch, &e2) != TC_OK ||
	    dex_hook_apply(e, &h, &e2) != TC_OK || dex_edit_commit(e, scratch, &c, &e2) != TC_OK) {
		arena_reset(scratch);
		if (e2.code == TC_ENOMEM)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "code", "no memory");
		return TC_OK;
	}
	*out = (hooked){c->ninsns, c->ntries};
	arena_reset(scratch);
	return TC_OK;
}

/* Whether ART reaches m only through class hierarchy analysis or an inline cache, where
 * its inliner takes no callee with a try item (HInliner::TryInline sets
 * try_catch_inlining_allowed_ false before TryInlineFromCHA and TryInlineFromInlineCache):
 * a virtual method that is not final in a class that is not final. A call whose
 * receiver's exact class the compiler knows still finds it (FindVirtualOrInterfaceTarget). */
static bool dex_by_cha(const dex_emethod *m, uint32_t class_flags)
{
	return !(m->flags & (DACC_STATIC | DACC_PRIVATE | DACC_CONSTRUCTOR | DACC_FINAL)) && !(class_flags & DACC_FINAL);
}

int filter_dex_method(const dex_file *d, const dex_emethod *m, uint32_t class_flags, const filter_art *art, bool focus,
                      arena *scratch, enum filter_verdict *out, bool *narrow, tc_error *err)
{
	*narrow = false;
	filter_view v = {0};
	const dex_code *c = m->code;
	bool throws = false, iface = false;
	if (c) {
		v.code = true;
		v.ctor = m->idx < d->methods.n && dex_str_eq(d, d->methods.v[m->idx].name, "<init>");
		v.size = c->ninsns;
		uint8_t op;
		for (uint32_t pc = 0, size; pc < c->ninsns; pc += size) {
			if (!(size = dex_op_length(c->insns, c->ninsns, pc, d->version, &op)))
				return tc_fail(err, TC_EOPCODE, c->it.off ? c->it.off + 16 + 2 * pc : TC_NO_OFFSET, "code",
				               "bad or cut-off instruction at code unit %u", pc);
			if (op == DEX_OP_NOP && (c->insns[2 * pc + 1]))
				continue; /* a payload */
			if (dex_op_has(op, DEX_OPF_RETURN))
				v.returns++;
			throws |= op == DEX_OP_THROW;
			iface |= op == DEX_OP_INVOKE_INTERFACE || op == DEX_OP_INVOKE_INTERFACE_RANGE;
			if (op == DEX_OP_INVOKE_DIRECT || op == DEX_OP_INVOKE_DIRECT_RANGE || op == DEX_OP_INVOKE_SUPER ||
			    op == DEX_OP_INVOKE_SUPER_RANGE)
				v.special++;
			else if (dex_op_has(op, DEX_OPF_INVOKE))
				v.invoke++;
			else if (!dex_accessor(op))
				v.other++;
		}
	}
	*out = filter_decide(&v, 0);
	/* Which ART inliners take m without its probes, by the rules the probes do not
	 * change (art/compiler/optimizing/inliner.cc of each release): up to API 23 none
	 * (Android 5's Quick compiler inlines only methods that call nothing, Android 6's
	 * inliner refuses a callee with an instruction that needs an environment, as every
	 * call does); none without a return (HInliner::CanInlineBody: "always throws";
	 * Android 7: "one branch always throws"); before API 34 none with a try item
	 * (IsInliningSupported); Android 7's none with a throw or an invoke-interface. */
	if (*out != FILTER_TRACE || !art->units || v.size > art->units || art->api < FILTER_ART_INLINER_API ||
	    !v.returns || (art->api < FILTER_ART_TRY_API && c->ntries) ||
	    (art->api < FILTER_ART_8_API && (throws || iface)))
		return TC_OK;
	hooked h;
	/* the widest id first (const): most methods fit with it or fit neither way */
	if (dex_hooked(d, m, v.ctor, focus, INT32_MAX, scratch, &h, err) != TC_OK)
		return err->code;
	if (!h.units)
		return TC_OK;
	/* The probes' catch-all adds a try item (and a throw): before API 34 no call site
	 * inlines m any more. From API 34 on (FILTER_ART_TRY_API) a callee with one is
	 * inlined unless the call site is in a try block or reaches it by CHA or an inline
	 * cache (dex_by_cha). */
	bool try_added = !c->ntries && h.tries;
	if (try_added && art->api < FILTER_ART_TRY_API) {
		*out = FILTER_INLINE;
		return TC_OK;
	}
	/* Code units: IsInliningEncouraged, inline_max_code_units. */
	v.traced = h.units;
	*out = filter_decide(&v, art->units);
	if (*out == FILTER_INLINE) {
		if (dex_hooked(d, m, v.ctor, focus, INT16_MAX, scratch, &h, err) != TC_OK)
			return err->code;
		v.traced = h.units;
		if (h.units && filter_decide(&v, art->units) == FILTER_TRACE) {
			*out = FILTER_TRACE;
			*narrow = true;
		}
	}
	if (try_added && dex_by_cha(m, class_flags)) {
		*out = FILTER_INLINE;
		*narrow = false;
	}
	return TC_OK;
}

const char *filter_name(enum filter_verdict v)
{
	switch (v) {
	case FILTER_TRACE: return "traced";
	case FILTER_EMPTY: return "empty";
	case FILTER_GETSET: return "getset";
	case FILTER_SINGLE: return "single";
	case FILTER_INLINE: return "inline";
	}
	return "?";
}

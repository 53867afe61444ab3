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

/* The code units of m once hooked as inject_dex.c does, into *units (0 where the hook
 * refuses the method: it is reported when instrumented). The method indices do not
 * change the size (invoke-static is 35c or 3rc whatever the index); the id's does. */
static int dex_hooked_size(const dex_file *d, const dex_emethod *m, bool ctor, bool focus, int32_t id,
                           arena *scratch, uint32_t *units, tc_error *err)
{
	arena_reset(scratch);
	*units = 0;
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
	*units = c->ninsns;
	arena_reset(scratch);
	return TC_OK;
}

int filter_dex_method(const dex_file *d, const dex_emethod *m, uint32_t inline_units, bool focus, arena *scratch,
                      enum filter_verdict *out, bool *narrow, tc_error *err)
{
	*narrow = false;
	filter_view v = {0};
	const dex_code *c = m->code;
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
	if (*out == FILTER_TRACE && inline_units && v.size <= inline_units) {
		/* the widest id first (const): most methods fit with it or fit neither way */
		if (dex_hooked_size(d, m, v.ctor, focus, INT32_MAX, scratch, &v.traced, err) != TC_OK)
			return err->code;
		if (v.traced)
			*out = filter_decide(&v, inline_units);
		if (*out == FILTER_INLINE) {
			if (dex_hooked_size(d, m, v.ctor, focus, INT16_MAX, scratch, &v.traced, err) != TC_OK)
				return err->code;
			if (v.traced && filter_decide(&v, inline_units) == FILTER_TRACE) {
				*out = FILTER_TRACE;
				*narrow = true;
			}
		}
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

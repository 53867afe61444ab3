#include "filter.h"

#include <string.h>

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

int filter_method(const cf_class *cls, const cf_member *m, enum filter_verdict *out, cf_error *err)
{
	cf_attr *attr = cf_method_code(cls, m);
	if (!attr) {
		*out = FILTER_EMPTY;
		return CF_OK;
	}
	cf_code code;
	if (cf_code_parse(cls, attr, &code, err) != CF_OK)
		return err->code;
	bool ctor = cp_utf8_eq(&cls->cp, m->name, "<init>");
	bool getset = true, calls = false;
	unsigned specials = 0;
	uint32_t len;
	for (uint32_t off = 0; off < code.len; off += len) {
		uint8_t op;
		/* Lengths and opcodes are all this needs; methods that get traced are
		 * decoded in full (and checked) when they are instrumented. After wide, op is
		 * the widened opcode, as ASM reports it. */
		if (!(len = insn_length(code.code, code.len, off, &op)))
			return cf_fail(err, CF_EOPCODE, code.code_off + off, "Code",
			               "bad or cut-off instruction 0x%02x at %u", code.code[off], off);
		if (op_has(op, OPF_INVOKE))
			calls = true;
		if (!getset)
			continue;
		if (op <= OP_SALOAD || op_has(op, OPF_FIELD | OPF_RETURN))
			continue;
		if (ctor && op == OP_INVOKESPECIAL && ++specials <= 1)
			continue;
		getset = false;
	}
	*out = getset ? FILTER_GETSET : !calls ? FILTER_SINGLE : FILTER_TRACE;
	return CF_OK;
}

const char *filter_name(enum filter_verdict v)
{
	switch (v) {
	case FILTER_TRACE: return "traced";
	case FILTER_EMPTY: return "empty";
	case FILTER_GETSET: return "getset";
	case FILTER_SINGLE: return "single";
	}
	return "?";
}

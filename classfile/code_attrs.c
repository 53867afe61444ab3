/* Code attributes that hold code offsets, besides the StackMapTable:
 * LineNumberTable (JVMS 4.7.12), LocalVariableTable (4.7.13), LocalVariableTypeTable
 * (4.7.14) and Runtime(In)VisibleTypeAnnotations (4.7.20) on instructions.
 *
 * One walker serves both uses: checking that every offset sits on an instruction
 * (code_open), and patching a copy with the new offsets (code_commit). The sizes of
 * these attributes do not depend on offsets, so a copy is patched in place. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "code_internal.h"

typedef struct walk {
	code_editor *ed;
	tc_reader r;
	uint8_t *out;        /* copy being patched, or NULL when only checking */
	const uint8_t *body; /* start of the attribute body in the input */
	const char *name;
} walk;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail_at(walk *w, uint32_t at, const char *fmt, ...)
{
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return tc_fail(w->r.err, TC_EFORMAT, at, w->name, "%s", msg);
}

static void patch_u2(walk *w, const uint8_t *field, uint32_t v)
{
	if (w->out)
		put_u2(w->out + (field - w->body), (uint16_t)v);
}

static bool on_insn(const code_editor *ed, uint32_t off)
{
	return code_index(ed, off) != NONE;
}

/* A (start_pc, length) range: start on an instruction, end on one or at code_length. */
static int range(walk *w)
{
	uint32_t at = rd_off(&w->r);
	const uint8_t *field = w->r.pos;
	uint32_t start = rd_u2(&w->r);
	uint32_t len = rd_u2(&w->r);
	if (!rd_ok(&w->r))
		return w->r.err->code;
	code_editor *ed = w->ed;
	uint32_t end = start + len;
	if (!on_insn(ed, start) || end > ed->code.len || (end < ed->code.len && !on_insn(ed, end)))
		return fail_at(w, at, "range %u..%u is not on instruction boundaries", start, end);
	if (w->out) {
		uint32_t ns = code_new_first(ed, start);
		uint32_t ne = code_new_first(ed, end);
		patch_u2(w, field, ns);
		patch_u2(w, field + 2, ne - ns);
	}
	return TC_OK;
}

static int insn_offset(walk *w)
{
	uint32_t at = rd_off(&w->r);
	const uint8_t *field = w->r.pos;
	uint32_t off = rd_u2(&w->r);
	if (!rd_ok(&w->r))
		return w->r.err->code;
	if (!on_insn(w->ed, off))
		return fail_at(w, at, "offset %u is not an instruction", off);
	patch_u2(w, field, code_new_insn(w->ed, off));
	return TC_OK;
}

static int line_numbers(walk *w)
{
	uint32_t n = rd_u2(&w->r);
	for (uint32_t i = 0; i < n && rd_ok(&w->r); i++) {
		uint32_t at = rd_off(&w->r);
		const uint8_t *field = w->r.pos;
		uint32_t start = rd_u2(&w->r);
		rd_u2(&w->r);
		if (!rd_ok(&w->r))
			break;
		if (!on_insn(w->ed, start))
			return fail_at(w, at, "entry %u: start_pc %u is not an instruction", i, start);
		patch_u2(w, field, code_new_first(w->ed, start));
	}
	return w->r.err->code;
}

static int local_vars(walk *w)
{
	uint32_t n = rd_u2(&w->r);
	for (uint32_t i = 0; i < n && rd_ok(&w->r); i++) {
		if (range(w) != TC_OK)
			return w->r.err->code;
		rd_bytes(&w->r, 6); /* name, descriptor or signature, index */
	}
	return w->r.err->code;
}

enum { MAX_NESTING = 64 };

static int element_value(walk *w, int depth);

static int annotation(walk *w, int depth)
{
	if (depth > MAX_NESTING)
		return fail_at(w, rd_off(&w->r), "annotations nested deeper than %d", MAX_NESTING);
	rd_u2(&w->r); /* type_index */
	uint32_t pairs = rd_u2(&w->r);
	for (uint32_t i = 0; i < pairs && rd_ok(&w->r); i++) {
		rd_u2(&w->r); /* element_name_index */
		if (element_value(w, depth + 1) != TC_OK)
			break;
	}
	return w->r.err->code;
}

static int element_value(walk *w, int depth)
{
	uint32_t at = rd_off(&w->r);
	uint8_t tag = rd_u1(&w->r);
	if (!rd_ok(&w->r))
		return w->r.err->code;
	switch (tag) {
	case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z': case 's':
	case 'c':
		rd_u2(&w->r);
		break;
	case 'e':
		rd_u2(&w->r);
		rd_u2(&w->r);
		break;
	case '@':
		return annotation(w, depth);
	case '[': {
		uint32_t n = rd_u2(&w->r);
		if (depth > MAX_NESTING)
			return fail_at(w, at, "arrays nested deeper than %d", MAX_NESTING);
		for (uint32_t i = 0; i < n && rd_ok(&w->r); i++)
			if (element_value(w, depth + 1) != TC_OK)
				break;
		break;
	}
	default:
		return fail_at(w, at, "unknown element_value tag 0x%02x", tag);
	}
	return w->r.err->code;
}

static int type_annotations(walk *w)
{
	uint32_t n = rd_u2(&w->r);
	for (uint32_t i = 0; i < n && rd_ok(&w->r); i++) {
		uint32_t at = rd_off(&w->r);
		uint8_t target = rd_u1(&w->r);
		if (!rd_ok(&w->r))
			break;
		switch (target) {
		case 0x40: /* local_variable */
		case 0x41: { /* resource_variable */
			uint32_t len = rd_u2(&w->r);
			for (uint32_t k = 0; k < len && rd_ok(&w->r); k++) {
				if (range(w) != TC_OK)
					return w->r.err->code;
				rd_u2(&w->r); /* index */
			}
			break;
		}
		case 0x42: { /* exception_parameter: an exception table index, unchanged since
		                edits only append entries */
			uint32_t idx = rd_u2(&w->r);
			if (rd_ok(&w->r) && idx >= w->ed->code.nexc)
				return fail_at(w, at, "catch_target %u is past the exception table (%u)", idx,
				               w->ed->code.nexc);
			break;
		}
		case 0x43: case 0x44: case 0x45: case 0x46: /* instanceof, new, ::new, ::m */
			if (insn_offset(w) != TC_OK)
				return w->r.err->code;
			break;
		case 0x47: case 0x48: case 0x49: case 0x4A: case 0x4B: /* casts, type arguments */
			if (insn_offset(w) != TC_OK)
				return w->r.err->code;
			rd_u1(&w->r);
			break;
		default:
			return fail_at(w, at, "annotation %u: target_type 0x%02x does not belong in Code", i,
			               target);
		}
		uint32_t path = rd_u1(&w->r);
		rd_bytes(&w->r, 2 * path);
		if (!rd_ok(&w->r) || annotation(w, 0) != TC_OK)
			break;
	}
	return w->r.err->code;
}

static int run(code_editor *ed, const cf_attr *attr, int kind, uint8_t *out, tc_error *err)
{
	static const char *const names[] = {
		[ATTR_LNT] = "LineNumberTable",
		[ATTR_LVT] = "LocalVariableTable",
		[ATTR_LVTT] = "LocalVariableTypeTable",
		[ATTR_RVTA] = "RuntimeVisibleTypeAnnotations",
		[ATTR_RITA] = "RuntimeInvisibleTypeAnnotations",
	};
	const uint8_t *base = attr->off == TC_NO_OFFSET ? attr->data : attr->data - attr->off;
	walk w = {.ed = ed, .out = out, .body = attr->data, .name = names[kind]};
	w.r = (tc_reader){base, attr->data, attr->data + attr->len, err, names[kind]};
	switch (kind) {
	case ATTR_LNT: line_numbers(&w); break;
	case ATTR_LVT:
	case ATTR_LVTT: local_vars(&w); break;
	default: type_annotations(&w); break;
	}
	if (err->code == TC_OK && rd_left(&w.r))
		tc_fail(err, TC_EFORMAT, rd_off(&w.r), names[kind], "%zu bytes after its last entry",
		        rd_left(&w.r));
	return err->code;
}

int code_attrs_check(code_editor *ed, cf_attr *attr, int kind, tc_error *err)
{
	return run(ed, attr, kind, NULL, err);
}

int code_attrs_relocate(code_editor *ed, const cf_attr *attr, int kind, cf_attr *out, tc_error *err)
{
	uint8_t *copy = arena_dup(ed->cls->arena, attr->data, attr->len);
	if (!copy && attr->len)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "Code", "no memory for an attribute");
	if (run(ed, attr, kind, copy, err) != TC_OK)
		return err->code;
	*out = *attr;
	out->data = copy;
	out->off = TC_NO_OFFSET;
	return TC_OK;
}

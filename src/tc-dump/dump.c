#include "tc-dump/dump.h"

#include <inttypes.h>
#include <string.h>

#include "code.h"
#include "smt.h"

static void put_escaped(FILE *out, const uint8_t *s, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++) {
		uint8_t c = s[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
}

static void put_utf8(FILE *out, const cp_pool *cp, uint32_t idx)
{
	uint32_t len;
	const uint8_t *s = cp_utf8(cp, idx, &len);
	if (s)
		put_escaped(out, s, len);
	else
		fprintf(out, "<bad #%u>", idx);
}

static void put_class(FILE *out, const cp_pool *cp, uint32_t idx)
{
	uint32_t len;
	const uint8_t *s = cp_class_name(cp, idx, &len);
	if (s)
		put_escaped(out, s, len);
	else
		fprintf(out, "<bad #%u>", idx);
}

/* The entry's meaning after "//", as javap does. */
static void put_const(FILE *out, const cp_pool *cp, uint32_t idx)
{
	const cp_entry *e = idx < cp->count ? &cp->e[idx] : NULL;
	cp_ref ref;
	if (!e || !e->tag) {
		fprintf(out, "<bad #%u>", idx);
		return;
	}
	switch (e->tag) {
	case CP_UTF8:
		fputc('"', out);
		put_utf8(out, cp, idx);
		fputc('"', out);
		break;
	case CP_INTEGER:
		fprintf(out, "%" PRId32, (int32_t)e->v.u4);
		break;
	case CP_FLOAT:
		fprintf(out, "float 0x%08" PRIx32, e->v.u4);
		break;
	case CP_LONG:
		fprintf(out, "%" PRId64 "L", (int64_t)e->v.u8);
		break;
	case CP_DOUBLE:
		fprintf(out, "double 0x%016" PRIx64, e->v.u8);
		break;
	case CP_CLASS:
	case CP_MODULE:
	case CP_PACKAGE:
	case CP_METHODTYPE:
		put_utf8(out, cp, e->a);
		break;
	case CP_STRING:
		fputc('"', out);
		put_utf8(out, cp, e->a);
		fputc('"', out);
		break;
	case CP_FIELDREF:
	case CP_METHODREF:
	case CP_IMETHODREF:
		if (cp_member_ref(cp, idx, &ref)) {
			put_escaped(out, ref.cls, ref.cls_len);
			fputc('.', out);
			put_escaped(out, ref.name, ref.name_len);
			fputc(':', out);
			put_escaped(out, ref.desc, ref.desc_len);
		}
		break;
	case CP_NAMETYPE:
		put_utf8(out, cp, e->a);
		fputc(':', out);
		put_utf8(out, cp, e->b);
		break;
	case CP_METHODHANDLE:
		fprintf(out, "kind %u ", e->kind);
		put_const(out, cp, e->b);
		break;
	case CP_DYNAMIC:
	case CP_INVOKEDYNAMIC:
		fprintf(out, "bootstrap %u ", e->a);
		put_const(out, cp, e->b);
		break;
	}
}

static void dump_pool(FILE *out, const cp_pool *cp)
{
	fprintf(out, "constant pool: %u entries\n", cp->count ? cp->count - 1 : 0);
	for (uint32_t i = 1; i < cp->count; i++) {
		const cp_entry *e = &cp->e[i];
		if (!e->tag)
			continue;
		fprintf(out, "  #%u = %s", i, cp_tag_name(e->tag));
		switch (e->tag) {
		case CP_CLASS: case CP_STRING: case CP_METHODTYPE: case CP_MODULE: case CP_PACKAGE:
			fprintf(out, " #%u", e->a);
			break;
		case CP_FIELDREF: case CP_METHODREF: case CP_IMETHODREF: case CP_NAMETYPE:
		case CP_DYNAMIC: case CP_INVOKEDYNAMIC:
			fprintf(out, " #%u.#%u", e->a, e->b);
			break;
		case CP_METHODHANDLE:
			fprintf(out, " %u:#%u", e->kind, e->b);
			break;
		}
		fputs(" // ", out);
		put_const(out, cp, i);
		fputc('\n', out);
	}
}

static void put_access(FILE *out, uint16_t acc, int kind /* 0 class, 1 field, 2 method */)
{
	static const struct { uint16_t bit; const char *name[3]; } bits[] = {
		{ACC_PUBLIC, {"public", "public", "public"}},
		{ACC_PRIVATE, {"private", "private", "private"}},
		{ACC_PROTECTED, {"protected", "protected", "protected"}},
		{ACC_STATIC, {"static", "static", "static"}},
		{ACC_FINAL, {"final", "final", "final"}},
		{0x0020, {"super", "0x0020", "synchronized"}},
		{0x0040, {"0x0040", "volatile", "bridge"}},
		{0x0080, {"0x0080", "transient", "varargs"}},
		{ACC_NATIVE, {"0x0100", "0x0100", "native"}},
		{ACC_INTERFACE, {"interface", "0x0200", "0x0200"}},
		{ACC_ABSTRACT, {"abstract", "0x0400", "abstract"}},
		{ACC_STRICT, {"0x0800", "0x0800", "strict"}},
		{ACC_SYNTHETIC, {"synthetic", "synthetic", "synthetic"}},
		{ACC_ANNOTATION, {"annotation", "0x2000", "0x2000"}},
		{ACC_ENUM, {"enum", "enum", "0x4000"}},
		{ACC_MODULE, {"module", "0x8000", "0x8000"}},
	};
	fprintf(out, "0x%04x", acc);
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
		if (acc & bits[i].bit)
			fprintf(out, " %s", bits[i].name[kind]);
}

static void put_vtypes(FILE *out, const smt_vtype *v, uint32_t n)
{
	fputc('[', out);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		fputs(smt_tag_name(v[i].tag), out);
		if (v[i].tag == VT_OBJECT) {
			fputc(' ', out);
			put_escaped(out, v[i].name, v[i].name_len);
		} else if (v[i].tag == VT_UNINIT) {
			fprintf(out, "(%u)", v[i].off);
		}
	}
	fputc(']', out);
}

static void dump_insn(FILE *out, const cp_pool *cp, const cf_insn *in)
{
	const cf_op_info *info = &cf_op_table[in->op];
	fprintf(out, "      %5u: %s%s", in->off, in->wide ? "wide " : "", info->name);
	switch (info->kind) {
	case OPK_S1:
	case OPK_S2:
		fprintf(out, " %d", in->imm);
		break;
	case OPK_LOCAL:
		fprintf(out, " %u", in->index);
		break;
	case OPK_IINC:
		fprintf(out, " %u %d", in->index, in->imm);
		break;
	case OPK_CP1:
	case OPK_CP2:
	case OPK_INDY:
		fprintf(out, " #%u // ", in->index);
		put_const(out, cp, in->index);
		break;
	case OPK_IINTERFACE:
		fprintf(out, " #%u, %d // ", in->index, in->imm);
		put_const(out, cp, in->index);
		break;
	case OPK_MULTI:
		fprintf(out, " #%u, %d // ", in->index, in->imm);
		put_const(out, cp, in->index);
		break;
	case OPK_ATYPE: {
		static const char *const t[] = {"boolean", "char", "float", "double", "byte", "short",
		                                "int", "long"};
		fprintf(out, " %s", t[in->imm - 4]);
		break;
	}
	case OPK_BR2:
	case OPK_BR4:
		fprintf(out, " %lld", (long long)cf_insn_target(in, 0));
		break;
	case OPK_TSWITCH:
	case OPK_LSWITCH:
		fprintf(out, " { // %u\n", in->npairs);
		for (uint32_t k = 0; k < in->npairs; k++)
			fprintf(out, "               %11d: %lld\n", cf_insn_switch_key(in, k),
			        (long long)cf_insn_target(in, k + 1));
		fprintf(out, "                   default: %lld\n               }", (long long)cf_insn_target(in, 0));
		break;
	}
	fputc('\n', out);
}

static void dump_lnt(FILE *out, const cf_attr *at)
{
	const uint8_t *p = at->data;
	uint32_t n = at->len >= 2 ? get_u2(p) : 0;
	if (at->len != 2 + 4 * n) {
		fprintf(out, "      ! error: LineNumberTable of %u bytes is malformed\n", at->len);
		return;
	}
	fprintf(out, "    LineNumberTable: %u\n", n);
	for (uint32_t i = 0; i < n; i++)
		fprintf(out, "      %5u: line %u\n", get_u2(p + 2 + 4 * i), get_u2(p + 4 + 4 * i));
}

static void dump_lvt(FILE *out, const cp_pool *cp, const cf_attr *at, const char *name)
{
	const uint8_t *p = at->data;
	uint32_t n = at->len >= 2 ? get_u2(p) : 0;
	if (at->len != 2 + 10 * n) {
		fprintf(out, "      ! error: %s of %u bytes is malformed\n", name, at->len);
		return;
	}
	fprintf(out, "    %s: %u\n", name, n);
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = p + 2 + 10 * i;
		uint32_t start = get_u2(e), len = get_u2(e + 2);
		fprintf(out, "      %5u..%u slot %u ", start, start + len, get_u2(e + 8));
		put_utf8(out, cp, get_u2(e + 4));
		fputc(' ', out);
		put_utf8(out, cp, get_u2(e + 6));
		fputc('\n', out);
	}
}

static int dump_code(FILE *out, cf_class *cls, cf_member *m, arena *scratch)
{
	tc_error err;
	tc_error_clear(&err);
	code_editor *ed;
	if (code_open(&ed, cls, m, scratch, &err) != TC_OK) {
		char msg[512];
		tc_error_format(&err, msg, sizeof msg);
		fprintf(out, "    ! error: %s\n", msg);
		return 1;
	}
	const cf_code *c = code_body(ed);
	fprintf(out, "    Code: max_stack %u, max_locals %u, code_length %u\n", c->max_stack,
	        c->max_locals, c->len);
	for (uint32_t i = 0; i < code_ninsns(ed); i++)
		dump_insn(out, &cls->cp, code_insn(ed, i));
	if (c->nexc) {
		fprintf(out, "    exception table: %u\n", c->nexc);
		for (uint32_t i = 0; i < c->nexc; i++) {
			fprintf(out, "      %5u..%u -> %u ", c->exc[i].start, c->exc[i].end, c->exc[i].handler);
			if (c->exc[i].type)
				put_class(out, &cls->cp, c->exc[i].type);
			else
				fputs("any", out);
			fputc('\n', out);
		}
	}
	for (uint32_t i = 0; i < c->nattrs; i++) {
		const cf_attr *at = &c->attrs[i];
		if (cp_utf8_eq(&cls->cp, at->name, "StackMapTable")) {
			smt_vtype *init;
			uint16_t ninit;
			smt_frame *f;
			uint32_t nf;
			if (smt_initial(cls, m, scratch, &init, &ninit, &err) != TC_OK ||
			    smt_decode(cls, at, c->len, init, ninit, scratch, &f, &nf, &err) != TC_OK) {
				fprintf(out, "    ! error: %s\n", err.message);
				return 1;
			}
			fprintf(out, "    StackMapTable: %u\n", nf);
			for (uint32_t k = 0; k < nf; k++) {
				fprintf(out, "      %5u: type %u locals ", f[k].off, f[k].type);
				put_vtypes(out, f[k].locals, f[k].nlocals);
				fputs(" stack ", out);
				put_vtypes(out, f[k].stack, f[k].nstack);
				fputc('\n', out);
			}
		} else if (cp_utf8_eq(&cls->cp, at->name, "LineNumberTable")) {
			dump_lnt(out, at);
		} else if (cp_utf8_eq(&cls->cp, at->name, "LocalVariableTable")) {
			dump_lvt(out, &cls->cp, at, "LocalVariableTable");
		} else if (cp_utf8_eq(&cls->cp, at->name, "LocalVariableTypeTable")) {
			dump_lvt(out, &cls->cp, at, "LocalVariableTypeTable");
		} else {
			fputs("    attribute ", out);
			put_utf8(out, &cls->cp, at->name);
			fprintf(out, " (%u bytes)\n", at->len);
		}
	}
	return 0;
}

static int dump_members(FILE *out, cf_class *cls, cf_member *ms, uint16_t n, bool methods,
                        arena *scratch)
{
	int problems = 0;
	fprintf(out, "%s: %u\n", methods ? "methods" : "fields", n);
	for (uint32_t i = 0; i < n; i++) {
		cf_member *m = &ms[i];
		fprintf(out, "  [%u] ", i);
		put_access(out, m->access, methods ? 2 : 1);
		fputc(' ', out);
		put_utf8(out, &cls->cp, m->name);
		fputs(methods ? "" : " ", out);
		put_utf8(out, &cls->cp, m->desc);
		fputc('\n', out);
		for (uint32_t k = 0; k < m->nattrs; k++) {
			const cf_attr *at = &m->attrs[k];
			if (methods && cp_utf8_eq(&cls->cp, at->name, "Code")) {
				problems += dump_code(out, cls, m, scratch);
				continue;
			}
			fputs("    attribute ", out);
			put_utf8(out, &cls->cp, at->name);
			fprintf(out, " (%u bytes)\n", at->len);
		}
	}
	return problems;
}

int dump_class(FILE *out, cf_class *cls, arena *scratch)
{
	fputs("class ", out);
	put_class(out, &cls->cp, cls->this_class);
	fprintf(out, "\n  version: %u.%u\n  access: ", cls->major, cls->minor);
	put_access(out, cls->access, 0);
	fputs("\n  super: ", out);
	if (cls->super_class)
		put_class(out, &cls->cp, cls->super_class);
	else
		fputs("(none)", out);
	fprintf(out, "\n  interfaces: %u\n", cls->ninterfaces);
	for (uint32_t i = 0; i < cls->ninterfaces; i++) {
		fputs("    ", out);
		put_class(out, &cls->cp, cls->interfaces[i]);
		fputc('\n', out);
	}
	dump_pool(out, &cls->cp);
	int problems = dump_members(out, cls, cls->fields, cls->nfields, false, scratch);
	problems += dump_members(out, cls, cls->methods, cls->nmethods, true, scratch);
	fprintf(out, "attributes: %u\n", cls->nattrs);
	for (uint32_t i = 0; i < cls->nattrs; i++) {
		fputs("  ", out);
		put_utf8(out, &cls->cp, cls->attrs[i].name);
		fprintf(out, " (%u bytes)\n", cls->attrs[i].len);
	}
	return problems;
}

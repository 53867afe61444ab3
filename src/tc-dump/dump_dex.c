/* A stable text form of a dex file: classes, members, code disassembled with every id
 * resolved to its name, tries and handlers, and the debug info decoded into events.
 * No file offset is printed, so two dex files with the same content print the same
 * text however they are laid out (tc-dump --roundtrip compares the dumps). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dex.h"
#include "bytes.h"
#include "dex_op.h"
#include "tc-dump/dump.h"

static void put_str(FILE *out, const dex_file *d, uint32_t idx)
{
	const dex_str *s = dex_string(d, idx);
	if (!s) {
		fprintf(out, "string#%u", idx);
		return;
	}
	fputc('"', out);
	for (uint32_t i = 0; i < s->len; i++) {
		uint8_t c = s->data[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void put_type(FILE *out, const dex_file *d, uint32_t idx)
{
	uint32_t len;
	const uint8_t *s = dex_type_desc(d, idx, &len);
	if (s)
		fprintf(out, "%.*s", (int)len, (const char *)s);
	else
		fprintf(out, "type#%u", idx);
}

static void put_field(FILE *out, const dex_file *d, uint32_t idx)
{
	if (idx >= d->fields.n) {
		fprintf(out, "field#%u", idx);
		return;
	}
	const dex_fid *f = &d->fields.v[idx];
	put_type(out, d, f->cls);
	const dex_str *n = dex_string(d, f->name);
	fprintf(out, "->%.*s:", n ? (int)n->len : 0, n ? (const char *)n->data : "");
	put_type(out, d, f->type);
}

static void put_method(FILE *out, const dex_file *d, uint32_t idx)
{
	char label[2048];
	dex_method_label(d, idx, label, sizeof label);
	fputs(label, out);
}

static void put_proto(FILE *out, const dex_file *d, uint32_t idx)
{
	char desc[2048];
	if (dex_proto_desc(d, idx, desc, sizeof desc))
		fputs(desc, out);
	else
		fprintf(out, "proto#%u", idx);
}

static void put_index(FILE *out, const dex_file *d, uint8_t kind, uint32_t idx)
{
	switch (kind) {
	case DI_STRING: put_str(out, d, idx); break;
	case DI_TYPE: put_type(out, d, idx); break;
	case DI_FIELD: put_field(out, d, idx); break;
	case DI_METHOD:
	case DI_METHOD_PROTO: put_method(out, d, idx); break;
	case DI_PROTO: put_proto(out, d, idx); break;
	case DI_CALL_SITE: fprintf(out, "call_site#%u", idx); break;
	case DI_METHOD_HANDLE: fprintf(out, "method_handle#%u", idx); break;
	}
}

static void put_insn(FILE *out, const dex_file *d, const dex_code *c, uint32_t pc, const dex_insn *op)
{
	fprintf(out, "    %04x: ", pc);
	if (op->fmt == DF_PAYLOAD) {
		const uint8_t *p = c->insns + 2 * (size_t)pc;
		uint32_t n = get_le2(p + 2);
		if (op->payload == DPL_PACKED) {
			fprintf(out, "packed-switch-payload first %" PRId32 ":", (int32_t)get_le4(p + 4));
			for (uint32_t k = 0; k < n; k++)
				fprintf(out, " %+d", (int32_t)get_le4(p + 8 + 4 * k));
		} else if (op->payload == DPL_SPARSE) {
			fprintf(out, "sparse-switch-payload");
			for (uint32_t k = 0; k < n; k++)
				fprintf(out, " %" PRId32 ":%+d", (int32_t)get_le4(p + 4 + 4 * k),
				        (int32_t)get_le4(p + 4 + 4 * (n + k)));
		} else {
			uint32_t count = get_le4(p + 4);
			fprintf(out, "array-data-payload width %u count %u:", n, count);
			for (uint32_t k = 0; k < (uint32_t)n * count; k++)
				fprintf(out, " %02x", p[8 + k]);
		}
		fputc('\n', out);
		return;
	}
	const dex_op_info *info = &dex_op_table[op->op];
	fputs(info->name, out);
	switch (op->fmt) {
	case DF_10x: break;
	case DF_12x:
	case DF_22x:
	case DF_32x: fprintf(out, " v%u, v%u", op->a, op->b); break;
	case DF_11n:
	case DF_21s:
	case DF_21h:
	case DF_31i:
	case DF_51l: fprintf(out, " v%u, #%" PRId64, op->a, op->lit); break;
	case DF_11x: fprintf(out, " v%u", op->a); break;
	case DF_10t:
	case DF_20t:
	case DF_30t: fprintf(out, " %04x", pc + (uint32_t)op->target); break;
	case DF_21t: fprintf(out, " v%u, %04x", op->a, pc + (uint32_t)op->target); break;
	case DF_22t: fprintf(out, " v%u, v%u, %04x", op->a, op->b, pc + (uint32_t)op->target); break;
	case DF_31t: fprintf(out, " v%u, %04x", op->a, pc + (uint32_t)op->target); break;
	case DF_21c:
	case DF_31c: fprintf(out, " v%u, ", op->a); put_index(out, d, info->idx, op->idx); break;
	case DF_22c: fprintf(out, " v%u, v%u, ", op->a, op->b); put_index(out, d, info->idx, op->idx); break;
	case DF_23x: fprintf(out, " v%u, v%u, v%u", op->a, op->b, op->c); break;
	case DF_22b:
	case DF_22s: fprintf(out, " v%u, v%u, #%" PRId64, op->a, op->b, op->lit); break;
	case DF_35c:
	case DF_45cc:
		fputs(" {", out);
		for (int k = 0; k < op->nargs; k++)
			fprintf(out, "%sv%u", k ? ", " : "", op->args[k]);
		fputs("}, ", out);
		put_index(out, d, info->idx, op->idx);
		if (op->fmt == DF_45cc) {
			fputs(", ", out);
			put_proto(out, d, op->idx2);
		}
		break;
	case DF_3rc:
	case DF_4rcc:
		fprintf(out, " {v%u .. v%u}, ", op->a, op->a + op->nargs - 1);
		put_index(out, d, info->idx, op->idx);
		if (op->fmt == DF_4rcc) {
			fputs(", ", out);
			put_proto(out, d, op->idx2);
		}
		break;
	}
	fputc('\n', out);
}

/* The debug info's events ("Dalvik executable format", debug_info_item). */
static void dump_debug(FILE *out, const dex_file *d, const dex_blob *b)
{
	tc_error e;
	tc_error_clear(&e);
	tc_reader r = rd_at(b->data, b->len, 0, &e, "debug_info_item");
	int64_t line = rd_uleb(&r);
	uint32_t np = rd_uleb(&r);
	fprintf(out, "    debug: line %" PRId64 ", %u parameter names\n", line, np);
	for (uint32_t i = 0; i < np && rd_ok(&r); i++)
		rd_ulebp1(&r);
	uint32_t addr = 0;
	while (rd_ok(&r)) {
		uint8_t op = rd_u1(&r);
		switch (op) {
		case 0: return;
		case 1: addr += rd_uleb(&r); break;
		case 2: line += rd_sleb(&r); break;
		case 3:
		case 4: {
			uint32_t reg = rd_uleb(&r), name = rd_ulebp1(&r), type = rd_ulebp1(&r);
			fprintf(out, "      %04x: local v%u ", addr, reg);
			if (name != DEX_NO_INDEX)
				put_str(out, d, name);
			fputc(' ', out);
			if (type != DEX_NO_INDEX)
				put_type(out, d, type);
			if (op == 4) {
				uint32_t sig = rd_ulebp1(&r);
				fputc(' ', out);
				if (sig != DEX_NO_INDEX)
					put_str(out, d, sig);
			}
			fputc('\n', out);
			break;
		}
		case 5: fprintf(out, "      %04x: end local v%u\n", addr, rd_uleb(&r)); break;
		case 6: fprintf(out, "      %04x: restart local v%u\n", addr, rd_uleb(&r)); break;
		case 7: fprintf(out, "      %04x: prologue end\n", addr); break;
		case 8: fprintf(out, "      %04x: epilogue begin\n", addr); break;
		case 9: {
			uint32_t f = rd_ulebp1(&r);
			fprintf(out, "      %04x: file ", addr);
			if (f != DEX_NO_INDEX)
				put_str(out, d, f);
			fputc('\n', out);
			break;
		}
		default:
			line += -4 + (op - 10) % 15;
			addr += (uint32_t)(op - 10) / 15;
			fprintf(out, "      %04x: line %" PRId64 "\n", addr, line);
		}
	}
}

static int dump_code(FILE *out, const dex_file *d, const dex_code *c)
{
	int problems = 0;
	fprintf(out, "    registers %u, ins %u, outs %u, %u code units\n", c->regs, c->ins, c->outs, c->ninsns);
	dex_insn op;
	for (uint32_t pc = 0, size; pc < c->ninsns; pc += size) {
		if (!(size = dex_op_decode(c->insns, c->ninsns, pc, d->version, &op))) {
			fprintf(out, "    ! error: bad instruction at %04x\n", pc);
			problems++;
			break;
		}
		put_insn(out, d, c, pc, &op);
	}
	for (uint32_t t = 0; t < c->ntries; t++) {
		const dex_try *tr = &c->tries[t];
		const dex_handler *h = &c->handlers[tr->handler];
		fprintf(out, "    try %04x..%04x:", tr->start, tr->start + tr->count);
		for (uint32_t k = 0; k < h->n; k++) {
			fputc(' ', out);
			put_type(out, d, h->catches[k].type);
			fprintf(out, " %04x", h->catches[k].addr);
		}
		if (h->catch_all != DEX_NO_INDEX)
			fprintf(out, " catch-all %04x", h->catch_all);
		fputc('\n', out);
	}
	if (c->debug)
		dump_debug(out, d, c->debug);
	return problems;
}

static void put_flags(FILE *out, uint32_t f)
{
	static const char *const names[] = {"public", "private", "protected", "static", "final",
	                                    "synchronized", "volatile/bridge", "transient/varargs", "native",
	                                    "interface", "abstract", "strict", "synthetic", "annotation",
	                                    "enum", "?", "constructor", "declared-synchronized"};
	fprintf(out, "0x%x", f);
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
		if (f & (1u << i))
			fprintf(out, " %s", names[i]);
}

static int dump_methods(FILE *out, const dex_file *d, const char *kind, const dex_emethod *m, uint32_t n)
{
	int problems = 0;
	for (uint32_t i = 0; i < n; i++) {
		fprintf(out, "  %s method ", kind);
		put_method(out, d, m[i].idx);
		fputs(" ", out);
		put_flags(out, m[i].flags);
		fputc('\n', out);
		if (m[i].code)
			problems += dump_code(out, d, m[i].code);
	}
	return problems;
}

int dump_dex(FILE *out, const dex_file *d)
{
	int problems = 0;
	fprintf(out, "dex %03d: %u classes, %u strings, %u types, %u protos, %u fields, %u methods\n", d->version,
	        d->nclasses, d->strings.n, d->types.n, d->protos.n, d->fields.n, d->methods.n);
	for (uint32_t i = 0; i < d->nclasses; i++) {
		const dex_class *k = &d->classes[i];
		fputs("class ", out);
		put_type(out, d, k->type);
		fputc(' ', out);
		put_flags(out, k->flags);
		fputc('\n', out);
		if (k->super != DEX_NO_INDEX) {
			fputs("  super ", out);
			put_type(out, d, k->super);
			fputc('\n', out);
		}
		for (uint32_t j = 0; k->ifaces && j < k->ifaces->n; j++) {
			fputs("  implements ", out);
			put_type(out, d, k->ifaces->types[j]);
			fputc('\n', out);
		}
		if (k->source != DEX_NO_INDEX) {
			fputs("  source ", out);
			put_str(out, d, k->source);
			fputc('\n', out);
		}
		const dex_cdata *cd = k->data;
		if (!cd)
			continue;
		const struct {
			const char *kind;
			const dex_efield *v;
			uint32_t n;
		} fl[] = {{"static", cd->sfields, cd->nsfields}, {"instance", cd->ifields, cd->nifields}};
		for (int f = 0; f < 2; f++)
			for (uint32_t j = 0; j < fl[f].n; j++) {
				fprintf(out, "  %s field ", fl[f].kind);
				put_field(out, d, fl[f].v[j].idx);
				fputc(' ', out);
				put_flags(out, fl[f].v[j].flags);
				fputc('\n', out);
			}
		problems += dump_methods(out, d, "direct", cd->dmethods, cd->ndmethods);
		problems += dump_methods(out, d, "virtual", cd->vmethods, cd->nvmethods);
	}
	return problems;
}

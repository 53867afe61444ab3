/* The Dalvik instruction table, decoder and encoder. */
#include <criterion/criterion.h>
#include <string.h>

#include "bytes.h"
#include "dex_op.h"

/* Operands at the top of each field's range for the instruction's format. */
static dex_insn extreme(uint8_t op)
{
	dex_insn d = {0};
	d.op = op;
	d.fmt = dex_op_table[op].fmt;
	switch (d.fmt) {
	case DF_12x: d.a = 15; d.b = 14; break;
	case DF_11n: d.a = 15; d.lit = -8; break;
	case DF_11x: d.a = 255; break;
	case DF_10t: d.target = -128; break;
	case DF_20t: d.target = -32768; break;
	case DF_22x: d.a = 255; d.b = 65535; break;
	case DF_21t: d.a = 254; d.target = 32767; break;
	case DF_21s: d.a = 253; d.lit = -32768; break;
	case DF_21h: d.a = 252; d.lit = op == DEX_OP_CONST_HIGH16 ? (int64_t)INT32_MIN : (int64_t)0x7fff000000000000LL; break;
	case DF_21c: d.a = 251; d.idx = 65535; break;
	case DF_23x: d.a = 250; d.b = 249; d.c = 248; break;
	case DF_22b: d.a = 247; d.b = 246; d.lit = -128; break;
	case DF_22t: d.a = 13; d.b = 12; d.target = -32768; break;
	case DF_22s: d.a = 11; d.b = 10; d.lit = 32767; break;
	case DF_22c: d.a = 9; d.b = 8; d.idx = 65534; break;
	case DF_30t: d.target = INT32_MIN; break;
	case DF_32x: d.a = 65535; d.b = 65534; break;
	case DF_31i: d.a = 245; d.lit = INT32_MIN; break;
	case DF_31t: d.a = 244; d.target = 0x7ffffffe; break;
	case DF_31c: d.a = 243; d.idx = 0xfffffff0u; break;
	case DF_35c:
	case DF_45cc:
		d.nargs = 5;
		for (int i = 0; i < 5; i++)
			d.args[i] = (uint16_t)(15 - i);
		d.idx = 65533;
		d.idx2 = d.fmt == DF_45cc ? 65532 : 0;
		break;
	case DF_3rc:
	case DF_4rcc:
		d.nargs = 255;
		d.a = 65535 - 255;
		d.idx = 65531;
		d.idx2 = d.fmt == DF_4rcc ? 7 : 0;
		break;
	case DF_51l: d.a = 242; d.lit = INT64_MIN + 1; break;
	default: break;
	}
	return d;
}

Test(dex_op, every_opcode_round_trips_at_its_extremes)
{
	unsigned defined = 0;
	for (int op = 0; op < 256; op++) {
		if (dex_op_table[op].fmt == DF_NONE)
			continue;
		defined++;
		dex_insn in = extreme((uint8_t)op), out;
		uint8_t bytes[10] = {0};
		cr_assert(dex_op_encode(&in, bytes), "%s does not encode", dex_op_table[op].name);
		uint32_t size = dex_op_decode(bytes, dex_op_fmt_size(in.fmt), 0, 39, &out);
		cr_assert_eq(size, dex_op_fmt_size(in.fmt), "%s", dex_op_table[op].name);
		cr_expect_eq(out.op, in.op);
		cr_expect_eq(out.a, in.a, "%s a", dex_op_table[op].name);
		cr_expect_eq(out.b, in.b, "%s b", dex_op_table[op].name);
		cr_expect_eq(out.c, in.c, "%s c", dex_op_table[op].name);
		cr_expect_eq(out.lit, in.lit, "%s lit", dex_op_table[op].name);
		cr_expect_eq(out.idx, in.idx, "%s idx", dex_op_table[op].name);
		cr_expect_eq(out.idx2, in.idx2, "%s idx2", dex_op_table[op].name);
		cr_expect_eq(out.target, in.target, "%s target", dex_op_table[op].name);
		cr_expect_eq(out.nargs, in.nargs, "%s nargs", dex_op_table[op].name);
		if (in.fmt == DF_35c || in.fmt == DF_45cc)
			cr_expect(!memcmp(out.args, in.args, sizeof in.args), "%s args", dex_op_table[op].name);
	}
	/* 0x3e-0x43, 0x73, 0x79-0x7a, 0xe3-0xf9 are unused: 224 opcodes remain */
	cr_expect_eq(defined, 224u);
}

Test(dex_op, names_and_facts_match_the_specification)
{
	cr_expect_str_eq(dex_op_table[0x6e].name, "invoke-virtual");
	cr_expect_str_eq(dex_op_table[0x78].name, "invoke-interface/range");
	cr_expect_str_eq(dex_op_table[0x8f].name, "int-to-short");
	cr_expect_str_eq(dex_op_table[0xaf].name, "rem-double");
	cr_expect_str_eq(dex_op_table[0xcf].name, "rem-double/2addr");
	cr_expect_str_eq(dex_op_table[0xe2].name, "ushr-int/lit8");
	cr_expect_eq(dex_op_table[0x73].fmt, DF_NONE, "0x73 is unused in dex files");
	cr_expect(dex_op_has(DEX_OP_INVOKE_CUSTOM, DEX_OPF_INVOKE));
	cr_expect(dex_op_has(DEX_OP_RETURN_WIDE, DEX_OPF_RETURN | DEX_OPF_WIDE_A));
	cr_expect(!dex_op_has(DEX_OP_MOVE_EXCEPTION, DEX_OPF_CAN_THROW));
	cr_expect(dex_op_has(0x93, DEX_OPF_CAN_THROW), "div-int can throw");
	cr_expect(!dex_op_has(0x90, DEX_OPF_CAN_THROW), "add-int cannot");
	cr_expect(dex_op_has(0xbb, DEX_OPF_WIDE_A) && dex_op_has(0xbb, DEX_OPF_WIDE_B), "add-long/2addr");
	cr_expect(dex_op_has(0xc3, DEX_OPF_WIDE_A) && !dex_op_has(0xc3, DEX_OPF_WIDE_B), "shl-long/2addr: the shift is an int");
	cr_expect(dex_op_has(0xa3, DEX_OPF_WIDE_B) && !dex_op_has(0xa3, DEX_OPF_WIDE_C), "shl-long: the shift is an int");
	cr_expect(dex_op_has(0x2f, DEX_OPF_WIDE_B) && !dex_op_has(0x2f, DEX_OPF_WIDE_A), "cmpl-double gives an int");
	for (int a = 0; a < 256; a++)
		for (int b = a + 1; b < 256; b++)
			if (dex_op_table[a].fmt != DF_NONE && dex_op_table[b].fmt != DF_NONE)
				cr_assert(strcmp(dex_op_table[a].name, dex_op_table[b].name), "0x%02x and 0x%02x share a name", a, b);
}

Test(dex_op, newer_opcodes_need_their_version)
{
	dex_insn in = extreme(DEX_OP_INVOKE_POLYMORPHIC), out;
	uint8_t bytes[8];
	cr_assert(dex_op_encode(&in, bytes));
	cr_expect_eq(dex_op_decode(bytes, 4, 0, 37, &out), 0u, "invoke-polymorphic is undefined before 038");
	cr_expect_eq(dex_op_decode(bytes, 4, 0, 38, &out), 4u);
	in = extreme(DEX_OP_CONST_METHOD_TYPE);
	cr_assert(dex_op_encode(&in, bytes));
	cr_expect_eq(dex_op_decode(bytes, 2, 0, 38, &out), 0u, "const-method-type is undefined before 039");
	cr_expect_eq(dex_op_decode(bytes, 2, 0, 39, &out), 2u);
}

Test(dex_op, operands_out_of_range_do_not_fit)
{
	dex_insn d = extreme(0x01); /* move 12x */
	d.a = 16;
	cr_expect(!dex_op_fits(&d), "4-bit register 16");
	d = extreme(DEX_OP_GOTO);
	d.target = 128;
	cr_expect(!dex_op_fits(&d), "goto +128");
	d.target = 0;
	cr_expect(!dex_op_fits(&d), "goto to itself needs goto/32");
	d = extreme(DEX_OP_GOTO_32);
	d.target = 0;
	cr_expect(dex_op_fits(&d), "goto/32 may target itself");
	d = extreme(DEX_OP_IF_EQZ);
	d.target = 32768;
	cr_expect(!dex_op_fits(&d), "if-eqz +32768");
	d = extreme(DEX_OP_INVOKE_STATIC);
	d.args[2] = 16;
	cr_expect(!dex_op_fits(&d), "35c argument register 16");
	d = extreme(DEX_OP_CONST_STRING);
	d.idx = 65536;
	cr_expect(!dex_op_fits(&d), "const-string index 65536 needs jumbo");
	d = extreme(DEX_OP_CONST_HIGH16);
	d.lit = 0x12345;
	cr_expect(!dex_op_fits(&d), "const/high16 with low bits");
}

Test(dex_op, payloads_decode_with_their_sizes)
{
	uint16_t u[64] = {0};
	dex_insn d;
	/* packed-switch: ident, size 3, first key, 3 targets: 4 + 2*3 units */
	u[0] = DPL_PACKED;
	u[1] = 3;
	cr_expect_eq(dex_op_decode((uint8_t *)u, 64, 0, 35, &d), 10u);
	cr_expect_eq(d.fmt, DF_PAYLOAD);
	cr_expect_eq(d.payload, DPL_PACKED);
	/* sparse-switch: 2 + 4*n */
	u[0] = DPL_SPARSE;
	u[1] = 2;
	cr_expect_eq(dex_op_decode((uint8_t *)u, 64, 0, 35, &d), 10u);
	/* fill-array-data: width 2, 5 elements: 4 + (5*2+1)/2 */
	u[0] = DPL_ARRAY;
	u[1] = 2;
	u[2] = 5;
	u[3] = 0;
	cr_expect_eq(dex_op_decode((uint8_t *)u, 64, 0, 35, &d), 9u);
	u[1] = 3;
	cr_expect_eq(dex_op_decode((uint8_t *)u, 64, 0, 35, &d), 0u, "width 3 is not an element size");
	u[1] = 2;
	u[2] = 200;
	cr_expect_eq(dex_op_decode((uint8_t *)u, 64, 0, 35, &d), 0u, "a payload past the code");
	u[0] = 0x0400;
	cr_expect_eq(dex_op_decode((uint8_t *)u, 64, 0, 35, &d), 0u, "no payload kind 4");
}

Test(dex_op, leb128_round_trips_and_refuses_overlong_values)
{
	static const int32_t sv[] = {0, 1, -1, 63, 64, -64, -65, 8191, -8192, INT32_MAX, INT32_MIN};
	static const uint32_t uv[] = {0, 1, 127, 128, 16383, 16384, 0xfffffffeu, 0xffffffffu};
	tc_buf b;
	buf_init(&b);
	for (size_t i = 0; i < sizeof sv / sizeof sv[0]; i++)
		buf_sleb(&b, sv[i]);
	for (size_t i = 0; i < sizeof uv / sizeof uv[0]; i++)
		buf_uleb(&b, uv[i]);
	tc_error e;
	tc_error_clear(&e);
	tc_reader r = rd_at(b.data, b.len, 0, &e, "test");
	for (size_t i = 0; i < sizeof sv / sizeof sv[0]; i++)
		cr_expect_eq(rd_sleb(&r), sv[i]);
	for (size_t i = 0; i < sizeof uv / sizeof uv[0]; i++) {
		size_t want = 1 + (uv[i] >= 1u << 7) + (uv[i] >= 1u << 14) + (uv[i] >= 1u << 21) + (uv[i] >= 1u << 28);
		cr_expect_eq(leb_size(uv[i]), want, "%u", uv[i]);
		cr_expect_eq(rd_uleb(&r), uv[i]);
	}
	cr_expect(rd_ok(&r));
	cr_expect_eq(r.pos, r.end);
	static const uint8_t six[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
	r = rd_at(six, sizeof six, 0, &e, "test");
	rd_uleb(&r);
	cr_expect_eq(e.code, TC_EFORMAT, "a value past 32 bits");
	tc_error_clear(&e);
	static const uint8_t cut[] = {0x80, 0x80};
	r = rd_at(cut, sizeof cut, 0, &e, "test");
	rd_uleb(&r);
	cr_expect_eq(e.code, TC_ETRUNC);
	buf_free(&b);
}

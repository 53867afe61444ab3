/* The instruction table against the JVMS (chapter 6), written out here independently
 * of classfile/opcodes.c: mnemonics, lengths, operand kinds, flags, fixed stack
 * effects; and the decoder on every operand kind, switch alignment and error. */
#include <stdio.h>
#include <string.h>

#include "helpers.h"

/* JVMS 6.5 / 7 (Opcode Mnemonics by Opcode), 0x00 .. 0xc9. */
static const char *const jvms_names[] = {
	"nop", "aconst_null", "iconst_m1", "iconst_0", "iconst_1", "iconst_2", "iconst_3", "iconst_4",
	"iconst_5", "lconst_0", "lconst_1", "fconst_0", "fconst_1", "fconst_2", "dconst_0", "dconst_1",
	"bipush", "sipush", "ldc", "ldc_w", "ldc2_w", "iload", "lload", "fload", "dload", "aload",
	"iload_0", "iload_1", "iload_2", "iload_3", "lload_0", "lload_1", "lload_2", "lload_3",
	"fload_0", "fload_1", "fload_2", "fload_3", "dload_0", "dload_1", "dload_2", "dload_3",
	"aload_0", "aload_1", "aload_2", "aload_3", "iaload", "laload", "faload", "daload", "aaload",
	"baload", "caload", "saload", "istore", "lstore", "fstore", "dstore", "astore", "istore_0",
	"istore_1", "istore_2", "istore_3", "lstore_0", "lstore_1", "lstore_2", "lstore_3",
	"fstore_0", "fstore_1", "fstore_2", "fstore_3", "dstore_0", "dstore_1", "dstore_2",
	"dstore_3", "astore_0", "astore_1", "astore_2", "astore_3", "iastore", "lastore", "fastore",
	"dastore", "aastore", "bastore", "castore", "sastore", "pop", "pop2", "dup", "dup_x1",
	"dup_x2", "dup2", "dup2_x1", "dup2_x2", "swap", "iadd", "ladd", "fadd", "dadd", "isub", "lsub",
	"fsub", "dsub", "imul", "lmul", "fmul", "dmul", "idiv", "ldiv", "fdiv", "ddiv", "irem", "lrem",
	"frem", "drem", "ineg", "lneg", "fneg", "dneg", "ishl", "lshl", "ishr", "lshr", "iushr",
	"lushr", "iand", "land", "ior", "lor", "ixor", "lxor", "iinc", "i2l", "i2f", "i2d", "l2i",
	"l2f", "l2d", "f2i", "f2l", "f2d", "d2i", "d2l", "d2f", "i2b", "i2c", "i2s", "lcmp", "fcmpl",
	"fcmpg", "dcmpl", "dcmpg", "ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle", "if_icmpeq",
	"if_icmpne", "if_icmplt", "if_icmpge", "if_icmpgt", "if_icmple", "if_acmpeq", "if_acmpne",
	"goto", "jsr", "ret", "tableswitch", "lookupswitch", "ireturn", "lreturn", "freturn",
	"dreturn", "areturn", "return", "getstatic", "putstatic", "getfield", "putfield",
	"invokevirtual", "invokespecial", "invokestatic", "invokeinterface", "invokedynamic", "new",
	"newarray", "anewarray", "arraylength", "athrow", "checkcast", "instanceof", "monitorenter",
	"monitorexit", "wide", "multianewarray", "ifnull", "ifnonnull", "goto_w", "jsr_w",
};

/* Encoded length per the JVMS format of each instruction; 0 = variable. */
static int jvms_len(int op)
{
	switch (op) {
	case 0x10: case 0x12: case 0xa9: case 0xbc: return 2;           /* bipush ldc ret newarray */
	case 0x11: case 0x13: case 0x14: case 0x84: return 3;           /* sipush ldc_w ldc2_w iinc */
	case 0xb9: case 0xba: case 0xc8: case 0xc9: return 5;           /* invokeinterface/dynamic, _w */
	case 0xc5: return 4;                                             /* multianewarray */
	case 0xaa: case 0xab: case 0xc4: return 0;                      /* switches, wide */
	case 0xbb: case 0xbd: case 0xc0: case 0xc1: case 0xc6: case 0xc7: return 3;
	}
	if ((op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3a))
		return 2;
	if ((op >= 0x99 && op <= 0xa8) || (op >= 0xb2 && op <= 0xb8))
		return 3;
	return 1;
}

Test(opcodes, names_and_defined_range)
{
	cr_assert_eq(sizeof jvms_names / sizeof jvms_names[0], 0xca);
	for (int op = 0; op < 256; op++) {
		if (op < 0xca) {
			cr_assert(cf_op_valid((uint8_t)op), "0x%02x", op);
			cr_assert_str_eq(cf_op_table[op].name, jvms_names[op], "0x%02x", op);
		} else {
			/* 0xca breakpoint, 0xfe/0xff impdep: reserved, never in class files */
			cr_assert_not(cf_op_valid((uint8_t)op), "0x%02x is defined", op);
		}
	}
}

Test(opcodes, lengths)
{
	for (int op = 0; op < 0xca; op++)
		cr_assert_eq(cf_op_table[op].len, jvms_len(op), "%s: %u, JVMS %d", jvms_names[op],
		             cf_op_table[op].len, jvms_len(op));
}

static bool in(int op, int lo, int hi)
{
	return op >= lo && op <= hi;
}

Test(opcodes, flags)
{
	for (int op = 0; op < 0xca; op++) {
		const char *n = jvms_names[op];
		unsigned f = cf_op_table[op].flags;
		bool cond = in(op, 0x99, 0xa6) || op == 0xc6 || op == 0xc7;
		bool jsr = op == 0xa8 || op == 0xc9;
		bool go = op == 0xa7 || op == 0xc8;
		bool sw = op == 0xaa || op == 0xab;
		bool ret = in(op, 0xac, 0xb1);
		cr_assert_eq(!!(f & OPF_COND), cond, "%s COND", n);
		cr_assert_eq(!!(f & OPF_BRANCH), cond || jsr || go || sw, "%s BRANCH", n);
		cr_assert_eq(!!(f & OPF_SWITCH), sw, "%s SWITCH", n);
		cr_assert_eq(!!(f & OPF_JSR), jsr, "%s JSR", n);
		cr_assert_eq(!!(f & OPF_RET), op == 0xa9, "%s RET", n);
		cr_assert_eq(!!(f & OPF_RETURN), ret, "%s RETURN", n);
		cr_assert_eq(!!(f & OPF_THROW), op == 0xbf, "%s THROW", n);
		cr_assert_eq(!!(f & OPF_NOFALL), go || sw || ret || op == 0xbf || op == 0xa9, "%s NOFALL", n);
		cr_assert_eq(!!(f & OPF_INVOKE), in(op, 0xb6, 0xba), "%s INVOKE", n);
		cr_assert_eq(!!(f & OPF_FIELD), in(op, 0xb2, 0xb5), "%s FIELD", n);
		bool cp = in(op, 0x12, 0x14) || in(op, 0xb2, 0xbb) || op == 0xbd || op == 0xc0 ||
		          op == 0xc1 || op == 0xc5;
		cr_assert_eq(!!(f & OPF_CP), cp, "%s CP", n);
		cr_assert_eq(!!(f & OPF_LOAD), in(op, 0x15, 0x2d), "%s LOAD", n);
		cr_assert_eq(!!(f & OPF_STORE), in(op, 0x36, 0x4e), "%s STORE", n);
		/* JVMS wide: the loads, stores, ret and iinc */
		bool widen = in(op, 0x15, 0x19) || in(op, 0x36, 0x3a) || op == 0xa9 || op == 0x84;
		cr_assert_eq(!!(f & OPF_WIDENABLE), widen, "%s WIDENABLE", n);
	}
}

Test(opcodes, operand_kinds)
{
	for (int op = 0; op < 0xca; op++) {
		uint8_t k = cf_op_table[op].kind;
		const char *n = jvms_names[op];
		if (cf_op_has((uint8_t)op, OPF_BRANCH) && !cf_op_has((uint8_t)op, OPF_SWITCH))
			cr_assert_eq(k, cf_op_table[op].len == 3 ? OPK_BR2 : OPK_BR4, "%s", n);
		if (k == OPK_BR2)
			cr_assert_eq(cf_op_table[op].len, 3, "%s", n);
		if (k == OPK_BR4)
			cr_assert_eq(cf_op_table[op].len, 5, "%s", n);
		if (k == OPK_CP2)
			cr_assert_eq(cf_op_table[op].len, 3, "%s", n);
		if (cf_op_has((uint8_t)op, OPF_CP))
			cr_assert(k == OPK_CP1 || k == OPK_CP2 || k == OPK_IINTERFACE || k == OPK_INDY ||
			          k == OPK_MULTI, "%s", n);
		if (cf_op_table[op].len == 1)
			cr_assert_eq(k, OPK_NONE, "%s", n);
	}
	cr_assert_eq(cf_op_table[OP_BIPUSH].kind, OPK_S1);
	cr_assert_eq(cf_op_table[OP_SIPUSH].kind, OPK_S2);
	cr_assert_eq(cf_op_table[OP_LDC].kind, OPK_CP1);
	cr_assert_eq(cf_op_table[OP_ILOAD].kind, OPK_LOCAL);
	cr_assert_eq(cf_op_table[OP_RET].kind, OPK_LOCAL);
	cr_assert_eq(cf_op_table[OP_IINC].kind, OPK_IINC);
	cr_assert_eq(cf_op_table[OP_TABLESWITCH].kind, OPK_TSWITCH);
	cr_assert_eq(cf_op_table[OP_LOOKUPSWITCH].kind, OPK_LSWITCH);
	cr_assert_eq(cf_op_table[OP_INVOKEINTERFACE].kind, OPK_IINTERFACE);
	cr_assert_eq(cf_op_table[OP_INVOKEDYNAMIC].kind, OPK_INDY);
	cr_assert_eq(cf_op_table[OP_NEWARRAY].kind, OPK_ATYPE);
	cr_assert_eq(cf_op_table[OP_MULTIANEWARRAY].kind, OPK_MULTI);
	cr_assert_eq(cf_op_table[OP_WIDE].kind, OPK_WIDE);
}

/* Words of the type letter a mnemonic starts with. */
static int words(char t)
{
	return t == 'l' || t == 'd' ? 2 : 1;
}

Test(opcodes, fixed_stack_effects)
{
	for (int op = 0; op < 0xca; op++) {
		const char *n = jvms_names[op];
		int pop = cf_op_table[op].pop, push = cf_op_table[op].push;
		int epop = -2, epush = -2; /* -2: not checked by a rule below */
		if (in(op, 0x01, 0x11)) {
			epop = 0;
			epush = (op == 0x09 || op == 0x0a || op == 0x0e || op == 0x0f) ? 2 : 1;
		} else if (in(op, 0x12, 0x14)) {
			epop = 0;
			epush = op == 0x14 ? 2 : 1;
		} else if (cf_op_has((uint8_t)op, OPF_LOAD)) {
			epop = 0;
			epush = words(n[0]);
		} else if (cf_op_has((uint8_t)op, OPF_STORE)) {
			epop = words(n[0]);
			epush = 0;
		} else if (in(op, 0x2e, 0x35)) { /* xaload: arrayref, index -> value */
			epop = 2;
			epush = words(n[0]);
		} else if (in(op, 0x4f, 0x56)) { /* xastore: arrayref, index, value */
			epop = 2 + words(n[0]);
			epush = 0;
		} else if (in(op, 0x60, 0x73) || in(op, 0x7e, 0x83)) { /* binary */
			epop = 2 * words(n[0]);
			epush = words(n[0]);
		} else if (in(op, 0x74, 0x77)) { /* neg */
			epop = epush = words(n[0]);
		} else if (in(op, 0x78, 0x7d)) { /* shifts: value, int amount */
			epop = words(n[0]) + 1;
			epush = words(n[0]);
		} else if (in(op, 0x85, 0x93)) { /* x2y */
			epop = words(n[0]);
			epush = (n[2] == 'b' || n[2] == 'c' || n[2] == 's') ? 1 : words(n[2]);
		} else if (in(op, 0x94, 0x98)) { /* compare */
			epop = 2 * words(n[0]);
			epush = 1;
		} else if (in(op, 0x99, 0x9e) || op == 0xc6 || op == 0xc7) {
			epop = 1;
			epush = 0;
		} else if (in(op, 0x9f, 0xa6)) {
			epop = 2;
			epush = 0;
		} else if (in(op, 0xac, 0xb1)) {
			epop = op == 0xb1 ? 0 : words(n[0]);
			epush = 0;
		} else if (in(op, 0xb2, 0xba)) {
			epop = epush = -1; /* from the descriptor */
		}
		if (epop != -2) {
			cr_assert_eq(pop, epop, "%s pops %d, JVMS %d", n, pop, epop);
			cr_assert_eq(push, epush, "%s pushes %d, JVMS %d", n, push, epush);
		}
	}
	/* the rest, one by one */
	struct {
		uint8_t op;
		int pop, push;
	} spot[] = {
		{OP_NOP, 0, 0}, {OP_POP, 1, 0}, {OP_POP2, 2, 0}, {OP_DUP, 1, 2}, {OP_DUP_X1, 2, 3},
		{OP_DUP_X2, 3, 4}, {OP_DUP2, 2, 4}, {OP_DUP2_X1, 3, 5}, {OP_DUP2_X2, 4, 6}, {OP_SWAP, 2, 2},
		{OP_IINC, 0, 0}, {OP_GOTO, 0, 0}, {OP_GOTO_W, 0, 0}, {OP_JSR, 0, 1}, {OP_JSR_W, 0, 1},
		{OP_RET, 0, 0}, {OP_TABLESWITCH, 1, 0}, {OP_LOOKUPSWITCH, 1, 0}, {OP_NEW, 0, 1},
		{OP_NEWARRAY, 1, 1}, {OP_ANEWARRAY, 1, 1}, {OP_ARRAYLENGTH, 1, 1}, {OP_ATHROW, 1, 0},
		{OP_CHECKCAST, 1, 1}, {OP_INSTANCEOF, 1, 1}, {OP_MONITORENTER, 1, 0},
		{OP_MONITOREXIT, 1, 0}, {OP_MULTIANEWARRAY, -1, 1},
	};
	for (size_t k = 0; k < sizeof spot / sizeof spot[0]; k++) {
		cr_assert_eq(cf_op_table[spot[k].op].pop, spot[k].pop, "%s", jvms_names[spot[k].op]);
		cr_assert_eq(cf_op_table[spot[k].op].push, spot[k].push, "%s", jvms_names[spot[k].op]);
	}
}

/* --- decoding ---------------------------------------------------------------------------- */

static cf_insn dec(const uint8_t *code, uint32_t len, uint32_t off)
{
	cf_insn in;
	tc_error err;
	tc_error_clear(&err);
	int rc = cf_insn_decode(code, len, off, 100, &in, &err);
	cr_assert_eq(rc, TC_OK, "decode at %u: %s", off, err.message);
	return in;
}

static int dec_err(const uint8_t *code, uint32_t len, uint32_t off, tc_error *err)
{
	cf_insn in;
	tc_error_clear(err);
	return cf_insn_decode(code, len, off, 100, &in, err);
}

Test(opcodes, decode_simple_operands)
{
	static const uint8_t c[] = {
		OP_BIPUSH, 0x80,                 /* 0: -128 */
		OP_SIPUSH, 0xff, 0xfe,           /* 2: -2 */
		OP_LDC, 200,                     /* 5 */
		OP_LDC_W, U2(0x1234),            /* 7 */
		OP_ILOAD, 250,                   /* 10 */
		OP_IINC, 5, 0xfd,                /* 12: local 5, -3 */
		OP_ALOAD_3,                      /* 15 */
		OP_ASTORE_2,                     /* 16 */
		OP_LSTORE_1,                     /* 17 */
		OP_WIDE, OP_ILOAD, U2(300),      /* 18 */
		OP_WIDE, OP_IINC, U2(300), U2(-1000), /* 22 */
		OP_IFEQ, U2(-28),                /* 28: -> 0 */
		OP_GOTO_W, U4(0x10000),          /* 31 */
		OP_INVOKEINTERFACE, U2(9), 3, 0, /* 36 */
		OP_INVOKEDYNAMIC, U2(11), 0, 0,  /* 41 */
		OP_NEWARRAY, 10,                 /* 46: T_INT */
		OP_MULTIANEWARRAY, U2(12), 3,    /* 48 */
		OP_WIDE, OP_RET, U2(256),        /* 52 */
		OP_JSR_W, U4(-56),               /* 56 */
	};
	uint32_t n = sizeof c;
	cf_insn in = dec(c, n, 0);
	cr_assert(in.op == OP_BIPUSH && in.len == 2 && in.imm == -128);
	in = dec(c, n, 2);
	cr_assert(in.op == OP_SIPUSH && in.len == 3 && in.imm == -2);
	in = dec(c, n, 5);
	cr_assert(in.len == 2 && in.index == 200);
	in = dec(c, n, 7);
	cr_assert(in.len == 3 && in.index == 0x1234);
	in = dec(c, n, 10);
	cr_assert(in.op == OP_ILOAD && in.len == 2 && in.index == 250 && !in.wide);
	in = dec(c, n, 12);
	cr_assert(in.op == OP_IINC && in.len == 3 && in.index == 5 && in.imm == -3);
	in = dec(c, n, 15);
	cr_assert(in.len == 1 && in.index == 3);
	in = dec(c, n, 16);
	cr_assert(in.len == 1 && in.index == 2);
	in = dec(c, n, 17);
	cr_assert(in.len == 1 && in.index == 1);
	in = dec(c, n, 18);
	cr_assert(in.op == OP_ILOAD && in.wide && in.len == 4 && in.index == 300 && in.off == 18);
	in = dec(c, n, 22);
	cr_assert(in.op == OP_IINC && in.wide && in.len == 6 && in.index == 300 && in.imm == -1000);
	in = dec(c, n, 28);
	cr_assert(in.op == OP_IFEQ && in.branch == -28 && cf_insn_target(&in, 0) == 0);
	cr_assert_eq(cf_insn_ntargets(&in), 1);
	in = dec(c, n, 31);
	cr_assert(in.op == OP_GOTO_W && in.len == 5 && in.branch == 0x10000 && cf_insn_target(&in, 0) == 31 + 0x10000);
	in = dec(c, n, 36);
	cr_assert(in.len == 5 && in.index == 9 && in.imm == 3);
	in = dec(c, n, 41);
	cr_assert(in.len == 5 && in.index == 11);
	in = dec(c, n, 46);
	cr_assert(in.len == 2 && in.imm == 10);
	in = dec(c, n, 48);
	cr_assert(in.len == 4 && in.index == 12 && in.imm == 3);
	in = dec(c, n, 52);
	cr_assert(in.op == OP_RET && in.wide && in.len == 4 && in.index == 256);
	in = dec(c, n, 56);
	cr_assert(in.op == OP_JSR_W && cf_insn_target(&in, 0) == 0);
	in = dec(c, n, 17);
	cr_assert_eq(cf_insn_ntargets(&in), 0);
}

/* tableswitch and lookupswitch at each of the 4 alignments: 3..0 padding bytes. */
Test(opcodes, switches_at_every_alignment)
{
	for (uint32_t at = 0; at < 4; at++) {
		uint8_t c[64];
		memset(c, OP_NOP, sizeof c);
		uint32_t pad = (4 - (at + 1) % 4) % 4;
		uint32_t p = at;
		c[p++] = OP_TABLESWITCH;
		p += pad;
		uint8_t body[] = {U4(100), U4(-1), U4(1), U4(10), U4(20), U4(30)};
		memcpy(c + p, body, sizeof body);
		p += sizeof body;
		cf_insn in = dec(c, p, at);
		cr_assert_eq(in.len, 1 + pad + 24, "at %u", at);
		cr_assert(in.low == -1 && in.high == 1 && in.npairs == 3);
		cr_assert_eq(cf_insn_ntargets(&in), 4);
		cr_assert_eq(cf_insn_target(&in, 0), at + 100);
		cr_assert_eq(cf_insn_target(&in, 1), at + 10);
		cr_assert_eq(cf_insn_target(&in, 3), at + 30);
		cr_assert_eq(cf_insn_switch_key(&in, 0), -1);
		cr_assert_eq(cf_insn_switch_key(&in, 2), 1);

		memset(c, OP_NOP, sizeof c);
		p = at;
		c[p++] = OP_LOOKUPSWITCH;
		p += pad;
		uint8_t lbody[] = {U4(-7), U4(2), U4(-5), U4(40), U4(1000), U4(50)};
		memcpy(c + p, lbody, sizeof lbody);
		p += sizeof lbody;
		in = dec(c, p, at);
		cr_assert_eq(in.len, 1 + pad + 24, "at %u", at);
		cr_assert_eq(in.npairs, 2);
		cr_assert_eq(cf_insn_target(&in, 0), (int64_t)at - 7);
		cr_assert_eq(cf_insn_switch_key(&in, 0), -5);
		cr_assert_eq(cf_insn_switch_key(&in, 1), 1000);
		cr_assert_eq(cf_insn_target(&in, 2), at + 50);
	}
}

Test(opcodes, decode_errors)
{
	tc_error err;
	/* the error offset is code_off (100) + the instruction's offset */
	static const uint8_t undef[] = {OP_NOP, 0xcb};
	cr_assert_eq(dec_err(undef, 2, 1, &err), TC_EOPCODE);
	cr_assert_eq(err.offset, 101);
	cr_assert_str_eq(err.part, "Code");
	static const uint8_t past[] = {OP_NOP};
	cr_assert_eq(dec_err(past, 1, 1, &err), TC_ETRUNC);
	static const uint8_t wide_bad[] = {OP_WIDE, OP_GOTO, 0, 0};
	cr_assert_eq(dec_err(wide_bad, 4, 0, &err), TC_EOPCODE);
	cr_assert_eq(err.offset, 100);
	static const uint8_t wide_iinc_short[] = {OP_WIDE, OP_IINC, 0, 1, 0};
	cr_assert_eq(dec_err(wide_iinc_short, 5, 0, &err), TC_ETRUNC);
	static const uint8_t ts[] = {OP_TABLESWITCH, 0, 0, 0, U4(0), U4(5), U4(4)};
	cr_assert_eq(dec_err(ts, sizeof ts, 0, &err), TC_EOPCODE);
	static const uint8_t ts_short[] = {OP_TABLESWITCH, 0, 0, 0, U4(0), U4(0), U4(1), U4(0)};
	cr_assert_eq(dec_err(ts_short, sizeof ts_short, 0, &err), TC_ETRUNC);
}

/* --- stack effects that depend on operands ------------------------------------------------ */

Test(opcodes, stack_effects_from_descriptors)
{
	bld *b = bld_new(52, 0);
	uint16_t gj = bld_fieldref(b, "T", "j", "J");
	uint16_t gd = bld_fieldref(b, "T", "d", "D");
	uint16_t go = bld_fieldref(b, "T", "o", "[Ljava/lang/Object;");
	uint16_t mv = bld_methodref(b, "T", "m", "(IJLjava/lang/String;[[D)D");
	uint16_t ms = bld_methodref(b, "T", "s", "()V");
	uint16_t mi = bld_imethodref(b, "I", "i", "(Z)J");
	uint16_t indy = bld_indy(b, 0, "x", "(ID)Ljava/lang/Runnable;");
	uint16_t bad = bld_methodref(b, "T", "bad", "(I");
	tcls t;
	tc_build(&t, b);
	struct {
		uint8_t op;
		uint16_t idx;
		int pop, push;
	} cases[] = {
		{OP_GETSTATIC, gj, 0, 2},      {OP_PUTSTATIC, gd, 2, 0},   {OP_GETFIELD, gj, 1, 2},
		{OP_PUTFIELD, gd, 3, 0},       {OP_GETFIELD, go, 1, 1},    {OP_PUTFIELD, go, 2, 0},
		{OP_INVOKEVIRTUAL, mv, 6, 2},  {OP_INVOKESTATIC, mv, 5, 2}, {OP_INVOKESPECIAL, ms, 1, 0},
		{OP_INVOKESTATIC, ms, 0, 0},   {OP_INVOKEINTERFACE, mi, 2, 2}, {OP_INVOKEDYNAMIC, indy, 3, 1},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		cf_insn in = {.op = cases[k].op, .index = cases[k].idx};
		int pop = -9, push = -9;
		cr_assert(cf_insn_stack_effect(&t.cls.cp, &in, &pop, &push), "case %zu", k);
		cr_assert_eq(pop, cases[k].pop, "case %zu (%s): pop %d", k, jvms_names[cases[k].op], pop);
		cr_assert_eq(push, cases[k].push, "case %zu (%s): push %d", k, jvms_names[cases[k].op], push);
	}
	cf_insn multi = {.op = OP_MULTIANEWARRAY, .index = 1, .imm = 4};
	int pop, push;
	cr_assert(cf_insn_stack_effect(&t.cls.cp, &multi, &pop, &push));
	cr_assert(pop == 4 && push == 1);
	cf_insn wrong = {.op = OP_INVOKESTATIC, .index = gj};
	cr_assert_not(cf_insn_stack_effect(&t.cls.cp, &wrong, &pop, &push), "a Fieldref does not resolve as a method");
	cf_insn broken = {.op = OP_INVOKESTATIC, .index = bad};
	cr_assert_not(cf_insn_stack_effect(&t.cls.cp, &broken, &pop, &push));
	cf_insn past = {.op = OP_GETSTATIC, .index = 60000};
	cr_assert_not(cf_insn_stack_effect(&t.cls.cp, &past, &pop, &push));
	tc_drop(&t);
}

#include "opcodes.h"

#include <stdio.h>

#include "bytes.h"

const cf_op_info cf_op_table[256] = {
	[0x00] = {"nop", 1, OPK_NONE, 0, 0, 0},
	[0x01] = {"aconst_null", 1, OPK_NONE, 0, 0, 1},
	[0x02] = {"iconst_m1", 1, OPK_NONE, 0, 0, 1},
	[0x03] = {"iconst_0", 1, OPK_NONE, 0, 0, 1},
	[0x04] = {"iconst_1", 1, OPK_NONE, 0, 0, 1},
	[0x05] = {"iconst_2", 1, OPK_NONE, 0, 0, 1},
	[0x06] = {"iconst_3", 1, OPK_NONE, 0, 0, 1},
	[0x07] = {"iconst_4", 1, OPK_NONE, 0, 0, 1},
	[0x08] = {"iconst_5", 1, OPK_NONE, 0, 0, 1},
	[0x09] = {"lconst_0", 1, OPK_NONE, 0, 0, 2},
	[0x0a] = {"lconst_1", 1, OPK_NONE, 0, 0, 2},
	[0x0b] = {"fconst_0", 1, OPK_NONE, 0, 0, 1},
	[0x0c] = {"fconst_1", 1, OPK_NONE, 0, 0, 1},
	[0x0d] = {"fconst_2", 1, OPK_NONE, 0, 0, 1},
	[0x0e] = {"dconst_0", 1, OPK_NONE, 0, 0, 2},
	[0x0f] = {"dconst_1", 1, OPK_NONE, 0, 0, 2},
	[0x10] = {"bipush", 2, OPK_S1, 0, 0, 1},
	[0x11] = {"sipush", 3, OPK_S2, 0, 0, 1},
	[0x12] = {"ldc", 2, OPK_CP1, OPF_CP, 0, 1},
	[0x13] = {"ldc_w", 3, OPK_CP2, OPF_CP, 0, 1},
	[0x14] = {"ldc2_w", 3, OPK_CP2, OPF_CP, 0, 2},
	[0x15] = {"iload", 2, OPK_LOCAL, OPF_LOAD | OPF_WIDENABLE, 0, 1},
	[0x16] = {"lload", 2, OPK_LOCAL, OPF_LOAD | OPF_WIDENABLE, 0, 2},
	[0x17] = {"fload", 2, OPK_LOCAL, OPF_LOAD | OPF_WIDENABLE, 0, 1},
	[0x18] = {"dload", 2, OPK_LOCAL, OPF_LOAD | OPF_WIDENABLE, 0, 2},
	[0x19] = {"aload", 2, OPK_LOCAL, OPF_LOAD | OPF_WIDENABLE, 0, 1},
	[0x1a] = {"iload_0", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x1b] = {"iload_1", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x1c] = {"iload_2", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x1d] = {"iload_3", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x1e] = {"lload_0", 1, OPK_NONE, OPF_LOAD, 0, 2},
	[0x1f] = {"lload_1", 1, OPK_NONE, OPF_LOAD, 0, 2},
	[0x20] = {"lload_2", 1, OPK_NONE, OPF_LOAD, 0, 2},
	[0x21] = {"lload_3", 1, OPK_NONE, OPF_LOAD, 0, 2},
	[0x22] = {"fload_0", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x23] = {"fload_1", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x24] = {"fload_2", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x25] = {"fload_3", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x26] = {"dload_0", 1, OPK_NONE, OPF_LOAD, 0, 2},
	[0x27] = {"dload_1", 1, OPK_NONE, OPF_LOAD, 0, 2},
	[0x28] = {"dload_2", 1, OPK_NONE, OPF_LOAD, 0, 2},
	[0x29] = {"dload_3", 1, OPK_NONE, OPF_LOAD, 0, 2},
	[0x2a] = {"aload_0", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x2b] = {"aload_1", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x2c] = {"aload_2", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x2d] = {"aload_3", 1, OPK_NONE, OPF_LOAD, 0, 1},
	[0x2e] = {"iaload", 1, OPK_NONE, 0, 2, 1},
	[0x2f] = {"laload", 1, OPK_NONE, 0, 2, 2},
	[0x30] = {"faload", 1, OPK_NONE, 0, 2, 1},
	[0x31] = {"daload", 1, OPK_NONE, 0, 2, 2},
	[0x32] = {"aaload", 1, OPK_NONE, 0, 2, 1},
	[0x33] = {"baload", 1, OPK_NONE, 0, 2, 1},
	[0x34] = {"caload", 1, OPK_NONE, 0, 2, 1},
	[0x35] = {"saload", 1, OPK_NONE, 0, 2, 1},
	[0x36] = {"istore", 2, OPK_LOCAL, OPF_STORE | OPF_WIDENABLE, 1, 0},
	[0x37] = {"lstore", 2, OPK_LOCAL, OPF_STORE | OPF_WIDENABLE, 2, 0},
	[0x38] = {"fstore", 2, OPK_LOCAL, OPF_STORE | OPF_WIDENABLE, 1, 0},
	[0x39] = {"dstore", 2, OPK_LOCAL, OPF_STORE | OPF_WIDENABLE, 2, 0},
	[0x3a] = {"astore", 2, OPK_LOCAL, OPF_STORE | OPF_WIDENABLE, 1, 0},
	[0x3b] = {"istore_0", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x3c] = {"istore_1", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x3d] = {"istore_2", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x3e] = {"istore_3", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x3f] = {"lstore_0", 1, OPK_NONE, OPF_STORE, 2, 0},
	[0x40] = {"lstore_1", 1, OPK_NONE, OPF_STORE, 2, 0},
	[0x41] = {"lstore_2", 1, OPK_NONE, OPF_STORE, 2, 0},
	[0x42] = {"lstore_3", 1, OPK_NONE, OPF_STORE, 2, 0},
	[0x43] = {"fstore_0", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x44] = {"fstore_1", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x45] = {"fstore_2", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x46] = {"fstore_3", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x47] = {"dstore_0", 1, OPK_NONE, OPF_STORE, 2, 0},
	[0x48] = {"dstore_1", 1, OPK_NONE, OPF_STORE, 2, 0},
	[0x49] = {"dstore_2", 1, OPK_NONE, OPF_STORE, 2, 0},
	[0x4a] = {"dstore_3", 1, OPK_NONE, OPF_STORE, 2, 0},
	[0x4b] = {"astore_0", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x4c] = {"astore_1", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x4d] = {"astore_2", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x4e] = {"astore_3", 1, OPK_NONE, OPF_STORE, 1, 0},
	[0x4f] = {"iastore", 1, OPK_NONE, 0, 3, 0},
	[0x50] = {"lastore", 1, OPK_NONE, 0, 4, 0},
	[0x51] = {"fastore", 1, OPK_NONE, 0, 3, 0},
	[0x52] = {"dastore", 1, OPK_NONE, 0, 4, 0},
	[0x53] = {"aastore", 1, OPK_NONE, 0, 3, 0},
	[0x54] = {"bastore", 1, OPK_NONE, 0, 3, 0},
	[0x55] = {"castore", 1, OPK_NONE, 0, 3, 0},
	[0x56] = {"sastore", 1, OPK_NONE, 0, 3, 0},
	[0x57] = {"pop", 1, OPK_NONE, 0, 1, 0},
	[0x58] = {"pop2", 1, OPK_NONE, 0, 2, 0},
	[0x59] = {"dup", 1, OPK_NONE, 0, 1, 2},
	[0x5a] = {"dup_x1", 1, OPK_NONE, 0, 2, 3},
	[0x5b] = {"dup_x2", 1, OPK_NONE, 0, 3, 4},
	[0x5c] = {"dup2", 1, OPK_NONE, 0, 2, 4},
	[0x5d] = {"dup2_x1", 1, OPK_NONE, 0, 3, 5},
	[0x5e] = {"dup2_x2", 1, OPK_NONE, 0, 4, 6},
	[0x5f] = {"swap", 1, OPK_NONE, 0, 2, 2},
	[0x60] = {"iadd", 1, OPK_NONE, 0, 2, 1},
	[0x61] = {"ladd", 1, OPK_NONE, 0, 4, 2},
	[0x62] = {"fadd", 1, OPK_NONE, 0, 2, 1},
	[0x63] = {"dadd", 1, OPK_NONE, 0, 4, 2},
	[0x64] = {"isub", 1, OPK_NONE, 0, 2, 1},
	[0x65] = {"lsub", 1, OPK_NONE, 0, 4, 2},
	[0x66] = {"fsub", 1, OPK_NONE, 0, 2, 1},
	[0x67] = {"dsub", 1, OPK_NONE, 0, 4, 2},
	[0x68] = {"imul", 1, OPK_NONE, 0, 2, 1},
	[0x69] = {"lmul", 1, OPK_NONE, 0, 4, 2},
	[0x6a] = {"fmul", 1, OPK_NONE, 0, 2, 1},
	[0x6b] = {"dmul", 1, OPK_NONE, 0, 4, 2},
	[0x6c] = {"idiv", 1, OPK_NONE, 0, 2, 1},
	[0x6d] = {"ldiv", 1, OPK_NONE, 0, 4, 2},
	[0x6e] = {"fdiv", 1, OPK_NONE, 0, 2, 1},
	[0x6f] = {"ddiv", 1, OPK_NONE, 0, 4, 2},
	[0x70] = {"irem", 1, OPK_NONE, 0, 2, 1},
	[0x71] = {"lrem", 1, OPK_NONE, 0, 4, 2},
	[0x72] = {"frem", 1, OPK_NONE, 0, 2, 1},
	[0x73] = {"drem", 1, OPK_NONE, 0, 4, 2},
	[0x74] = {"ineg", 1, OPK_NONE, 0, 1, 1},
	[0x75] = {"lneg", 1, OPK_NONE, 0, 2, 2},
	[0x76] = {"fneg", 1, OPK_NONE, 0, 1, 1},
	[0x77] = {"dneg", 1, OPK_NONE, 0, 2, 2},
	[0x78] = {"ishl", 1, OPK_NONE, 0, 2, 1},
	[0x79] = {"lshl", 1, OPK_NONE, 0, 3, 2},
	[0x7a] = {"ishr", 1, OPK_NONE, 0, 2, 1},
	[0x7b] = {"lshr", 1, OPK_NONE, 0, 3, 2},
	[0x7c] = {"iushr", 1, OPK_NONE, 0, 2, 1},
	[0x7d] = {"lushr", 1, OPK_NONE, 0, 3, 2},
	[0x7e] = {"iand", 1, OPK_NONE, 0, 2, 1},
	[0x7f] = {"land", 1, OPK_NONE, 0, 4, 2},
	[0x80] = {"ior", 1, OPK_NONE, 0, 2, 1},
	[0x81] = {"lor", 1, OPK_NONE, 0, 4, 2},
	[0x82] = {"ixor", 1, OPK_NONE, 0, 2, 1},
	[0x83] = {"lxor", 1, OPK_NONE, 0, 4, 2},
	[0x84] = {"iinc", 3, OPK_IINC, OPF_WIDENABLE, 0, 0},
	[0x85] = {"i2l", 1, OPK_NONE, 0, 1, 2},
	[0x86] = {"i2f", 1, OPK_NONE, 0, 1, 1},
	[0x87] = {"i2d", 1, OPK_NONE, 0, 1, 2},
	[0x88] = {"l2i", 1, OPK_NONE, 0, 2, 1},
	[0x89] = {"l2f", 1, OPK_NONE, 0, 2, 1},
	[0x8a] = {"l2d", 1, OPK_NONE, 0, 2, 2},
	[0x8b] = {"f2i", 1, OPK_NONE, 0, 1, 1},
	[0x8c] = {"f2l", 1, OPK_NONE, 0, 1, 2},
	[0x8d] = {"f2d", 1, OPK_NONE, 0, 1, 2},
	[0x8e] = {"d2i", 1, OPK_NONE, 0, 2, 1},
	[0x8f] = {"d2l", 1, OPK_NONE, 0, 2, 2},
	[0x90] = {"d2f", 1, OPK_NONE, 0, 2, 1},
	[0x91] = {"i2b", 1, OPK_NONE, 0, 1, 1},
	[0x92] = {"i2c", 1, OPK_NONE, 0, 1, 1},
	[0x93] = {"i2s", 1, OPK_NONE, 0, 1, 1},
	[0x94] = {"lcmp", 1, OPK_NONE, 0, 4, 1},
	[0x95] = {"fcmpl", 1, OPK_NONE, 0, 2, 1},
	[0x96] = {"fcmpg", 1, OPK_NONE, 0, 2, 1},
	[0x97] = {"dcmpl", 1, OPK_NONE, 0, 4, 1},
	[0x98] = {"dcmpg", 1, OPK_NONE, 0, 4, 1},
	[0x99] = {"ifeq", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 1, 0},
	[0x9a] = {"ifne", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 1, 0},
	[0x9b] = {"iflt", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 1, 0},
	[0x9c] = {"ifge", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 1, 0},
	[0x9d] = {"ifgt", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 1, 0},
	[0x9e] = {"ifle", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 1, 0},
	[0x9f] = {"if_icmpeq", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 2, 0},
	[0xa0] = {"if_icmpne", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 2, 0},
	[0xa1] = {"if_icmplt", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 2, 0},
	[0xa2] = {"if_icmpge", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 2, 0},
	[0xa3] = {"if_icmpgt", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 2, 0},
	[0xa4] = {"if_icmple", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 2, 0},
	[0xa5] = {"if_acmpeq", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 2, 0},
	[0xa6] = {"if_acmpne", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 2, 0},
	[0xa7] = {"goto", 3, OPK_BR2, OPF_BRANCH | OPF_NOFALL, 0, 0},
	[0xa8] = {"jsr", 3, OPK_BR2, OPF_BRANCH | OPF_JSR, 0, 1},
	[0xa9] = {"ret", 2, OPK_LOCAL, OPF_RET | OPF_NOFALL | OPF_WIDENABLE, 0, 0},
	[0xaa] = {"tableswitch", 0, OPK_TSWITCH, OPF_BRANCH | OPF_SWITCH | OPF_NOFALL, 1, 0},
	[0xab] = {"lookupswitch", 0, OPK_LSWITCH, OPF_BRANCH | OPF_SWITCH | OPF_NOFALL, 1, 0},
	[0xac] = {"ireturn", 1, OPK_NONE, OPF_RETURN | OPF_NOFALL, 1, 0},
	[0xad] = {"lreturn", 1, OPK_NONE, OPF_RETURN | OPF_NOFALL, 2, 0},
	[0xae] = {"freturn", 1, OPK_NONE, OPF_RETURN | OPF_NOFALL, 1, 0},
	[0xaf] = {"dreturn", 1, OPK_NONE, OPF_RETURN | OPF_NOFALL, 2, 0},
	[0xb0] = {"areturn", 1, OPK_NONE, OPF_RETURN | OPF_NOFALL, 1, 0},
	[0xb1] = {"return", 1, OPK_NONE, OPF_RETURN | OPF_NOFALL, 0, 0},
	[0xb2] = {"getstatic", 3, OPK_CP2, OPF_CP | OPF_FIELD, -1, -1},
	[0xb3] = {"putstatic", 3, OPK_CP2, OPF_CP | OPF_FIELD, -1, -1},
	[0xb4] = {"getfield", 3, OPK_CP2, OPF_CP | OPF_FIELD, -1, -1},
	[0xb5] = {"putfield", 3, OPK_CP2, OPF_CP | OPF_FIELD, -1, -1},
	[0xb6] = {"invokevirtual", 3, OPK_CP2, OPF_CP | OPF_INVOKE, -1, -1},
	[0xb7] = {"invokespecial", 3, OPK_CP2, OPF_CP | OPF_INVOKE, -1, -1},
	[0xb8] = {"invokestatic", 3, OPK_CP2, OPF_CP | OPF_INVOKE, -1, -1},
	[0xb9] = {"invokeinterface", 5, OPK_IINTERFACE, OPF_CP | OPF_INVOKE, -1, -1},
	[0xba] = {"invokedynamic", 5, OPK_INDY, OPF_CP | OPF_INVOKE, -1, -1},
	[0xbb] = {"new", 3, OPK_CP2, OPF_CP, 0, 1},
	[0xbc] = {"newarray", 2, OPK_ATYPE, 0, 1, 1},
	[0xbd] = {"anewarray", 3, OPK_CP2, OPF_CP, 1, 1},
	[0xbe] = {"arraylength", 1, OPK_NONE, 0, 1, 1},
	[0xbf] = {"athrow", 1, OPK_NONE, OPF_THROW | OPF_NOFALL, 1, 0},
	[0xc0] = {"checkcast", 3, OPK_CP2, OPF_CP, 1, 1},
	[0xc1] = {"instanceof", 3, OPK_CP2, OPF_CP, 1, 1},
	[0xc2] = {"monitorenter", 1, OPK_NONE, 0, 1, 0},
	[0xc3] = {"monitorexit", 1, OPK_NONE, 0, 1, 0},
	[0xc4] = {"wide", 0, OPK_WIDE, 0, 0, 0},
	[0xc5] = {"multianewarray", 4, OPK_MULTI, OPF_CP, -1, 1},
	[0xc6] = {"ifnull", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 1, 0},
	[0xc7] = {"ifnonnull", 3, OPK_BR2, OPF_BRANCH | OPF_COND, 1, 0},
	[0xc8] = {"goto_w", 5, OPK_BR4, OPF_BRANCH | OPF_NOFALL, 0, 0},
	[0xc9] = {"jsr_w", 5, OPK_BR4, OPF_BRANCH | OPF_JSR, 0, 1},
};

static int fail(tc_error *err, int code, uint32_t at, const char *fmt, uint32_t a, uint32_t b)
{
	return tc_fail(err, code, at, "Code", fmt, a, b);
}

int cf_insn_decode(const uint8_t *code, uint32_t code_len, uint32_t off, uint32_t code_off,
                   cf_insn *in, tc_error *err)
{
	*in = (cf_insn){.off = off};
	uint32_t at = code_off + off;
	if (off >= code_len)
		return fail(err, TC_ETRUNC, at, "instruction at %u starts past the end (%u)", off, code_len);
	const uint8_t *p = code + off;
	uint32_t left = code_len - off;
	uint8_t op = p[0];
	const cf_op_info *info = &cf_op_table[op];
	in->op = op;
	if (!info->name)
		return fail(err, TC_EOPCODE, at, "undefined opcode 0x%02x at %u", op, off);
	if (info->len) {
		if (left < info->len)
			return fail(err, TC_ETRUNC, at, "%u-byte instruction at %u is cut off by the end of code",
			            info->len, off);
		in->len = info->len;
	}
	switch (info->kind) {
	case OPK_NONE:
		if (op >= OP_ILOAD_0 && op <= OP_ALOAD_3)
			in->index = (uint16_t)((op - OP_ILOAD_0) & 3);
		else if (op >= OP_ISTORE_0 && op <= OP_ASTORE_3)
			in->index = (uint16_t)((op - OP_ISTORE_0) & 3);
		break;
	case OPK_S1:
		in->imm = (int8_t)p[1];
		break;
	case OPK_S2:
		in->imm = get_s2(p + 1);
		break;
	case OPK_CP1:
	case OPK_LOCAL:
		in->index = p[1];
		break;
	case OPK_CP2:
		in->index = get_u2(p + 1);
		break;
	case OPK_IINC:
		in->index = p[1];
		in->imm = (int8_t)p[2];
		break;
	case OPK_BR2:
		in->branch = get_s2(p + 1);
		break;
	case OPK_BR4:
		in->branch = (int32_t)get_u4(p + 1);
		break;
	case OPK_IINTERFACE:
		in->index = get_u2(p + 1);
		in->imm = p[3];
		if (p[3] == 0 || p[4] != 0)
			return fail(err, TC_EOPCODE, at, "invokeinterface at %u: count %u must be > 0 and then 0",
			            off, p[3]);
		break;
	case OPK_INDY:
		in->index = get_u2(p + 1);
		if (p[3] || p[4])
			return fail(err, TC_EOPCODE, at, "invokedynamic at %u: bytes 3-4 must be 0 (%u)", off,
			            (uint32_t)(p[3] << 8 | p[4]));
		break;
	case OPK_ATYPE:
		in->imm = p[1];
		if (p[1] < 4 || p[1] > 11)
			return fail(err, TC_EOPCODE, at, "newarray at %u: type %u is not 4..11", off, p[1]);
		break;
	case OPK_MULTI:
		in->index = get_u2(p + 1);
		in->imm = p[3];
		if (p[3] == 0)
			return fail(err, TC_EOPCODE, at, "multianewarray at %u: %u dimensions", off, 0);
		break;
	case OPK_WIDE: {
		if (left < 2)
			return fail(err, TC_ETRUNC, at, "wide at %u is cut off by the end of code (%u)", off,
			            code_len);
		uint8_t w = p[1];
		if (!cf_op_valid(w) || !cf_op_has(w, OPF_WIDENABLE))
			return fail(err, TC_EOPCODE, at, "wide at %u modifies 0x%02x, which cannot be widened",
			            off, w);
		in->op = w;
		in->wide = true;
		in->len = w == OP_IINC ? 6 : 4;
		if (left < in->len)
			return fail(err, TC_ETRUNC, at, "wide instruction at %u is cut off (%u bytes left)", off,
			            left);
		in->index = get_u2(p + 2);
		if (w == OP_IINC)
			in->imm = get_s2(p + 4);
		break;
	}
	case OPK_TSWITCH:
	case OPK_LSWITCH: {
		/* JVMS 6.5: 0-3 padding bytes so that the operands start at a multiple of 4. */
		uint32_t pad = 3 - (off & 3);
		uint32_t head = 1 + pad + (op == OP_TABLESWITCH ? 12 : 8);
		if (left < head)
			return fail(err, TC_ETRUNC, at, "switch at %u: header cut off by the end of code (%u left)",
			            off, left);
		const uint8_t *q = p + 1 + pad;
		in->deflt = (int32_t)get_u4(q);
		uint64_t n, entry;
		if (op == OP_TABLESWITCH) {
			in->low = (int32_t)get_u4(q + 4);
			in->high = (int32_t)get_u4(q + 8);
			if (in->low > in->high)
				return fail(err, TC_EOPCODE, at, "tableswitch at %u: low > high (%u)", off,
				            (uint32_t)in->low);
			n = (uint64_t)((int64_t)in->high - in->low + 1);
			entry = 4;
		} else {
			int32_t np = (int32_t)get_u4(q + 4);
			if (np < 0)
				return fail(err, TC_EOPCODE, at, "lookupswitch at %u: negative npairs %u", off,
				            (uint32_t)np);
			n = (uint64_t)np;
			entry = 8;
		}
		if (n * entry > left - head)
			return fail(err, TC_ETRUNC, at, "switch at %u: %u entries do not fit in the code", off,
			            (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n));
		in->npairs = (uint32_t)n;
		in->table = q + (op == OP_TABLESWITCH ? 12 : 8);
		in->len = head + (uint32_t)(n * entry);
		if (op == OP_LOOKUPSWITCH) {
			/* JVMS 6.5 lookupswitch: the keys must be sorted in increasing order. */
			for (uint32_t k = 1; k < in->npairs; k++)
				if ((int32_t)get_u4(in->table + 8 * k) <= (int32_t)get_u4(in->table + 8 * (k - 1)))
					return fail(err, TC_EOPCODE, at,
					            "lookupswitch at %u: keys not in increasing order at pair %u",
					            off, k);
		}
		break;
	}
	}
	return TC_OK;
}

uint32_t cf_insn_length(const uint8_t *code, uint32_t code_len, uint32_t off, uint8_t *op)
{
	if (off >= code_len)
		return 0;
	uint8_t o = code[off];
	const cf_op_info *info = &cf_op_table[o];
	uint32_t left = code_len - off, len = info->len;
	*op = o;
	if (!info->name)
		return 0;
	if (len)
		return len <= left ? len : 0;
	if (o == OP_WIDE) {
		if (left < 2 || !cf_op_valid(code[off + 1]) || !cf_op_has(code[off + 1], OPF_WIDENABLE))
			return 0;
		*op = code[off + 1];
		len = *op == OP_IINC ? 6 : 4;
		return len <= left ? len : 0;
	}
	/* tableswitch, lookupswitch: padding to a multiple of 4, then the header. */
	uint32_t pad = 3 - (off & 3), head = 1 + pad + (o == OP_TABLESWITCH ? 12 : 8);
	if (left < head)
		return 0;
	const uint8_t *q = code + off + 1 + pad;
	uint64_t n;
	if (o == OP_TABLESWITCH) {
		int32_t low = (int32_t)get_u4(q + 4), high = (int32_t)get_u4(q + 8);
		if (low > high)
			return 0;
		n = (uint64_t)((int64_t)high - low + 1) * 4;
	} else {
		int32_t np = (int32_t)get_u4(q + 4);
		if (np < 0)
			return 0;
		n = (uint64_t)np * 8;
	}
	return n <= left - head ? head + (uint32_t)n : 0;
}

uint32_t cf_insn_ntargets(const cf_insn *in)
{
	if (!cf_op_has(in->op, OPF_BRANCH))
		return 0;
	if (cf_op_has(in->op, OPF_SWITCH))
		return 1 + in->npairs;
	return 1;
}

int64_t cf_insn_target(const cf_insn *in, uint32_t k)
{
	if (!cf_op_has(in->op, OPF_SWITCH))
		return (int64_t)in->off + in->branch;
	if (k == 0)
		return (int64_t)in->off + in->deflt;
	const uint8_t *e = in->op == OP_TABLESWITCH ? in->table + 4 * (k - 1) : in->table + 8 * (k - 1) + 4;
	return (int64_t)in->off + (int32_t)get_u4(e);
}

int32_t cf_insn_switch_key(const cf_insn *in, uint32_t k)
{
	if (in->op == OP_TABLESWITCH)
		return (int32_t)((int64_t)in->low + k);
	return (int32_t)get_u4(in->table + 8 * k);
}

bool cf_insn_stack_effect(cp_pool *pool, const cf_insn *in, int *pop, int *push)
{
	const cf_op_info *info = &cf_op_table[in->op];
	if (info->pop >= 0 && info->push >= 0) {
		*pop = info->pop;
		*push = info->push;
		return true;
	}
	if (in->op == OP_MULTIANEWARRAY) {
		*pop = in->imm;
		*push = 1;
		return true;
	}
	uint32_t args, ret;
	if (!cp_ref_words(pool, in->index, &args, &ret))
		return false;
	if (cf_op_has(in->op, OPF_FIELD)) {
		uint8_t t = cp_tag(pool, in->index);
		if (t != CP_FIELDREF)
			return false;
		switch (in->op) {
		case OP_GETSTATIC: *pop = 0; *push = (int)ret; break;
		case OP_PUTSTATIC: *pop = (int)ret; *push = 0; break;
		case OP_GETFIELD: *pop = 1; *push = (int)ret; break;
		default: *pop = 1 + (int)ret; *push = 0; break;
		}
		return true;
	}
	uint8_t t = cp_tag(pool, in->index);
	if (t == CP_FIELDREF || (in->op == OP_INVOKEDYNAMIC) != (t == CP_INVOKEDYNAMIC))
		return false;
	bool has_this = in->op != OP_INVOKESTATIC && in->op != OP_INVOKEDYNAMIC;
	*pop = (int)args + (has_this ? 1 : 0);
	*push = (int)ret;
	return true;
}

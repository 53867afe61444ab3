#include "dex_op.h"

#include "bytes.h"

/* Generated once from the opcode list of "Dalvik bytecode" and checked against dexdump's
 * disassembly of the real corpus (tests/dex). CAN_THROW follows ART's kThrow flag. */
const dex_op_info dex_op_table[256] = {
	[0x00] = {"nop", DF_10x, DI_NONE, 35, 0},
	[0x01] = {"move", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x02] = {"move/from16", DF_22x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x03] = {"move/16", DF_32x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x04] = {"move-wide", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0x05] = {"move-wide/from16", DF_22x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0x06] = {"move-wide/16", DF_32x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0x07] = {"move-object", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x08] = {"move-object/from16", DF_22x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x09] = {"move-object/16", DF_32x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x0a] = {"move-result", DF_11x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_RESULT},
	[0x0b] = {"move-result-wide", DF_11x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_RESULT},
	[0x0c] = {"move-result-object", DF_11x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_RESULT},
	[0x0d] = {"move-exception", DF_11x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x0e] = {"return-void", DF_10x, DI_NONE, 35, DEX_OPF_RETURN | DEX_OPF_GOTO},
	[0x0f] = {"return", DF_11x, DI_NONE, 35, DEX_OPF_RETURN | DEX_OPF_GOTO},
	[0x10] = {"return-wide", DF_11x, DI_NONE, 35, DEX_OPF_RETURN | DEX_OPF_GOTO | DEX_OPF_WIDE_A},
	[0x11] = {"return-object", DF_11x, DI_NONE, 35, DEX_OPF_RETURN | DEX_OPF_GOTO},
	[0x12] = {"const/4", DF_11n, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x13] = {"const/16", DF_21s, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x14] = {"const", DF_31i, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x15] = {"const/high16", DF_21h, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x16] = {"const-wide/16", DF_21s, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0x17] = {"const-wide/32", DF_31i, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0x18] = {"const-wide", DF_51l, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0x19] = {"const-wide/high16", DF_21h, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0x1a] = {"const-string", DF_21c, DI_STRING, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x1b] = {"const-string/jumbo", DF_31c, DI_STRING, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x1c] = {"const-class", DF_21c, DI_TYPE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x1d] = {"monitor-enter", DF_11x, DI_NONE, 35, DEX_OPF_CAN_THROW},
	[0x1e] = {"monitor-exit", DF_11x, DI_NONE, 35, DEX_OPF_CAN_THROW},
	[0x1f] = {"check-cast", DF_21c, DI_TYPE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x20] = {"instance-of", DF_22c, DI_TYPE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x21] = {"array-length", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x22] = {"new-instance", DF_21c, DI_TYPE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x23] = {"new-array", DF_22c, DI_TYPE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x24] = {"filled-new-array", DF_35c, DI_TYPE, 35, DEX_OPF_CAN_THROW | DEX_OPF_HAS_RESULT},
	[0x25] = {"filled-new-array/range", DF_3rc, DI_TYPE, 35, DEX_OPF_CAN_THROW | DEX_OPF_HAS_RESULT},
	[0x26] = {"fill-array-data", DF_31t, DI_NONE, 35, DEX_OPF_CAN_THROW | DEX_OPF_ARRAYDATA},
	[0x27] = {"throw", DF_11x, DI_NONE, 35, DEX_OPF_CAN_THROW | DEX_OPF_THROW | DEX_OPF_GOTO},
	[0x28] = {"goto", DF_10t, DI_NONE, 35, DEX_OPF_BRANCH | DEX_OPF_GOTO},
	[0x29] = {"goto/16", DF_20t, DI_NONE, 35, DEX_OPF_BRANCH | DEX_OPF_GOTO},
	[0x2a] = {"goto/32", DF_30t, DI_NONE, 35, DEX_OPF_BRANCH | DEX_OPF_GOTO},
	[0x2b] = {"packed-switch", DF_31t, DI_NONE, 35, DEX_OPF_SWITCH},
	[0x2c] = {"sparse-switch", DF_31t, DI_NONE, 35, DEX_OPF_SWITCH},
	[0x2d] = {"cmpl-float", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x2e] = {"cmpg-float", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x2f] = {"cmpl-double", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0x30] = {"cmpg-double", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0x31] = {"cmp-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0x32] = {"if-eq", DF_22t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x33] = {"if-ne", DF_22t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x34] = {"if-lt", DF_22t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x35] = {"if-ge", DF_22t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x36] = {"if-gt", DF_22t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x37] = {"if-le", DF_22t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x38] = {"if-eqz", DF_21t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x39] = {"if-nez", DF_21t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x3a] = {"if-ltz", DF_21t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x3b] = {"if-gez", DF_21t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x3c] = {"if-gtz", DF_21t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x3d] = {"if-lez", DF_21t, DI_NONE, 35, DEX_OPF_BRANCH},
	[0x44] = {"aget", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x45] = {"aget-wide", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A},
	[0x46] = {"aget-object", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x47] = {"aget-boolean", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x48] = {"aget-byte", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x49] = {"aget-char", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x4a] = {"aget-short", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x4b] = {"aput", DF_23x, DI_NONE, 35, DEX_OPF_CAN_THROW},
	[0x4c] = {"aput-wide", DF_23x, DI_NONE, 35, DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A},
	[0x4d] = {"aput-object", DF_23x, DI_NONE, 35, DEX_OPF_CAN_THROW},
	[0x4e] = {"aput-boolean", DF_23x, DI_NONE, 35, DEX_OPF_CAN_THROW},
	[0x4f] = {"aput-byte", DF_23x, DI_NONE, 35, DEX_OPF_CAN_THROW},
	[0x50] = {"aput-char", DF_23x, DI_NONE, 35, DEX_OPF_CAN_THROW},
	[0x51] = {"aput-short", DF_23x, DI_NONE, 35, DEX_OPF_CAN_THROW},
	[0x52] = {"iget", DF_22c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x53] = {"iget-wide", DF_22c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A},
	[0x54] = {"iget-object", DF_22c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x55] = {"iget-boolean", DF_22c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x56] = {"iget-byte", DF_22c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x57] = {"iget-char", DF_22c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x58] = {"iget-short", DF_22c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x59] = {"iput", DF_22c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x5a] = {"iput-wide", DF_22c, DI_FIELD, 35, DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A},
	[0x5b] = {"iput-object", DF_22c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x5c] = {"iput-boolean", DF_22c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x5d] = {"iput-byte", DF_22c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x5e] = {"iput-char", DF_22c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x5f] = {"iput-short", DF_22c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x60] = {"sget", DF_21c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x61] = {"sget-wide", DF_21c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A},
	[0x62] = {"sget-object", DF_21c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x63] = {"sget-boolean", DF_21c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x64] = {"sget-byte", DF_21c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x65] = {"sget-char", DF_21c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x66] = {"sget-short", DF_21c, DI_FIELD, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x67] = {"sput", DF_21c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x68] = {"sput-wide", DF_21c, DI_FIELD, 35, DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A},
	[0x69] = {"sput-object", DF_21c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x6a] = {"sput-boolean", DF_21c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x6b] = {"sput-byte", DF_21c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x6c] = {"sput-char", DF_21c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x6d] = {"sput-short", DF_21c, DI_FIELD, 35, DEX_OPF_CAN_THROW},
	[0x6e] = {"invoke-virtual", DF_35c, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x6f] = {"invoke-super", DF_35c, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x70] = {"invoke-direct", DF_35c, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x71] = {"invoke-static", DF_35c, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x72] = {"invoke-interface", DF_35c, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x74] = {"invoke-virtual/range", DF_3rc, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x75] = {"invoke-super/range", DF_3rc, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x76] = {"invoke-direct/range", DF_3rc, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x77] = {"invoke-static/range", DF_3rc, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x78] = {"invoke-interface/range", DF_3rc, DI_METHOD, 35, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0x7b] = {"neg-int", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x7c] = {"not-int", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x7d] = {"neg-long", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0x7e] = {"not-long", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0x7f] = {"neg-float", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x80] = {"neg-double", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0x81] = {"int-to-long", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0x82] = {"int-to-float", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x83] = {"int-to-double", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0x84] = {"long-to-int", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_B},
	[0x85] = {"long-to-float", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_B},
	[0x86] = {"long-to-double", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0x87] = {"float-to-int", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x88] = {"float-to-long", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0x89] = {"float-to-double", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0x8a] = {"double-to-int", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_B},
	[0x8b] = {"double-to-long", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0x8c] = {"double-to-float", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_B},
	[0x8d] = {"int-to-byte", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x8e] = {"int-to-char", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x8f] = {"int-to-short", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x90] = {"add-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x91] = {"sub-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x92] = {"mul-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x93] = {"div-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x94] = {"rem-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0x95] = {"and-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x96] = {"or-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x97] = {"xor-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x98] = {"shl-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x99] = {"shr-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x9a] = {"ushr-int", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0x9b] = {"add-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0x9c] = {"sub-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0x9d] = {"mul-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0x9e] = {"div-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0x9f] = {"rem-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0xa0] = {"and-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0xa1] = {"or-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0xa2] = {"xor-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0xa3] = {"shl-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xa4] = {"shr-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xa5] = {"ushr-long", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xa6] = {"add-float", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xa7] = {"sub-float", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xa8] = {"mul-float", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xa9] = {"div-float", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xaa] = {"rem-float", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xab] = {"add-double", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0xac] = {"sub-double", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0xad] = {"mul-double", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0xae] = {"div-double", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0xaf] = {"rem-double", DF_23x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B | DEX_OPF_WIDE_C},
	[0xb0] = {"add-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xb1] = {"sub-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xb2] = {"mul-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xb3] = {"div-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0xb4] = {"rem-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0xb5] = {"and-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xb6] = {"or-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xb7] = {"xor-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xb8] = {"shl-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xb9] = {"shr-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xba] = {"ushr-int/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xbb] = {"add-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xbc] = {"sub-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xbd] = {"mul-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xbe] = {"div-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xbf] = {"rem-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xc0] = {"and-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xc1] = {"or-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xc2] = {"xor-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xc3] = {"shl-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0xc4] = {"shr-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0xc5] = {"ushr-long/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A},
	[0xc6] = {"add-float/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xc7] = {"sub-float/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xc8] = {"mul-float/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xc9] = {"div-float/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xca] = {"rem-float/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xcb] = {"add-double/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xcc] = {"sub-double/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xcd] = {"mul-double/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xce] = {"div-double/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xcf] = {"rem-double/2addr", DF_12x, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_WIDE_A | DEX_OPF_WIDE_B},
	[0xd0] = {"add-int/lit16", DF_22s, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xd1] = {"rsub-int", DF_22s, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xd2] = {"mul-int/lit16", DF_22s, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xd3] = {"div-int/lit16", DF_22s, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0xd4] = {"rem-int/lit16", DF_22s, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0xd5] = {"and-int/lit16", DF_22s, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xd6] = {"or-int/lit16", DF_22s, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xd7] = {"xor-int/lit16", DF_22s, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xd8] = {"add-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xd9] = {"rsub-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xda] = {"mul-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xdb] = {"div-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0xdc] = {"rem-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0xdd] = {"and-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xde] = {"or-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xdf] = {"xor-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xe0] = {"shl-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xe1] = {"shr-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xe2] = {"ushr-int/lit8", DF_22b, DI_NONE, 35, DEX_OPF_SETS_A},
	[0xfa] = {"invoke-polymorphic", DF_45cc, DI_METHOD_PROTO, 38, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0xfb] = {"invoke-polymorphic/range", DF_4rcc, DI_METHOD_PROTO, 38, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0xfc] = {"invoke-custom", DF_35c, DI_CALL_SITE, 38, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0xfd] = {"invoke-custom/range", DF_3rc, DI_CALL_SITE, 38, DEX_OPF_CAN_THROW | DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT},
	[0xfe] = {"const-method-handle", DF_21c, DI_METHOD_HANDLE, 39, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
	[0xff] = {"const-method-type", DF_21c, DI_PROTO, 39, DEX_OPF_SETS_A | DEX_OPF_CAN_THROW},
};

static const uint8_t fmt_size[] = {
	[DF_NONE] = 0, [DF_10x] = 1, [DF_12x] = 1, [DF_11n] = 1, [DF_11x] = 1, [DF_10t] = 1,
	[DF_20t] = 2, [DF_22x] = 2, [DF_21t] = 2, [DF_21s] = 2, [DF_21h] = 2, [DF_21c] = 2,
	[DF_23x] = 2, [DF_22b] = 2, [DF_22t] = 2, [DF_22s] = 2, [DF_22c] = 2, [DF_30t] = 3,
	[DF_32x] = 3, [DF_31i] = 3, [DF_31t] = 3, [DF_31c] = 3, [DF_35c] = 3, [DF_3rc] = 3,
	[DF_45cc] = 4, [DF_4rcc] = 4, [DF_51l] = 5, [DF_PAYLOAD] = 0,
};

static const char *const fmt_names[] = {
	[DF_NONE] = "unused", [DF_10x] = "10x", [DF_12x] = "12x", [DF_11n] = "11n",
	[DF_11x] = "11x", [DF_10t] = "10t", [DF_20t] = "20t", [DF_22x] = "22x", [DF_21t] = "21t",
	[DF_21s] = "21s", [DF_21h] = "21h", [DF_21c] = "21c", [DF_23x] = "23x", [DF_22b] = "22b",
	[DF_22t] = "22t", [DF_22s] = "22s", [DF_22c] = "22c", [DF_30t] = "30t", [DF_32x] = "32x",
	[DF_31i] = "31i", [DF_31t] = "31t", [DF_31c] = "31c", [DF_35c] = "35c", [DF_3rc] = "3rc",
	[DF_45cc] = "45cc", [DF_4rcc] = "4rcc", [DF_51l] = "51l", [DF_PAYLOAD] = "payload",
};

uint32_t dex_op_fmt_size(uint8_t fmt)
{
	return fmt < sizeof fmt_size ? fmt_size[fmt] : 0;
}

const char *dex_op_fmt_name(uint8_t fmt)
{
	return fmt < sizeof fmt_names / sizeof fmt_names[0] ? fmt_names[fmt] : "?";
}

static inline uint16_t unit(const uint8_t *insns, uint32_t i)
{
	return get_le2(insns + 2 * (size_t)i);
}

static uint32_t decode_payload(const uint8_t *insns, uint32_t n, uint32_t pc, dex_insn *d)
{
	uint16_t id = unit(insns, pc);
	uint64_t size;
	if (pc + 2 > n)
		return 0;
	uint32_t count = unit(insns, pc + 1);
	switch (id) {
	case DPL_PACKED: size = 4 + 2 * (uint64_t)count; break;
	case DPL_SPARSE: size = 2 + 4 * (uint64_t)count; break;
	case DPL_ARRAY: {
		if (pc + 4 > n)
			return 0;
		uint32_t width = count;
		uint64_t elems = (uint32_t)unit(insns, pc + 2) | (uint32_t)unit(insns, pc + 3) << 16;
		if (width != 1 && width != 2 && width != 4 && width != 8)
			return 0;
		size = 4 + (elems * width + 1) / 2;
		break;
	}
	default: return 0;
	}
	if (size > n - pc)
		return 0;
	d->fmt = DF_PAYLOAD;
	d->payload = id;
	d->size = (uint32_t)size;
	d->nargs = 0;
	return d->size;
}

uint32_t dex_op_length(const uint8_t *insns, uint32_t n, uint32_t pc, int version, uint8_t *op)
{
	if (pc >= n)
		return 0;
	uint16_t u0 = unit(insns, pc);
	*op = (uint8_t)u0;
	const dex_op_info *info = &dex_op_table[*op];
	if (*op == DEX_OP_NOP && (u0 >> 8)) {
		dex_insn d;
		return decode_payload(insns, n, pc, &d);
	}
	if (info->fmt == DF_NONE || info->min_version > version)
		return 0;
	uint32_t size = fmt_size[info->fmt];
	if (size > n - pc || ((info->fmt == DF_35c || info->fmt == DF_45cc) && (u0 >> 12) > 5))
		return 0;
	return size;
}

static int32_t s4(const uint8_t *insns, uint32_t i)
{
	return (int32_t)((uint32_t)unit(insns, i) | (uint32_t)unit(insns, i + 1) << 16);
}

uint32_t dex_op_decode(const uint8_t *insns, uint32_t n, uint32_t pc, int version, dex_insn *d)
{
	if (pc >= n)
		return 0;
	uint16_t u0 = unit(insns, pc);
	uint8_t op = (uint8_t)u0, hi = (uint8_t)(u0 >> 8);
	d->op = op;
	d->a = d->b = d->c = 0;
	d->nargs = 0;
	d->lit = 0;
	d->idx = d->idx2 = 0;
	d->target = 0;
	d->payload = 0;
	if (op == DEX_OP_NOP && hi)
		return decode_payload(insns, n, pc, d);
	const dex_op_info *info = &dex_op_table[op];
	if (info->fmt == DF_NONE || info->min_version > version)
		return 0;
	uint32_t size = fmt_size[info->fmt];
	if (size > n - pc)
		return 0;
	d->fmt = info->fmt;
	d->size = size;
	switch (info->fmt) {
	case DF_10x: break; /* unused bits are not checked (ART does not either) */
	case DF_12x: d->a = hi & 0xf; d->b = hi >> 4; break;
	case DF_11n: d->a = hi & 0xf; d->lit = (int8_t)(hi & 0xf0) >> 4; break;
	case DF_11x: d->a = hi; break;
	case DF_10t: d->target = (int8_t)hi; break;
	case DF_20t:
		d->target = (int16_t)unit(insns, pc + 1);
		break;
	case DF_22x: d->a = hi; d->b = unit(insns, pc + 1); break;
	case DF_21t: d->a = hi; d->target = (int16_t)unit(insns, pc + 1); break;
	case DF_21s: d->a = hi; d->lit = (int16_t)unit(insns, pc + 1); break;
	case DF_21h:
		d->a = hi;
		d->lit = op == DEX_OP_CONST_HIGH16 ? (int64_t)(int32_t)((uint32_t)unit(insns, pc + 1) << 16)
		                                : (int64_t)((uint64_t)unit(insns, pc + 1) << 48);
		break;
	case DF_21c: d->a = hi; d->idx = unit(insns, pc + 1); break;
	case DF_23x: {
		uint16_t u1 = unit(insns, pc + 1);
		d->a = hi;
		d->b = u1 & 0xff;
		d->c = u1 >> 8;
		break;
	}
	case DF_22b: {
		uint16_t u1 = unit(insns, pc + 1);
		d->a = hi;
		d->b = u1 & 0xff;
		d->lit = (int8_t)(u1 >> 8);
		break;
	}
	case DF_22t: d->a = hi & 0xf; d->b = hi >> 4; d->target = (int16_t)unit(insns, pc + 1); break;
	case DF_22s: d->a = hi & 0xf; d->b = hi >> 4; d->lit = (int16_t)unit(insns, pc + 1); break;
	case DF_22c: d->a = hi & 0xf; d->b = hi >> 4; d->idx = unit(insns, pc + 1); break;
	case DF_30t:
		d->target = s4(insns, pc + 1);
		break;
	case DF_32x:
		d->a = unit(insns, pc + 1);
		d->b = unit(insns, pc + 2);
		break;
	case DF_31i: d->a = hi; d->lit = s4(insns, pc + 1); break;
	case DF_31t: d->a = hi; d->target = s4(insns, pc + 1); break;
	case DF_31c: d->a = hi; d->idx = (uint32_t)s4(insns, pc + 1); break;
	case DF_35c:
	case DF_45cc: {
		/* A|G|op BBBB F|E|D|C [HHHH] */
		uint16_t u2 = unit(insns, pc + 2);
		d->nargs = hi >> 4;
		if (d->nargs > 5)
			return 0;
		d->idx = unit(insns, pc + 1);
		d->args[0] = u2 & 0xf;
		d->args[1] = (u2 >> 4) & 0xf;
		d->args[2] = (u2 >> 8) & 0xf;
		d->args[3] = u2 >> 12;
		d->args[4] = hi & 0xf;
		if (info->fmt == DF_45cc)
			d->idx2 = unit(insns, pc + 3);
		break;
	}
	case DF_3rc:
	case DF_4rcc:
		d->nargs = hi;
		d->idx = unit(insns, pc + 1);
		d->a = unit(insns, pc + 2);
		if (info->fmt == DF_4rcc)
			d->idx2 = unit(insns, pc + 3);
		break;
	case DF_51l: {
		uint64_t v = 0;
		for (int i = 3; i >= 0; i--)
			v = v << 16 | unit(insns, pc + 1 + (uint32_t)i);
		d->a = hi;
		d->lit = (int64_t)v;
		break;
	}
	default: return 0;
	}
	return size;
}

static bool lit_fits(int64_t v, int bits)
{
	int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << (bits - 1)) - 1;
	return v >= lo && v <= hi;
}

bool dex_op_fits(const dex_insn *d)
{
	switch (d->fmt) {
	case DF_10x: return true;
	case DF_12x: return d->a < 16 && d->b < 16;
	case DF_11n: return d->a < 16 && lit_fits(d->lit, 4);
	case DF_11x: return d->a < 256;
	case DF_10t: return lit_fits(d->target, 8) && d->target != 0;
	case DF_20t: return lit_fits(d->target, 16) && d->target != 0;
	case DF_22x: return d->a < 256 && d->b < 65536;
	case DF_21t: return d->a < 256 && lit_fits(d->target, 16) && d->target != 0;
	case DF_21s: return d->a < 256 && lit_fits(d->lit, 16);
	case DF_21h:
		if (d->op == DEX_OP_CONST_HIGH16)
			return d->a < 256 && (d->lit & 0xffff) == 0 && lit_fits(d->lit, 32);
		return d->a < 256 && (d->lit & 0xffffffffffffLL) == 0;
	case DF_21c: return d->a < 256 && d->idx < 65536;
	case DF_23x: return d->a < 256 && d->b < 256 && d->c < 256;
	case DF_22b: return d->a < 256 && d->b < 256 && lit_fits(d->lit, 8);
	case DF_22t: return d->a < 16 && d->b < 16 && lit_fits(d->target, 16) && d->target != 0;
	case DF_22s: return d->a < 16 && d->b < 16 && lit_fits(d->lit, 16);
	case DF_22c: return d->a < 16 && d->b < 16 && d->idx < 65536;
	case DF_30t: return true;
	case DF_32x: return d->a < 65536 && d->b < 65536;
	case DF_31i: return d->a < 256 && lit_fits(d->lit, 32);
	case DF_31t: return d->a < 256;
	case DF_31c: return d->a < 256;
	case DF_35c:
	case DF_45cc:
		if (d->nargs > 5 || d->idx >= 65536 || d->idx2 >= 65536)
			return false;
		for (int i = 0; i < d->nargs; i++)
			if (d->args[i] >= 16)
				return false;
		return true;
	case DF_3rc:
	case DF_4rcc:
		return d->a + d->nargs <= 65536 && d->idx < 65536 && d->idx2 < 65536;
	case DF_51l: return d->a < 256;
	default: return false;
	}
}

bool dex_op_encode(const dex_insn *d, uint8_t *out)
{
	if (!dex_op_fits(d))
		return false;
	uint16_t u[5] = {0};
	uint8_t hi = 0;
	switch (d->fmt) {
	case DF_10x: break;
	case DF_12x: hi = (uint8_t)(d->b << 4 | d->a); break;
	case DF_11n: hi = (uint8_t)(((uint32_t)d->lit & 0xf) << 4 | d->a); break;
	case DF_11x: hi = (uint8_t)d->a; break;
	case DF_10t: hi = (uint8_t)(int8_t)d->target; break;
	case DF_20t: u[1] = (uint16_t)d->target; break;
	case DF_22x: hi = (uint8_t)d->a; u[1] = (uint16_t)d->b; break;
	case DF_21t: hi = (uint8_t)d->a; u[1] = (uint16_t)d->target; break;
	case DF_21s: hi = (uint8_t)d->a; u[1] = (uint16_t)d->lit; break;
	case DF_21h:
		hi = (uint8_t)d->a;
		u[1] = d->op == DEX_OP_CONST_HIGH16 ? (uint16_t)((uint64_t)d->lit >> 16)
		                                 : (uint16_t)((uint64_t)d->lit >> 48);
		break;
	case DF_21c: hi = (uint8_t)d->a; u[1] = (uint16_t)d->idx; break;
	case DF_23x: hi = (uint8_t)d->a; u[1] = (uint16_t)(d->c << 8 | d->b); break;
	case DF_22b: hi = (uint8_t)d->a; u[1] = (uint16_t)((uint8_t)d->lit << 8 | d->b); break;
	case DF_22t: hi = (uint8_t)(d->b << 4 | d->a); u[1] = (uint16_t)d->target; break;
	case DF_22s: hi = (uint8_t)(d->b << 4 | d->a); u[1] = (uint16_t)d->lit; break;
	case DF_22c: hi = (uint8_t)(d->b << 4 | d->a); u[1] = (uint16_t)d->idx; break;
	case DF_30t:
		u[1] = (uint16_t)d->target;
		u[2] = (uint16_t)((uint32_t)d->target >> 16);
		break;
	case DF_32x: u[1] = (uint16_t)d->a; u[2] = (uint16_t)d->b; break;
	case DF_31i:
	case DF_31t:
	case DF_31c: {
		uint32_t v = d->fmt == DF_31i ? (uint32_t)d->lit : d->fmt == DF_31t ? (uint32_t)d->target : d->idx;
		hi = (uint8_t)d->a;
		u[1] = (uint16_t)v;
		u[2] = (uint16_t)(v >> 16);
		break;
	}
	case DF_35c:
	case DF_45cc:
		hi = (uint8_t)(d->nargs << 4 | (d->nargs == 5 ? d->args[4] : 0));
		u[1] = (uint16_t)d->idx;
		for (int i = 0; i < 4 && i < d->nargs; i++)
			u[2] |= (uint16_t)(d->args[i] << (4 * i));
		u[3] = (uint16_t)d->idx2;
		break;
	case DF_3rc:
	case DF_4rcc:
		hi = (uint8_t)d->nargs;
		u[1] = (uint16_t)d->idx;
		u[2] = (uint16_t)d->a;
		u[3] = (uint16_t)d->idx2;
		break;
	case DF_51l:
		hi = (uint8_t)d->a;
		for (int i = 0; i < 4; i++)
			u[1 + i] = (uint16_t)((uint64_t)d->lit >> (16 * i));
		break;
	default: return false;
	}
	u[0] = (uint16_t)(hi << 8 | d->op);
	uint32_t size = fmt_size[d->fmt];
	for (uint32_t i = 0; i < size; i++)
		put_le2(out + 2 * i, u[i]);
	return true;
}

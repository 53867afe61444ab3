/* One table of Dalvik instruction facts ("Dalvik bytecode", source.android.com), shared
 * by the reader's index walk, the writer, the code editor, tc-dump and the tests; and a
 * decoder and encoder of single instructions.
 *
 * Code is an array of 16-bit code units, little-endian in the file. Payloads
 * (packed-switch, sparse-switch, fill-array-data) sit in the same array behind a nop
 * whose high byte is 1, 2 or 3; dex_op_decode reports them as pseudo-instructions. */
#ifndef TC_DEX_OP_H
#define TC_DEX_OP_H

#include <stdbool.h>
#include <stdint.h>

enum dex_op_fmt {
	DF_NONE = 0, /* unused opcode */
	DF_10x, DF_12x, DF_11n, DF_11x, DF_10t, DF_20t, DF_22x, DF_21t, DF_21s, DF_21h, DF_21c,
	DF_23x, DF_22b, DF_22t, DF_22s, DF_22c, DF_30t, DF_32x, DF_31i, DF_31t, DF_31c, DF_35c,
	DF_3rc, DF_45cc, DF_4rcc, DF_51l,
	DF_PAYLOAD, /* pseudo: a switch or array-data payload */
};

/* What the index operand of a 21c/22c/31c/35c/3rc/45cc/4rcc instruction refers to. */
enum dex_op_idx {
	DI_NONE = 0, DI_STRING, DI_TYPE, DI_FIELD, DI_METHOD, DI_PROTO, DI_CALL_SITE, DI_METHOD_HANDLE,
	DI_METHOD_PROTO, /* invoke-polymorphic: a method in unit 1, a proto in unit 3 */
};

enum {
	DEX_OPF_BRANCH = 1u << 0,    /* 10t/20t/30t/21t/22t: a relative target */
	DEX_OPF_GOTO = 1u << 1,      /* does not continue to the next instruction */
	DEX_OPF_SWITCH = 1u << 2,    /* packed- or sparse-switch (31t to a payload) */
	DEX_OPF_ARRAYDATA = 1u << 3, /* fill-array-data (31t to a payload) */
	DEX_OPF_RETURN = 1u << 4,
	DEX_OPF_THROW = 1u << 5,     /* the throw instruction */
	DEX_OPF_INVOKE = 1u << 6,    /* invoke-* (incl. polymorphic and custom) */
	DEX_OPF_CAN_THROW = 1u << 7, /* may throw (ART's kThrow) */
	DEX_OPF_RESULT = 1u << 8,    /* move-result* */
	DEX_OPF_WIDE_A = 1u << 9,    /* register A is a wide pair (dest or source) */
	DEX_OPF_WIDE_B = 1u << 10,
	DEX_OPF_WIDE_C = 1u << 11,
	DEX_OPF_SETS_A = 1u << 12,   /* writes register A */
	DEX_OPF_HAS_RESULT = 1u << 13, /* may be followed by move-result (invoke, filled-new-array) */
};

typedef struct dex_op_info {
	const char *name;
	uint8_t fmt;
	uint8_t idx;
	uint8_t min_version; /* 35, 38 or 39 */
	uint16_t flags;
} dex_op_info;

extern const dex_op_info dex_op_table[256];

enum {
	DEX_OP_NOP = 0x00,
	DEX_OP_MOVE = 0x01, DEX_OP_MOVE_FROM16 = 0x02, DEX_OP_MOVE_16 = 0x03,
	DEX_OP_MOVE_WIDE = 0x04, DEX_OP_MOVE_WIDE_FROM16 = 0x05, DEX_OP_MOVE_WIDE_16 = 0x06,
	DEX_OP_MOVE_OBJECT = 0x07, DEX_OP_MOVE_OBJECT_FROM16 = 0x08, DEX_OP_MOVE_OBJECT_16 = 0x09,
	DEX_OP_MOVE_RESULT = 0x0a, DEX_OP_MOVE_RESULT_WIDE = 0x0b, DEX_OP_MOVE_RESULT_OBJECT = 0x0c,
	DEX_OP_MOVE_EXCEPTION = 0x0d,
	DEX_OP_RETURN_VOID = 0x0e, DEX_OP_RETURN = 0x0f, DEX_OP_RETURN_WIDE = 0x10, DEX_OP_RETURN_OBJECT = 0x11,
	DEX_OP_CONST_4 = 0x12, DEX_OP_CONST_16 = 0x13, DEX_OP_CONST = 0x14, DEX_OP_CONST_HIGH16 = 0x15,
	DEX_OP_CONST_WIDE_16 = 0x16, DEX_OP_CONST_WIDE_32 = 0x17, DEX_OP_CONST_WIDE = 0x18,
	DEX_OP_CONST_WIDE_HIGH16 = 0x19,
	DEX_OP_CONST_STRING = 0x1a, DEX_OP_CONST_STRING_JUMBO = 0x1b, DEX_OP_CONST_CLASS = 0x1c,
	DEX_OP_MONITOR_ENTER = 0x1d, DEX_OP_MONITOR_EXIT = 0x1e,
	DEX_OP_CHECK_CAST = 0x1f, DEX_OP_INSTANCE_OF = 0x20, DEX_OP_ARRAY_LENGTH = 0x21,
	DEX_OP_NEW_INSTANCE = 0x22, DEX_OP_NEW_ARRAY = 0x23,
	DEX_OP_FILLED_NEW_ARRAY = 0x24, DEX_OP_FILLED_NEW_ARRAY_RANGE = 0x25, DEX_OP_FILL_ARRAY_DATA = 0x26,
	DEX_OP_THROW = 0x27, DEX_OP_GOTO = 0x28, DEX_OP_GOTO_16 = 0x29, DEX_OP_GOTO_32 = 0x2a,
	DEX_OP_PACKED_SWITCH = 0x2b, DEX_OP_SPARSE_SWITCH = 0x2c,
	DEX_OP_CMPL_FLOAT = 0x2d, DEX_OP_CMP_LONG = 0x31,
	DEX_OP_IF_EQ = 0x32, DEX_OP_IF_NE = 0x33, DEX_OP_IF_LT = 0x34, DEX_OP_IF_GE = 0x35, DEX_OP_IF_GT = 0x36,
	DEX_OP_IF_LE = 0x37,
	DEX_OP_IF_EQZ = 0x38, DEX_OP_IF_NEZ = 0x39, DEX_OP_IF_LTZ = 0x3a, DEX_OP_IF_GEZ = 0x3b, DEX_OP_IF_GTZ = 0x3c,
	DEX_OP_IF_LEZ = 0x3d,
	DEX_OP_AGET = 0x44, DEX_OP_AGET_SHORT = 0x4a, DEX_OP_APUT = 0x4b, DEX_OP_APUT_SHORT = 0x51,
	DEX_OP_IGET = 0x52, DEX_OP_IPUT_SHORT = 0x5f, DEX_OP_SGET = 0x60, DEX_OP_SPUT_SHORT = 0x6d,
	DEX_OP_INVOKE_VIRTUAL = 0x6e, DEX_OP_INVOKE_SUPER = 0x6f, DEX_OP_INVOKE_DIRECT = 0x70,
	DEX_OP_INVOKE_STATIC = 0x71, DEX_OP_INVOKE_INTERFACE = 0x72,
	DEX_OP_INVOKE_VIRTUAL_RANGE = 0x74, DEX_OP_INVOKE_SUPER_RANGE = 0x75,
	DEX_OP_INVOKE_DIRECT_RANGE = 0x76, DEX_OP_INVOKE_STATIC_RANGE = 0x77,
	DEX_OP_INVOKE_INTERFACE_RANGE = 0x78,
	DEX_OP_INVOKE_POLYMORPHIC = 0xfa, DEX_OP_INVOKE_POLYMORPHIC_RANGE = 0xfb,
	DEX_OP_INVOKE_CUSTOM = 0xfc, DEX_OP_INVOKE_CUSTOM_RANGE = 0xfd,
	DEX_OP_CONST_METHOD_HANDLE = 0xfe, DEX_OP_CONST_METHOD_TYPE = 0xff,
};

/* Payload identifiers (the whole first code unit). */
enum { DPL_PACKED = 0x0100, DPL_SPARSE = 0x0200, DPL_ARRAY = 0x0300 };

/* One decoded instruction. Registers: a, b, c as the format names them (vA, vB, vC);
 * for 35c/45cc the argument list is args[0..nargs) (vC, vD, vE, vF, vG); for 3rc/4rcc
 * the arguments are a..a+nargs-1 with a the first register (vCCCC). */
typedef struct dex_insn {
	uint8_t op;
	uint8_t fmt;
	uint32_t size;     /* in code units, payloads included */
	uint32_t a, b, c;
	uint8_t nargs;     /* 35c/45cc: 0..5; 3rc/4rcc: 0..255 */
	uint16_t args[5];
	int64_t lit;       /* 11n, 21s, 21h (already shifted), 31i, 51l, 22b, 22s */
	uint32_t idx;      /* index operand */
	uint32_t idx2;     /* 45cc/4rcc: the proto */
	int32_t target;    /* branch or payload offset, in code units from this instruction */
	uint16_t payload;  /* DF_PAYLOAD: DPL_* */
} dex_insn;

static inline bool dex_op_has(uint8_t op, unsigned flags)
{
	return (dex_op_table[op].flags & flags) != 0;
}

/* Decodes the instruction at pc of insns[0..n) (code units as in the file, read through
 * the byte pointer, which need not be aligned). Returns its size in units, or 0 when it
 * is undefined for dex version `version`, cut off, or (payloads) malformed. */
uint32_t dex_op_decode(const uint8_t *insns, uint32_t n, uint32_t pc, int version, dex_insn *out);

/* The same checks as dex_op_decode, giving only the size and the opcode (0 for a payload):
 * for scans that look at opcodes, several times faster. */
uint32_t dex_op_length(const uint8_t *insns, uint32_t n, uint32_t pc, int version, uint8_t *op);

/* The size of a format in code units (payloads excluded). */
uint32_t dex_op_fmt_size(uint8_t fmt);

/* Encodes d (not a payload) into out[0..size) code units as little-endian bytes
 * (2 * size bytes). Returns false when an operand does not fit its field. */
bool dex_op_encode(const dex_insn *d, uint8_t *out);

/* Whether operands fit the format (registers, literal, branch range). */
bool dex_op_fits(const dex_insn *d);

const char *dex_op_fmt_name(uint8_t fmt);

#endif

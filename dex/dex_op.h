/* One table of Dalvik instruction facts ("Dalvik bytecode", source.android.com), shared
 * by the reader's index walk, the writer, the code editor, tc-dump and the tests; and a
 * decoder and encoder of single instructions.
 *
 * Code is an array of 16-bit code units, little-endian in the file. Payloads
 * (packed-switch, sparse-switch, fill-array-data) sit in the same array behind a nop
 * whose high byte is 1, 2 or 3; dop_decode reports them as pseudo-instructions. */
#ifndef TC_DEX_OP_H
#define TC_DEX_OP_H

#include <stdbool.h>
#include <stdint.h>

enum dop_fmt {
	DF_NONE = 0, /* unused opcode */
	DF_10x, DF_12x, DF_11n, DF_11x, DF_10t, DF_20t, DF_22x, DF_21t, DF_21s, DF_21h, DF_21c,
	DF_23x, DF_22b, DF_22t, DF_22s, DF_22c, DF_30t, DF_32x, DF_31i, DF_31t, DF_31c, DF_35c,
	DF_3rc, DF_45cc, DF_4rcc, DF_51l,
	DF_PAYLOAD, /* pseudo: a switch or array-data payload */
};

/* What the index operand of a 21c/22c/31c/35c/3rc/45cc/4rcc instruction refers to. */
enum dop_idx {
	DI_NONE = 0, DI_STRING, DI_TYPE, DI_FIELD, DI_METHOD, DI_PROTO, DI_CALL_SITE, DI_METHOD_HANDLE,
	DI_METHOD_PROTO, /* invoke-polymorphic: a method in unit 1, a proto in unit 3 */
};

enum {
	DOPF_BRANCH = 1u << 0,    /* 10t/20t/30t/21t/22t: a relative target */
	DOPF_GOTO = 1u << 1,      /* does not continue to the next instruction */
	DOPF_SWITCH = 1u << 2,    /* packed- or sparse-switch (31t to a payload) */
	DOPF_ARRAYDATA = 1u << 3, /* fill-array-data (31t to a payload) */
	DOPF_RETURN = 1u << 4,
	DOPF_THROW = 1u << 5,     /* the throw instruction */
	DOPF_INVOKE = 1u << 6,    /* invoke-* (incl. polymorphic and custom) */
	DOPF_CAN_THROW = 1u << 7, /* may throw (ART's kThrow) */
	DOPF_RESULT = 1u << 8,    /* move-result* */
	DOPF_WIDE_A = 1u << 9,    /* register A is a wide pair (dest or source) */
	DOPF_WIDE_B = 1u << 10,
	DOPF_WIDE_C = 1u << 11,
	DOPF_SETS_A = 1u << 12,   /* writes register A */
	DOPF_HAS_RESULT = 1u << 13, /* may be followed by move-result (invoke, filled-new-array) */
};

typedef struct dop_info {
	const char *name;
	uint8_t fmt;
	uint8_t idx;
	uint8_t min_version; /* 35, 38 or 39 */
	uint16_t flags;
} dop_info;

extern const dop_info dop_table[256];

enum {
	DOP_NOP = 0x00,
	DOP_MOVE = 0x01, DOP_MOVE_FROM16 = 0x02, DOP_MOVE_16 = 0x03,
	DOP_MOVE_WIDE = 0x04, DOP_MOVE_WIDE_FROM16 = 0x05, DOP_MOVE_WIDE_16 = 0x06,
	DOP_MOVE_OBJECT = 0x07, DOP_MOVE_OBJECT_FROM16 = 0x08, DOP_MOVE_OBJECT_16 = 0x09,
	DOP_MOVE_RESULT = 0x0a, DOP_MOVE_RESULT_WIDE = 0x0b, DOP_MOVE_RESULT_OBJECT = 0x0c,
	DOP_MOVE_EXCEPTION = 0x0d,
	DOP_RETURN_VOID = 0x0e, DOP_RETURN = 0x0f, DOP_RETURN_WIDE = 0x10, DOP_RETURN_OBJECT = 0x11,
	DOP_CONST_4 = 0x12, DOP_CONST_16 = 0x13, DOP_CONST = 0x14, DOP_CONST_HIGH16 = 0x15,
	DOP_CONST_WIDE_16 = 0x16, DOP_CONST_WIDE_32 = 0x17, DOP_CONST_WIDE = 0x18,
	DOP_CONST_WIDE_HIGH16 = 0x19,
	DOP_CONST_STRING = 0x1a, DOP_CONST_STRING_JUMBO = 0x1b, DOP_CONST_CLASS = 0x1c,
	DOP_MONITOR_ENTER = 0x1d, DOP_MONITOR_EXIT = 0x1e,
	DOP_CHECK_CAST = 0x1f, DOP_INSTANCE_OF = 0x20, DOP_ARRAY_LENGTH = 0x21,
	DOP_NEW_INSTANCE = 0x22, DOP_NEW_ARRAY = 0x23,
	DOP_FILLED_NEW_ARRAY = 0x24, DOP_FILLED_NEW_ARRAY_RANGE = 0x25, DOP_FILL_ARRAY_DATA = 0x26,
	DOP_THROW = 0x27, DOP_GOTO = 0x28, DOP_GOTO_16 = 0x29, DOP_GOTO_32 = 0x2a,
	DOP_PACKED_SWITCH = 0x2b, DOP_SPARSE_SWITCH = 0x2c,
	DOP_CMPL_FLOAT = 0x2d, DOP_CMP_LONG = 0x31,
	DOP_IF_EQ = 0x32, DOP_IF_NE = 0x33, DOP_IF_LT = 0x34, DOP_IF_GE = 0x35, DOP_IF_GT = 0x36,
	DOP_IF_LE = 0x37,
	DOP_IF_EQZ = 0x38, DOP_IF_NEZ = 0x39, DOP_IF_LTZ = 0x3a, DOP_IF_GEZ = 0x3b, DOP_IF_GTZ = 0x3c,
	DOP_IF_LEZ = 0x3d,
	DOP_AGET = 0x44, DOP_AGET_SHORT = 0x4a, DOP_APUT = 0x4b, DOP_APUT_SHORT = 0x51,
	DOP_IGET = 0x52, DOP_IPUT_SHORT = 0x5f, DOP_SGET = 0x60, DOP_SPUT_SHORT = 0x6d,
	DOP_INVOKE_VIRTUAL = 0x6e, DOP_INVOKE_SUPER = 0x6f, DOP_INVOKE_DIRECT = 0x70,
	DOP_INVOKE_STATIC = 0x71, DOP_INVOKE_INTERFACE = 0x72,
	DOP_INVOKE_VIRTUAL_RANGE = 0x74, DOP_INVOKE_SUPER_RANGE = 0x75,
	DOP_INVOKE_DIRECT_RANGE = 0x76, DOP_INVOKE_STATIC_RANGE = 0x77,
	DOP_INVOKE_INTERFACE_RANGE = 0x78,
	DOP_INVOKE_POLYMORPHIC = 0xfa, DOP_INVOKE_POLYMORPHIC_RANGE = 0xfb,
	DOP_INVOKE_CUSTOM = 0xfc, DOP_INVOKE_CUSTOM_RANGE = 0xfd,
	DOP_CONST_METHOD_HANDLE = 0xfe, DOP_CONST_METHOD_TYPE = 0xff,
};

/* Payload identifiers (the whole first code unit). */
enum { DPL_PACKED = 0x0100, DPL_SPARSE = 0x0200, DPL_ARRAY = 0x0300 };

/* One decoded instruction. Registers: a, b, c as the format names them (vA, vB, vC);
 * for 35c/45cc the argument list is args[0..nargs) (vC, vD, vE, vF, vG); for 3rc/4rcc
 * the arguments are a..a+nargs-1 with a the first register (vCCCC). */
typedef struct dop {
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
} dop;

static inline bool dop_has(uint8_t op, unsigned flags)
{
	return (dop_table[op].flags & flags) != 0;
}

/* Decodes the instruction at pc of insns[0..n) (code units as in the file, read through
 * the byte pointer, which need not be aligned). Returns its size in units, or 0 when it
 * is undefined for dex version `version`, cut off, or (payloads) malformed. */
uint32_t dop_decode(const uint8_t *insns, uint32_t n, uint32_t pc, int version, dop *out);

/* The same checks as dop_decode, giving only the size and the opcode (0 for a payload):
 * for scans that look at opcodes, several times faster. */
uint32_t dop_length(const uint8_t *insns, uint32_t n, uint32_t pc, int version, uint8_t *op);

/* The size of a format in code units (payloads excluded). */
uint32_t dop_fmt_size(uint8_t fmt);

/* Encodes d (not a payload) into out[0..size) code units as little-endian bytes
 * (2 * size bytes). Returns false when an operand does not fit its field. */
bool dop_encode(const dop *d, uint8_t *out);

/* Whether operands fit the format (registers, literal, branch range). */
bool dop_fits(const dop *d);

const char *dop_fmt_name(uint8_t fmt);

#endif

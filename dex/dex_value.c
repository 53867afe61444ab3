#include "dex_value.h"

#include "dex.h"

/* encoded_value types ("Dalvik executable format", encoded_value encoding) */
enum {
	VT_BYTE = 0x00, VT_SHORT = 0x02, VT_CHAR = 0x03, VT_INT = 0x04, VT_LONG = 0x06,
	VT_FLOAT = 0x10, VT_DOUBLE = 0x11, VT_METHOD_TYPE = 0x15, VT_METHOD_HANDLE = 0x16,
	VT_STRING = 0x17, VT_TYPE = 0x18, VT_FIELD = 0x19, VT_METHOD = 0x1a, VT_ENUM = 0x1b,
	VT_ARRAY = 0x1c, VT_ANNOTATION = 0x1d, VT_NULL = 0x1e, VT_BOOLEAN = 0x1f,
};

#define MAX_DEPTH 64

static int bad(tc_reader *r, uint32_t off, const char *what, uint32_t v)
{
	return tc_fail(r->err, TC_EFORMAT, off, r->part, "%s %u", what, v);
}

/* An index read through the maps: range-checked against the model, written back as
 * the file's index. */
static uint32_t index_in(tc_reader *r, const dex_value_ctx *c, enum dex_value_kind k, uint32_t v, uint32_t off)
{
	static const char *const names[DEX_VALUE_KINDS] = {"string index", "type index", "proto index",
	                                                   "field index", "method index",
	                                                   "method handle index"};
	if (v >= c->limit[k]) {
		bad(r, off, names[k], v);
		return 0;
	}
	return dex_value_map(c, k, v);
}

static void put_uleb(tc_buf *out, uint32_t v)
{
	if (out)
		buf_uleb(out, v);
}

/* An unsigned index value in the minimal number of bytes. */
static void put_index_value(tc_buf *out, uint8_t type, uint32_t v)
{
	int n = 1;
	while (n < 4 && (v >> (8 * n)))
		n++;
	buf_u1(out, (uint8_t)((n - 1) << 5 | type));
	for (int i = 0; i < n; i++)
		buf_u1(out, (uint8_t)(v >> (8 * i)));
}

int dex_value_encoded(tc_reader *r, tc_buf *out, const dex_value_ctx *c, int depth)
{
	uint32_t off = rd_off(r);
	uint8_t head = rd_u1(r);
	if (!rd_ok(r))
		return r->err->code;
	uint8_t type = head & 0x1f, arg = head >> 5;
	uint32_t size = arg + 1u, max;
	enum dex_value_kind kind;
	switch (type) {
	case VT_BYTE: max = 1; goto plain;
	case VT_SHORT:
	case VT_CHAR: max = 2; goto plain;
	case VT_INT:
	case VT_FLOAT: max = 4; goto plain;
	case VT_LONG:
	case VT_DOUBLE: max = 8; goto plain;
	case VT_METHOD_TYPE: kind = DEX_VALUE_PROTO; goto index;
	case VT_METHOD_HANDLE: kind = DEX_VALUE_MHANDLE; goto index;
	case VT_STRING: kind = DEX_VALUE_STRING; goto index;
	case VT_TYPE: kind = DEX_VALUE_TYPE; goto index;
	case VT_FIELD:
	case VT_ENUM: kind = DEX_VALUE_FIELD; goto index;
	case VT_METHOD: kind = DEX_VALUE_METHOD; goto index;
	case VT_ARRAY:
		if (arg)
			return bad(r, off, "value_arg of an array must be 0, not", arg);
		if (depth >= MAX_DEPTH)
			return tc_fail(r->err, TC_EFORMAT, off, r->part, "values nested too deeply");
		if (out)
			buf_u1(out, head);
		return dex_value_array(r, out, c, depth + 1);
	case VT_ANNOTATION:
		if (arg)
			return bad(r, off, "value_arg of an annotation must be 0, not", arg);
		if (depth >= MAX_DEPTH)
			return tc_fail(r->err, TC_EFORMAT, off, r->part, "values nested too deeply");
		if (out)
			buf_u1(out, head);
		return dex_value_annotation(r, out, c, depth + 1);
	case VT_NULL:
		if (arg)
			return bad(r, off, "value_arg of null must be 0, not", arg);
		if (out)
			buf_u1(out, head);
		return TC_OK;
	case VT_BOOLEAN:
		if (arg > 1)
			return bad(r, off, "value_arg of a boolean must be 0 or 1, not", arg);
		if (out)
			buf_u1(out, head);
		return TC_OK;
	default:
		return bad(r, off, "unknown encoded_value type", type);
	}
plain:
	if (size > max)
		return bad(r, off, "encoded_value too long for its type: bytes", size);
	{
		const uint8_t *p = rd_bytes(r, size);
		if (!p)
			return r->err->code;
		if (out) {
			buf_u1(out, head);
			buf_bytes(out, p, size);
		}
	}
	return TC_OK;
index:
	if (size > 4)
		return bad(r, off, "index value too long: bytes", size);
	{
		const uint8_t *p = rd_bytes(r, size);
		if (!p)
			return r->err->code;
		uint32_t v = 0;
		for (uint32_t i = 0; i < size; i++)
			v |= (uint32_t)p[i] << (8 * i);
		v = index_in(r, c, kind, v, off);
		if (!rd_ok(r))
			return r->err->code;
		if (out)
			put_index_value(out, type, v);
	}
	return TC_OK;
}

int dex_value_array(tc_reader *r, tc_buf *out, const dex_value_ctx *c, int depth)
{
	uint32_t n = rd_uleb(r);
	if (!rd_ok(r))
		return r->err->code;
	put_uleb(out, n);
	for (uint32_t i = 0; i < n; i++) {
		/* every value takes a byte at least: a count past the end is cut-off input */
		if (r->pos >= r->end)
			return tc_fail(r->err, TC_ETRUNC, rd_off(r), r->part, "array of %u values cut off", n);
		if (dex_value_encoded(r, out, c, depth) != TC_OK)
			return r->err->code;
	}
	return TC_OK;
}

int dex_value_annotation(tc_reader *r, tc_buf *out, const dex_value_ctx *c, int depth)
{
	uint32_t off = rd_off(r);
	uint32_t type = index_in(r, c, DEX_VALUE_TYPE, rd_uleb(r), off);
	uint32_t n = rd_uleb(r);
	if (!rd_ok(r))
		return r->err->code;
	put_uleb(out, type);
	put_uleb(out, n);
	uint32_t last = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t eoff = rd_off(r);
		uint32_t name = rd_uleb(r);
		if (!rd_ok(r))
			return r->err->code;
		if (i && name <= last)
			return bad(r, eoff, "annotation elements out of order at name index", name);
		last = name;
		put_uleb(out, index_in(r, c, DEX_VALUE_STRING, name, eoff));
		if (!rd_ok(r) || dex_value_encoded(r, out, c, depth) != TC_OK)
			return r->err->code;
	}
	return TC_OK;
}

/* debug_info opcodes */
enum {
	DBG_END_SEQUENCE = 0x00, DBG_ADVANCE_PC = 0x01, DBG_ADVANCE_LINE = 0x02,
	DBG_START_LOCAL = 0x03, DBG_START_LOCAL_EXTENDED = 0x04, DBG_END_LOCAL = 0x05,
	DBG_RESTART_LOCAL = 0x06, DBG_SET_PROLOGUE_END = 0x07, DBG_SET_EPILOGUE_BEGIN = 0x08,
	DBG_SET_FILE = 0x09, DBG_FIRST_SPECIAL = 0x0a,
};
#define DBG_LINE_BASE (-4)
#define DBG_LINE_RANGE 15

/* A uleb128p1 string or type index (NO_INDEX allowed). */
static void opt_index(tc_reader *r, tc_buf *out, const dex_value_ctx *c, enum dex_value_kind k)
{
	uint32_t off = rd_off(r);
	uint32_t v = rd_ulebp1(r);
	if (!rd_ok(r))
		return;
	if (v != DEX_NO_INDEX)
		v = index_in(r, c, k, v, off);
	put_uleb(out, v + 1u);
}

/* The register of a local-variable opcode, which ART bounds to 16 bits; copied with it. */
static int local_reg(tc_reader *r, tc_buf *out, uint8_t op, uint32_t off)
{
	uint32_t reg = rd_uleb(r);
	if (!rd_ok(r))
		return r->err->code;
	if (reg >= 65536)
		return bad(r, off, "local variable register out of range:", reg);
	if (out) {
		buf_u1(out, op);
		buf_uleb(out, reg);
	}
	return TC_OK;
}

static uint32_t reloc(const uint32_t *map, uint32_t naddr, uint32_t addr)
{
	return map[addr <= naddr ? addr : naddr];
}

int dex_value_debug(tc_reader *r, tc_buf *out, const dex_value_ctx *c, const uint32_t *addr_map, uint32_t naddr)
{
	uint32_t line = rd_uleb(r);
	uint32_t nparams = rd_uleb(r);
	if (!rd_ok(r))
		return r->err->code;
	put_uleb(out, line);
	put_uleb(out, nparams);
	for (uint32_t i = 0; i < nparams; i++) {
		if (r->pos >= r->end)
			return tc_fail(r->err, TC_ETRUNC, rd_off(r), r->part, "parameter names cut off");
		opt_index(r, out, c, DEX_VALUE_STRING);
		if (!rd_ok(r))
			return r->err->code;
	}
	/* With relocation, address advances are deferred until an event needs them, then
	 * written as the distance between relocated addresses. */
	uint32_t addr = 0, emitted = 0;
	bool relocate = addr_map != NULL && out != NULL;
	for (;;) {
		uint32_t off = rd_off(r);
		uint8_t op = rd_u1(r);
		if (!rd_ok(r))
			return r->err->code;
		if (relocate && op != DBG_ADVANCE_PC && op != DBG_ADVANCE_LINE && op != DBG_END_SEQUENCE &&
		    op < DBG_FIRST_SPECIAL) {
			uint32_t to = reloc(addr_map, naddr, addr);
			if (to > emitted) {
				buf_u1(out, DBG_ADVANCE_PC);
				buf_uleb(out, to - emitted);
				emitted = to;
			}
		}
		switch (op) {
		case DBG_END_SEQUENCE:
			if (out)
				buf_u1(out, op);
			return TC_OK;
		case DBG_ADVANCE_PC: {
			uint32_t d = rd_uleb(r);
			if (!rd_ok(r))
				return r->err->code;
			if (d > UINT32_MAX - addr)
				return bad(r, off, "address advance overflows:", d);
			addr += d;
			if (out && !relocate) {
				buf_u1(out, op);
				buf_uleb(out, d);
			}
			break;
		}
		case DBG_ADVANCE_LINE: {
			int32_t d = rd_sleb(r);
			if (!rd_ok(r))
				return r->err->code;
			if (out) {
				buf_u1(out, op);
				buf_sleb(out, d);
			}
			break;
		}
		case DBG_START_LOCAL:
		case DBG_START_LOCAL_EXTENDED:
			if (local_reg(r, out, op, off) != TC_OK)
				return r->err->code;
			opt_index(r, out, c, DEX_VALUE_STRING);
			opt_index(r, out, c, DEX_VALUE_TYPE);
			if (op == DBG_START_LOCAL_EXTENDED)
				opt_index(r, out, c, DEX_VALUE_STRING);
			if (!rd_ok(r))
				return r->err->code;
			break;
		case DBG_END_LOCAL:
		case DBG_RESTART_LOCAL:
			if (local_reg(r, out, op, off) != TC_OK)
				return r->err->code;
			break;
		case DBG_SET_PROLOGUE_END:
		case DBG_SET_EPILOGUE_BEGIN:
			if (out)
				buf_u1(out, op);
			break;
		case DBG_SET_FILE:
			if (out)
				buf_u1(out, op);
			opt_index(r, out, c, DEX_VALUE_STRING);
			if (!rd_ok(r))
				return r->err->code;
			break;
		default: {
			uint32_t adj = op - DBG_FIRST_SPECIAL;
			int32_t dline = DBG_LINE_BASE + (int32_t)(adj % DBG_LINE_RANGE);
			addr += adj / DBG_LINE_RANGE;
			if (!out)
				break;
			if (!relocate) {
				buf_u1(out, op);
				break;
			}
			uint32_t to = reloc(addr_map, naddr, addr);
			if (to < emitted)
				to = emitted; /* the map is monotonic: only for malformed input */
			uint32_t d = to - emitted;
			uint32_t lpart = (uint32_t)(dline - DBG_LINE_BASE);
			/* the largest address step a special opcode with this line step can carry */
			uint32_t dmax = (0xffu - DBG_FIRST_SPECIAL - lpart) / DBG_LINE_RANGE;
			if (d > dmax) {
				buf_u1(out, DBG_ADVANCE_PC);
				buf_uleb(out, d);
				d = 0;
			}
			buf_u1(out, (uint8_t)(DBG_FIRST_SPECIAL + lpart + DBG_LINE_RANGE * d));
			emitted = to;
			break;
		}
		}
	}
}

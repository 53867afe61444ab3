/* Verification types at a point where an edit needs a new stack-map frame.
 *
 * The type-checking verifier (JVMS 4.10.1) infers the types at an instruction from
 * the last frame before it and the straight-line code in between. We do the same:
 * start at the nearest frame at or before the instruction (or the implicit first
 * frame), run the JVMS transfer rules forward, and encode the result. Locals and
 * stack are expanded here (a long or double takes two slots, the second Top) and
 * compressed again for the frame. Only the original code is simulated: inserted code
 * leaves types unchanged. */
#include <string.h>

#include "code_internal.h"
#include "desc.h"

typedef struct sim {
	code_editor *ed;
	smt_vtype *loc;
	uint32_t nl;
	smt_vtype *stk;
	uint32_t sp, ns;
	uint32_t at; /* offset of the instruction being simulated */
} sim;

static const smt_vtype TOP = {.tag = VT_TOP};

static int bad(sim *s, const char *what)
{
	return code_fail(s->ed, TC_EUNSUPPORTED, s->at,
	                 "cannot infer stack-map types at %u for a new frame: %s", s->at, what);
}

static bool expand(const smt_vtype *list, uint32_t n, smt_vtype *out, uint32_t cap, uint32_t *count)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (k >= cap)
			return false;
		out[k++] = list[i];
		if (smt_wide(list[i].tag)) {
			if (k >= cap)
				return false;
			out[k++] = TOP;
		}
	}
	*count = k;
	return true;
}

static int push(sim *s, smt_vtype v)
{
	uint32_t w = smt_wide(v.tag) ? 2 : 1;
	if (s->sp + w > s->ns)
		return bad(s, "stack overflow");
	s->stk[s->sp++] = v;
	if (w == 2)
		s->stk[s->sp++] = TOP;
	return TC_OK;
}

static int push_tag(sim *s, uint8_t tag)
{
	smt_vtype v = {.tag = tag};
	return push(s, v);
}

static int pop(sim *s, uint32_t words)
{
	if (words > s->sp)
		return bad(s, "stack underflow");
	s->sp -= words;
	return TC_OK;
}

static int object(sim *s, const uint8_t *name, uint32_t len)
{
	smt_vtype v = {.tag = VT_OBJECT, .name = name, .name_len = len};
	return push(s, v);
}

static int object_str(sim *s, const char *name)
{
	return object(s, (const uint8_t *)name, (uint32_t)strlen(name));
}

static int push_desc(sim *s, const uint8_t *d, uint32_t len)
{
	if (len == 1 && d[0] == 'V')
		return TC_OK;
	smt_vtype v;
	if (!smt_from_desc(d, len, &v))
		return bad(s, "bad descriptor");
	return push(s, v);
}

static int store(sim *s, uint32_t idx, smt_vtype v)
{
	uint32_t w = smt_wide(v.tag) ? 2 : 1;
	if (idx + w > s->nl)
		return bad(s, "store past max_locals");
	/* Overwriting the second half of a long or double invalidates its first half. */
	if (idx > 0 && smt_wide(s->loc[idx - 1].tag))
		s->loc[idx - 1] = TOP;
	s->loc[idx] = v;
	if (w == 2)
		s->loc[idx + 1] = TOP;
	return TC_OK;
}

/* Result type of the arithmetic, conversion and comparison opcodes 0x60..0x98. */
static uint8_t arith_result(uint8_t op)
{
	static const char r[] =
		"ILFDILFDILFDILFDILFDILFD" /* add sub mul div rem neg */
		"ILILIL" "ILILIL"          /* shl shr ushr, and or xor */
		"?"                        /* iinc */
		"LFDIFDILDILFIII"          /* i2l .. i2s */
		"IIIII";                   /* lcmp fcmpl fcmpg dcmpl dcmpg */
	switch (r[op - 0x60]) {
	case 'I': return VT_INT;
	case 'L': return VT_LONG;
	case 'F': return VT_FLOAT;
	case 'D': return VT_DOUBLE;
	}
	return VT_TOP;
}

static int array_load(sim *s, uint8_t op)
{
	if (s->sp < 2)
		return bad(s, "stack underflow");
	smt_vtype arr = s->stk[s->sp - 2];
	pop(s, 2);
	switch (op) {
	case OP_LALOAD: return push_tag(s, VT_LONG);
	case OP_FALOAD: return push_tag(s, VT_FLOAT);
	case OP_DALOAD: return push_tag(s, VT_DOUBLE);
	case OP_AALOAD:
		if (arr.tag == VT_NULL)
			return push_tag(s, VT_NULL);
		if (arr.tag != VT_OBJECT || arr.name_len < 2 || arr.name[0] != '[')
			return bad(s, "aaload from a non-array");
		if (arr.name[1] == '[')
			return object(s, arr.name + 1, arr.name_len - 1);
		if (arr.name[1] == 'L' && arr.name_len >= 4)
			return object(s, arr.name + 2, arr.name_len - 3);
		return bad(s, "aaload from a primitive array");
	default: return push_tag(s, VT_INT);
	}
}

static int array_of(sim *s, const uint8_t *elem, uint32_t len, bool is_desc)
{
	uint8_t *n = arena_alloc(s->ed->a, len + 3);
	if (!n)
		return code_fail(s->ed, TC_ENOMEM, s->at, "no memory");
	uint32_t k = 0;
	n[k++] = '[';
	if (!is_desc)
		n[k++] = 'L';
	memcpy(n + k, elem, len);
	k += len;
	if (!is_desc)
		n[k++] = ';';
	return object(s, n, k);
}

/* invokespecial <init> on an uninitialized value: every copy of it becomes the class. */
static int initialize(sim *s, smt_vtype recv)
{
	smt_vtype to = {.tag = VT_OBJECT};
	if (recv.tag == VT_UNINIT_THIS) {
		to.name = cf_class_name(s->ed->cls, &to.name_len);
	} else if (recv.tag == VT_UNINIT) {
		uint32_t k = code_index(s->ed, recv.off);
		if (k == NONE || s->ed->in[k].d.op != OP_NEW)
			return bad(s, "Uninitialized type does not name a new");
		to.name = cp_class_name(&s->ed->cls->cp, s->ed->in[k].d.index, &to.name_len);
	} else {
		return TC_OK;
	}
	for (uint32_t k = 0; k < s->nl; k++)
		if (smt_vtype_eq(&s->loc[k], &recv))
			s->loc[k] = to;
	for (uint32_t k = 0; k < s->sp; k++)
		if (smt_vtype_eq(&s->stk[k], &recv))
			s->stk[k] = to;
	return TC_OK;
}

static int invoke(sim *s, const cf_insn *in)
{
	const cp_pool *cp = &s->ed->cls->cp;
	cp_ref ref;
	cf_desc_method md;
	if (!(in->op == OP_INVOKEDYNAMIC ? cp_dynamic_ref(cp, in->index, &ref)
	                                 : cp_member_ref(cp, in->index, &ref)) ||
	    !cf_desc_parse_method(ref.desc, ref.desc_len, &md))
		return bad(s, "bad method reference");
	if (pop(s, md.arg_words) != TC_OK)
		return s->ed->err->code;
	if (in->op != OP_INVOKESTATIC && in->op != OP_INVOKEDYNAMIC) {
		if (s->sp < 1)
			return bad(s, "no receiver");
		smt_vtype recv = s->stk[--s->sp];
		if (in->op == OP_INVOKESPECIAL && ref.name_len == 6 && !memcmp(ref.name, "<init>", 6) &&
		    initialize(s, recv) != TC_OK)
			return s->ed->err->code;
	}
	return push_desc(s, ref.desc + md.ret_pos, ref.desc_len - md.ret_pos);
}

static int ldc(sim *s, const cf_insn *in)
{
	const cp_pool *cp = &s->ed->cls->cp;
	cp_ref ref;
	switch (cp_tag(cp, in->index)) {
	case CP_INTEGER: return push_tag(s, VT_INT);
	case CP_FLOAT: return push_tag(s, VT_FLOAT);
	case CP_LONG: return push_tag(s, VT_LONG);
	case CP_DOUBLE: return push_tag(s, VT_DOUBLE);
	case CP_STRING: return object_str(s, "java/lang/String");
	case CP_CLASS: return object_str(s, "java/lang/Class");
	case CP_METHODTYPE: return object_str(s, "java/lang/invoke/MethodType");
	case CP_METHODHANDLE: return object_str(s, "java/lang/invoke/MethodHandle");
	case CP_DYNAMIC:
		if (cp_dynamic_ref(cp, in->index, &ref))
			return push_desc(s, ref.desc, ref.desc_len);
		break;
	}
	return bad(s, "bad ldc constant");
}

static const uint8_t p_dup[] = {0, 0}, p_dup_x1[] = {0, 1, 0}, p_dup_x2[] = {0, 2, 1, 0},
                     p_dup2[] = {1, 0, 1, 0}, p_dup2_x1[] = {1, 0, 2, 1, 0},
                     p_dup2_x2[] = {1, 0, 3, 2, 1, 0}, p_swap[] = {0, 1};

/* dup*, swap on words; pattern lists popped words (0 = top) to push, bottom first. */
static int shuffle(sim *s, uint32_t npop, const uint8_t *pattern, uint32_t npush)
{
	if (npop > s->sp)
		return bad(s, "stack underflow");
	smt_vtype w[4];
	for (uint32_t k = 0; k < npop; k++)
		w[k] = s->stk[s->sp - 1 - k];
	s->sp -= npop;
	if (s->sp + npush > s->ns)
		return bad(s, "stack overflow");
	for (uint32_t k = 0; k < npush; k++)
		s->stk[s->sp++] = w[pattern[k]];
	return TC_OK;
}

static int step(sim *s, const cf_insn *in)
{
	const cp_pool *cp = &s->ed->cls->cp;
	uint8_t op = in->op;
	s->at = in->off;
	if (op >= OP_ICONST_M1 && op <= OP_SIPUSH)
		return push_tag(s, op <= OP_ICONST_5 || op >= OP_BIPUSH ? VT_INT
		                   : op <= OP_LCONST_1 ? VT_LONG : op <= OP_FCONST_2 ? VT_FLOAT : VT_DOUBLE);
	if (op >= OP_IADD && op <= OP_DCMPG && op != OP_IINC) {
		const cf_op_info *info = &cf_op_table[op];
		if (pop(s, (uint32_t)info->pop) != TC_OK)
			return s->ed->err->code;
		return push_tag(s, arith_result(op));
	}
	if (cf_op_has(op, OPF_LOAD)) {
		uint32_t idx = in->index;
		if (idx >= s->nl)
			return bad(s, "load past max_locals");
		uint8_t kind = (uint8_t)(op <= OP_ALOAD ? op - OP_ILOAD : (op - OP_ILOAD_0) / 4);
		if (kind == 4)
			return push(s, s->loc[idx]);
		static const uint8_t tags[] = {VT_INT, VT_LONG, VT_FLOAT, VT_DOUBLE};
		return push_tag(s, tags[kind]);
	}
	if (cf_op_has(op, OPF_STORE)) {
		uint8_t kind = (uint8_t)(op <= OP_ASTORE ? op - OP_ISTORE : (op - OP_ISTORE_0) / 4);
		static const uint8_t tags[] = {VT_INT, VT_LONG, VT_FLOAT, VT_DOUBLE};
		smt_vtype v = {.tag = kind < 4 ? tags[kind] : VT_TOP};
		if (kind == 4) {
			if (s->sp < 1)
				return bad(s, "stack underflow");
			v = s->stk[s->sp - 1];
		}
		if (pop(s, smt_wide(v.tag) ? 2 : 1) != TC_OK)
			return s->ed->err->code;
		return store(s, in->index, v);
	}
	if (op >= OP_IALOAD && op <= OP_SALOAD)
		return array_load(s, op);
	if ((op >= OP_IASTORE && op <= OP_SASTORE) || cf_op_has(op, OPF_COND) ||
	    op == OP_MONITORENTER || op == OP_MONITOREXIT || op == OP_POP || op == OP_POP2)
		return pop(s, (uint32_t)cf_op_table[op].pop);
	switch (op) {
	case OP_NOP:
	case OP_IINC:
	case OP_GOTO:
	case OP_GOTO_W:
		return TC_OK;
	case OP_ACONST_NULL:
		return push_tag(s, VT_NULL);
	case OP_LDC:
	case OP_LDC_W:
	case OP_LDC2_W:
		return ldc(s, in);
	case OP_DUP: return shuffle(s, 1, p_dup, 2);
	case OP_DUP_X1: return shuffle(s, 2, p_dup_x1, 3);
	case OP_DUP_X2: return shuffle(s, 3, p_dup_x2, 4);
	case OP_DUP2: return shuffle(s, 2, p_dup2, 4);
	case OP_DUP2_X1: return shuffle(s, 3, p_dup2_x1, 5);
	case OP_DUP2_X2: return shuffle(s, 4, p_dup2_x2, 6);
	case OP_SWAP: return shuffle(s, 2, p_swap, 2);
	case OP_TABLESWITCH:
	case OP_LOOKUPSWITCH:
		return pop(s, 1);
	case OP_GETSTATIC:
	case OP_GETFIELD:
	case OP_PUTSTATIC:
	case OP_PUTFIELD: {
		cp_ref ref;
		if (!cp_member_ref(cp, in->index, &ref))
			return bad(s, "bad field reference");
		int w = cf_desc_words(ref.desc[0]);
		if (op == OP_PUTSTATIC || op == OP_PUTFIELD)
			return pop(s, (uint32_t)w + (op == OP_PUTFIELD));
		if (op == OP_GETFIELD && pop(s, 1) != TC_OK)
			return s->ed->err->code;
		return push_desc(s, ref.desc, ref.desc_len);
	}
	case OP_INVOKEVIRTUAL:
	case OP_INVOKESPECIAL:
	case OP_INVOKESTATIC:
	case OP_INVOKEINTERFACE:
	case OP_INVOKEDYNAMIC:
		return invoke(s, in);
	case OP_NEW: {
		smt_vtype v = {.tag = VT_UNINIT, .off = in->off};
		return push(s, v);
	}
	case OP_NEWARRAY: {
		/* JVMS 6.5 newarray: T_BOOLEAN = 4 .. T_LONG = 11. */
		static const char elem[] = "ZCFDBSIJ";
		if (pop(s, 1) != TC_OK)
			return s->ed->err->code;
		return array_of(s, (const uint8_t *)&elem[in->imm - 4], 1, true);
	}
	case OP_ANEWARRAY: {
		uint32_t len;
		const uint8_t *c = cp_class_name(cp, in->index, &len);
		if (pop(s, 1) != TC_OK)
			return s->ed->err->code;
		return array_of(s, c, len, len && c[0] == '[');
	}
	case OP_ARRAYLENGTH:
	case OP_INSTANCEOF:
		if (pop(s, 1) != TC_OK)
			return s->ed->err->code;
		return push_tag(s, VT_INT);
	case OP_CHECKCAST:
	case OP_MULTIANEWARRAY: {
		uint32_t len;
		const uint8_t *c = cp_class_name(cp, in->index, &len);
		if (pop(s, op == OP_CHECKCAST ? 1 : (uint32_t)in->imm) != TC_OK)
			return s->ed->err->code;
		return object(s, c, len);
	}
	}
	/* jsr, ret, returns, athrow: nothing falls through them to a new frame. */
	return bad(s, cf_op_table[op].name);
}

static smt_vtype *compress(sim *s, const smt_vtype *v, uint32_t n, bool trim, uint16_t *count)
{
	smt_vtype *out = arena_array(s->ed->a, n ? n : 1, sizeof *out);
	if (!out)
		return NULL;
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i += smt_wide(v[i].tag) ? 2 : 1)
		out[k++] = v[i];
	if (trim)
		while (k > 0 && out[k - 1].tag == VT_TOP)
			k--;
	*count = (uint16_t)k;
	return out;
}

int code_sim_frame_after(code_editor *ed, uint32_t i, smt_frame *out, tc_error *err)
{
	ed->err = err;
	sim s = {.ed = ed, .nl = ed->code.max_locals, .ns = ed->code.max_stack};
	s.loc = arena_array(ed->a, s.nl ? s.nl : 1, sizeof *s.loc);
	s.stk = arena_array(ed->a, s.ns ? s.ns : 1, sizeof *s.stk);
	if (!s.loc || !s.stk)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory");
	const smt_vtype *locals = ed->init, *stack = NULL;
	uint32_t nlocals = ed->ninit, nstack = 0, from = 0;
	for (uint32_t k = 0; k < ed->nframes && ed->frames[k].off <= ed->in[i].d.off; k++) {
		locals = ed->frames[k].locals;
		nlocals = ed->frames[k].nlocals;
		stack = ed->frames[k].stack;
		nstack = ed->frames[k].nstack;
		from = code_index(ed, ed->frames[k].off);
	}
	uint32_t used;
	s.at = ed->in[from].d.off;
	if (!expand(locals, nlocals, s.loc, s.nl, &used))
		return bad(&s, "frame has more locals than max_locals");
	for (uint32_t k = used; k < s.nl; k++)
		s.loc[k] = TOP;
	if (!expand(stack, nstack, s.stk, s.ns, &s.sp))
		return bad(&s, "frame has a deeper stack than max_stack");
	for (uint32_t k = from; k <= i; k++) {
		if (k < i && cf_op_has(ed->in[k].d.op, OPF_NOFALL))
			return bad(&s, "unconditional jump without a following frame");
		if (step(&s, &ed->in[k].d) != TC_OK)
			return err->code;
	}
	memset(out, 0, sizeof *out);
	out->locals = compress(&s, s.loc, s.nl, true, &out->nlocals);
	out->stack = compress(&s, s.stk, s.sp, false, &out->nstack);
	if (!out->locals || !out->stack)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory");
	return TC_OK;
}

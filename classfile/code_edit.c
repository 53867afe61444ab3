/* Decoding a method body into instructions, checking it, editing, laying it out again
 * and writing the relocated Code attribute. See code.h for the model. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_internal.h"
#include "desc.h"

int code_fail(code_editor *ed, int code, uint32_t code_off, const char *fmt, ...)
{
	char msg[192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	uint32_t at = code_off == NONE ? TC_NO_OFFSET : ed->code.code_off + code_off;
	return tc_fail(ed->err, code, at, "Code", "%s", msg);
}

uint32_t code_index(const code_editor *ed, uint32_t off)
{
	return off < ed->code.len ? ed->at[off] : NONE;
}

uint32_t code_ninsns(const code_editor *ed)
{
	return ed->n;
}

const cf_insn *code_insn(const code_editor *ed, uint32_t i)
{
	return i < ed->n ? &ed->in[i].d : NULL;
}

uint32_t code_at(const code_editor *ed, uint32_t off)
{
	return code_index(ed, off);
}

const cf_code *code_body(const code_editor *ed)
{
	return &ed->code;
}

void code_force_long_branches(code_editor *ed, int on)
{
	ed->force_long = on != 0;
}

/* JVMS 4.9.1 / 6.5: the constant-pool entry an instruction names must have the kind
 * that instruction expects. */
static int check_cp(code_editor *ed, const cf_insn *in)
{
	cp_pool *cp = &ed->cls->cp;
	uint8_t t = cp_tag(cp, in->index);
	bool ok;
	cp_ref ref;
	switch (in->op) {
	case OP_LDC:
	case OP_LDC_W:
		ok = t == CP_INTEGER || t == CP_FLOAT || t == CP_STRING || t == CP_CLASS ||
		     t == CP_METHODTYPE || t == CP_METHODHANDLE ||
		     (t == CP_DYNAMIC && cp_dynamic_ref(cp, in->index, &ref) && ref.desc_len &&
		      ref.desc[0] != 'J' && ref.desc[0] != 'D' && cf_desc_field_valid(ref.desc, ref.desc_len));
		break;
	case OP_LDC2_W:
		ok = t == CP_LONG || t == CP_DOUBLE ||
		     (t == CP_DYNAMIC && cp_dynamic_ref(cp, in->index, &ref) && ref.desc_len == 1 &&
		      (ref.desc[0] == 'J' || ref.desc[0] == 'D'));
		break;
	case OP_GETSTATIC: case OP_PUTSTATIC: case OP_GETFIELD: case OP_PUTFIELD: {
		uint32_t args, ret;
		ok = t == CP_FIELDREF && cp_ref_words(cp, in->index, &args, &ret);
		break;
	}
	case OP_INVOKEVIRTUAL: case OP_INVOKESPECIAL: case OP_INVOKESTATIC: case OP_INVOKEINTERFACE:
	case OP_INVOKEDYNAMIC: {
		uint8_t want = in->op == OP_INVOKEVIRTUAL ? CP_METHODREF
		               : in->op == OP_INVOKEINTERFACE ? CP_IMETHODREF
		               : in->op == OP_INVOKEDYNAMIC ? CP_INVOKEDYNAMIC : 0;
		ok = want ? t == want : (t == CP_METHODREF || t == CP_IMETHODREF);
		uint32_t args, ret;
		if (ok)
			ok = cp_ref_words(cp, in->index, &args, &ret);
		break;
	}
	default: /* new, anewarray, checkcast, instanceof, multianewarray */
		ok = t == CP_CLASS;
		break;
	}
	if (!ok)
		return code_fail(ed, TC_EFORMAT, in->off, "%s at %u names #%u, a %s, or a bad descriptor",
		                 cf_op_table[in->op].name, in->off, in->index, cp_tag_name(t));
	return TC_OK;
}

static int decode_all(code_editor *ed)
{
	const cf_code *c = &ed->code;
	/* At most one instruction per byte: allocate for that and touch only what is used. */
	ed->in = arena_array(ed->a, c->len, sizeof(code_node));
	ed->at = arena_array(ed->a, c->len, sizeof(uint32_t));
	if (!ed->in || !ed->at)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for %u bytes of code", c->len);
	uint32_t n = 0;
	for (uint32_t off = 0; off < c->len; n++) {
		code_node *e = &ed->in[n];
		memset(e, 0, sizeof *e);
		if (cf_insn_decode(c->code, c->len, off, c->code_off, &e->d, ed->err) != TC_OK)
			return ed->err->code;
		e->tgt = NONE;
		ed->at[off] = n;
		for (uint32_t k = 1; k < e->d.len; k++)
			ed->at[off + k] = NONE;
		off += e->d.len;
		if (cf_op_has(e->d.op, OPF_CP) && check_cp(ed, &e->d) != TC_OK)
			return ed->err->code;
	}
	ed->n = n;
	return TC_OK;
}

static int resolve_targets(code_editor *ed)
{
	for (uint32_t i = 0; i < ed->n; i++) {
		code_node *e = &ed->in[i];
		uint32_t nt = cf_insn_ntargets(&e->d);
		if (!nt)
			continue;
		uint32_t *dst = &e->tgt;
		if (cf_op_has(e->d.op, OPF_SWITCH)) {
			if (!(e->stgt = arena_array(ed->a, nt, sizeof(uint32_t))))
				return code_fail(ed, TC_ENOMEM, e->d.off, "no memory for switch targets");
			dst = e->stgt;
		}
		for (uint32_t k = 0; k < nt; k++) {
			int64_t t = cf_insn_target(&e->d, k);
			uint32_t idx = t >= 0 && t < ed->code.len ? code_index(ed, (uint32_t)t) : NONE;
			if (idx == NONE)
				return code_fail(ed, TC_EBRANCH, e->d.off,
				                 "%s at %u jumps to %lld, not the start of an instruction",
				                 cf_op_table[e->d.op].name, e->d.off, (long long)t);
			dst[k] = idx;
		}
	}
	return TC_OK;
}

/* An end offset: an instruction start, or the code length (index n). */
static uint32_t end_index(const code_editor *ed, uint32_t off)
{
	return off == ed->code.len ? ed->n : code_index(ed, off);
}

static int map_exceptions(code_editor *ed)
{
	uint32_t k = ed->code.nexc ? ed->code.nexc : 1;
	ed->exc_start = arena_array(ed->a, k, sizeof(uint32_t));
	ed->exc_end = arena_array(ed->a, k, sizeof(uint32_t));
	ed->exc_handler = arena_array(ed->a, k, sizeof(uint32_t));
	if (!ed->exc_start || !ed->exc_end || !ed->exc_handler)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for the exception table");
	for (uint32_t i = 0; i < ed->code.nexc; i++) {
		const cf_exc *e = &ed->code.exc[i];
		ed->exc_start[i] = code_index(ed, e->start);
		ed->exc_end[i] = end_index(ed, e->end);
		ed->exc_handler[i] = code_index(ed, e->handler);
		/* JVMS 4.7.3: the entry follows code[] and exception_table_length, 8 bytes each. */
		uint32_t at = ed->code.code_off + ed->code.len + 2 + 8 * i;
		if (ed->exc_start[i] == NONE || ed->exc_end[i] == NONE || ed->exc_handler[i] == NONE)
			return tc_fail(ed->err, TC_EBRANCH, at, "exception table",
			               "entry %u (%u..%u -> %u) is not on instruction boundaries",
			               i, e->start, e->end, e->handler);
	}
	return TC_OK;
}

static int attr_kind(const cf_class *cls, const cf_attr *at)
{
	static const struct { const char *name; int kind; } kinds[] = {
		{"StackMapTable", ATTR_SMT},
		{"LineNumberTable", ATTR_LNT},
		{"LocalVariableTable", ATTR_LVT},
		{"LocalVariableTypeTable", ATTR_LVTT},
		{"RuntimeVisibleTypeAnnotations", ATTR_RVTA},
		{"RuntimeInvisibleTypeAnnotations", ATTR_RITA},
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (cp_utf8_eq(&cls->cp, at->name, kinds[i].name))
			return kinds[i].kind;
	return ATTR_OTHER;
}

static int open_frames(code_editor *ed)
{
	if (smt_initial(ed->cls, ed->m, ed->a, &ed->init, &ed->ninit, ed->err) != TC_OK)
		return ed->err->code;
	if (!ed->smt_attr)
		return TC_OK;
	if (smt_decode(ed->cls, ed->smt_attr, ed->code.len, ed->init, ed->ninit, ed->a, &ed->frames,
	               &ed->nframes, ed->err) != TC_OK)
		return ed->err->code;
	char part[40];
	for (uint32_t i = 0; i < ed->nframes; i++) {
		const smt_frame *f = &ed->frames[i];
		if (code_index(ed, f->off) == NONE) {
			snprintf(part, sizeof part, "StackMapTable frame %u", i);
			return tc_fail(ed->err, TC_EBRANCH, f->at, part,
			               "applies at %u, not the start of an instruction", f->off);
		}
		for (uint32_t k = 0; k < f->nlocals + f->nstack; k++) {
			const smt_vtype *v = k < f->nlocals ? &f->locals[k] : &f->stack[k - f->nlocals];
			if (v->tag == VT_UNINIT && code_index(ed, v->off) == NONE) {
				snprintf(part, sizeof part, "StackMapTable frame %u", i);
				return tc_fail(ed->err, TC_EBRANCH, f->at, part,
				               "Uninitialized(%u) is not an instruction", v->off);
			}
		}
	}
	return TC_OK;
}

int code_open(code_editor **out, cf_class *cls, cf_member *m, arena *a, tc_error *err)
{
	*out = NULL;
	cf_attr *ca = cf_method_code(cls, m);
	if (!ca)
		return tc_fail(err, TC_EARG, m->off, "method", "has no Code attribute");
	code_editor *ed = arena_zalloc(a, sizeof *ed);
	if (!ed)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "Code", "no memory for the editor");
	ed->err = err;
	ed->cls = cls;
	ed->m = m;
	ed->a = a;
	ed->code_attr = ca;
	ed->blocks_tail = &ed->blocks;
	if (cf_code_parse(cls, ca, &ed->code, err) != TC_OK || decode_all(ed) != TC_OK ||
	    resolve_targets(ed) != TC_OK || map_exceptions(ed) != TC_OK)
		return err->code;
	bool has_targets = ed->code.nexc > 0;
	for (uint32_t i = 0; i < ed->n && !has_targets; i++)
		has_targets = cf_op_has(ed->in[i].d.op, OPF_BRANCH);
	for (uint32_t i = 0; i < ed->code.nattrs; i++) {
		cf_attr *at = &ed->code.attrs[i];
		int kind = attr_kind(cls, at);
		if (kind == ATTR_SMT) {
			if (ed->smt_attr)
				return tc_fail(err, TC_EFORMAT, at->off, "StackMapTable",
				               "a second StackMapTable in one Code attribute");
			ed->smt_attr = at;
		} else if (kind != ATTR_OTHER && code_attrs_check(ed, at, kind, err) != TC_OK) {
			return err->code;
		}
	}
	if (open_frames(ed) != TC_OK)
		return err->code;
	/* From version 50 the type-checking verifier wants frames at every target. A
	 * version-50 method with targets but no table is verified by the old inferencing
	 * verifier instead (failover); adding a partial table would not change that. */
	ed->frames_needed = cls->major >= 50 && (ed->smt_attr || !has_targets);
	*out = ed;
	return TC_OK;
}

/* --- inserted code ---------------------------------------------------------------- */

/* Decodes and checks inserted bytes; returns the highest stack depth they reach, with
 * `depth` words on the stack at their start, or -1 with the error set. */
static int check_seq(code_editor *ed, const uint8_t *bytes, uint32_t len, int depth, bool handler)
{
	if (!len)
		return code_fail(ed, TC_EARG, NONE, "empty code sequence"), -1;
	if (ed->seen_bytes && ed->seen_len == len && ed->seen_handler == handler &&
	    memcmp(ed->seen_bytes, bytes, len) == 0)
		return ed->seen_peak;
	tc_error scratch;
	tc_error_clear(&scratch);
	int peak = depth;
	cf_insn in;
	for (uint32_t off = 0; off < len; off += in.len) {
		if (cf_insn_decode(bytes, len, off, 0, &in, &scratch) != TC_OK)
			return code_fail(ed, TC_EARG, NONE, "inserted code: %s", scratch.message), -1;
		bool last = off + in.len == len;
		unsigned banned = OPF_BRANCH | OPF_STORE | OPF_JSR | OPF_RET;
		if (!handler || !last)
			banned |= OPF_NOFALL;
		if (cf_op_has(in.op, banned) || in.op == OP_IINC)
			return code_fail(ed, TC_EARG, NONE, "inserted code may not contain %s",
			                 cf_op_table[in.op].name), -1;
		if (handler && last && !cf_op_has(in.op, OPF_NOFALL))
			return code_fail(ed, TC_EARG, NONE, "a handler block must end in athrow or a return"), -1;
		if (cf_op_has(in.op, OPF_CP)) {
			/* check_cp reports a format error at an offset of the method's code;
			 * bad inserted code is the caller's error and has no such offset. */
			tc_error *saved = ed->err;
			ed->err = &scratch;
			int rc = check_cp(ed, &in);
			ed->err = saved;
			if (rc != TC_OK)
				return code_fail(ed, TC_EARG, NONE, "inserted code: %s", scratch.message), -1;
		}
		int pop, push;
		if (!cf_insn_stack_effect(&ed->cls->cp, &in, &pop, &push))
			return code_fail(ed, TC_EARG, NONE, "inserted %s: operand does not resolve",
			                 cf_op_table[in.op].name), -1;
		if (pop > depth)
			return code_fail(ed, TC_EARG, NONE, "inserted %s pops %d words, %d available",
			                 cf_op_table[in.op].name, pop, depth), -1;
		depth += push - pop;
		if (cf_op_has(in.op, OPF_NOFALL))
			depth = 0;
		if (depth > peak)
			peak = depth;
	}
	if (!handler && depth != 0)
		return code_fail(ed, TC_EARG, NONE, "inserted code leaves %d words on the stack", depth), -1;
	uint8_t *copy = arena_dup(ed->a, bytes, len);
	if (copy) {
		ed->seen_bytes = copy;
		ed->seen_len = len;
		ed->seen_peak = peak;
		ed->seen_handler = handler;
	}
	return peak;
}

int code_insert(code_editor *ed, uint32_t i, enum code_place where, const uint8_t *bytes,
                uint32_t len, tc_error *err)
{
	ed->err = err;
	if (i >= ed->n)
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, "Code", "no instruction %u (%u in all)", i, ed->n);
	if (where == CODE_FALLTHROUGH && i > 0 && cf_op_has(ed->in[i - 1].d.op, OPF_NOFALL | OPF_JSR))
		return code_fail(ed, TC_EARG, ed->in[i].d.off,
		                 "nothing falls through into %u after %s", ed->in[i].d.off,
		                 cf_op_table[ed->in[i - 1].d.op].name);
	int peak = check_seq(ed, bytes, len, 0, false);
	if (peak < 0)
		return err->code;
	code_seq *s = arena_zalloc(ed->a, sizeof *s);
	uint8_t *copy = arena_dup(ed->a, bytes, len);
	if (!s || !copy)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "Code", "no memory for inserted code");
	s->bytes = copy;
	s->len = len;
	s->peak = peak;
	code_node *e = &ed->in[i];
	code_seq **tail = where == CODE_FALLTHROUGH ? &e->fall : &e->at;
	while (*tail)
		tail = &(*tail)->next;
	*tail = s;
	if (where == CODE_FALLTHROUGH)
		e->fall_len += len;
	else
		e->at_len += len;
	ed->edited = true;
	return TC_OK;
}

int code_add_handler(code_editor *ed, uint32_t from, uint32_t to, uint16_t catch_type,
                     const uint8_t *bytes, uint32_t len, tc_error *err)
{
	ed->err = err;
	if (from >= to || to > ed->n)
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, "Code", "handler range %u..%u is not within 0..%u",
		               from, to, ed->n);
	if (catch_type && cp_tag(&ed->cls->cp, catch_type) != CP_CLASS)
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, "Code", "catch type #%u is not a Class", catch_type);
	if ((uint32_t)ed->code.nexc + ed->nblocks >= UINT16_MAX)
		return tc_fail(err, TC_ELIMIT, TC_NO_OFFSET, "Code", "exception table is full");
	int peak = check_seq(ed, bytes, len, 1, true);
	if (peak < 0)
		return err->code;
	code_block *b = arena_zalloc(ed->a, sizeof *b);
	uint8_t *copy = arena_dup(ed->a, bytes, len);
	if (!b || !copy)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "Code", "no memory for a handler");
	b->bytes = copy;
	b->len = len;
	b->peak = peak;
	b->from = from;
	b->to = to;
	b->type = catch_type;
	*ed->blocks_tail = b;
	ed->blocks_tail = &b->next;
	ed->nblocks++;
	ed->edited = true;
	return TC_OK;
}

/* --- layout ------------------------------------------------------------------------ */

static uint32_t insn_size(const code_node *e, uint32_t off)
{
	const cf_op_info *info = &cf_op_table[e->d.op];
	switch (info->kind) {
	case OPK_TSWITCH:
		return 1 + (3 - (off & 3)) + 12 + 4 * e->d.npairs;
	case OPK_LSWITCH:
		return 1 + (3 - (off & 3)) + 8 + 8 * e->d.npairs;
	case OPK_BR2:
		return e->form == FORM_SAME ? 3 : e->form == FORM_WIDE ? 5 : 8;
	default:
		return e->d.len;
	}
}

static bool fits_s2(int64_t v)
{
	return v >= INT16_MIN && v <= INT16_MAX;
}

/* Assigns offsets until no branch needs a longer form. Forms only grow, so this ends:
 * at most one pass per branch plus one. */
static int layout(code_editor *ed)
{
	for (uint32_t i = 0; i < ed->n; i++) {
		code_node *e = &ed->in[i];
		e->form = FORM_SAME;
		if (ed->force_long && cf_op_table[e->d.op].kind == OPK_BR2)
			e->form = cf_op_has(e->d.op, OPF_COND) ? FORM_LONGCOND : FORM_WIDE;
	}
	for (;;) {
		uint64_t off = 0;
		for (uint32_t i = 0; i < ed->n; i++) {
			code_node *e = &ed->in[i];
			e->first = (uint32_t)off;
			off += e->fall_len;
			e->label = (uint32_t)off;
			off += e->at_len;
			e->off = (uint32_t)off;
			e->len = insn_size(e, e->off);
			off += e->len;
			if (off > UINT32_MAX / 2)
				return code_fail(ed, TC_ELIMIT, NONE, "code grows past any limit");
		}
		ed->end = (uint32_t)off;
		for (code_block *b = ed->blocks; b; b = b->next) {
			b->off = (uint32_t)off;
			off += b->len;
		}
		ed->new_len = (uint32_t)(off > UINT32_MAX ? UINT32_MAX : off);
		bool changed = false;
		for (uint32_t i = 0; i < ed->n; i++) {
			code_node *e = &ed->in[i];
			if (cf_op_table[e->d.op].kind != OPK_BR2 || e->form != FORM_SAME)
				continue;
			if (!fits_s2((int64_t)ed->in[e->tgt].label - e->off)) {
				e->form = cf_op_has(e->d.op, OPF_COND) ? FORM_LONGCOND : FORM_WIDE;
				changed = true;
			}
		}
		if (!changed)
			break;
	}
	if (ed->new_len > 65535)
		return code_fail(ed, TC_ELIMIT, NONE,
		                 "would grow to %u bytes, past the 65535-byte limit of a method", ed->new_len);
	/* A conditional branch cannot end valid code: it would fall off the end. */
	const code_node *last = &ed->in[ed->n - 1];
	if (last->form == FORM_LONGCOND)
		return code_fail(ed, TC_EFORMAT, last->d.off,
		                 "conditional branch at %u is the last instruction", last->d.off);
	return TC_OK;
}

/* JVMS 6.5: each if<cond> has its negation at the neighbouring opcode. */
static uint8_t invert(uint8_t op)
{
	if (op >= OP_IFEQ && op <= OP_IF_ACMPNE)
		return (uint8_t)(OP_IFEQ + ((op - OP_IFEQ) ^ 1));
	return op == OP_IFNULL ? OP_IFNONNULL : OP_IFNULL;
}

static void emit_seqs(uint8_t *p, const code_seq *s)
{
	for (; s; s = s->next) {
		memcpy(p, s->bytes, s->len);
		p += s->len;
	}
}

static void emit_insn(const code_editor *ed, const code_node *e, uint8_t *p)
{
	const uint8_t *orig = ed->code.code + e->d.off;
	const cf_op_info *info = &cf_op_table[e->d.op];
	int32_t rel = e->tgt != NONE ? (int32_t)ed->in[e->tgt].label - (int32_t)e->off : 0;
	switch (info->kind) {
	case OPK_BR2:
		if (e->form == FORM_SAME) {
			p[0] = e->d.op;
			put_u2(p + 1, (uint16_t)(int16_t)rel);
		} else if (e->form == FORM_WIDE) {
			p[0] = e->d.op == OP_GOTO ? OP_GOTO_W : OP_JSR_W;
			put_u4(p + 1, (uint32_t)rel);
		} else {
			p[0] = invert(e->d.op);
			put_u2(p + 1, 8);
			p[3] = OP_GOTO_W;
			put_u4(p + 4, (uint32_t)(rel - 3));
		}
		return;
	case OPK_BR4:
		p[0] = e->d.op;
		put_u4(p + 1, (uint32_t)rel);
		return;
	case OPK_TSWITCH:
	case OPK_LSWITCH: {
		uint32_t pad = 3 - (e->off & 3);
		p[0] = e->d.op;
		memset(p + 1, 0, pad);
		uint8_t *q = p + 1 + pad;
		put_u4(q, (uint32_t)((int32_t)ed->in[e->stgt[0]].label - (int32_t)e->off));
		if (info->kind == OPK_TSWITCH) {
			put_u4(q + 4, (uint32_t)e->d.low);
			put_u4(q + 8, (uint32_t)e->d.high);
			q += 12;
			for (uint32_t k = 0; k < e->d.npairs; k++, q += 4)
				put_u4(q, (uint32_t)((int32_t)ed->in[e->stgt[k + 1]].label - (int32_t)e->off));
		} else {
			put_u4(q + 4, e->d.npairs);
			q += 8;
			for (uint32_t k = 0; k < e->d.npairs; k++, q += 8) {
				put_u4(q, (uint32_t)cf_insn_switch_key(&e->d, k));
				put_u4(q + 4,
				       (uint32_t)((int32_t)ed->in[e->stgt[k + 1]].label - (int32_t)e->off));
			}
		}
		return;
	}
	default:
		memcpy(p, orig, e->d.len);
		return;
	}
}

static uint8_t *emit_code(code_editor *ed)
{
	uint8_t *code = arena_alloc(ed->a, ed->new_len);
	if (!code)
		return NULL;
	for (uint32_t i = 0; i < ed->n; i++) {
		const code_node *e = &ed->in[i];
		emit_seqs(code + e->first, e->fall);
		emit_seqs(code + e->label, e->at);
		emit_insn(ed, e, code + e->off);
	}
	for (const code_block *b = ed->blocks; b; b = b->next)
		memcpy(code + b->off, b->bytes, b->len);
	return code;
}

/* --- offset maps --------------------------------------------------------------------- */

uint32_t code_new_first(const code_editor *ed, uint32_t old_off)
{
	if (old_off >= ed->code.len)
		return ed->end;
	return ed->in[code_index(ed, old_off)].first;
}

uint32_t code_new_label(const code_editor *ed, uint32_t old_off)
{
	if (old_off >= ed->code.len)
		return ed->end;
	return ed->in[code_index(ed, old_off)].label;
}

uint32_t code_new_insn(const code_editor *ed, uint32_t old_off)
{
	if (old_off >= ed->code.len)
		return ed->end;
	return ed->in[code_index(ed, old_off)].off;
}

static uint32_t idx_first(const code_editor *ed, uint32_t i)
{
	return i >= ed->n ? ed->end : ed->in[i].first;
}

/* --- stack map --------------------------------------------------------------------- */

static int remap_vtypes(code_editor *ed, smt_vtype **list, uint16_t n)
{
	bool any = false;
	for (uint32_t k = 0; k < n && !any; k++)
		any = (*list)[k].tag == VT_UNINIT;
	if (!any)
		return TC_OK;
	smt_vtype *copy = arena_dup(ed->a, *list, n * sizeof **list);
	if (!copy)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for frames");
	for (uint32_t k = 0; k < n; k++)
		if (copy[k].tag == VT_UNINIT)
			copy[k].off = code_new_insn(ed, copy[k].off);
	*list = copy;
	return TC_OK;
}

static int cmp_frames(const void *a, const void *b)
{
	const smt_frame *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The relocated frames plus the frames edits need, sorted by new offset. */
static int build_frames(code_editor *ed, smt_frame **out, uint32_t *nout)
{
	uint32_t extra = ed->nblocks;
	for (uint32_t i = 0; i < ed->n; i++)
		extra += ed->in[i].form == FORM_LONGCOND;
	smt_frame *f = arena_array(ed->a, ed->nframes + extra + 1, sizeof *f);
	if (!f)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for frames");
	uint32_t n = 0;
	for (uint32_t i = 0; i < ed->nframes; i++) {
		f[n] = ed->frames[i];
		f[n].off = code_new_label(ed, ed->frames[i].off);
		n++;
	}
	if (ed->cls->major >= 50) {
		for (uint32_t i = 0; i < ed->n; i++) {
			if (ed->in[i].form != FORM_LONGCOND)
				continue;
			/* The inverted branch lands on what falls through: it needs a frame,
			 * unless the next instruction already has one at that very offset. */
			uint32_t at = ed->in[i + 1].first;
			bool have = false;
			for (uint32_t k = 0; k < ed->nframes && !have; k++)
				have = f[k].off == at;
			if (have)
				continue;
			if (code_sim_frame_after(ed, i, &f[n], ed->err) != TC_OK)
				return ed->err->code;
			f[n].off = at;
			f[n].type = SMT_NEW;
			n++;
		}
		for (const code_block *b = ed->blocks; b; b = b->next) {
			smt_vtype *st = arena_zalloc(ed->a, sizeof *st);
			if (!st)
				return code_fail(ed, TC_ENOMEM, NONE, "no memory for frames");
			st->tag = VT_OBJECT;
			if (b->type) {
				st->cpidx = b->type;
				st->name = cp_class_name(&ed->cls->cp, b->type, &st->name_len);
			} else {
				st->name = (const uint8_t *)"java/lang/Throwable";
				st->name_len = 19;
			}
			f[n] = (smt_frame){.off = b->off, .type = SMT_NEW, .nstack = 1, .stack = st};
			n++;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		if (remap_vtypes(ed, &f[i].locals, f[i].nlocals) != TC_OK ||
		    remap_vtypes(ed, &f[i].stack, f[i].nstack) != TC_OK)
			return ed->err->code;
	/* Stable order matters only for equal offsets, which cannot occur. */
	qsort(f, n, sizeof *f, cmp_frames);
	*out = f;
	*nout = n;
	return TC_OK;
}

/* --- max_stack --------------------------------------------------------------------- */

static int new_max_stack(code_editor *ed, uint32_t *out)
{
	uint32_t max = ed->code.max_stack;
	bool inserted = false;
	for (uint32_t i = 0; i < ed->n && !inserted; i++)
		inserted = ed->in[i].fall || ed->in[i].at;
	bool exact = inserted && code_flow_depths(ed) == TC_OK;
	for (uint32_t i = 0; i < ed->n; i++) {
		const code_node *e = &ed->in[i];
		if (!e->fall && !e->at)
			continue;
		/* Inserted code runs with the stack as instruction i finds it; where that is
		 * unknown (dead code, failed analysis) assume the old maximum. */
		int d = exact ? ed->depth[i] : -1;
		uint32_t base = d >= 0 ? (uint32_t)d : ed->code.max_stack;
		for (int pass = 0; pass < 2; pass++)
			for (const code_seq *s = pass ? e->at : e->fall; s; s = s->next)
				if (base + (uint32_t)s->peak > max)
					max = base + (uint32_t)s->peak;
	}
	for (const code_block *b = ed->blocks; b; b = b->next)
		if ((uint32_t)b->peak > max)
			max = (uint32_t)b->peak;
	uint32_t limit = ed->code.old_format ? 255 : 65535;
	if (max > limit)
		return code_fail(ed, TC_ELIMIT, NONE, "max_stack would be %u, past %u", max, limit);
	*out = max;
	return TC_OK;
}

/* --- commit ------------------------------------------------------------------------ */

int code_commit(code_editor *ed, tc_error *err)
{
	ed->err = err;
	cf_class *cls = ed->cls;
	if (layout(ed) != TC_OK)
		return err->code;
	cf_code nc = ed->code;
	uint32_t max_stack = 0;
	if (new_max_stack(ed, &max_stack) != TC_OK)
		return err->code;
	nc.max_stack = (uint16_t)max_stack;
	nc.len = ed->new_len;
	if (!(nc.code = emit_code(ed)))
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for %u bytes of code", ed->new_len);

	nc.nexc = (uint16_t)(ed->code.nexc + ed->nblocks);
	nc.exc = arena_array(ed->a, nc.nexc ? nc.nexc : 1, sizeof(cf_exc));
	if (!nc.exc)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for the exception table");
	for (uint32_t i = 0; i < ed->code.nexc; i++) {
		nc.exc[i].start = (uint16_t)ed->in[ed->exc_start[i]].label;
		nc.exc[i].end = (uint16_t)idx_first(ed, ed->exc_end[i]);
		nc.exc[i].handler = (uint16_t)ed->in[ed->exc_handler[i]].label;
		nc.exc[i].type = ed->code.exc[i].type;
	}
	uint32_t k = ed->code.nexc;
	for (const code_block *b = ed->blocks; b; b = b->next, k++) {
		nc.exc[k].start = (uint16_t)ed->in[b->from].label;
		nc.exc[k].end = (uint16_t)idx_first(ed, b->to);
		nc.exc[k].handler = (uint16_t)b->off;
		nc.exc[k].type = b->type;
	}

	/* Nested attributes: relocated copies, a StackMapTable made if edits need one. */
	bool want_smt = !ed->smt_attr && ed->frames_needed && ed->nblocks > 0;
	nc.attrs = arena_array(ed->a, ed->code.nattrs + 1u, sizeof(cf_attr));
	if (!nc.attrs)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for attributes");
	nc.nattrs = ed->code.nattrs;
	int rc = TC_OK;
	for (uint32_t i = 0; i < ed->code.nattrs + (want_smt ? 1u : 0u) && rc == TC_OK; i++) {
		cf_attr *src = i < ed->code.nattrs ? &ed->code.attrs[i] : NULL;
		int kind = src ? attr_kind(cls, src) : ATTR_SMT;
		if (kind != ATTR_SMT) {
			nc.attrs[i] = *src;
			if (kind != ATTR_OTHER)
				rc = code_attrs_relocate(ed, src, kind, &nc.attrs[i], err);
			continue;
		}
		smt_frame *frames = NULL;
		uint32_t nframes = 0;
		if ((rc = build_frames(ed, &frames, &nframes)) != TC_OK)
			break;
		/* Bound: a full_frame per entry, three bytes per verification type. */
		size_t bound = 2;
		for (uint32_t f = 0; f < nframes; f++)
			bound += 7 + 3 * ((size_t)frames[f].nlocals + frames[f].nstack);
		uint8_t *body = arena_alloc(cls->arena, bound);
		if (!body) {
			rc = code_fail(ed, TC_ENOMEM, NONE, "no memory for the StackMapTable");
			break;
		}
		tc_buf smt_buf;
		buf_fixed(&smt_buf, body, bound);
		if ((rc = smt_encode(&cls->cp, frames, nframes, ed->init, ed->ninit, &smt_buf, err)) != TC_OK)
			break;
		if (smt_buf.err) {
			rc = code_fail(ed, TC_ELIMIT, NONE, "StackMapTable larger than its bound");
			break;
		}
		if (src) {
			nc.attrs[i] = *src;
		} else {
			uint16_t name = cp_add_utf8(&cls->cp, "StackMapTable", 13, err);
			if (!name) {
				rc = err->code;
				break;
			}
			nc.attrs[i] = (cf_attr){.name = name};
			nc.nattrs++;
		}
		nc.attrs[i].data = body;
		nc.attrs[i].len = (uint32_t)smt_buf.len;
		nc.attrs[i].off = TC_NO_OFFSET;
	}
	if (rc != TC_OK)
		return rc;

	size_t body_len = cf_code_size(&nc);
	if (body_len > UINT32_MAX)
		return code_fail(ed, TC_ELIMIT, NONE, "Code attribute too large");
	uint8_t *body = arena_alloc(cls->arena, body_len);
	if (!body)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for the Code attribute");
	tc_buf out;
	buf_fixed(&out, body, body_len);
	cf_code_write(&nc, &out);
	if (out.err || out.len != body_len)
		return code_fail(ed, TC_ENOMEM, NONE, "Code attribute size mismatch");
	ed->code_attr->data = body;
	ed->code_attr->len = (uint32_t)body_len;
	ed->code_attr->off = TC_NO_OFFSET;
	return TC_OK;
}

/* Data-flow analyses over the original instructions: the stack depth before each one
 * (for max_stack after insertions) and the instruction that initializes `this` in a
 * constructor. Both work without stack-map frames, so they serve every class version,
 * jsr/ret included. */
#include <string.h>

#include "code_internal.h"

/* Successors of instruction i, as (index, depth delta relative to "after i") pairs.
 * jsr: the subroutine starts with the return address pushed; the instruction after the
 * jsr is reached when the subroutine returns, which leaves the stack as the jsr found
 * it (JVMS 4.10.2.5 for verifiable code). */
typedef void (*succ_fn)(code_editor *ed, uint32_t from, uint32_t to, int extra, void *ctx);

static bool for_successors(code_editor *ed, uint32_t i, succ_fn fn, void *ctx)
{
	const code_node *e = &ed->in[i];
	uint8_t op = e->d.op;
	if (cf_op_has(op, OPF_SWITCH)) {
		for (uint32_t k = 0; k <= e->d.npairs; k++)
			fn(ed, i, e->stgt[k], 0, ctx);
		return true;
	}
	if (cf_op_has(op, OPF_JSR)) {
		fn(ed, i, e->tgt, 0, ctx);
		if (i + 1 >= ed->n)
			return false;
		fn(ed, i, i + 1, -1, ctx);
		return true;
	}
	if (cf_op_has(op, OPF_BRANCH))
		fn(ed, i, e->tgt, 0, ctx);
	if (!cf_op_has(op, OPF_NOFALL)) {
		if (i + 1 >= ed->n)
			return false; /* falls off the end of the code */
		fn(ed, i, i + 1, 0, ctx);
	}
	return true;
}

/* --- stack depths --------------------------------------------------------------------
 * Sweeps the instructions in order, pushing each known depth to the successors; forward
 * branches are settled within a sweep, and another sweep runs only when a backward
 * branch reached an instruction the sweep had passed while its depth was unknown. */

static bool depth_set(code_editor *ed, uint32_t to, int d, uint32_t from, bool *again)
{
	if (to >= ed->n)
		return false; /* falls off the end of the code */
	if (ed->depth[to] < 0) {
		ed->depth[to] = d;
		if (to <= from)
			*again = true;
		return true;
	}
	return ed->depth[to] == d;
}

int code_flow_depths(code_editor *ed)
{
	if (ed->depth)
		return ed->depth_ok ? TC_OK : TC_EUNSUPPORTED;
	ed->depth = arena_array(ed->a, ed->n, sizeof(int));
	bool *done = arena_zalloc(ed->a, ed->n);
	if (!ed->depth || !done)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for stack depths");
	for (uint32_t i = 0; i < ed->n; i++)
		ed->depth[i] = -1;
	bool ok = true, again = false;
	ok = depth_set(ed, 0, 0, 0, &again);
	for (uint32_t i = 0; i < ed->code.nexc && ok; i++)
		ok = depth_set(ed, ed->exc_handler[i], 1, UINT32_MAX, &again);
	cp_pool *cp = &ed->cls->cp;
	for (bool sweep = true; sweep && ok;) {
		again = false;
		for (uint32_t i = 0; i < ed->n && ok; i++) {
			if (ed->depth[i] < 0 || done[i])
				continue;
			done[i] = true;
			const code_node *e = &ed->in[i];
			uint8_t op = e->d.op;
			int pop, push;
			if (!cf_insn_stack_effect(cp, &e->d, &pop, &push) || pop > ed->depth[i]) {
				ok = false;
				break;
			}
			int after = ed->depth[i] - pop + push;
			if (after > 65535) {
				ok = false;
				break;
			}
			unsigned flags = cf_op_table[op].flags;
			if (flags & OPF_SWITCH) {
				for (uint32_t k = 0; k <= e->d.npairs && ok; k++)
					ok = depth_set(ed, e->stgt[k], after, i, &again);
			} else if (flags & OPF_JSR) {
				/* The subroutine starts with its return address pushed; the jsr's
				 * successor is reached when it returns, with the stack as before
				 * (JVMS 4.10.2.5 for verifiable code). */
				ok = depth_set(ed, e->tgt, after, i, &again) &&
				     depth_set(ed, i + 1, after - 1, i, &again);
			} else {
				if (flags & OPF_BRANCH)
					ok = depth_set(ed, e->tgt, after, i, &again);
				if (ok && !(flags & OPF_NOFALL))
					ok = depth_set(ed, i + 1, after, i, &again);
			}
		}
		sweep = again;
	}
	ed->depth_ok = ok;
	return ok ? TC_OK : TC_EUNSUPPORTED;
}

int code_depth(code_editor *ed, uint32_t i)
{
	if (i >= ed->n || code_flow_depths(ed) != TC_OK)
		return -1;
	return ed->depth[i];
}

/* --- this initialization ---------------------------------------------------------------
 * Each local and stack word is OTHER, THIS (the uninitialized `this`) or MIXED (THIS
 * on some paths only). The lattice is tiny, so a work list reaches the fixed point
 * after a few visits per instruction. */

enum { V_OTHER = 0, V_THIS = 1, V_MIXED = 3 };

typedef struct init_ctx {
	uint32_t nl, ns;      /* locals, max stack */
	uint32_t w;           /* bytes per state: nl + ns + sp (one byte each, sp as u16) */
	uint8_t *states;      /* per instruction */
	bool *seen;
	uint8_t *cur;         /* state after the instruction being processed */
	uint32_t *work;
	bool *queued;
	uint32_t nwork;
	bool *is_init;        /* invokespecial <init> whose receiver is `this` */
	bool bad;
	bool *pre;            /* reached while `this` is still uninitialized */
} init_ctx;

static uint16_t get_sp(const init_ctx *c, const uint8_t *s)
{
	return (uint16_t)(s[c->nl + c->ns] | s[c->nl + c->ns + 1] << 8);
}

static void set_sp(const init_ctx *c, uint8_t *s, uint32_t sp)
{
	s[c->nl + c->ns] = (uint8_t)sp;
	s[c->nl + c->ns + 1] = (uint8_t)(sp >> 8);
}

static bool has_this(const init_ctx *c, const uint8_t *s)
{
	uint32_t n = c->nl + get_sp(c, s);
	for (uint32_t k = 0; k < c->nl; k++)
		if (s[k])
			return true;
	for (uint32_t k = c->nl; k < n; k++)
		if (s[k])
			return true;
	return false;
}

static void merge_into(code_editor *ed, init_ctx *c, uint32_t to, const uint8_t *s)
{
	(void)ed;
	uint8_t *d = c->states + (size_t)to * c->w;
	bool changed = false;
	if (!c->seen[to]) {
		memcpy(d, s, c->w);
		c->seen[to] = true;
		changed = true;
	} else {
		if (get_sp(c, d) != get_sp(c, s)) {
			c->bad = true;
			return;
		}
		for (uint32_t k = 0; k < c->nl + c->ns; k++) {
			uint8_t m = d[k] | s[k];
			if (m != d[k]) {
				d[k] = m == (V_THIS | V_OTHER) ? V_MIXED : m;
				changed = true;
			}
		}
	}
	if (changed && !c->queued[to]) {
		c->queued[to] = true;
		c->work[c->nwork++] = to;
	}
}

static void init_succ(code_editor *ed, uint32_t from, uint32_t to, int extra, void *ctx)
{
	init_ctx *c = ctx;
	(void)from;
	if (extra == 0) {
		merge_into(ed, c, to, c->cur);
		return;
	}
	/* After a jsr returns: the state before the jsr (the subroutine's own effect on
	 * locals is not tracked; constructors with jsr before super() do not occur). */
	merge_into(ed, c, to, c->states + (size_t)from * c->w);
}

static bool push_w(init_ctx *c, uint8_t *s, uint8_t v)
{
	uint32_t sp = get_sp(c, s);
	if (sp >= c->ns)
		return false;
	s[c->nl + sp] = v;
	set_sp(c, s, sp + 1);
	return true;
}

static bool pop_n(init_ctx *c, uint8_t *s, uint32_t n, uint8_t *out)
{
	uint32_t sp = get_sp(c, s);
	if (n > sp)
		return false;
	for (uint32_t k = 0; k < n; k++)
		if (out)
			out[k] = s[c->nl + sp - 1 - k]; /* out[0] is the top */
	set_sp(c, s, sp - n);
	return true;
}

/* JVMS 6.5 dup and swap, on words: `pattern` lists the popped words (top first) to push
 * back, bottom first. */
static bool shuffle(init_ctx *c, uint8_t *s, uint32_t npop, const uint8_t *pattern, uint32_t npush)
{
	uint8_t w[4];
	if (!pop_n(c, s, npop, w))
		return false;
	for (uint32_t k = 0; k < npush; k++)
		if (!push_w(c, s, w[pattern[k]]))
			return false;
	return true;
}

static bool step(code_editor *ed, init_ctx *c, uint32_t i, uint8_t *s)
{
	const cf_insn *in = &ed->in[i].d;
	uint8_t op = in->op;
	static const uint8_t p_dup[] = {0, 0}, p_dup_x1[] = {0, 1, 0}, p_dup_x2[] = {0, 2, 1, 0},
	                     p_dup2[] = {1, 0, 1, 0}, p_dup2_x1[] = {1, 0, 2, 1, 0},
	                     p_dup2_x2[] = {1, 0, 3, 2, 1, 0}, p_swap[] = {0, 1};
	switch (op) {
	case OP_ALOAD: case OP_ALOAD_0: case OP_ALOAD_1: case OP_ALOAD_2: case OP_ALOAD_3:
		return in->index < c->nl && push_w(c, s, s[in->index]);
	case OP_ASTORE: case OP_ASTORE_0: case OP_ASTORE_1: case OP_ASTORE_2: case OP_ASTORE_3: {
		uint8_t v;
		if (in->index >= c->nl || !pop_n(c, s, 1, &v))
			return false;
		s[in->index] = v;
		return true;
	}
	case OP_DUP: return shuffle(c, s, 1, p_dup, 2);
	case OP_DUP_X1: return shuffle(c, s, 2, p_dup_x1, 3);
	case OP_DUP_X2: return shuffle(c, s, 3, p_dup_x2, 4);
	case OP_DUP2: return shuffle(c, s, 2, p_dup2, 4);
	case OP_DUP2_X1: return shuffle(c, s, 3, p_dup2_x1, 5);
	case OP_DUP2_X2: return shuffle(c, s, 4, p_dup2_x2, 6);
	case OP_SWAP: return shuffle(c, s, 2, p_swap, 2);
	default:
		break;
	}
	int pop, push;
	if (!cf_insn_stack_effect(&ed->cls->cp, in, &pop, &push))
		return false;
	if (cf_op_has(op, OPF_STORE)) {
		/* A primitive store overwrites one or two locals with non-references. */
		uint32_t words = (uint32_t)pop;
		if (in->index + words > c->nl)
			return false;
		memset(s + in->index, V_OTHER, words);
	}
	if (op == OP_INVOKESPECIAL) {
		cp_ref ref;
		cp_member_ref(&ed->cls->cp, in->index, &ref);
		if (ref.name_len == 6 && memcmp(ref.name, "<init>", 6) == 0) {
			uint32_t sp = get_sp(c, s);
			if ((uint32_t)pop > sp)
				return false;
			uint8_t recv = s[c->nl + sp - (uint32_t)pop];
			if (recv == V_MIXED)
				return false;
			if (recv == V_THIS) {
				c->is_init[i] = true;
				/* Initialized: every copy of `this` is now an ordinary reference. */
				for (uint32_t k = 0; k < c->nl + sp; k++)
					s[k] = V_OTHER;
			}
		}
	}
	if (!pop_n(c, s, (uint32_t)pop, NULL))
		return false;
	for (int k = 0; k < push; k++)
		if (!push_w(c, s, V_OTHER))
			return false;
	return true;
}

int code_this_init(code_editor *ed, uint32_t *insn, tc_error *err)
{
	ed->err = err;
	*insn = NONE;
	if (!cp_utf8_eq(&ed->cls->cp, ed->m->name, "<init>") || (ed->m->access & ACC_STATIC))
		return code_fail(ed, TC_EUNSUPPORTED, NONE, "not a constructor");
	init_ctx c = {.nl = ed->code.max_locals, .ns = ed->code.max_stack};
	if (c.nl == 0)
		return code_fail(ed, TC_EFORMAT, NONE, "constructor with max_locals 0");
	c.w = c.nl + c.ns + 2;
	c.states = arena_zalloc(ed->a, (size_t)ed->n * c.w);
	c.seen = arena_zalloc(ed->a, ed->n);
	c.queued = arena_zalloc(ed->a, ed->n);
	c.pre = arena_zalloc(ed->a, ed->n);
	c.is_init = arena_zalloc(ed->a, ed->n);
	c.work = arena_array(ed->a, ed->n, sizeof(uint32_t));
	c.cur = arena_alloc(ed->a, c.w);
	uint8_t *handler = arena_alloc(ed->a, c.w);
	if (!c.states || !c.seen || !c.queued || !c.pre || !c.is_init || !c.work || !c.cur || !handler)
		return code_fail(ed, TC_ENOMEM, NONE, "no memory for the constructor analysis");
	memset(c.cur, V_OTHER, c.w);
	c.cur[0] = V_THIS;
	set_sp(&c, c.cur, 0);
	merge_into(ed, &c, 0, c.cur);
	while (c.nwork && !c.bad) {
		uint32_t i = c.work[--c.nwork];
		c.queued[i] = false;
		const uint8_t *before = c.states + (size_t)i * c.w;
		if (has_this(&c, before))
			c.pre[i] = true;
		/* Handlers see the locals before the instruction and one word on the stack. */
		for (uint32_t k = 0; k < ed->code.nexc; k++) {
			if (i < ed->exc_start[k] || i >= ed->exc_end[k])
				continue;
			memcpy(handler, before, c.w);
			set_sp(&c, handler, 0);
			push_w(&c, handler, V_OTHER);
			merge_into(ed, &c, ed->exc_handler[k], handler);
		}
		memcpy(c.cur, before, c.w);
		if (!step(ed, &c, i, c.cur) || !for_successors(ed, i, init_succ, &c))
			c.bad = true;
	}
	if (c.bad)
		return code_fail(ed, TC_EUNSUPPORTED, NONE,
		                 "cannot follow `this` through the constructor (inconsistent stack)");
	uint32_t init = NONE, ninit = 0;
	for (uint32_t i = 0; i < ed->n; i++)
		if (c.is_init[i]) {
			init = i;
			ninit++;
		}
	if (ninit == 0)
		return code_fail(ed, TC_EUNSUPPORTED, NONE, "constructor never initializes `this`");
	if (ninit > 1)
		return code_fail(ed, TC_EUNSUPPORTED, NONE,
		                 "constructor initializes `this` at %u places", ninit);
	if (init + 1 >= ed->n)
		return code_fail(ed, TC_EFORMAT, ed->in[init].d.off, "constructor ends with its super call");
	/* Code placed after the call in offset order must all run after it, so that one
	 * handler range [init + 1, end) covers only initialized code. */
	for (uint32_t i = init + 1; i < ed->n; i++)
		if (c.pre[i])
			return code_fail(ed, TC_EUNSUPPORTED, ed->in[i].d.off,
			                 "code at %u runs before `this` is initialized but follows the call",
			                 ed->in[i].d.off);
	*insn = init;
	return TC_OK;
}

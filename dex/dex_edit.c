/* The Dalvik code editor; see dex_edit.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "dex_edit.h"
#include "dex_value.h"

#define NONE UINT32_MAX
#define MONITOR_UNKNOWN 0xff

typedef struct block {
	struct block *next;
	enum dex_edit_where where;
	dex_insn *seq;
	uint32_t n;
} block;

/* An original instruction. */
typedef struct insn {
	dex_insn d;
	uint32_t addr;
	uint32_t target;   /* branches: instruction index */
	uint32_t payload;  /* switches and fill-array-data: payload index */
	uint32_t list;     /* original handler list (index into code->handlers), or NONE */
	block *blocks;
} insn;

typedef struct payload {
	uint32_t addr;
	uint32_t size;     /* code units */
	uint16_t kind;     /* DPL_* */
	const uint8_t *raw;
	uint32_t count;    /* switch entries */
	uint32_t *targets; /* switch targets as instruction indices */
	uint32_t owner;    /* the instruction that uses it; NONE until one does */
} payload;

struct dex_editor {
	const dex_file *d;
	const dex_code *code;
	arena *a;
	uint32_t method;
	bool is_static;
	insn *ins;
	uint32_t nins;
	payload *pays;
	uint32_t npays;
	uint32_t *at;         /* address -> instruction index, or NONE */
	uint32_t **catch_to;  /* per original handler: catch entries as instruction indices */
	uint32_t *catch_all;  /* per original handler: catch-all instruction index, or NONE */
	uint32_t grow;        /* dex_edit_scratch's k */
	bool has_catch_all;
	bool *ca_cover;       /* per original instruction: the new catch-all covers it */
	block ca;
};

/* An error inside the method: the absolute offset when the code came from the input. */
static int fail(const dex_editor *e, tc_error *err, int code, uint32_t pc, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

static int fail(const dex_editor *e, tc_error *err, int code, uint32_t pc, const char *fmt, ...)
{
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	uint32_t off = e->code->it.off && pc != NONE ? e->code->it.off + 16 + 2 * pc : TC_NO_OFFSET;
	if (pc != NONE)
		return tc_fail(err, code, off, "code", "%s (code unit %u)", msg, pc);
	return tc_fail(err, code, off, "code", "%s", msg);
}

static int nomem(tc_error *err)
{
	return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "code", "no memory");
}

static uint32_t insn_at(const dex_editor *e, uint32_t addr)
{
	return addr < e->code->ninsns ? e->at[addr] : NONE;
}

static uint32_t payload_at(const dex_editor *e, uint32_t addr)
{
	for (uint32_t p = 0; p < e->npays; p++)
		if (e->pays[p].addr == addr)
			return p;
	return NONE;
}

static int decode_payload(dex_editor *e, payload *p, tc_error *err)
{
	const uint8_t *raw = e->code->insns + 2 * (size_t)p->addr;
	p->raw = raw;
	if (p->kind == DPL_ARRAY)
		return TC_OK;
	/* targets are relative to the switch, so they are resolved against its owner */
	p->count = get_le2(raw + 2);
	if (!(p->targets = arena_array(e->a, p->count ? p->count : 1, sizeof *p->targets)))
		return nomem(err);
	uint32_t base = e->ins[p->owner].addr;
	const uint8_t *t = p->kind == DPL_PACKED ? raw + 8 : raw + 4 + 4 * (size_t)p->count;
	for (uint32_t k = 0; k < p->count; k++) {
		int64_t to = (int64_t)base + (int32_t)get_le4(t + 4 * k);
		uint32_t i = to >= 0 && to < e->code->ninsns ? insn_at(e, (uint32_t)to) : NONE;
		if (i == NONE)
			return fail(e, err, TC_EBRANCH, p->addr, "switch target %lld is not an instruction", (long long)to);
		p->targets[k] = i;
	}
	return TC_OK;
}

int dex_edit_open(dex_editor **out, const dex_file *d, const dex_code *code, uint32_t method,
                  bool is_static, arena *a, tc_error *err)
{
	dex_editor *e = arena_zalloc(a, sizeof *e);
	if (!e)
		return nomem(err);
	e->d = d;
	e->code = code;
	e->a = a;
	e->method = method;
	e->is_static = is_static;
	uint32_t n = code->ninsns;
	e->at = arena_array(a, n ? n : 1, sizeof *e->at);
	e->ins = arena_array(a, n ? n : 1, sizeof *e->ins);
	e->pays = arena_array(a, n / 2 + 1, sizeof *e->pays);
	if (!e->at || !e->ins || !e->pays)
		return nomem(err);
	for (uint32_t i = 0; i < n; i++)
		e->at[i] = NONE;
	dex_insn op;
	for (uint32_t pc = 0, size; pc < n; pc += size) {
		if (!(size = dex_op_decode(code->insns, n, pc, d->version, &op)))
			return fail(e, err, TC_EOPCODE, pc, "bad or cut-off instruction 0x%04x",
			            get_le2(code->insns + 2 * (size_t)pc));
		if (op.fmt == DF_PAYLOAD) {
			if (pc & 1)
				return fail(e, err, TC_EBRANCH, pc, "payload at an odd address");
			e->pays[e->npays++] = (payload){.addr = pc, .size = size, .kind = op.payload, .owner = NONE};
			continue;
		}
		if (op.op == DEX_OP_NOP && (pc & 1) && pc + 1 < n && (get_le2(code->insns + 2 * ((size_t)pc + 1)) & 0xff) == 0 &&
		    get_le2(code->insns + 2 * ((size_t)pc + 1)) >> 8 >= 1 && get_le2(code->insns + 2 * ((size_t)pc + 1)) >> 8 <= 3)
			continue; /* the padding before a payload, not code: the layout pads anew */
		e->at[pc] = e->nins;
		e->ins[e->nins++] = (insn){.d = op, .addr = pc, .target = NONE, .payload = NONE, .list = NONE};
	}
	if (!e->nins)
		return fail(e, err, TC_EFORMAT, NONE, "no instructions");
	for (uint32_t i = 0; i < e->nins; i++) {
		insn *x = &e->ins[i];
		int64_t to = (int64_t)x->addr + x->d.target;
		if (dex_op_table[x->d.op].flags & DEX_OPF_BRANCH) {
			if ((x->target = to >= 0 && to < n ? insn_at(e, (uint32_t)to) : NONE) == NONE)
				return fail(e, err, TC_EBRANCH, x->addr, "branch target %lld is not an instruction",
				            (long long)to);
		} else if (dex_op_table[x->d.op].flags & (DEX_OPF_SWITCH | DEX_OPF_ARRAYDATA)) {
			uint32_t p = to >= 0 && to < n ? payload_at(e, (uint32_t)to) : NONE;
			uint16_t want = x->d.op == DEX_OP_PACKED_SWITCH ? DPL_PACKED
			                : x->d.op == DEX_OP_SPARSE_SWITCH ? DPL_SPARSE : DPL_ARRAY;
			if (p == NONE || e->pays[p].kind != want)
				return fail(e, err, TC_EBRANCH, x->addr, "payload offset %d names no payload of its kind",
				            x->d.target);
			if (e->pays[p].owner != NONE) {
				/* shared by two instructions (obfuscators do it): each gets a copy */
				if (e->npays == n / 2 + 1)
					return fail(e, err, TC_EFORMAT, x->addr, "too many shared payloads");
				e->pays[e->npays] = e->pays[p];
				p = e->npays++;
			}
			e->pays[p].owner = i;
			x->payload = p;
			if (decode_payload(e, &e->pays[p], err) != TC_OK)
				return err->code;
		}
	}
	/* handler lists of the instructions, and handler addresses as instructions */
	e->catch_to = arena_array(a, code->nhandlers ? code->nhandlers : 1, sizeof *e->catch_to);
	e->catch_all = arena_array(a, code->nhandlers ? code->nhandlers : 1, sizeof *e->catch_all);
	if (!e->catch_to || !e->catch_all)
		return nomem(err);
	for (uint32_t h = 0; h < code->nhandlers; h++) {
		const dex_handler *hd = &code->handlers[h];
		if (!(e->catch_to[h] = arena_array(a, hd->n ? hd->n : 1, sizeof **e->catch_to)))
			return nomem(err);
		for (uint32_t k = 0; k < hd->n; k++)
			if ((e->catch_to[h][k] = insn_at(e, hd->catches[k].addr)) == NONE)
				return fail(e, err, TC_EBRANCH, hd->catches[k].addr, "handler address is not an instruction%s", "");
		e->catch_all[h] = NONE;
		if (hd->catch_all != DEX_NO_INDEX && (e->catch_all[h] = insn_at(e, hd->catch_all)) == NONE)
			return fail(e, err, TC_EBRANCH, hd->catch_all, "catch-all address is not an instruction%s", "");
	}
	for (uint32_t t = 0; t < code->ntries; t++) {
		const dex_try *tr = &code->tries[t];
		for (uint32_t i = insn_at(e, tr->start); i != NONE && i < e->nins && e->ins[i].addr < tr->start + tr->count; i++)
			e->ins[i].list = tr->handler;
		if (insn_at(e, tr->start) == NONE)
			return fail(e, err, TC_EBRANCH, tr->start, "try range does not start on an instruction%s", "");
	}
	*out = e;
	return TC_OK;
}

uint32_t dex_edit_count(const dex_editor *e)
{
	return e->nins;
}

const dex_insn *dex_edit_insn(const dex_editor *e, uint32_t i)
{
	return &e->ins[i].d;
}

uint32_t dex_edit_addr(const dex_editor *e, uint32_t i)
{
	return e->ins[i].addr;
}

uint32_t dex_edit_at(const dex_editor *e, uint32_t addr)
{
	return insn_at(e, addr);
}

uint16_t dex_edit_regs(const dex_editor *e)
{
	return (uint16_t)(e->code->regs + e->grow);
}

uint16_t dex_edit_ins(const dex_editor *e)
{
	return e->code->ins;
}

static bool is_result_or_exception(uint8_t op)
{
	return op == DEX_OP_MOVE_EXCEPTION || dex_op_has(op, DEX_OPF_RESULT);
}

static int check_seq(const dex_editor *e, const dex_insn *seq, uint32_t n, tc_error *err)
{
	for (uint32_t k = 0; k < n; k++) {
		if (seq[k].fmt == DF_PAYLOAD ||
		    dex_op_has(seq[k].op, DEX_OPF_BRANCH | DEX_OPF_SWITCH | DEX_OPF_ARRAYDATA) ||
		    !dex_op_fits(&seq[k]))
			return fail(e, err, TC_EARG, NONE, "inserted instruction %u (%s) is not allowed or does not fit", k,
			            dex_op_table[seq[k].op].name);
	}
	return TC_OK;
}

static block *new_block(dex_editor *e, enum dex_edit_where where, const dex_insn *seq, uint32_t n)
{
	block *b = arena_zalloc(e->a, sizeof *b);
	if (!b || !(b->seq = arena_dup(e->a, seq, (n ? n : 1) * sizeof *seq)))
		return NULL;
	b->where = where;
	b->n = n;
	return b;
}

int dex_edit_insert(dex_editor *e, uint32_t i, enum dex_edit_where where, const dex_insn *seq, uint32_t n,
                    tc_error *err)
{
	if (i >= e->nins)
		return fail(e, err, TC_EARG, NONE, "no instruction %u to insert before", i);
	if (is_result_or_exception(e->ins[i].d.op))
		return fail(e, err, TC_EUNSUPPORTED, e->ins[i].addr, "cannot insert before %s",
		            dex_op_table[e->ins[i].d.op].name);
	if (check_seq(e, seq, n, err) != TC_OK)
		return err->code;
	block *b = new_block(e, where, seq, n);
	if (!b)
		return nomem(err);
	block **tail = &e->ins[i].blocks;
	while (*tail)
		tail = &(*tail)->next;
	*tail = b;
	return TC_OK;
}

int dex_edit_replace(dex_editor *e, uint32_t i, const dex_insn *d, tc_error *err)
{
	if (i >= e->nins)
		return fail(e, err, TC_EARG, NONE, "no instruction %u to replace", i);
	const dex_insn *old = &e->ins[i].d;
	if (dex_op_has(old->op, DEX_OPF_BRANCH | DEX_OPF_SWITCH | DEX_OPF_ARRAYDATA) ||
	    check_seq(e, d, 1, err) != TC_OK)
		return err->code ? err->code : fail(e, err, TC_EARG, e->ins[i].addr, "cannot replace %s",
		                                    dex_op_table[old->op].name);
	e->ins[i].d = *d;
	return TC_OK;
}

int dex_edit_scratch(dex_editor *e, uint32_t k, uint32_t *first, tc_error *err)
{
	if (e->grow)
		return fail(e, err, TC_EARG, NONE, "registers grown twice%s", "");
	if ((uint32_t)e->code->regs + k > 65535)
		return fail(e, err, TC_ELIMIT, NONE, "more than 65535 registers%s", "");
	uint32_t words = dex_proto_words(e->d, e->d->methods.v[e->method].proto, e->is_static);
	if (words != e->code->ins)
		return fail(e, err, TC_EFORMAT, NONE, "ins_size %u, but the method takes %u words", e->code->ins, words);
	e->grow = k;
	*first = e->code->regs;
	return TC_OK;
}

/* --- control flow ------------------------------------------------------------------- */

/* Calls fn(ctx, successor, exceptional) for every successor of instruction i. */
static void successors(const dex_editor *e, uint32_t i, void (*fn)(void *, uint32_t, bool), void *ctx)
{
	const insn *x = &e->ins[i];
	uint16_t f = dex_op_table[x->d.op].flags;
	if (!(f & DEX_OPF_GOTO) && i + 1 < e->nins)
		fn(ctx, i + 1, false);
	if (f & DEX_OPF_BRANCH)
		fn(ctx, x->target, false);
	if (f & DEX_OPF_SWITCH) {
		const payload *p = &e->pays[x->payload];
		for (uint32_t k = 0; k < p->count; k++)
			fn(ctx, p->targets[k], false);
	}
	/* ART's verifier takes no exception edge from monitor-exit: if it throws at all,
	 * structured locking has already failed elsewhere */
	if (x->list != NONE && (f & DEX_OPF_CAN_THROW) && x->d.op != DEX_OP_MONITOR_EXIT) {
		const dex_handler *h = &e->code->handlers[x->list];
		for (uint32_t k = 0; k < h->n; k++)
			fn(ctx, e->catch_to[x->list][k], true);
		if (e->catch_all[x->list] != NONE)
			fn(ctx, e->catch_all[x->list], true);
	}
}

typedef struct flow {
	const dex_editor *e;
	uint8_t *depth;   /* monitor depth at entry, MONITOR_UNKNOWN on conflict, 0xfe unseen */
	uint32_t *work;
	uint32_t nwork;
	bool *queued;
	uint8_t out, out_exc; /* the current instruction's outgoing depths */
} flow;

#define UNSEEN 0xfe

static void flow_to(void *ctx, uint32_t s, bool exceptional)
{
	flow *f = ctx;
	uint8_t v = exceptional ? f->out_exc : f->out;
	uint8_t old = f->depth[s];
	uint8_t nv = old == UNSEEN ? v : old == v ? old : MONITOR_UNKNOWN;
	if (nv == old)
		return;
	f->depth[s] = nv;
	if (!f->queued[s]) {
		f->queued[s] = true;
		f->work[f->nwork++] = s;
	}
}

/* Monitor depth at each instruction (MONITOR_UNKNOWN where paths disagree). */
static uint8_t *monitor_depths(const dex_editor *e, tc_error *err)
{
	flow f = {.e = e};
	f.depth = arena_alloc(e->a, e->nins);
	f.work = arena_array(e->a, e->nins, sizeof *f.work);
	f.queued = arena_zalloc(e->a, e->nins * sizeof *f.queued);
	if (!f.depth || !f.work || !f.queued) {
		nomem(err);
		return NULL;
	}
	memset(f.depth, UNSEEN, e->nins);
	f.depth[0] = 0;
	f.work[f.nwork++] = 0;
	f.queued[0] = true;
	while (f.nwork) {
		uint32_t i = f.work[--f.nwork];
		f.queued[i] = false;
		uint8_t d = f.depth[i];
		uint8_t op = e->ins[i].d.op;
		f.out = f.out_exc = d;
		if (d != MONITOR_UNKNOWN) {
			if (op == DEX_OP_MONITOR_ENTER)
				f.out = d < 0xf0 ? (uint8_t)(d + 1) : MONITOR_UNKNOWN;
			else if (op == DEX_OP_MONITOR_EXIT)
				f.out = d ? (uint8_t)(d - 1) : MONITOR_UNKNOWN;
		}
		successors(e, i, flow_to, &f);
	}
	return f.depth;
}

int dex_edit_catch_all(dex_editor *e, uint32_t from, uint32_t to, const dex_insn *seq, uint32_t n, tc_error *err)
{
	if (from > to || to > e->nins)
		return fail(e, err, TC_EARG, NONE, "bad range [%u, ...)", from);
	bool *cover = arena_zalloc(e->a, e->nins * sizeof *cover);
	if (!cover)
		return nomem(err);
	for (uint32_t i = from; i < to; i++)
		cover[i] = true;
	return dex_edit_catch_all_of(e, cover, seq, n, err);
}

int dex_edit_catch_all_of(dex_editor *e, const bool *cover, const dex_insn *seq, uint32_t n, tc_error *err)
{
	if (e->has_catch_all)
		return fail(e, err, TC_EARG, NONE, "a second catch-all%s", "");
	if (n < 2 || seq[0].op != DEX_OP_MOVE_EXCEPTION || seq[n - 1].op != DEX_OP_THROW)
		return fail(e, err, TC_EARG, NONE, "a handler must begin with move-exception and end with throw%s", "");
	for (uint32_t k = 1; k < n; k++)
		if (dex_op_has(seq[k].op, DEX_OPF_RESULT) || seq[k].op == DEX_OP_MOVE_EXCEPTION)
			return fail(e, err, TC_EARG, NONE, "bad handler instruction %u", k);
	if (check_seq(e, seq, n - 1, err) != TC_OK)
		return err->code;
	bool monitors = false;
	for (uint32_t i = 0; i < e->nins && !monitors; i++)
		monitors = e->ins[i].d.op == DEX_OP_MONITOR_ENTER;
	if (monitors) {
		uint8_t *depth = monitor_depths(e, err);
		if (!depth)
			return err->code;
		for (uint32_t i = 0; i < e->nins; i++) {
			const insn *x = &e->ins[i];
			if (!cover[i] || depth[i] == 0 || depth[i] == UNSEEN ||
			    !dex_op_has(x->d.op, DEX_OPF_CAN_THROW) || x->d.op == DEX_OP_MONITOR_EXIT)
				continue;
			if (x->list != NONE && e->catch_all[x->list] != NONE)
				continue;
			return fail(e, err, TC_EUNSUPPORTED, x->addr,
			            "%s runs with a monitor held and no catch-all of its own",
			            dex_op_table[x->d.op].name);
		}
	}
	if (!(e->ca.seq = arena_dup(e->a, seq, n * sizeof *seq)) ||
	    !(e->ca_cover = arena_dup(e->a, cover, e->nins * sizeof *cover)))
		return nomem(err);
	e->ca.n = n;
	e->has_catch_all = true;
	return TC_OK;
}

typedef struct walk {
	bool *seen;
	uint32_t *work;
	uint32_t nwork;
	bool exceptional_only;
} walk;

static void walk_to(void *ctx, uint32_t s, bool exceptional)
{
	walk *w = ctx;
	if ((w->exceptional_only && !exceptional) || w->seen[s])
		return;
	w->seen[s] = true;
	w->work[w->nwork++] = s;
}

int dex_edit_reach(const dex_editor *e, uint32_t from, uint32_t stop, bool **seen, tc_error *err)
{
	if (from >= e->nins)
		return fail(e, err, TC_EARG, NONE, "no instruction %u to start from", from);
	walk w = {0};
	w.seen = arena_zalloc(e->a, e->nins * sizeof *w.seen);
	w.work = arena_array(e->a, e->nins, sizeof *w.work);
	if (!w.seen || !w.work)
		return nomem(err);
	w.seen[from] = true;
	w.work[w.nwork++] = from;
	while (w.nwork) {
		uint32_t i = w.work[--w.nwork];
		w.exceptional_only = i == stop;
		successors(e, i, walk_to, &w);
	}
	*seen = w.seen;
	return TC_OK;
}

/* --- this() / super() in constructors --------------------------------------------------- */

typedef struct reach {
	bool *seen;
	uint32_t *work;
	uint32_t nwork;
	uint32_t cut;
} reach;

static void reach_to(void *ctx, uint32_t s, bool exceptional)
{
	reach *r = ctx;
	(void)exceptional;
	if (s == r->cut || r->seen[s])
		return;
	r->seen[s] = true;
	r->work[r->nwork++] = s;
}

static bool is_copy(uint8_t op)
{
	return op == DEX_OP_MOVE_OBJECT || op == DEX_OP_MOVE_OBJECT_FROM16 || op == DEX_OP_MOVE_OBJECT_16;
}

/* Registers that may hold the uninitialized `this` at each instruction: a forward
 * may-analysis (p0 at entry; move-object copies it; any other write kills; the init
 * call initializes every copy). One bit set of `words` 64-bit words per instruction. */
typedef struct uthis {
	const dex_editor *e;
	uint64_t *in;      /* nins * words */
	uint32_t words;
	uint64_t *out;     /* the current instruction's outgoing set */
	const uint64_t *pre; /* and its incoming one, which exception edges carry */
	uint32_t *work;
	uint32_t nwork;
	bool *queued;
	bool *seen;
} uthis;

static void uthis_to(void *ctx, uint32_t s, bool exceptional)
{
	uthis *u = ctx;
	const uint64_t *src = exceptional ? u->pre : u->out;
	uint64_t *dst = u->in + (size_t)s * u->words;
	bool changed = !u->seen[s];
	u->seen[s] = true;
	for (uint32_t w = 0; w < u->words; w++) {
		uint64_t v = dst[w] | src[w];
		changed |= v != dst[w];
		dst[w] = v;
	}
	if (changed && !u->queued[s]) {
		u->queued[s] = true;
		u->work[u->nwork++] = s;
	}
}

static bool bit(const uint64_t *set, uint32_t r)
{
	return set[r / 64] >> (r % 64) & 1;
}

static void put_bit(uint64_t *set, uint32_t r, bool v)
{
	if (v)
		set[r / 64] |= (uint64_t)1 << (r % 64);
	else
		set[r / 64] &= ~((uint64_t)1 << (r % 64));
}

static bool is_this_init(const dex_editor *e, const dex_insn *d, const uint64_t *holds, uint32_t regs)
{
	if (d->op != DEX_OP_INVOKE_DIRECT && d->op != DEX_OP_INVOKE_DIRECT_RANGE)
		return false;
	uint32_t recv = d->op == DEX_OP_INVOKE_DIRECT ? d->args[0] : d->a;
	return d->nargs && recv < regs && bit(holds, recv) && d->idx < e->d->methods.n &&
	       dex_str_eq(e->d, e->d->methods.v[d->idx].name, "<init>");
}

int dex_edit_after_this_init(const dex_editor *e, uint32_t *out, tc_error *err)
{
	uint32_t regs = e->code->regs;
	if (e->is_static || !e->code->ins)
		return fail(e, err, TC_EARG, NONE, "not a constructor%s", "");
	uthis u = {.e = e, .words = (regs + 63) / 64};
	u.in = arena_zalloc(e->a, (size_t)e->nins * u.words * sizeof *u.in);
	u.out = arena_array(e->a, u.words, sizeof *u.out);
	u.work = arena_array(e->a, e->nins, sizeof *u.work);
	u.queued = arena_zalloc(e->a, e->nins * sizeof *u.queued);
	u.seen = arena_zalloc(e->a, e->nins * sizeof *u.seen);
	if (!u.in || !u.out || !u.work || !u.queued || !u.seen)
		return nomem(err);
	put_bit(u.in, regs - e->code->ins, true);
	u.seen[0] = u.queued[0] = true;
	u.work[u.nwork++] = 0;
	while (u.nwork) {
		uint32_t i = u.work[--u.nwork];
		u.queued[i] = false;
		const dex_insn *d = &e->ins[i].d;
		u.pre = u.in + (size_t)i * u.words;
		memcpy(u.out, u.pre, u.words * sizeof *u.out);
		if (is_this_init(e, d, u.out, regs)) {
			memset(u.out, 0, u.words * sizeof *u.out);
		} else if (dex_op_has(d->op, DEX_OPF_SETS_A) && d->a < regs) {
			bool copy = is_copy(d->op) && d->b < regs && bit(u.out, d->b);
			put_bit(u.out, d->a, copy);
			if (dex_op_has(d->op, DEX_OPF_WIDE_A) && d->a + 1 < regs)
				put_bit(u.out, d->a + 1, false);
		}
		successors(e, i, uthis_to, &u);
	}
	uint32_t call = NONE;
	for (uint32_t i = 0; i < e->nins; i++) {
		if (!u.seen[i] || !is_this_init(e, &e->ins[i].d, u.in + (size_t)i * u.words, regs))
			continue;
		if (call != NONE)
			return fail(e, err, TC_EUNSUPPORTED, e->ins[i].addr, "more than one call initializes this%s", "");
		call = i;
	}
	if (call == NONE)
		return fail(e, err, TC_EUNSUPPORTED, NONE, "no call initializes this%s", "");
	if (call + 1 >= e->nins)
		return fail(e, err, TC_EFORMAT, e->ins[call].addr, "the code ends at the init call%s", "");
	/* every return must be unreachable once the call is cut out of the graph */
	reach r = {.cut = call};
	r.seen = arena_zalloc(e->a, e->nins * sizeof *r.seen);
	r.work = arena_array(e->a, e->nins, sizeof *r.work);
	if (!r.seen || !r.work)
		return nomem(err);
	if (call != 0) {
		r.seen[0] = true;
		r.work[r.nwork++] = 0;
	}
	while (r.nwork)
		successors(e, r.work[--r.nwork], reach_to, &r);
	for (uint32_t i = 0; i < e->nins; i++)
		if (r.seen[i] && dex_op_has(e->ins[i].d.op, DEX_OPF_RETURN))
			return fail(e, err, TC_EUNSUPPORTED, e->ins[i].addr, "a return is reached without the init call%s", "");
	*out = call + 1;
	return TC_OK;
}

/* --- layout --------------------------------------------------------------------------- */

enum node_kind { N_NEW, N_INSN, N_PAYLOAD };

typedef struct node {
	dex_insn d;
	uint8_t kind;
	bool long_if;     /* an if-* laid out as the inverted test over a goto/32 */
	bool covered;     /* an original instruction the new catch-all covers */
	uint32_t orig;    /* N_INSN: instruction index; N_PAYLOAD: payload index */
	uint32_t target;  /* branches: node; switches and fill-array-data: payload node */
	uint32_t addr, size;
} node;

typedef struct layout {
	node *v;
	uint32_t n;
	uint32_t *entry;  /* per original instruction: the node that branches to it reach */
	uint32_t *self;   /* per original instruction: its own node */
	uint32_t *pnode;  /* per payload: its node */
	uint32_t handler; /* first node of the new catch-all, or NONE */
	uint32_t total;   /* code units */
} layout;

static uint32_t node_size(const node *x)
{
	if (x->kind == N_PAYLOAD)
		return x->size;
	if (x->long_if)
		return 2 + 3;
	return dex_op_fmt_size(x->d.fmt);
}

static bool fits16(int64_t v)
{
	return v >= INT16_MIN && v <= INT16_MAX;
}

/* One layout pass: addresses from the current forms; returns whether a form grew. */
static bool place(layout *l)
{
	uint32_t addr = 0;
	for (uint32_t i = 0; i < l->n; i++) {
		node *x = &l->v[i];
		if (x->kind == N_PAYLOAD && (addr & 1))
			addr++; /* a nop pads the payload to an even address */
		x->addr = addr;
		addr += node_size(x);
	}
	l->total = addr;
	bool grew = false;
	for (uint32_t i = 0; i < l->n; i++) {
		node *x = &l->v[i];
		if (x->kind == N_PAYLOAD || !dex_op_has(x->d.op, DEX_OPF_BRANCH))
			continue;
		int64_t off = (int64_t)l->v[x->target].addr - x->addr;
		switch (x->d.fmt) {
		case DF_10t:
			if (off == 0 || off < INT8_MIN || off > INT8_MAX) {
				x->d.op = DEX_OP_GOTO_16;
				x->d.fmt = DF_20t;
				grew = true;
			}
			break;
		case DF_20t:
			if (off == 0 || !fits16(off)) {
				x->d.op = DEX_OP_GOTO_32;
				x->d.fmt = DF_30t;
				grew = true;
			}
			break;
		case DF_21t:
		case DF_22t:
			if (!x->long_if && !fits16(off)) {
				x->long_if = true;
				grew = true;
			}
			break;
		default: break;
		}
	}
	return grew;
}

static uint8_t invert_if(uint8_t op)
{
	/* if-eq/ne, lt/ge, gt/le are pairs: flip the low bit of the pair index */
	uint8_t base = op >= DEX_OP_IF_EQZ ? DEX_OP_IF_EQZ : DEX_OP_IF_EQ;
	return (uint8_t)(base + ((op - base) ^ 1));
}

static int build(dex_editor *e, layout *l, tc_error *err)
{
	uint32_t nnew = 0;
	for (uint32_t i = 0; i < e->nins; i++)
		for (block *b = e->ins[i].blocks; b; b = b->next)
			nnew += b->n;
	uint32_t params = e->grow ? e->code->ins : 0;
	uint32_t cap = params + nnew + e->nins + (e->has_catch_all ? e->ca.n : 0) + e->npays;
	l->v = arena_array(e->a, cap ? cap : 1, sizeof *l->v);
	l->entry = arena_array(e->a, e->nins, sizeof *l->entry);
	l->self = arena_array(e->a, e->nins, sizeof *l->self);
	l->pnode = arena_array(e->a, e->npays ? e->npays : 1, sizeof *l->pnode);
	if (!l->v || !l->entry || !l->self || !l->pnode)
		return nomem(err);
	l->n = 0;
	l->handler = NONE;
	/* the parameter moves: each word (or pair) from its new place back to its old one */
	if (e->grow && e->code->ins) {
		const dex_proto *p = &e->d->protos.v[e->d->methods.v[e->method].proto];
		uint32_t from = e->code->regs + e->grow - e->code->ins, to = e->code->regs - e->code->ins;
		uint32_t np = p->params ? p->params->n : 0;
		for (int32_t k = e->is_static ? 0 : -1; k < (int32_t)np; k++) {
			char kind = 'L';
			if (k >= 0) {
				uint32_t len;
				const uint8_t *desc = dex_type_desc(e->d, p->params->types[k], &len);
				kind = desc && len ? (char)desc[0] : 'L';
			}
			node *x = &l->v[l->n++];
			memset(x, 0, sizeof *x);
			x->kind = N_NEW;
			x->d.fmt = DF_32x;
			x->d.op = kind == 'L' || kind == '[' ? DEX_OP_MOVE_OBJECT_16
			          : kind == 'J' || kind == 'D' ? DEX_OP_MOVE_WIDE_16 : DEX_OP_MOVE_16;
			x->d.a = to;
			x->d.b = from;
			uint32_t w = kind == 'J' || kind == 'D' ? 2 : 1;
			to += w;
			from += w;
		}
	}
	for (uint32_t i = 0; i < e->nins; i++) {
		l->entry[i] = NONE;
		for (block *b = e->ins[i].blocks; b; b = b->next) {
			if (b->where == DEX_EDIT_AT_TARGET && l->entry[i] == NONE && b->n)
				l->entry[i] = l->n;
			for (uint32_t k = 0; k < b->n; k++) {
				node *x = &l->v[l->n++];
				memset(x, 0, sizeof *x);
				x->kind = N_NEW;
				x->d = b->seq[k];
			}
		}
		node *x = &l->v[l->n];
		memset(x, 0, sizeof *x);
		x->kind = N_INSN;
		x->d = e->ins[i].d;
		x->orig = i;
		x->covered = e->has_catch_all && e->ca_cover[i];
		l->self[i] = l->n;
		if (l->entry[i] == NONE)
			l->entry[i] = l->n;
		l->n++;
	}
	if (e->has_catch_all) {
		l->handler = l->n;
		for (uint32_t k = 0; k < e->ca.n; k++) {
			node *x = &l->v[l->n++];
			memset(x, 0, sizeof *x);
			x->kind = N_NEW;
			x->d = e->ca.seq[k];
		}
	}
	/* payloads last, each after the code that uses it has been placed */
	for (uint32_t i = 0; i < e->nins; i++) {
		insn *o = &e->ins[i];
		node *x = &l->v[l->self[i]];
		if (dex_op_has(o->d.op, DEX_OPF_BRANCH))
			x->target = l->entry[o->target];
		if (o->payload == NONE)
			continue;
		node *p = &l->v[l->n];
		memset(p, 0, sizeof *p);
		p->kind = N_PAYLOAD;
		p->orig = o->payload;
		p->size = e->pays[o->payload].size;
		l->pnode[o->payload] = l->n;
		x->target = l->n++;
	}
	for (int rounds = 0; place(l); rounds++)
		if (rounds > 64)
			return fail(e, err, TC_ELIMIT, NONE, "branch layout does not settle%s", "");
	return TC_OK;
}

static int emit(dex_editor *e, layout *l, uint8_t *out, tc_error *err)
{
	for (uint32_t i = 0; i < l->n; i++) {
		node *x = &l->v[i];
		uint8_t *p = out + 2 * (size_t)x->addr;
		if (x->kind == N_PAYLOAD) {
			if (i > 0) {
				/* the padding nop, if any, between the previous node and this one */
				const node *prev = &l->v[i - 1];
				uint32_t end = prev->addr + (prev->kind == N_PAYLOAD ? prev->size : node_size(prev));
				if (end < x->addr)
					put_le2(out + 2 * (size_t)end, DEX_OP_NOP);
			}
			const payload *pl = &e->pays[x->orig];
			memcpy(p, pl->raw, 2 * (size_t)pl->size);
			if (pl->kind == DPL_ARRAY)
				continue;
			/* targets relative to the switch that uses it */
			uint32_t owner = l->self[pl->owner];
			uint8_t *t = pl->kind == DPL_PACKED ? p + 8 : p + 4 + 4 * (size_t)pl->count;
			for (uint32_t k = 0; k < pl->count; k++)
				put_le4(t + 4 * k, (uint32_t)((int64_t)l->v[l->entry[pl->targets[k]]].addr - l->v[owner].addr));
			continue;
		}
		dex_insn d = x->d;
		if (x->kind == N_INSN && (dex_op_has(d.op, DEX_OPF_BRANCH | DEX_OPF_SWITCH | DEX_OPF_ARRAYDATA)))
			d.target = (int32_t)((int64_t)l->v[x->target].addr - x->addr);
		if (x->long_if) {
			/* if-<not cond> +5; goto/32 target */
			dex_insn inv = d, g = {.op = DEX_OP_GOTO_32, .fmt = DF_30t};
			inv.op = invert_if(d.op);
			inv.target = 5;
			g.target = d.target - 2;
			if (!dex_op_encode(&inv, p) || !dex_op_encode(&g, p + 4))
				return fail(e, err, TC_ELIMIT, NONE, "cannot encode a long branch%s", "");
			continue;
		}
		if (!dex_op_encode(&d, p))
			return fail(e, err, TC_ELIMIT, x->kind == N_INSN ? e->ins[x->orig].addr : NONE,
			            "%s does not fit its format after the edit", dex_op_table[d.op].name);
	}
	return TC_OK;
}

/* --- exceptions ---------------------------------------------------------------------- */

/* The handler list a node runs under: an original list, the same plus the new
 * catch-all, the new catch-all alone, or none. */
typedef struct cover {
	uint32_t list;    /* original handler index, or NONE */
	bool added;       /* the new catch-all */
} cover;

static cover cover_of(const dex_editor *e, const layout *l, const node *x)
{
	cover c = {NONE, false};
	(void)l;
	if (x->kind != N_INSN)
		return c;
	c.list = e->ins[x->orig].list;
	c.added = x->covered && (c.list == NONE || e->catch_all[c.list] == NONE);
	return c;
}

static bool same(cover a, cover b)
{
	return a.list == b.list && a.added == b.added;
}

static int exceptions(dex_editor *e, layout *l, dex_code *c, arena *keep, tc_error *err)
{
	/* handler lists in the order they are first used, tries run-length encoded */
	uint32_t maxl = e->code->nhandlers * 2 + 1;
	cover *lists = arena_array(e->a, maxl, sizeof *lists);
	/* runs: at most one per node, plus the splits of runs longer than 65535 units */
	dex_try *tries = arena_array(e->a, l->n + l->total / 65535 + 1, sizeof *tries);
	if (!lists || !tries)
		return nomem(err);
	uint32_t nlists = 0, ntries = 0;
	cover cur = {NONE, false};
	uint32_t start = 0;
	for (uint32_t i = 0; i <= l->n; i++) {
		cover cv = i < l->n ? cover_of(e, l, &l->v[i]) : (cover){NONE, false};
		uint32_t addr = i < l->n ? l->v[i].addr : l->total;
		if (i < l->n && same(cv, cur))
			continue;
		if (cur.list != NONE || cur.added) {
			uint32_t h = 0;
			while (h < nlists && !same(lists[h], cur))
				h++;
			if (h == nlists)
				lists[nlists++] = cur;
			for (uint32_t s = start; s < addr; s += 65535)
				tries[ntries++] = (dex_try){s, addr - s < 65535 ? addr - s : 65535, h};
		}
		cur = cv;
		start = addr;
	}
	if (ntries > 65535)
		return fail(e, err, TC_ELIMIT, NONE, "%u try items", ntries);
	dex_handler *hs = arena_array(keep, nlists ? nlists : 1, sizeof *hs);
	if (!hs)
		return nomem(err);
	for (uint32_t h = 0; h < nlists; h++) {
		cover v = lists[h];
		const dex_handler *o = v.list != NONE ? &e->code->handlers[v.list] : NULL;
		uint32_t n = o ? o->n : 0;
		hs[h].n = n;
		if (!(hs[h].catches = arena_array(keep, n ? n : 1, sizeof *hs[h].catches)))
			return nomem(err);
		for (uint32_t k = 0; k < n; k++)
			hs[h].catches[k] = (dex_catch){o->catches[k].type, l->v[l->entry[e->catch_to[v.list][k]]].addr};
		hs[h].catch_all = DEX_NO_INDEX;
		if (o && e->catch_all[v.list] != NONE)
			hs[h].catch_all = l->v[l->entry[e->catch_all[v.list]]].addr;
		if (v.added)
			hs[h].catch_all = l->v[l->handler].addr;
	}
	c->ntries = ntries;
	if (ntries && !(c->tries = arena_dup(keep, tries, ntries * sizeof *tries)))
		return nomem(err);
	c->nhandlers = nlists;
	c->handlers = hs;
	return TC_OK;
}

static int debug_info(dex_editor *e, layout *l, dex_code *c, arena *keep, tc_error *err)
{
	const dex_blob *old = e->code->debug;
	if (!old)
		return TC_OK;
	uint32_t n = e->code->ninsns;
	uint32_t *map = arena_array(e->a, n + 1, sizeof *map);
	if (!map)
		return nomem(err);
	/* an address maps to its instruction or payload; one that starts neither (inside an
	 * instruction, or the padding before a payload) keeps its distance from the start
	 * before it, within that item's new size; the end maps to the new end */
	uint32_t old_at = 0, new_at = 0, new_size = 0;
	for (uint32_t a = 0; a < n; a++) {
		uint32_t i = e->at[a], p = NONE;
		if (i == NONE)
			for (uint32_t k = 0; k < e->npays && p == NONE; k++)
				if (e->pays[k].addr == a && e->pays[k].owner != NONE)
					p = k;
		if (i != NONE || p != NONE) {
			const node *x = &l->v[i != NONE ? l->self[i] : l->pnode[p]];
			old_at = a;
			new_at = x->addr;
			new_size = node_size(x);
		}
		uint32_t d = a - old_at;
		map[a] = new_at + (d < new_size ? d : new_size);
	}
	map[n] = l->total;
	dex_value_ctx vc = {.limit = {e->d->strings.n, e->d->types.n, e->d->protos.n, e->d->fields.n,
	                              e->d->methods.n, e->d->nmhandles}};
	tc_buf b;
	buf_init(&b);
	tc_reader r = rd_at(old->data, old->len, 0, err, "debug_info_item");
	int rc = dex_value_debug(&r, &b, &vc, map, n);
	if (rc == TC_OK && b.err)
		rc = nomem(err);
	dex_blob *nb = rc == TC_OK ? arena_zalloc(keep, sizeof *nb) : NULL;
	if (rc == TC_OK && (!nb || !(nb->data = arena_dup(keep, b.data, b.len))))
		rc = nomem(err);
	if (rc == TC_OK) {
		nb->len = (uint32_t)b.len;
		c->debug = nb;
	}
	buf_free(&b);
	return rc;
}

static uint32_t arg_words(const dex_insn *d)
{
	if (!dex_op_has(d->op, DEX_OPF_INVOKE | DEX_OPF_HAS_RESULT))
		return 0;
	return d->nargs;
}

int dex_edit_commit(dex_editor *e, arena *keep, dex_code **out, tc_error *err)
{
	layout l = {0};
	if (build(e, &l, err) != TC_OK)
		return err->code;
	dex_code *c = arena_zalloc(keep, sizeof *c);
	uint8_t *insns = arena_alloc(keep, 2 * (size_t)(l.total ? l.total : 1));
	if (!c || !insns)
		return nomem(err);
	if (emit(e, &l, insns, err) != TC_OK)
		return err->code;
	c->regs = dex_edit_regs(e);
	c->ins = e->code->ins;
	c->outs = e->code->outs;
	for (uint32_t i = 0; i < l.n; i++)
		if (l.v[i].kind == N_NEW && arg_words(&l.v[i].d) > c->outs)
			c->outs = (uint16_t)arg_words(&l.v[i].d);
	c->ninsns = l.total;
	c->insns = insns;
	if (exceptions(e, &l, c, keep, err) != TC_OK || debug_info(e, &l, c, keep, err) != TC_OK)
		return err->code;
	*out = c;
	return TC_OK;
}

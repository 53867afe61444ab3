/* Tight frames for the stress tests; see tighten.h. */
#include "tighten.h"

#include <stdbool.h>
#include <string.h>

#include "bytes.h"
#include "dex_op.h"

#define NONE UINT32_MAX
/* bitsets of this many bits per register or instruction at most (the analysis is
 * O(instructions x registers)); larger methods are left as they are */
#define MAX_CELLS (1u << 26)

/* A register field of a decoded instruction: a, b, c, or argument k of a 35c/45cc. */
enum { F_A, F_B, F_C, F_ARG0 };

typedef struct opnd {
	uint8_t f;
	bool wide, use, def;
} opnd;

/* The register operands of d but those of range formats (a..a+nargs-1, all read). */
static uint32_t operands(const dex_insn *d, opnd *o)
{
	uint16_t fl = dex_op_table[d->op].flags;
	uint32_t n = 0;
	switch (d->fmt) {
	case DF_10x: case DF_10t: case DF_20t: case DF_30t: case DF_PAYLOAD: case DF_3rc: case DF_4rcc:
		return 0;
	case DF_35c: case DF_45cc:
		for (uint32_t i = 0; i < d->nargs; i++)
			o[n++] = (opnd){(uint8_t)(F_ARG0 + i), false, true, false};
		return n;
	default:
		break;
	}
	/* vA is written by SETS_A instructions, and also read by check-cast (it refines
	 * the type in place) and the binop/2addr forms */
	bool def = (fl & DEX_OPF_SETS_A) != 0;
	bool use = !def || d->op == DEX_OP_CHECK_CAST || (d->op >= 0xb0 && d->op <= 0xcf);
	o[n++] = (opnd){F_A, (fl & DEX_OPF_WIDE_A) != 0, use, def};
	switch (d->fmt) {
	case DF_12x: case DF_22x: case DF_32x: case DF_22b: case DF_22s: case DF_22t: case DF_22c:
		o[n++] = (opnd){F_B, (fl & DEX_OPF_WIDE_B) != 0, true, false};
		break;
	case DF_23x:
		o[n++] = (opnd){F_B, (fl & DEX_OPF_WIDE_B) != 0, true, false};
		o[n++] = (opnd){F_C, (fl & DEX_OPF_WIDE_C) != 0, true, false};
		break;
	default:
		break;
	}
	return n;
}

static uint32_t get(const dex_insn *d, uint8_t f)
{
	return f == F_A ? d->a : f == F_B ? d->b : f == F_C ? d->c : d->args[f - F_ARG0];
}

static void set(dex_insn *d, uint8_t f, uint32_t v)
{
	if (f == F_A)
		d->a = v;
	else if (f == F_B)
		d->b = v;
	else if (f == F_C)
		d->c = v;
	else
		d->args[f - F_ARG0] = (uint16_t)v;
}

static bool is_range(const dex_insn *d)
{
	return d->fmt == DF_3rc || d->fmt == DF_4rcc;
}

/* --- bitsets --------------------------------------------------------------------------- */

static bool bit(const uint64_t *s, uint32_t i)
{
	return s[i / 64] >> (i % 64) & 1;
}

static void put(uint64_t *s, uint32_t i)
{
	s[i / 64] |= (uint64_t)1 << (i % 64);
}

/* --- the method -------------------------------------------------------------------------- */

typedef struct meth {
	const dex_file *d;
	const dex_code *c;
	arena *a;
	uint32_t R, ins, L;   /* registers, ins, locals */
	uint32_t n;           /* instructions (payloads excluded) */
	uint32_t *pc;         /* per instruction: its address */
	uint32_t *at;         /* address -> instruction, or NONE */
	uint32_t rw;          /* words of a register set */
	uint64_t *use, *def;  /* per instruction: registers read, written */
	bool *used, *link;    /* per register: named at all; r and r + 1 must stay adjacent */
	bool monitors;
} meth;

static void mark(meth *m, uint32_t i, uint32_t r, bool wide, bool use, bool def)
{
	for (uint32_t k = 0; k <= (uint32_t)wide; k++) {
		m->used[r + k] = true;
		if (use)
			put(m->use + (size_t)i * m->rw, r + k);
		if (def)
			put(m->def + (size_t)i * m->rw, r + k);
	}
	if (wide)
		m->link[r] = true;
}

/* Decodes the code and records what each instruction reads and writes. False when it
 * does not decode or names a register past the frame. */
static bool scan(meth *m)
{
	const dex_code *c = m->c;
	dex_insn op;
	opnd o[5];
	for (uint32_t pc = 0, size; pc < c->ninsns; pc += size) {
		if (!(size = dex_op_decode(c->insns, c->ninsns, pc, m->d->version, &op)))
			return false;
		if (op.fmt == DF_PAYLOAD)
			continue;
		uint32_t i = m->n++;
		m->pc[i] = pc;
		m->at[pc] = i;
		m->monitors |= op.op == DEX_OP_MONITOR_ENTER;
		if (is_range(&op)) {
			if ((uint64_t)op.a + op.nargs > m->R)
				return false;
			for (uint32_t k = 0; k < op.nargs; k++) {
				mark(m, i, op.a + k, false, true, false);
				if (k + 1 < op.nargs)
					m->link[op.a + k] = true;
			}
			continue;
		}
		uint32_t n = operands(&op, o);
		for (uint32_t k = 0; k < n; k++) {
			uint32_t r = get(&op, o[k].f);
			if ((uint64_t)r + o[k].wide >= m->R)
				return false;
			mark(m, i, r, o[k].wide, o[k].use, o[k].def);
		}
		/* a wide argument of a call is two neighbouring arguments: without the proto,
		 * every neighbouring pair stays together */
		if (op.fmt == DF_35c || op.fmt == DF_45cc)
			for (uint32_t k = 0; k + 1 < op.nargs; k++)
				if (op.args[k + 1] == op.args[k] + 1u)
					m->link[op.args[k]] = true;
	}
	return true;
}

/* Instruction index at address addr, or NONE. */
static uint32_t insn_at(const meth *m, int64_t addr)
{
	return addr >= 0 && addr < m->c->ninsns ? m->at[addr] : NONE;
}

/* Adds to out the registers live on entry to the successors of instruction i: the
 * normal ones, and (a throwing instruction in a try) its handlers, which ART's verifier
 * enters with the state from before the instruction. exc gets the handlers' part. */
static void live_after(const meth *m, uint32_t i, const uint64_t *live, uint64_t *out, uint64_t *exc)
{
	const dex_code *c = m->c;
	uint32_t rw = m->rw;
	dex_insn op;
	dex_op_decode(c->insns, c->ninsns, m->pc[i], m->d->version, &op);
	uint16_t fl = dex_op_table[op.op].flags;
	memset(out, 0, rw * sizeof *out);
	memset(exc, 0, rw * sizeof *exc);
	uint32_t next = !(fl & DEX_OPF_GOTO) && i + 1 < m->n ? i + 1 : NONE;
	if (next != NONE)
		for (uint32_t k = 0; k < rw; k++)
			out[k] |= live[(size_t)next * rw + k];
	int64_t to = (int64_t)m->pc[i] + op.target;
	if (fl & DEX_OPF_BRANCH) {
		uint32_t t = insn_at(m, to);
		if (t != NONE)
			for (uint32_t k = 0; k < rw; k++)
				out[k] |= live[(size_t)t * rw + k];
	}
	if ((fl & DEX_OPF_SWITCH) && to >= 0 && to + 2 <= c->ninsns) {
		const uint8_t *p = c->insns + 2 * (size_t)to;
		uint32_t count = get_le2(p + 2);
		size_t first = op.op == DEX_OP_PACKED_SWITCH ? 8 : 4 + 4 * (size_t)count;
		if ((size_t)to * 2 + first + 4 * (size_t)count <= 2 * (size_t)c->ninsns)
			for (uint32_t e = 0; e < count; e++) {
				uint32_t t = insn_at(m, (int64_t)m->pc[i] + (int32_t)get_le4(p + first + 4 * e));
				if (t != NONE)
					for (uint32_t k = 0; k < rw; k++)
						out[k] |= live[(size_t)t * rw + k];
			}
	}
	if (!(fl & DEX_OPF_CAN_THROW))
		return;
	for (uint32_t t = 0; t < c->ntries; t++) {
		const dex_try *tr = &c->tries[t];
		if (m->pc[i] < tr->start || m->pc[i] - tr->start >= tr->count || tr->handler >= c->nhandlers)
			continue;
		const dex_handler *h = &c->handlers[tr->handler];
		for (uint32_t e = 0; e <= h->n; e++) {
			uint32_t addr = e < h->n ? h->catches[e].addr : h->catch_all;
			uint32_t hi = addr == DEX_NO_INDEX ? NONE : insn_at(m, addr);
			if (hi != NONE)
				for (uint32_t k = 0; k < rw; k++)
					exc[k] |= live[(size_t)hi * rw + k];
		}
	}
}

/* The interference of registers (R bitsets of R bits): q and r interfere when one is
 * written where the other is live afterwards (on a normal or an exception edge), or
 * both hold values on entry. Every Dalvik method the verifier accepts reads a register
 * only after writing it on every path (parameters are written on entry), so registers
 * that do not interfere can share a number. */
static uint64_t *interference(meth *m)
{
	uint32_t rw = m->rw, n = m->n, R = m->R;
	uint64_t *live = arena_zalloc(m->a, ((size_t)n + 1) * rw * sizeof *live);
	uint64_t *out = arena_array(m->a, rw, sizeof *out), *exc = arena_array(m->a, rw, sizeof *exc);
	uint64_t *intf = arena_zalloc(m->a, (size_t)R * rw * sizeof *intf);
	if (!live || !out || !exc || !intf)
		return NULL;
	/* live on entry: what it reads, what is live after it that it does not write, and
	 * what its handlers need */
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = n; i-- > 0;) {
			live_after(m, i, live, out, exc);
			const uint64_t *use = m->use + (size_t)i * rw, *def = m->def + (size_t)i * rw;
			uint64_t *in = live + (size_t)i * rw;
			for (uint32_t k = 0; k < rw; k++) {
				uint64_t v = (out[k] & ~def[k]) | use[k] | exc[k];
				changed |= v != in[k];
				in[k] = v;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		live_after(m, i, live, out, exc);
		const uint64_t *def = m->def + (size_t)i * rw;
		for (uint32_t k = 0; k < rw; k++)
			out[k] |= exc[k];
		for (uint32_t q = 0; q < R; q++) {
			if (!bit(def, q))
				continue;
			for (uint32_t r = 0; r < R; r++)
				if (r != q && bit(out, r) && !bit(def, r)) {
					put(intf + (size_t)q * rw, r);
					put(intf + (size_t)r * rw, q);
				}
		}
	}
	/* the parameters are written on entry */
	for (uint32_t p = m->L; p < R; p++)
		for (uint32_t r = 0; r < R; r++)
			if (r != p && n && bit(live, r)) {
				put(intf + (size_t)p * rw, r);
				put(intf + (size_t)r * rw, p);
			}
	/* with monitors, only registers nobody names are shared (see tighten.h) */
	if (m->monitors)
		for (uint32_t r = 0; r < R; r++)
			if (m->used[r])
				memset(intf + (size_t)r * rw, 0xff, rw * sizeof *intf);
	return intf;
}

/* The renaming (old register -> new), and the new registers_size; params: whether
 * locals may move into parameter registers. False when the frame cannot shrink. */
static bool plan(const meth *m, const uint64_t *intf, bool params, uint32_t *map, uint32_t *regs,
                 uint32_t *shared)
{
	uint32_t R = m->R, L = m->L, rw = m->rw;
	/* per target register (old numbering): the registers its members interfere with */
	uint64_t *held = arena_zalloc(m->a, (size_t)R * rw * sizeof *held);
	uint32_t *home = arena_array(m->a, R ? R : 1, sizeof *home); /* old -> target (old numbering) */
	if (!held || !home)
		return false;
	for (uint32_t r = 0; r < R; r++) {
		home[r] = NONE;
		if (r >= L) {
			home[r] = r;
			memcpy(held + (size_t)r * rw, intf + (size_t)r * rw, rw * sizeof *held);
		}
	}
	*shared = 0;
	bool crossing = false;
	for (uint32_t s = 0; s < L;) {
		uint32_t e = s;
		while (e + 1 < R && m->link[e])
			e++;
		uint32_t g = e - s + 1;
		if (e >= L)
			crossing = true; /* a block reaching into the parameters: stays on top */
		if (!m->used[s] || e >= L) {
			for (uint32_t k = s; k <= e && k < L; k++)
				if (m->used[k])
					home[k] = k;
			s = e + 1;
			continue;
		}
		uint32_t to = NONE;
		for (uint32_t p = L; params && to == NONE && p + g <= R; p++) {
			uint32_t k = 0;
			while (k < g && !bit(held + (size_t)(p + k) * rw, s + k))
				k++;
			if (k == g)
				to = p;
		}
		for (uint32_t t = 0; to == NONE && g == 1 && t < s; t++)
			if (home[t] == t && !bit(held + (size_t)t * rw, s))
				to = t;
		if (to == NONE)
			to = s;
		for (uint32_t k = 0; k < g; k++) {
			home[s + k] = to + k;
			uint64_t *h = held + (size_t)(to + k) * rw;
			const uint64_t *o = intf + (size_t)(s + k) * rw;
			for (uint32_t w = 0; w < rw; w++)
				h[w] |= o[w];
		}
		if (to >= L)
			*shared += g;
		s = e + 1;
	}
	/* the locals that keep a place of their own, numbered from v0 in order */
	uint32_t nl = 0;
	for (uint32_t r = 0; r < L; r++)
		if (home[r] == r)
			map[r] = nl++;
	/* ART: outs_size may pass registers_size only up to 5; the padding goes between the
	 * locals and the parameters, which a block crossing into them forbids */
	if (m->c->outs > 5 && nl + m->ins < m->c->outs) {
		if (crossing)
			return false;
		nl = m->c->outs - m->ins < L ? m->c->outs - m->ins : L;
	}
	uint32_t k = L - nl;
	for (uint32_t r = L; r < R; r++)
		map[r] = r - k;
	for (uint32_t r = 0; r < L; r++)
		if (home[r] == NONE)
			map[r] = 0; /* named by nothing */
		else if (home[r] >= L)
			map[r] = home[r] - k;
		else if (home[r] != r)
			map[r] = map[home[r]];
	*regs = nl + m->ins;
	return *regs < R;
}

/* Renames the registers of every instruction through map into out (a copy of the
 * code units); false when an operand no longer fits its format. */
static bool rename(const meth *m, const uint32_t *map, uint8_t *out)
{
	const dex_code *c = m->c;
	dex_insn op;
	opnd o[5];
	for (uint32_t i = 0; i < m->n; i++) {
		dex_op_decode(c->insns, c->ninsns, m->pc[i], m->d->version, &op);
		if (is_range(&op)) {
			op.a = op.nargs ? map[op.a] : 0;
		} else {
			uint32_t n = operands(&op, o);
			for (uint32_t k = 0; k < n; k++)
				set(&op, o[k].f, map[get(&op, o[k].f)]);
		}
		if (!dex_op_fits(&op) || !dex_op_encode(&op, out + 2 * (size_t)m->pc[i]))
			return false;
	}
	return true;
}

dex_code *tighten(const dex_file *d, dex_code *c, arena *keep, arena *scratch, tighten_stats *st)
{
	st->methods++;
	meth m = {.d = d, .c = c, .a = scratch, .R = c->regs, .ins = c->ins};
	m.L = m.R - m.ins;
	m.rw = (m.R + 63) / 64;
	uint32_t R = m.R, n = c->ninsns;
	if (m.ins > R || ((uint64_t)n + 1) * m.rw * 64 > MAX_CELLS || (uint64_t)R * m.rw * 64 > MAX_CELLS) {
		st->skipped++;
		return c;
	}
	m.pc = arena_array(scratch, n ? n : 1, sizeof *m.pc);
	m.at = arena_array(scratch, n ? n : 1, sizeof *m.at);
	m.use = arena_zalloc(scratch, (size_t)(n ? n : 1) * m.rw * sizeof *m.use);
	m.def = arena_zalloc(scratch, (size_t)(n ? n : 1) * m.rw * sizeof *m.def);
	m.used = arena_zalloc(scratch, R + 1);
	m.link = arena_zalloc(scratch, R + 1);
	uint32_t *map = arena_array(scratch, R + 1, sizeof *map);
	if (!m.pc || !m.at || !m.use || !m.def || !m.used || !m.link || !map) {
		st->skipped++;
		return c;
	}
	for (uint32_t a = 0; a < n; a++)
		m.at[a] = NONE;
	uint32_t regs = R, shared = 0;
	const uint64_t *intf = NULL;
	if (!scan(&m) || !(intf = interference(&m))) {
		st->skipped++;
		return c;
	}
	uint8_t *units = arena_alloc(keep, 2 * (size_t)n + 1);
	dex_code *nc = arena_zalloc(keep, sizeof *nc);
	if (!units || !nc) {
		st->skipped++;
		return c;
	}
	memcpy(units, c->insns, 2 * (size_t)n);
	/* moves into parameter registers may push an operand past 15 (or 255): then only
	 * moves down, which always fit */
	bool ok = plan(&m, intf, true, map, &regs, &shared) && rename(&m, map, units);
	if (!ok) {
		memcpy(units, c->insns, 2 * (size_t)n);
		ok = plan(&m, intf, false, map, &regs, &shared) && rename(&m, map, units);
	}
	if (ok) {
		*nc = *c;
		nc->it = (dex_item){0};
		nc->regs = (uint16_t)regs;
		nc->insns = units;
		nc->debug = NULL;
		c = nc;
		st->tightened++;
		st->removed += R - regs;
		st->into_params += shared;
	}
	st->no_locals += c->regs == c->ins;
	st->under3 += c->regs < 3;
	return c;
}

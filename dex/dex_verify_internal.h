/* Internal to dex/: the state of one method's check and the helpers both of its passes
 * use. The checker (dex_verify.h) is split as ART splits its verifier, one job a file:
 *   dex_verify_types.h, .c   the register types and their join (reg_type)
 *   dex_verify_static.c      the checks that need no flow: the method, its instructions,
 *                            operands, targets, payloads and try items (VerifyInstructions,
 *                            ScanTryCatchBlocks, the code item's limits)
 *   dex_verify.c             the dataflow: register lines, each instruction's effect, the
 *                            fixed point (register_line, method_verifier's interpreter),
 *                            and the two entry points
 * Rules cite ART's method verifier by the message it gives, so that a failure here can be
 * matched to what a device would say. Not a public header. */
#ifndef TC_DEX_VERIFY_INTERNAL_H
#define TC_DEX_VERIFY_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bytes.h"
#include "dex.h"
#include "dex_op.h"
#include "dex_verify.h"
#include "dex_verify_types.h"

#define NONE UINT32_MAX

/* Register line: nregs registers, then the result register (a pair: lo, hi). lk: per
 * register (and one virtual register for null, as ART's kVirtualNullRegister) the bit
 * set of monitor depths it locked; only kept when the method has monitor-enter. */
typedef struct line {
	uint32_t *t;
	uint32_t *lk;
	uint32_t depth;
	bool this_init;
	bool valid;
} line;

/* Flags per code unit (vm.fl). */
enum {
	F_START = 1,    /* an instruction starts here */
	F_LEADER = 2,   /* a branch, switch or handler target, or pc 0: a stored line */
	F_TRY = 4,      /* covered by a try item */
	F_HANDLER = 8,  /* a handler starts here */
};

/* One method's check: the method, its decoded instructions and flags per code unit (the
 * static checks fill them), the stored register lines and the work line (the dataflow),
 * the budget, and where the verdict goes. */
typedef struct vm {
	const dex_verify_file *f;
	const dex_file *d;
	const dex_code *code;
	const uint8_t *insns;
	uint32_t n;
	uint32_t nregs, nt;
	bool has_mon;
	dex_insn *ins;     /* the instructions (payloads too), decoded once, in order */
	uint32_t nins;
	uint32_t *at;      /* pc -> index in ins, where an instruction starts (F_START) */
	uint8_t *fl;
	uint32_t *tryh;    /* pc -> handler index, or NONE */
	uint32_t *lead;    /* pc -> line index, or NONE */
	uint32_t nlines;
	uint32_t *lpc;
	line *lines;
	uint8_t *changed;
	line work;
	uint64_t work_done; /* steps (see DEX_VERIFY_WORK_FACTOR) */
	uint32_t edges;     /* control-flow edges into stored lines, but fall-through */
	/* the method */
	uint32_t midx;
	uint32_t cls_type;
	const uint8_t *ret;
	uint32_t ret_type;
	bool is_static, is_init; /* is_init: an instance <init> of a class other than Object */
	const dex_class *cls;
	dex_verify_result *res;
	uint32_t pc;
	uint8_t op;
	arena *a;
} vm;

/* A hard failure, at v->pc (NONE: of the method); the first one is kept. Returns false. */
static inline bool fail(vm *v, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static inline bool fail(vm *v, const char *fmt, ...)
{
	if (v->res->failed)
		return false;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->res->msg, sizeof v->res->msg, fmt, ap);
	va_end(ap);
	v->res->failed = true;
	v->res->at_insn = v->pc != NONE;
	v->res->pc = v->pc == NONE ? 0 : v->pc;
	v->res->op = v->op;
	return false;
}

/* The descriptor of type idx, "?" when it has none. */
static inline const uint8_t *tdesc(const vm *v, uint32_t type, uint32_t *len)
{
	const uint8_t *s = dex_type_desc(v->d, type, len);
	if (!s) {
		*len = 1;
		return (const uint8_t *)"?";
	}
	return s;
}

/* The first character of type idx's descriptor (its kind), from the file's table. */
static inline uint8_t tchar(const vm *v, uint32_t type)
{
	if (type < v->f->ntypes)
		return v->f->tchar[type];
	uint32_t len;
	return tdesc(v, type, &len)[0];
}

/* Argument words of proto idx, `this` included unless is_static. */
static inline uint32_t proto_words(const vm *v, uint32_t proto, bool is_static)
{
	if (proto < v->f->nprotos)
		return v->f->pwords[proto] + !is_static;
	return dex_proto_words(v->d, proto, is_static);
}

/* Whether string idx is s, given s's index among the input's strings (known, or NONE):
 * an input string is s only at that index; one added since is compared. */
static inline bool str_is(const dex_file *d, uint32_t idx, uint32_t known, const char *s)
{
	return idx < d->strings.in ? idx == known : dex_str_eq(d, idx, s);
}

/* Register categories of operands and descriptors. */
enum { K_INT, K_FLOAT, K_LONG, K_DOUBLE, K_REF, K_WIDE /* long or double */ };

/* The register type a value of descriptor s has (the result of a get or a call). */
static inline int desc_kind(const uint8_t *s)
{
	switch (s[0]) {
	case 'Z': case 'B': case 'S': case 'C': case 'I': return K_INT;
	case 'F': return K_FLOAT;
	case 'J': return K_LONG;
	case 'D': return K_DOUBLE;
	case 'L': case '[': return K_REF;
	default: return -1; /* V */
	}
}

/* Which field descriptors an iget/iput/sget/sput variant (0..6: plain, wide, object,
 * boolean, byte, char, short) accepts (VerifyPrimitiveGet/Put: exact, but the plain
 * and wide forms also serve float and double). */
static inline bool field_fits(int variant, uint8_t c)
{
	switch (variant) {
	case 0: return c == 'I' || c == 'F';
	case 1: return c == 'J' || c == 'D';
	case 2: return c == 'L' || c == '[';
	case 3: return c == 'Z';
	case 4: return c == 'B';
	case 5: return c == 'C';
	default: return c == 'S';
	}
}

static const char *const variant_types[] = {"I or F", "J or D", "a reference", "Z", "B", "C", "S"};

/* Argument register i of an invoke or filled-new-array (35c/45cc: a list; else a range). */
static inline uint32_t argreg(const dex_insn *o, uint32_t i)
{
	return o->fmt == DF_35c || o->fmt == DF_45cc ? o->args[i] : o->a + i;
}

/* Code unit pc, and the 32-bit value of units pc and pc + 1 (payloads). */
static inline uint16_t unit(const vm *v, uint32_t pc)
{
	return get_le2(v->insns + 2 * (size_t)pc);
}

static inline int32_t unit32(const vm *v, uint32_t pc)
{
	return (int32_t)((uint32_t)unit(v, pc) | (uint32_t)unit(v, pc + 1) << 16);
}

/* The number of targets of the switch payload at `at`, and target i as an absolute
 * code-unit address (relative to the switch at pc, not to the payload). */
static inline uint32_t switch_count(const vm *v, uint32_t at)
{
	return unit(v, at + 1);
}

static inline int64_t switch_target(const vm *v, uint32_t pc, uint32_t at, uint32_t i)
{
	uint32_t n = unit(v, at + 1);
	uint32_t base = unit(v, at) == DPL_PACKED ? at + 4 : at + 2 + 2 * n;
	return (int64_t)pc + unit32(v, base + 2 * i);
}

/* dex_verify_static.c: the checks before the dataflow. static_checks decodes the
 * instructions into v->ins, marks starts, leaders and try ranges in v->fl and counts
 * v->nlines and v->edges; false on a failure (in v->res). no_code_checks is all a
 * method without code gets. invoke_proto: the argument words an invoke needs and its
 * proto, false (failed) when unknown. */
bool dex_verify_static_checks(vm *v, const dex_emethod *m, uint32_t ins_words);
void dex_verify_no_code_checks(vm *v, const dex_emethod *m);
bool dex_verify_invoke_proto(vm *v, const dex_insn *o, uint32_t *proto, uint32_t *words);

#endif

/* The checks of the method checker that need no flow (see dex_verify_internal.h): the
 * method itself, then each instruction's operands, registers, indices, branch and switch
 * targets and payloads, and the try items (ART's VerifyInstructions, ScanTryCatchBlocks,
 * and the code item limits of the file verifier's CheckIntraCodeItem). */
#include "dex_verify_internal.h"

#include <string.h>

static bool reg_ok(vm *v, uint32_t r, bool wide)
{
	if (r < v->nregs && (!wide || r + 1 < v->nregs))
		return true;
	return fail(v, "register v%u%s out of range (registers_size %u)", wide ? r + 1 : r,
	            wide ? " (second half of a pair)" : "", v->nregs);
}

static bool has_a(uint8_t fmt)
{
	switch (fmt) {
	case DF_10x: case DF_10t: case DF_20t: case DF_30t: case DF_35c: case DF_3rc:
	case DF_45cc: case DF_4rcc: case DF_PAYLOAD:
		return false;
	default:
		return true;
	}
}

static bool has_b(uint8_t fmt)
{
	switch (fmt) {
	case DF_12x: case DF_22x: case DF_23x: case DF_22b: case DF_22t: case DF_22s: case DF_22c:
	case DF_32x:
		return true;
	default:
		return false;
	}
}

static bool is_result_op(uint8_t op)
{
	return op >= DEX_OP_MOVE_RESULT && op <= DEX_OP_MOVE_RESULT_OBJECT;
}

/* The proto of call site cs, checked as ART's CheckCallSite does: its encoded array
 * starts with a method handle of kind invoke-static, a name and a method type, each
 * index in range. NONE and a reason in why when it does not. */
static uint32_t call_site_proto(const dex_file *d, uint32_t cs, const char **why)
{
	static const uint8_t want[3] = {0x16, 0x17, 0x15}; /* method handle, string, method type */
	const uint32_t limit[3] = {d->nmhandles, d->strings.n, d->protos.n};
	*why = "malformed";
	if (cs >= d->ncall_sites)
		return NONE;
	const dex_blob *b = d->call_sites[cs];
	tc_error err;
	tc_error_clear(&err);
	tc_reader r = rd_at(b->data, b->len, 0, &err, "call site");
	if (rd_uleb(&r) < 3) {
		*why = "has fewer than 3 arguments";
		return NONE;
	}
	for (int i = 0; i < 3; i++) {
		uint8_t h = rd_u1(&r);
		uint32_t size = (uint32_t)(h >> 5) + 1, val = 0;
		const uint8_t *p = rd_bytes(&r, size);
		if (!rd_ok(&r) || size > 4)
			return NONE;
		for (uint32_t k = 0; k < size; k++)
			val |= (uint32_t)p[k] << (8 * k);
		if ((h & 0x1f) != want[i] || val >= limit[i]) {
			*why = i == 0 ? "argument 0 is not a method handle" : i == 1 ? "argument 1 is not a string" :
			                                                           "argument 2 is not a method type";
			return NONE;
		}
		if (i == 0 && d->mhandles[val].kind != 0x04) {
			*why = "argument 0 method handle type is not invoke-static";
			return NONE;
		}
		if (i == 2)
			return val;
	}
	return NONE;
}

/* Argument words an invoke needs, and its proto; false (failed) when unknown. */
bool dex_verify_invoke_proto(vm *v, const dex_insn *o, uint32_t *proto, uint32_t *words)
{
	const dex_file *d = v->d;
	switch (o->op) {
	case DEX_OP_INVOKE_POLYMORPHIC: case DEX_OP_INVOKE_POLYMORPHIC_RANGE:
		*proto = o->idx2;
		*words = proto_words(v, *proto, false);
		return true;
	case DEX_OP_INVOKE_CUSTOM: case DEX_OP_INVOKE_CUSTOM_RANGE: {
		const char *why;
		*proto = call_site_proto(d, o->idx, &why);
		if (*proto == NONE)
			return fail(v, "call site %u %s", o->idx, why);
		*words = proto_words(v, *proto, true);
		return true;
	}
	default:
		*proto = d->methods.v[o->idx].proto;
		*words = proto_words(v, *proto,
		                     o->op == DEX_OP_INVOKE_STATIC || o->op == DEX_OP_INVOKE_STATIC_RANGE);
		return true;
	}
}

static bool target_ok(vm *v, int64_t t, const char *what)
{
	if (t < 0 || t >= v->n || !(v->fl[t] & F_START))
		return fail(v, "%s %lld is not the start of an instruction", what, (long long)t);
	uint8_t op = (uint8_t)unit(v, (uint32_t)t);
	if (op == DEX_OP_MOVE_EXCEPTION)
		return fail(v, "invalid use of move-exception: %s %lld", what, (long long)t);
	if (is_result_op(op))
		return fail(v, "%s %lld is a move-result", what, (long long)t);
	return true;
}


/* The type operands ART checks without flow: field descriptors against the instruction
 * (CheckFieldIndex), new-instance of a class, arrays of at most 255 dimensions, and
 * filled-new-array of int or reference elements only (CheckNewArray). */
static bool type_operand_ok(vm *v, const dex_insn *o)
{
	uint8_t op = o->op;
	uint32_t len;
	const uint8_t *s;
	if (op >= DEX_OP_IGET && op <= DEX_OP_SPUT_SHORT) {
		int variant = (op - (op >= DEX_OP_SGET ? DEX_OP_SGET : DEX_OP_IGET)) % 7;
		s = tdesc(v, v->d->fields.v[o->idx].type, &len);
		if (!field_fits(variant, s[0]))
			return fail(v, "field of type %.*s accessed as %s", (int)len, (const char *)s,
			            variant_types[variant]);
		return true;
	}
	if (op == DEX_OP_NEW_INSTANCE) {
		s = tdesc(v, o->idx, &len);
		return s[0] == 'L' || fail(v, "new-instance of %.*s", (int)len, (const char *)s);
	}
	if (op != DEX_OP_NEW_ARRAY && op != DEX_OP_FILLED_NEW_ARRAY && op != DEX_OP_FILLED_NEW_ARRAY_RANGE)
		return true;
	s = tdesc(v, o->idx, &len);
	uint32_t dims = 0;
	while (dims < len && s[dims] == '[')
		dims++;
	if (!dims)
		return fail(v, "%s of a non-array type %.*s", dex_op_table[op].name, (int)len, (const char *)s);
	if (dims > 255)
		return fail(v, "%s of %u dimensions (at most 255)", dex_op_table[op].name, dims);
	if (op != DEX_OP_NEW_ARRAY && dims == 1 && s[1] != 'I' && s[1] != 'L')
		return fail(v, "filled-new-array of %.*s (only int and reference elements)", (int)len,
		            (const char *)s);
	return true;
}


/* The payload a switch or fill-array-data at pc refers to, checked (CheckSwitchTargets,
 * CheckArrayData): inside the code, at an even address, with the right signature. */
static bool payload_at(vm *v, uint32_t pc, const dex_insn *o, uint16_t want, uint32_t *at)
{
	int64_t p = (int64_t)pc + o->target;
	if (p < 0 || p >= v->n)
		return fail(v, "payload offset %d leaves the code", o->target);
	if (p & 1)
		return fail(v, "payload at odd address %lld (payloads are 4-byte aligned)", (long long)p);
	const dex_insn *pl = (v->fl[p] & F_START) ? &v->ins[v->at[p]] : NULL;
	if (!pl || pl->fmt != DF_PAYLOAD || pl->payload != want)
		return fail(v, "no %s payload at %lld",
		            want == DPL_PACKED ? "packed-switch" : want == DPL_SPARSE ? "sparse-switch" : "array-data",
		            (long long)p);
	*at = (uint32_t)p;
	return true;
}


/* Marks pc as a leader (a stored line), counting them. */
static void leader(vm *v, uint32_t pc)
{
	if (!(v->fl[pc] & F_LEADER)) {
		v->fl[pc] |= F_LEADER;
		v->nlines++;
	}
}


/* Whether s[0..len) is a field or parameter descriptor (with void: a return type),
 * as SetTypesFromSignature reads one: a primitive, or arrays of a primitive or class,
 * or a class name ending in ';'. */
static bool desc_ok(const uint8_t *s, uint32_t len, bool allow_void)
{
	uint32_t i = 0;
	while (i < len && s[i] == '[')
		i++;
	if (i == len)
		return false;
	if (s[i] == 'L')
		return len - i >= 3 && s[len - 1] == ';' && !memchr(s + i, ';', len - i - 1);
	if (i + 1 != len)
		return false;
	return strchr("ZBSCIJFD", s[i]) || (s[i] == 'V' && allow_void && i == 0);
}


/* The index operand of o in range for its kind (ART's Check*Index): the reader checks
 * the input's, the editor's output is checked here before anything reads through it. */
static bool index_ok(vm *v, const dex_insn *o)
{
	const dex_file *d = v->d;
	static const char *const what[] = {
		[DI_STRING] = "string", [DI_TYPE] = "type", [DI_FIELD] = "field", [DI_METHOD] = "method",
		[DI_PROTO] = "prototype", [DI_CALL_SITE] = "call site", [DI_METHOD_HANDLE] = "method handle",
		[DI_METHOD_PROTO] = "method",
	};
	uint8_t ik = dex_op_table[o->op].idx;
	uint32_t limit;
	switch (ik) {
	case DI_STRING: limit = d->strings.n; break;
	case DI_TYPE: limit = d->types.n; break;
	case DI_FIELD: limit = d->fields.n; break;
	case DI_METHOD: case DI_METHOD_PROTO: limit = d->methods.n; break;
	case DI_PROTO: limit = d->protos.n; break;
	case DI_CALL_SITE: limit = d->ncall_sites; break;
	case DI_METHOD_HANDLE: limit = d->nmhandles; break;
	default: return true;
	}
	if (o->idx >= limit)
		return fail(v, "bad %s index %u (max %u)", what[ik], o->idx, limit);
	if (ik == DI_METHOD_PROTO && o->idx2 >= d->protos.n)
		return fail(v, "bad prototype index %u (max %u)", o->idx2, d->protos.n);
	return true;
}


/* The method itself (ART's Verify and SetTypesFromSignature, and the code item limits
 * of the file verifier's CheckIntraCodeItem, which the editor's output has not met). */
static bool method_checks(vm *v, const dex_emethod *m, uint32_t ins_words)
{
	const dex_code *c = v->code;
	const dex_file *d = v->d;
	const dex_mid *mid = &d->methods.v[m->idx];
	v->pc = NONE;
	if ((m->flags & DACC_CONSTRUCTOR) && !str_is(d, mid->name, v->f->s_init, "<init>") &&
	    !str_is(d, mid->name, v->f->s_clinit, "<clinit>"))
		return fail(v, "method is marked as constructor, but not named accordingly");
	if (c->ins > c->regs)
		return fail(v, "bad register counts (ins=%u regs=%u)", c->ins, c->regs);
	if (c->outs > 5 && c->outs > c->regs)
		return fail(v, "outs_size %u > registers_size %u (only up to 5 may pass it)", c->outs, c->regs);
	const dex_proto *pr = &d->protos.v[mid->proto];
	for (uint32_t p = 0; pr->params && p < pr->params->n; p++) {
		uint32_t len;
		const uint8_t *s = tdesc(v, pr->params->types[p], &len);
		if (!desc_ok(s, len, false))
			return fail(v, "unexpected signature type char in parameter %u '%.*s'", p, (int)len, (const char *)s);
	}
	uint32_t len;
	const uint8_t *s = tdesc(v, pr->ret, &len);
	if (!desc_ok(s, len, true))
		return fail(v, "unexpected char in return type descriptor '%.*s'", (int)len, (const char *)s);
	if (c->ins != ins_words)
		return fail(v, "ins_size %u, but the proto has %u argument words", c->ins, ins_words);
	return true;
}


/* A method without code (ART's Verify): only abstract and native ones; a native one
 * annotated @FastNative is not synchronized, one @CriticalNative is static, not
 * synchronized, and has no reference in its signature. */
void dex_verify_no_code_checks(vm *v, const dex_emethod *m)
{
	const dex_file *d = v->d;
	if (!(m->flags & (DACC_NATIVE | DACC_ABSTRACT))) {
		fail(v, "zero-length code in concrete non-native method");
		return;
	}
	if (!(m->flags & DACC_NATIVE))
		return;
	bool sync = (m->flags & DACC_SYNCHRONIZED) != 0;
	if (sync && dex_member_annotated(d, v->cls, m->idx, false, "Ldalvik/annotation/optimization/FastNative;")) {
		fail(v, "fast native methods cannot be synchronized");
		return;
	}
	if (!dex_member_annotated(d, v->cls, m->idx, false, "Ldalvik/annotation/optimization/CriticalNative;"))
		return;
	if (sync) {
		fail(v, "critical native methods cannot be synchronized");
		return;
	}
	if (!(m->flags & DACC_STATIC)) {
		fail(v, "critical native methods must be static");
		return;
	}
	const dex_proto *pr = &d->protos.v[d->methods.v[m->idx].proto];
	bool refs = tchar(v, pr->ret) == 'L' || tchar(v, pr->ret) == '[';
	for (uint32_t p = 0; pr->params && p < pr->params->n; p++)
		refs |= desc_kind((const uint8_t[]){tchar(v, pr->params->types[p])}) == K_REF;
	if (refs)
		fail(v, "critical native methods must not have references as arguments or return type");
}

/* The method, then the instructions one by one, the try items and the handlers. */
bool dex_verify_static_checks(vm *v, const dex_emethod *m, uint32_t ins_words)
{
	const dex_code *c = v->code;
	if (!method_checks(v, m, ins_words))
		return false;
	if (v->n == 0)
		return fail(v, "empty code (code item has no opcode)");
	for (uint32_t pc = 0; pc < v->n;) {
		v->at[pc] = v->nins;
		dex_insn *o = &v->ins[v->nins++];
		uint32_t size = dex_op_decode(v->insns, v->n, pc, v->d->version, o);
		if (!size) {
			v->pc = pc;
			v->op = (uint8_t)unit(v, pc);
			return fail(v, "undecodable instruction");
		}
		o->size = size;
		v->fl[pc] |= F_START;
		if (o->op == DEX_OP_MONITOR_ENTER && o->fmt != DF_PAYLOAD)
			v->has_mon = true;
		pc += size;
	}
	v->work_done += v->n;
	v->pc = NONE;
	/* try items (ScanTryCatchBlocks, and the file verifier's order): inside the code,
	 * starting on an instruction (the end may fall anywhere: instructions that start
	 * before it are covered), sorted and disjoint, each naming a handler */
	uint32_t prev_end = 0;
	for (uint32_t i = 0; i < c->ntries; i++) {
		const dex_try *t = &c->tries[i];
		uint32_t end = t->start + t->count;
		if (!t->count || t->start >= v->n || t->count > v->n - t->start)
			return fail(v, "bad exception entry: startAddr=%u endAddr=%u (size=%u)", t->start, end, v->n);
		if (t->start < prev_end)
			return fail(v, "try item [%u, %u) out of order or overlapping the one before", t->start, end);
		if (!(v->fl[t->start] & F_START))
			return fail(v, "'try' block starts inside an instruction (%u)", t->start);
		if (t->handler >= c->nhandlers)
			return fail(v, "try item [%u, %u) names no catch handler", t->start, end);
		prev_end = end;
		v->work_done += t->count;
		for (uint32_t pc = t->start; pc < end; pc++) {
			v->fl[pc] |= F_TRY;
			v->tryh[pc] = t->handler;
		}
	}
	for (uint32_t i = 0; i < c->nhandlers; i++) {
		const dex_handler *h = &c->handlers[i];
		for (uint32_t k = 0; k <= h->n; k++) {
			uint32_t addr = k < h->n ? h->catches[k].addr : h->catch_all;
			if (addr == DEX_NO_INDEX)
				continue;
			if (k < h->n && h->catches[k].type >= v->d->types.n)
				return fail(v, "bad type index %u (max %u) of a catch", h->catches[k].type, v->d->types.n);
			if (addr >= v->n || !(v->fl[addr] & F_START))
				return fail(v, "exception handler starts at bad address (%u): not the start of an "
				            "instruction", addr);
			if (is_result_op((uint8_t)unit(v, addr)))
				return fail(v, "exception handler at %u begins with move-result", addr);
			leader(v, addr);
			v->fl[addr] |= F_HANDLER;
		}
	}
	for (uint32_t k = 0, pc = 0; k < v->nins; pc += v->ins[k++].size) {
		const dex_insn *o = &v->ins[k];
		v->pc = pc;
		v->op = o->op;
		if (o->fmt == DF_PAYLOAD)
			continue;
		uint32_t flags = dex_op_table[o->op].flags;
		if (!index_ok(v, o))
			return false;
		/* exception edges: a throwing instruction in a try, to each of its handlers */
		if ((flags & DEX_OPF_CAN_THROW) && (v->fl[pc] & F_TRY)) {
			const dex_handler *h = &c->handlers[v->tryh[pc]];
			v->edges += h->n + (h->catch_all != DEX_NO_INDEX);
		}
		if (has_a(o->fmt) && !reg_ok(v, o->a, flags & DEX_OPF_WIDE_A))
			return false;
		if (has_b(o->fmt) && !reg_ok(v, o->b, flags & DEX_OPF_WIDE_B))
			return false;
		if (o->fmt == DF_23x && !reg_ok(v, o->c, flags & DEX_OPF_WIDE_C))
			return false;
		if (o->fmt == DF_35c || o->fmt == DF_45cc) {
			for (uint32_t i = 0; i < o->nargs; i++)
				if (!reg_ok(v, o->args[i], false))
					return false;
		}
		if ((o->fmt == DF_3rc || o->fmt == DF_4rcc) && o->nargs && !reg_ok(v, o->a + o->nargs - 1, false))
			return false;
		if (flags & DEX_OPF_INVOKE) {
			uint32_t proto, words;
			/* kVerifyVarArgNonZero: every invoke but static and custom has a receiver */
			bool receiver = o->op != DEX_OP_INVOKE_STATIC && o->op != DEX_OP_INVOKE_STATIC_RANGE &&
			                o->op != DEX_OP_INVOKE_CUSTOM && o->op != DEX_OP_INVOKE_CUSTOM_RANGE;
			if (receiver && o->nargs == 0)
				return fail(v, "invalid arg count (0) in %srange invoke",
				            o->fmt == DF_3rc || o->fmt == DF_4rcc ? "" : "non-");
			if (!dex_verify_invoke_proto(v, o, &proto, &words))
				return false;
			if (o->nargs != words)
				return fail(v, "%u argument registers, the callee's proto needs %u", o->nargs, words);
			if (o->nargs > c->outs)
				return fail(v, "invoke passes %u argument words, outs_size is %u", o->nargs, c->outs);
		}
		if (dex_op_table[o->op].idx == DI_FIELD || dex_op_table[o->op].idx == DI_TYPE) {
			if (!type_operand_ok(v, o))
				return false;
		}
		if (o->op == DEX_OP_MOVE_EXCEPTION && v->pc == 0)
			return fail(v, "invalid use of move-exception (at pc 0)");
		if (flags & DEX_OPF_BRANCH) {
			if (o->target == 0 && o->op != DEX_OP_GOTO_32)
				return fail(v, "branch offset 0 (only goto/32 may target itself)");
			if (!target_ok(v, (int64_t)v->pc + o->target, "branch target"))
				return false;
			leader(v, v->pc + (uint32_t)o->target);
			v->edges++;
		}
		if (flags & (DEX_OPF_SWITCH | DEX_OPF_ARRAYDATA)) {
			uint16_t want = o->op == DEX_OP_PACKED_SWITCH ? DPL_PACKED :
			                o->op == DEX_OP_SPARSE_SWITCH ? DPL_SPARSE : DPL_ARRAY;
			uint32_t at = 0;
			if (!payload_at(v, v->pc, o, want, &at))
				return false;
			if (want == DPL_PACKED && switch_count(v, at) > 1 &&
			    unit32(v, at + 2) > INT32_MAX - (int32_t)(switch_count(v, at) - 1))
				return fail(v, "packed-switch keys overflow int from %d", unit32(v, at + 2));
			if (want == DPL_SPARSE) {
				uint32_t n = switch_count(v, at);
				for (uint32_t i = 1; i < n; i++)
					if (unit32(v, at + 2 + 2 * i) <= unit32(v, at + 2 + 2 * (i - 1)))
						return fail(v, "sparse-switch keys not ascending at entry %u", i);
			}
			if (want != DPL_ARRAY) {
				for (uint32_t i = 0; i < switch_count(v, at); i++) {
					int64_t t = switch_target(v, v->pc, at, i);
					if (!target_ok(v, t, "switch target"))
						return false;
					leader(v, (uint32_t)t);
					v->edges++;
				}
			}
		}
	}
	leader(v, 0);
	return true;
}

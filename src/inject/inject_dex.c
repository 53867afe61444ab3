/* Phase 2 for one dex class: the same calls as inject.c puts into class files, through
 * dex/'s entry and exit hooks (dex_hook.h):
 *
 *   entry (constructors: right after this/super init):  const vS, #id; invoke-static i(I)V
 *   onWindowFocusChanged of an Activity, after that:     invoke-static {p0, p1}, at
 *   before every return:                                 const vS, #id; invoke-static o(I)V
 *   a catch-all over the rest, rethrowing:               const vS, #id; invoke-static o(I)V
 *
 * The edited code comes from the worker's keep arena and replaces the method's code in
 * the dex model; the model's ids were added before the phase (dexin_prepare), so
 * workers only read it. Every rewritten method is checked first with ART's method
 * verifier rules (dex_verify.h, in the final model, with --strict-monitors' rule too:
 * a probe must not leave a lock held): a rewrite that breaks one is not used. A method
 * the editor refuses, or whose rewrite fails the check, stays as it was, reported with
 * the rule; when the input method already breaks the rules, the report says so rather
 * than blame the rewrite. */
#include <stdio.h>
#include <string.h>

#include "dex.h"
#include "dex_edit.h"
#include "dex_hook.h"
#include "dex_op.h"
#include "dex_verify.h"
#include "pipeline/pipeline.h"

/* The override of Activity's: a direct method (static or private) overrides nothing */
static bool is_focus(const dex_file *d, const dex_emethod *m)
{
	char desc[8];
	const dex_mid *mid = &d->methods.v[m->idx];
	return !(m->flags & (DACC_STATIC | DACC_PRIVATE)) && dex_str_eq(d, mid->name, "onWindowFocusChanged") &&
	       dex_proto_desc(d, mid->proto, desc, sizeof desc) && !strcmp(desc, "(Z)V");
}

/* Checks code c as method m of class k (flags and index of m, c for its code) into r;
 * TC_ENOMEM or TC_OK. */
static int check(const dex_verify_file *f, arena *scratch, const dex_class *k, const dex_emethod *m, dex_code *c,
                 dex_verify_result *r)
{
	dex_emethod as = {m->idx, m->flags, c};
	arena_reset(scratch);
	return dex_verify_method(f, k, &as, scratch, r) == 0 ? TC_OK : TC_ENOMEM;
}

/* The verdict r as an error: the rule's place as the part, its message as the message. */
static int refuse(const dex_verify_result *r, const char *what, tc_error *err)
{
	bool hard = r->failed;
	char part[200];
	if (hard && !r->at_insn)
		snprintf(part, sizeof part, "%s", what);
	else
		snprintf(part, sizeof part, "%s, at code unit %u (%s)", what, hard ? r->pc : r->lock_pc,
		         dex_op_table[hard ? r->op : r->lock_op].name);
	return tc_fail(err, TC_EUNSUPPORTED, TC_NO_OFFSET, part, "%s", hard ? r->msg : r->lock_msg);
}

int inject_dex_accept(const dex_verify_file *f, arena *scratch, pl_unit *u, const dex_class *k, const dex_emethod *m,
                      dex_code *c, tc_error *err)
{
	dex_verify_result r;
	if (check(f, scratch, k, m, c, &r) != TC_OK)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	u->checked++;
	if (!r.failed && !r.locking)
		return TC_OK;
	dex_verify_result before = {0};
	if (m->code && check(f, scratch, k, m, m->code, &before) != TC_OK)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	if (before.failed || before.locking) {
		u->input_fails++;
		return refuse(&before, "the input method already breaks ART's verifier rules (left as it was)", err);
	}
	u->check_refused++;
	return refuse(&r, "the rewritten code would break ART's verifier rules (left as it was)", err);
}

static int edit(const dexin *x, pl_unit *u, pl_worker *w, const dex_class *k, dex_emethod *m, uint32_t id, bool focus,
                tc_error *err)
{
	const dex_file *d = &x->d;
	arena_reset(&w->scratch);
	dex_hook h = {.entry = id ? x->beat_i : DEX_NO_INDEX,
	           .exit = id ? x->beat_o : DEX_NO_INDEX,
	           .value = (int32_t)id,
	           .after_init = id && dex_str_eq(d, d->methods.v[m->idx].name, "<init>"),
	           .extra = focus ? x->beat_at : DEX_NO_INDEX,
	           .extra_words = 2};
	dex_editor *e;
	dex_code *c;
	if (dex_edit_open(&e, d, m->code, m->idx, (m->flags & DACC_STATIC) != 0, &w->scratch, err) != TC_OK ||
	    dex_hook_apply(e, &h, err) != TC_OK || dex_edit_commit(e, &w->keep, &c, err) != TC_OK ||
	    inject_dex_accept(&x->vfy, &w->scratch, u, k, m, c, err) != TC_OK)
		return err->code;
	m->code = c;
	return TC_OK;
}

/* public void onWindowFocusChanged(boolean z) { super.onWindowFocusChanged(z); at(this, z); }
 * as two registers (this, z) and three instructions. */
static int add_focus(const dexin *x, pl_unit *u, pl_worker *w, dex_class *k, tc_error *err)
{
	dex_cdata *cd = k->data;
	uint32_t nv = cd ? cd->nvmethods : 0;
	for (uint32_t i = 0; i < dex_cdata_nmethods(cd); i++) {
		const dex_emethod *m = dex_cdata_method(cd, i);
		if (m->idx == u->focus_method) /* collect.c found none (pl_unit.focus_blocked) */
			return tc_fail(err, TC_EUNSUPPORTED, TC_NO_OFFSET, "class",
			               "it declares an onWindowFocusChanged(Z)V (flags 0x%x) already", m->flags);
	}
	dex_insn seq[3] = {{.op = DEX_OP_INVOKE_SUPER, .fmt = DF_35c, .idx = u->focus_super, .nargs = 2, .args = {0, 1}},
	              {.op = DEX_OP_INVOKE_STATIC, .fmt = DF_35c, .idx = x->beat_at, .nargs = 2, .args = {0, 1}},
	              {.op = DEX_OP_RETURN_VOID, .fmt = DF_10x}};
	dex_code *c = arena_zalloc(&w->keep, sizeof *c);
	uint8_t *insns = arena_alloc(&w->keep, 2 * 7);
	dex_emethod *vm = arena_array(&w->keep, nv + 1, sizeof *vm);
	if (!c || !insns || !vm || (!cd && !(cd = arena_zalloc(&w->keep, sizeof *cd))))
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	uint8_t *p = insns;
	for (int i = 0; i < 3; i++) {
		dex_op_encode(&seq[i], p);
		p += 2 * dex_op_fmt_size(seq[i].fmt);
	}
	*c = (dex_code){.regs = 2, .ins = 2, .outs = 2, .ninsns = 7, .insns = insns};
	dex_emethod added = {u->focus_method, DACC_PUBLIC, NULL};
	if (inject_dex_accept(&x->vfy, &w->scratch, u, k, &added, c, err) != TC_OK)
		return err->code;
	if (nv)
		memcpy(vm, cd->vmethods, nv * sizeof *vm);
	/* the writer puts it in its place by method index */
	vm[nv] = (dex_emethod){u->focus_method, DACC_PUBLIC, c};
	cd->vmethods = vm;
	cd->nvmethods = nv + 1;
	k->data = cd;
	return TC_OK;
}

static void skipped(pl_unit *u, pl_worker *w, const dex_file *d, uint32_t method, const tc_error *e)
{
	char label[600];
	dex_method_label(d, method, label, sizeof label);
	pl_unit_skip(u, w, label, e);
}

int inject_dex_class(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err)
{
	(void)r;
	dexin *x = u->dex;
	if (x->left)
		return TC_OK;
	dex_file *d = &x->d;
	dex_class *k = &d->classes[u->dex_class];
	dex_cdata *cd = k->data;
	if (u->nmethods != dex_cdata_nmethods(cd))
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, u->name, "class changed between the phases");
	tc_error e;
	for (uint32_t i = 0; i < u->nmethods; i++) {
		dex_emethod *m = dex_cdata_method(cd, i);
		/* a method instrumented before (pl_meth.preset) is left as it is */
		uint32_t id = u->methods[i].verdict == V_TRACE && !u->methods[i].preset ? u->methods[i].id : 0;
		/* at() only where its id was added (dexin_prepare) */
		bool focus = u->activity && x->beat_at != DEX_NO_INDEX && m->code && is_focus(d, m);
		if ((!id && !focus) || !m->code)
			continue;
		tc_error_clear(&e);
		int s = pl_unit_settle(u, edit(x, u, w, k, m, id, focus, &e), &e, id != 0, focus, err);
		if (s < 0)
			return s;
		if (s > 0)
			skipped(u, w, d, m->idx, &e);
	}
	if (u->add_focus) {
		tc_error_clear(&e);
		if (add_focus(x, u, w, k, &e) != TC_OK) {
			if (e.code == TC_ENOMEM)
				return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
			char msg[900];
			tc_error_format(&e, msg, sizeof msg);
			pl_unit_report(u, w, "class %s: onWindowFocusChanged not added: %s", u->cls, msg);
		} else {
			u->changed = true;
			u->focus_added = 1;
		}
	}
	if (u->focus_refused)
		pl_unit_report(u, w, "class %s: onWindowFocusChanged not added: a super class declares it final", u->cls);
	if (u->activity && u->focus_blocked)
		pl_unit_report_focus_blocked(u, w);
	return TC_OK;
}

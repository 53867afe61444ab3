/* Phase 2 for one class: the calls into the beat class.
 *
 *   entry (constructors: right after this/super init):  push id; invokestatic i(I)V
 *   onWindowFocusChanged of an Activity, after that:     aload_0; iload_1; invokestatic at
 *   before every return:                                 push id; invokestatic o(I)V
 *   outermost catch-all from entry to end:               push id; invokestatic o(I)V; athrow
 *
 * So every i() is matched by exactly one o() on every path, exceptional ones included;
 * athrow itself is left alone (an exception caught in the same method must not call o).
 * Every constant-pool entry the class needs is added before any method is edited, so
 * a full pool leaves the whole class unchanged rather than half instrumented. */
#include <stdio.h>
#include <string.h>

#include "classfile.h"
#include "code.h"
#include "pipeline/pipeline.h"

static const char FOCUS_NAME[] = "onWindowFocusChanged";
static const char FOCUS_DESC[] = "(Z)V";
static const char AT_DESC[] = "(Landroid/app/Activity;Z)V";

typedef struct refs {
	uint16_t i, o, at, super_focus;
} refs;

/* The shortest push of a non-negative int: iconst, bipush, sipush or ldc. */
static size_t push_id(cf_class *cls, uint8_t *p, uint32_t id)
{
	if (id <= 5) {
		p[0] = (uint8_t)(OP_ICONST_0 + id);
		return 1;
	}
	if (id <= 127) {
		p[0] = OP_BIPUSH;
		p[1] = (uint8_t)id;
		return 2;
	}
	if (id <= 32767) {
		p[0] = OP_SIPUSH;
		put_u2(p + 1, (uint16_t)id);
		return 3;
	}
	tc_error ignore;
	tc_error_clear(&ignore);
	/* Added (and checked) already by add_refs: this finds it. */
	uint16_t idx = cp_add_integer(&cls->cp, (int32_t)id, &ignore);
	if (idx <= 255) {
		p[0] = OP_LDC;
		p[1] = (uint8_t)idx;
		return 2;
	}
	p[0] = OP_LDC_W;
	put_u2(p + 1, idx);
	return 3;
}

static size_t call(uint8_t *p, uint16_t ref)
{
	p[0] = OP_INVOKESTATIC;
	put_u2(p + 1, ref);
	return 3;
}

/* The override of Activity's: a static or private method overrides nothing (JVMS 5.4.5) */
static bool is_focus(const cf_class *cls, const cf_member *m)
{
	return !(m->access & (ACC_STATIC | ACC_PRIVATE)) && cp_utf8_eq(&cls->cp, m->name, FOCUS_NAME) &&
	       cp_utf8_eq(&cls->cp, m->desc, FOCUS_DESC);
}

static int add_refs(pl_run *r, pl_unit *u, cf_class *cls, refs *rf, tc_error *err)
{
	const char *beat = r->opt->beat;
	memset(rf, 0, sizeof *rf);
	if (!(rf->i = cp_add_methodref(&cls->cp, beat, "i", "(I)V", false, err)) ||
	    !(rf->o = cp_add_methodref(&cls->cp, beat, "o", "(I)V", false, err)) ||
	    !cp_add_class(&cls->cp, "java/lang/Throwable", 19, err))
		return err->code;
	if (cls->major >= 50 && !cp_add_utf8(&cls->cp, "StackMapTable", 13, err))
		return err->code;
	for (uint32_t k = 0; k < u->nmethods; k++)
		if (u->methods[k].id > 32767 && !cp_add_integer(&cls->cp, (int32_t)u->methods[k].id, err))
			return err->code;
	/* at() where something calls it: the override the class declares, or the one added */
	if (u->activity && (u->focus_declared || u->add_focus) &&
	    !(rf->at = cp_add_methodref(&cls->cp, beat, "at", AT_DESC, false, err)))
		return err->code;
	if (u->add_focus &&
	    (!(rf->super_focus = cp_add_methodref(&cls->cp, u->super, FOCUS_NAME, FOCUS_DESC, false, err)) ||
	     !cp_add_utf8(&cls->cp, "Code", 4, err)))
		return err->code;
	return TC_OK;
}

static void skipped(pl_unit *u, pl_worker *w, const cf_class *cls, const cf_member *m, const tc_error *e)
{
	char label[300];
	cf_member_label(cls, m, label, sizeof label);
	pl_unit_skip(u, w, label, e);
}

/* Instruments one traced method (id != 0), or only adds at() to an untraced
 * onWindowFocusChanged (id == 0). */
static int edit_method(pl_unit *u, pl_worker *w, cf_class *cls, cf_member *m, uint32_t id,
                       const refs *rf, bool focus, tc_error *err)
{
	arena_reset(&w->scratch);
	code_editor *ed;
	if (code_open(&ed, cls, m, &w->scratch, err) != TC_OK)
		return err->code;
	uint32_t n = code_ninsns(ed), start = 0;
	if (id && cp_utf8_eq(&cls->cp, m->name, "<init>")) {
		uint32_t init;
		if (code_this_init(ed, &init, err) != TC_OK)
			return err->code;
		start = init + 1;
	}
	uint8_t seq[16];
	size_t k;
	if (id) {
		k = push_id(cls, seq, id);
		k += call(seq + k, rf->i);
		if (code_insert(ed, start, CODE_FALLTHROUGH, seq, (uint32_t)k, err) != TC_OK)
			return err->code;
	}
	if (focus) {
		/* Matrix: right after i(), at(this, hasFocus). */
		seq[0] = OP_ALOAD_0;
		seq[1] = OP_ILOAD_1;
		k = 2 + call(seq + 2, rf->at);
		if (code_insert(ed, start, CODE_FALLTHROUGH, seq, (uint32_t)k, err) != TC_OK)
			return err->code;
	}
	if (id) {
		k = push_id(cls, seq, id);
		k += call(seq + k, rf->o);
		for (uint32_t i = start; i < n; i++)
			if (cf_op_has(code_insn(ed, i)->op, OPF_RETURN) &&
			    code_insert(ed, i, CODE_AT_TARGET, seq, (uint32_t)k, err) != TC_OK)
				return err->code;
		seq[k++] = OP_ATHROW;
		if (code_add_handler(ed, start, n, 0, seq, (uint32_t)k, err) != TC_OK)
			return err->code;
	}
	return code_commit(ed, err);
}

/* public void onWindowFocusChanged(boolean z) { super.onWindowFocusChanged(z); at(this, z); } */
static int add_focus_method(pl_worker *w, cf_class *cls, const refs *rf, tc_error *err)
{
	uint8_t *code = arena_alloc(cls->arena, 11);
	if (!code)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "class", "no memory");
	code[0] = OP_ALOAD_0;
	code[1] = OP_ILOAD_1;
	code[2] = OP_INVOKESPECIAL;
	put_u2(code + 3, rf->super_focus);
	code[5] = OP_ALOAD_0;
	code[6] = OP_ILOAD_1;
	call(code + 7, rf->at);
	code[10] = OP_RETURN;
	cf_code c = {.max_stack = 2, .max_locals = 2, .len = 11, .code = code,
	             .old_format = cls->major < 45 || (cls->major == 45 && cls->minor < 3)};
	buf_clear(&w->zout);
	cf_code_write(&c, &w->zout);
	const uint8_t *body = w->zout.err ? NULL : arena_dup(cls->arena, w->zout.data, w->zout.len);
	cf_attr *attr = arena_zalloc(cls->arena, sizeof *attr);
	if (!body || !attr)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "class", "no memory");
	*attr = (cf_attr){.name = cp_add_utf8(&cls->cp, "Code", 4, err), .len = (uint32_t)w->zout.len,
	                  .data = body, .off = TC_NO_OFFSET};
	cf_member m = {.access = ACC_PUBLIC,
	               .name = cp_add_utf8(&cls->cp, FOCUS_NAME, sizeof FOCUS_NAME - 1, err),
	               .desc = cp_add_utf8(&cls->cp, FOCUS_DESC, sizeof FOCUS_DESC - 1, err),
	               .nattrs = 1, .attrs = attr};
	if (err->code != TC_OK)
		return err->code;
	return cf_add_method(cls, &m, err);
}

int inject_class(pl_run *r, pl_unit *u, pl_worker *w, cf_class *cls, tc_error *err)
{
	refs rf;
	tc_error e;
	tc_error_clear(&e);
	if (add_refs(r, u, cls, &rf, &e) != TC_OK) {
		if (e.code == TC_ENOMEM)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
		char msg[600];
		tc_error_format(&e, msg, sizeof msg);
		pl_unit_report(u, w, "class left unchanged: %s", msg);
		for (uint32_t k = 0; k < u->nmethods; k++)
			u->skipped += u->methods[k].verdict == V_TRACE;
		return TC_OK;
	}
	/* Phase 1 read the same bytes: its method table matches this one index by index. */
	if (u->nmethods != cls->nmethods)
		return tc_fail(err, TC_EARG, TC_NO_OFFSET, u->name, "class changed between the phases");
	for (uint32_t k = 0; k < cls->nmethods; k++) {
		cf_member *m = &cls->methods[k];
		/* a method instrumented before (pl_meth.preset) is left as it is */
		uint32_t id = u->methods[k].verdict == V_TRACE && !u->methods[k].preset ? u->methods[k].id : 0;
		bool focus = u->activity && is_focus(cls, m) && cf_method_code(cls, m);
		if (!id && !focus)
			continue;
		tc_error_clear(&e);
		int s = pl_unit_settle(u, edit_method(u, w, cls, m, id, &rf, focus, &e), &e, id != 0, focus, err);
		if (s < 0)
			return s;
		if (s > 0)
			skipped(u, w, cls, m, &e);
	}
	if (u->add_focus) {
		tc_error_clear(&e);
		if (add_focus_method(w, cls, &rf, &e) != TC_OK) {
			if (e.code == TC_ENOMEM)
				return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
			pl_unit_report(u, w, "onWindowFocusChanged not added: %s", e.message);
		} else {
			u->changed = true;
			u->focus_added = 1;
		}
	}
	if (u->focus_refused)
		pl_unit_report(u, w, "onWindowFocusChanged not added: a super class declares it final");
	if (u->activity && u->focus_blocked)
		pl_unit_report_focus_blocked(u, w);
	return TC_OK;
}

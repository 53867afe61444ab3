/* tc-instrument on dex files made here, for what the real corpus does not show: a dex
 * with no room left for the calls' ids, and Activities with and without
 * onWindowFocusChanged (and a final one above). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dex.h"
#include "dex_op.h"
#include "dexbuild.h"
#include "dex_verify.h"
#include "pipeline/instrument.h"
#include "pipeline/pipeline.h"
#include "instrument_run.h"

static arena A, A2;
static tc_buf B;

static void setup(void)
{
	arena_init(&A);
	arena_init(&A2);
	buf_init(&B);
	ir_setup();
}

static void teardown(void)
{
	ir_teardown();
	arena_free(&A);
	arena_free(&A2);
	buf_free(&B);
}

TestSuite(dex_instrument, .init = setup, .fini = teardown);

static void save(dex_file *d, const char *file)
{
	tc_error e;
	tc_error_clear(&e);
	buf_clear(&B);
	cr_assert_eq(dex_write(d, &B, &e), TC_OK, "%s", e.message);
	ir_save(file, B.data, B.len);
}

static void instrument(const char *in, const char *out)
{
	tc_error e;
	cr_assert_eq(ir_instrument((const char *const[][2]){{in, out}}, 1, 2, &e), TC_OK, "%s", e.message);
}

static char *stats(void)
{
	size_t len;
	return (char *)ir_load("map/instrument-stats.json", &len);
}

/* A class whose method run() calls another: a method to trace. */
static void traced_class(dex_file *d, const char *desc)
{
	uint32_t k = db_class(d, desc, DACC_PUBLIC);
	tc_error e;
	tc_error_clear(&e);
	uint32_t callee;
	cr_assert_eq(dex_intern_method(d, "Lp/Other;", "work", "()V", &callee, &e), TC_OK);
	dex_insn code[] = {db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0), db_op(DEX_OP_RETURN_VOID)};
	db_method(d, k, "run", "()V", DACC_PUBLIC | DACC_STATIC, db_code(d, 0, 0, 0, code, 2));
}

Test(dex_instrument, a_dex_without_room_for_the_calls_ids_is_left_unchanged)
{
	dex_file d;
	db_init(&d, &A);
	traced_class(&d, "Lp/Main;");
	/* 65,535 method ids in all: i() fits, o() does not */
	db_bulk_methods(&d, "Lp/Many;", 65535 - d.methods.n);
	cr_assert_eq(d.methods.n, 65535u);
	save(&d, "full.dex");
	instrument("full.dex", "out.dex");
	size_t a, b;
	uint8_t *in = ir_load("full.dex", &a), *out = ir_load("out.dex", &b);
	cr_expect(a == b && !memcmp(in, out, a), "the output is the input, unchanged");
	char *s = stats();
	cr_expect(strstr(s, "dex left unchanged") && strstr(s, "65,536"), "%s", s);
	cr_expect(strstr(s, "\"skipped\": 1"), "the traced method is counted as not instrumented");
	free(in);
	free(out);
	free(s);
}

/* The instruction sequence of a method in a parsed dex, as "op op op". */
static void ops(const dex_file *d, const char *cls, const char *name, char *buf, size_t size, const dex_code **code)
{
	uint32_t m = db_find(d, cls, name, "(Z)V");
	cr_assert_neq(m, DEX_NO_INDEX, "%s.%s", cls, name);
	const dex_code *c = NULL;
	for (uint32_t k = 0; k < d->nclasses && !c; k++) {
		const dex_cdata *cd = d->classes[k].data;
		for (uint32_t i = 0; cd && i < cd->nvmethods; i++)
			if (cd->vmethods[i].idx == m)
				c = cd->vmethods[i].code;
	}
	cr_assert_not_null(c);
	*code = c;
	buf[0] = '\0';
	dex_insn op;
	for (uint32_t pc = 0, n; pc < c->ninsns; pc += n) {
		n = dex_op_decode(c->insns, c->ninsns, pc, d->version, &op);
		cr_assert(n);
		if (op.fmt == DF_PAYLOAD)
			continue;
		strncat(buf, dex_op_table[op.op].name, size - strlen(buf) - 2);
		strncat(buf, " ", size - strlen(buf) - 1);
	}
}

Test(dex_instrument, activities_call_at_after_i_and_get_onWindowFocusChanged)
{
	dex_file d;
	db_init(&d, &A);
	tc_error e;
	tc_error_clear(&e);
	uint32_t sup;
	cr_assert_eq(dex_intern_method(&d, "Landroid/app/Activity;", "onWindowFocusChanged", "(Z)V", &sup, &e), TC_OK);
	/* declares it: super.onWindowFocusChanged(z); return */
	uint32_t k = db_class_super(&d, "Lp/Declares;", "Landroid/app/Activity;", DACC_PUBLIC);
	uint16_t r01[] = {0, 1};
	dex_insn body[] = {db_invoke(DEX_OP_INVOKE_SUPER, sup, r01, 2), db_op(DEX_OP_RETURN_VOID)};
	db_method(&d, k, "onWindowFocusChanged", "(Z)V", DACC_PUBLIC, db_code(&d, 2, 2, 2, body, 2));
	/* lacks it */
	db_class_super(&d, "Lp/Lacks;", "Landroid/app/Activity;", DACC_PUBLIC);
	/* a final one above */
	uint32_t base = db_class_super(&d, "Lp/Base;", "Landroid/app/Activity;", DACC_PUBLIC | DACC_ABSTRACT);
	db_method(&d, base, "onWindowFocusChanged", "(Z)V", DACC_PUBLIC | DACC_FINAL, db_code(&d, 2, 2, 2, body, 2));
	db_class_super(&d, "Lp/Below;", "Lp/Base;", DACC_PUBLIC);
	save(&d, "act.dex");
	instrument("act.dex", "act-out.dex");
	size_t len;
	uint8_t *b = ir_load("act-out.dex", &len);
	dex_file out;
	cr_assert_eq(dex_parse(&out, &A2, b, len, &e), TC_OK, "%s", e.message);
	char seq[512];
	const dex_code *c;
	ops(&out, "Lp/Declares;", "onWindowFocusChanged", seq, sizeof seq, &c);
	/* no free register (this, z): the parameters move down first; then i(), at(this, z),
	 * the body, o() before the return, and the catch-all */
	cr_expect_str_eq(seq,
	                 "move-object/16 move/16 const/16 invoke-static invoke-static invoke-super const/16 invoke-static "
	                 "return-void move-exception const/16 invoke-static throw ");
	ops(&out, "Lp/Lacks;", "onWindowFocusChanged", seq, sizeof seq, &c);
	cr_expect_str_eq(seq, "invoke-super invoke-static return-void ", "the added method");
	dex_insn call;
	cr_assert(dex_op_decode(c->insns, c->ninsns, 3, out.version, &call));
	char label[512];
	dex_method_label(&out, call.idx, label, sizeof label);
	cr_expect_str_eq(label, "Lcom/tencent/matrix/trace/core/AppMethodBeat;->at(Landroid/app/Activity;Z)V");
	cr_expect(call.nargs == 2 && call.args[0] == 0 && call.args[1] == 1, "at(this, hasFocus)");
	cr_expect_eq(db_find(&out, "Lp/Below;", "onWindowFocusChanged", "(Z)V"), DEX_NO_INDEX,
	             "not added under a final one");
	char *s = stats();
	cr_expect(strstr(s, "a super class declares it final"), "%s", s);
	cr_expect(strstr(s, "\"focus_method_added\": 1"), "%s", s);
	free(b);
	free(s);
}

/* The code of method `name` of class cls in d (direct or virtual). */
static const dex_code *code_of(const dex_file *d, const char *cls, const char *name, const char *desc)
{
	uint32_t m = db_find(d, cls, name, desc);
	cr_assert_neq(m, DEX_NO_INDEX, "%s.%s", cls, name);
	for (uint32_t k = 0; k < d->nclasses; k++) {
		const dex_cdata *cd = d->classes[k].data;
		for (uint32_t i = 0; i < dex_cdata_nmethods(cd); i++)
			if (dex_cdata_method(cd, i)->idx == m)
				return dex_cdata_method(cd, i)->code;
	}
	cr_assert_fail("no code for %s.%s", cls, name);
	return NULL;
}

/* Malformed input: two classes each other's super class, in two dex files (within one,
 * a class defined before its super class is refused). The walks up the hierarchy (is it
 * an Activity, a final focus method above, a super class lost) end; the run goes on,
 * and an Activity beside them is still one. */
Test(dex_instrument, a_cycle_of_super_classes_ends_the_walks_up_the_hierarchy)
{
	tc_error e;
	tc_error_clear(&e);
	const char *names[][2] = {{"Lp/A;", "Lp/B;"}, {"Lp/B;", "Lp/A;"}};
	for (int i = 0; i < 2; i++) {
		dex_file d;
		db_init(&d, &A);
		uint32_t callee;
		cr_assert_eq(dex_intern_method(&d, "Lp/Other;", "work", "()V", &callee, &e), TC_OK);
		dex_insn code[] = {db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0), db_op(DEX_OP_RETURN_VOID)};
		uint32_t k = db_class_super(&d, names[i][0], names[i][1], DACC_PUBLIC);
		db_method(&d, k, "run", "()V", DACC_PUBLIC | DACC_STATIC, db_code(&d, 0, 0, 0, code, 2));
		if (i == 0)
			db_class_super(&d, "Lp/Lacks;", "Landroid/app/Activity;", DACC_PUBLIC);
		save(&d, i ? "two.dex" : "one.dex");
	}
	const char *const pairs[][2] = {{"one.dex", "one-out.dex"}, {"two.dex", "two-out.dex"}};
	cr_assert_eq(ir_instrument(pairs, 2, 2, &e), TC_OK, "%s", e.message);
	char *s = stats();
	cr_expect(strstr(s, "\"focus_method_added\": 1"), "the Activity beside the cycle gets its focus method: %s", s);
	cr_expect(!strstr(s, "super classes"), "no super class reported lost (the cycle leads nowhere): %s", s);
	free(s);
	size_t len;
	char *map = (char *)ir_load("map/methodMapping.txt", &len);
	cr_expect(strstr(map, ",p.A run ()V\n") && strstr(map, ",p.B run ()V\n"), "both run() methods traced: %s", map);
	free(map);
}


/* A method ART rejects as it is (it returns a register nothing set) is traced like any
 * other, but its rewrite fails the check and so does the original: it is copied as it
 * was, reported with the rule as the input's fault, and counted as not instrumented; its
 * neighbour is instrumented. */
Test(dex_instrument, a_method_art_rejects_already_is_copied_and_reported)
{
	dex_file d;
	db_init(&d, &A);
	uint32_t k = db_class(&d, "Lp/Bad;", DACC_PUBLIC);
	tc_error e;
	tc_error_clear(&e);
	uint32_t callee;
	cr_assert_eq(dex_intern_method(&d, "Lp/Other;", "work", "()V", &callee, &e), TC_OK);
	dex_insn good[] = {db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0), db_op(DEX_OP_RETURN_VOID)};
	dex_insn bad[] = {db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0), db_a(DEX_OP_RETURN, 0)};
	db_method(&d, k, "run", "()V", DACC_PUBLIC | DACC_STATIC, db_code(&d, 0, 0, 0, good, 2));
	db_method(&d, k, "broken", "()I", DACC_PUBLIC | DACC_STATIC, db_code(&d, 1, 0, 0, bad, 2));
	save(&d, "bad.dex");
	instrument("bad.dex", "bad-out.dex");
	size_t len;
	uint8_t *b = ir_load("bad-out.dex", &len);
	dex_file out;
	cr_assert_eq(dex_parse(&out, &A2, b, len, &e), TC_OK, "%s", e.message);
	const dex_code *was = code_of(&d, "Lp/Bad;", "broken", "()I"), *now = code_of(&out, "Lp/Bad;", "broken", "()I");
	/* the same instructions (the call's method index moves: the writer sorts the ids in) */
	dex_insn w0, w1, n0, n1;
	cr_assert(now->regs == was->regs && now->ninsns == was->ninsns && now->ninsns == 4);
	cr_assert(dex_op_decode(was->insns, 4, 0, d.version, &w0) && dex_op_decode(was->insns, 4, 3, d.version, &w1));
	cr_assert(dex_op_decode(now->insns, 4, 0, out.version, &n0) && dex_op_decode(now->insns, 4, 3, out.version, &n1));
	char lw[256], ln[256];
	dex_method_label(&d, w0.idx, lw, sizeof lw);
	dex_method_label(&out, n0.idx, ln, sizeof ln);
	cr_expect(n0.op == w0.op && n1.op == w1.op && n1.a == w1.a && !strcmp(lw, ln), "broken() is copied as it was");
	cr_expect_gt(code_of(&out, "Lp/Bad;", "run", "()V")->ninsns, 4u, "run() is instrumented");
	char *s = stats();
	cr_expect(strstr(s, "Lp/Bad;->broken()I: not instrumented: the input method already breaks ART's verifier "
	                    "rules (left as it was), at code unit 3 (return): v0 is undefined, expected int"), "%s", s);
	cr_expect(strstr(s, "\"methods_checked\": 2") && strstr(s, "\"methods_failing_before\": 1") &&
	          strstr(s, "\"methods_refused_by_check\": 0") && strstr(s, "\"skipped\": 1"), "%s", s);
	free(b);
	free(s);
}

/* The check itself, on the shape of issue 18: Parcel readers of a tight frame return a
 * wide value from p0:p1 (v1:v2 of 3 registers). A rewrite whose probe takes v3 (past
 * registers_size) is refused as the rewrite's fault, with the rule; the right one (the
 * probe in v0) is accepted; a rewrite of a method already broken is refused as the
 * input's fault. */
Test(dex_instrument, rewrites_breaking_arts_rules_are_refused_with_the_rule)
{
	dex_file d;
	db_init(&d, &A);
	uint32_t k = db_class(&d, "Lp/Parcels;", DACC_PUBLIC);
	tc_error e;
	tc_error_clear(&e);
	uint32_t read_long, beat_o;
	cr_assert_eq(dex_intern_method(&d, "Landroid/os/Parcel;", "readLong", "()J", &read_long, &e), TC_OK);
	cr_assert_eq(dex_intern_method(&d, "Lcom/tencent/matrix/trace/core/AppMethodBeat;", "o", "(I)V", &beat_o, &e),
	             TC_OK);
	uint16_t p0[] = {1}, v3[] = {3}, v0[] = {0};
	dex_insn orig[] = {db_invoke(DEX_OP_INVOKE_VIRTUAL, read_long, p0, 1), db_a(DEX_OP_MOVE_RESULT_WIDE, 1),
	              db_a(DEX_OP_RETURN_WIDE, 1)};
	dex_insn wrong[] = {db_invoke(DEX_OP_INVOKE_VIRTUAL, read_long, p0, 1), db_a(DEX_OP_MOVE_RESULT_WIDE, 1),
	               db_lit(DEX_OP_CONST_16, 3, 0x18a0), db_invoke(DEX_OP_INVOKE_STATIC, beat_o, v3, 1),
	               db_a(DEX_OP_RETURN_WIDE, 1)};
	dex_insn right[] = {db_invoke(DEX_OP_INVOKE_VIRTUAL, read_long, p0, 1), db_a(DEX_OP_MOVE_RESULT_WIDE, 1),
	               db_lit(DEX_OP_CONST_16, 0, 0x18a0), db_invoke(DEX_OP_INVOKE_STATIC, beat_o, v0, 1),
	               db_a(DEX_OP_RETURN_WIDE, 1)};
	uint32_t flags = DACC_PUBLIC | DACC_STATIC;
	uint32_t idx = db_method(&d, k, "readLong", "(Landroid/os/Parcel;I)J", flags, db_code(&d, 3, 2, 1, orig, 3));
	dex_verify_file f;
	cr_assert_eq(dex_verify_file_init(&f, &d, &A), TC_OK);
	f.strict_monitors = true;
	dex_emethod m = {idx, flags, db_code(&d, 3, 2, 1, orig, 3)};
	pl_unit u = {.name = "classes.dex"};
	cr_expect_eq(inject_dex_accept(&f, &A2, &u, &d.classes[k], &m, db_code(&d, 3, 2, 1, right, 5), &e), TC_OK,
	             "%s", e.message);
	cr_assert_eq(inject_dex_accept(&f, &A2, &u, &d.classes[k], &m, db_code(&d, 3, 2, 1, wrong, 5), &e),
	             TC_EUNSUPPORTED);
	char msg[1024];
	tc_error_format(&e, msg, sizeof msg);
	cr_expect_str_eq(msg, "the rewritten code would break ART's verifier rules (left as it was), at code unit 4 "
	                      "(const/16): register v3 out of range (registers_size 3)");
	cr_expect(u.checked == 2 && u.check_refused == 1 && u.input_fails == 0);
	/* the input itself broken: it returns v0, which nothing set */
	dex_insn broken[] = {db_invoke(DEX_OP_INVOKE_VIRTUAL, read_long, p0, 1), db_a(DEX_OP_MOVE_RESULT_WIDE, 1),
	                db_a(DEX_OP_RETURN_WIDE, 0)};
	m.code = db_code(&d, 3, 2, 1, broken, 3);
	tc_error_clear(&e);
	cr_assert_eq(inject_dex_accept(&f, &A2, &u, &d.classes[k], &m, m.code, &e), TC_EUNSUPPORTED);
	tc_error_format(&e, msg, sizeof msg);
	cr_expect(strstr(msg, "the input method already breaks ART's verifier rules"), "%s", msg);
	cr_expect(u.checked == 3 && u.check_refused == 1 && u.input_fails == 1);
}

/* The build id as the marker class of out (pipeline.h, OUT_MARKER_CLASS) holds it: the
 * string of its one static field's value, from the class's static values; "" if none. */
static void marker_value(const dex_file *out, char *buf, size_t size)
{
	buf[0] = '\0';
	for (uint32_t k = 0; k < out->nclasses; k++) {
		const dex_class *c = &out->classes[k];
		uint32_t len;
		const uint8_t *desc = dex_type_desc(out, c->type, &len);
		const char *want = "L" OUT_MARKER_CLASS ";";
		if (!desc || len != strlen(want) || memcmp(desc, want, len))
			continue;
		cr_assert_eq(c->flags, (uint32_t)(DACC_PUBLIC | DACC_FINAL | DACC_SYNTHETIC), "class flags %#x", c->flags);
		cr_assert(c->data && c->data->nsfields == 1 && !c->data->nifields && !dex_cdata_nmethods(c->data),
		          "one static field, no method");
		const dex_fid *f = &out->fields.v[c->data->sfields[0].idx];
		cr_assert(dex_str_eq(out, f->name, OUT_MARKER_FIELD), "the field is ID");
		cr_assert_eq(c->data->sfields[0].flags, (uint32_t)(DACC_PUBLIC | DACC_STATIC | DACC_FINAL));
		/* encoded_array_item: size 1, VALUE_STRING (0x17), the index in (arg + 1) bytes */
		cr_assert(c->values && c->values->len >= 3 && c->values->data[0] == 1 &&
		          (c->values->data[1] & 0x1f) == 0x17, "a static value, a string");
		uint32_t nb = (uint32_t)(c->values->data[1] >> 5) + 1, idx = 0;
		for (uint32_t b = 0; b < nb; b++)
			idx |= (uint32_t)c->values->data[2 + b] << (8 * b);
		const dex_str *s = dex_string(out, idx);
		snprintf(buf, size, "%.*s", (int)s->len, (const char *)s->data);
		return;
	}
}

/* The buildId file of the mapping directory, without its newline. */
static void build_id_file(char *buf, size_t size)
{
	size_t len;
	uint8_t *b = ir_load("map/buildId", &len);
	snprintf(buf, size, "%.*s", (int)(len && b[len - 1] == '\n' ? len - 1 : len), (const char *)b);
	free(b);
}

/* Issue 29: a dex output carries the build id as a class the runtime reads by reflection
 * (TraceCanary.buildId), its value the buildId file's; the checker and the reader accept
 * it; a second run over the output writes the same bytes (the marker's value replaced,
 * not a second class). */
Test(dex_instrument, a_dex_output_carries_the_build_id_as_the_marker_class)
{
	dex_file d;
	db_init(&d, &A);
	traced_class(&d, "Lp/Main;");
	save(&d, "m.dex");
	instrument("m.dex", "m-out.dex");
	size_t len;
	uint8_t *b = ir_load("m-out.dex", &len);
	dex_file out;
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(dex_parse(&out, &A2, b, len, &e), TC_OK, "%s", e.message);
	char got[64], want[64];
	marker_value(&out, got, sizeof got);
	build_id_file(want, sizeof want);
	cr_expect_eq(strlen(want), 16u, "buildId: %s", want);
	cr_expect_str_eq(got, want, "the marker holds the build id");
	cr_expect_eq(out.nclasses, d.nclasses + 1, "one class added");
	char *s = stats();
	cr_expect(strstr(s, "\"buildIdMarker\": \"") && strstr(s, "m-out.dex\""), "%s", s);
	free(s);
	/* again, over the output: the same bytes, one marker */
	instrument("m-out.dex", "m-again.dex");
	size_t len2;
	uint8_t *b2 = ir_load("m-again.dex", &len2);
	cr_expect(len == len2 && !memcmp(b, b2, len), "a second run writes what the first wrote");
	free(b);
	free(b2);
}

/* Several dex outputs: the marker goes into the first one only (two copies of a class
 * fail dexing and merging). */
Test(dex_instrument, of_several_dex_outputs_only_the_first_gets_the_marker)
{
	dex_file d1, d2;
	db_init(&d1, &A);
	traced_class(&d1, "Lp/One;");
	save(&d1, "one.dex");
	db_init(&d2, &A);
	traced_class(&d2, "Lp/Two;");
	save(&d2, "two.dex");
	const char *const pairs[][2] = {{"one.dex", "one-out.dex"}, {"two.dex", "two-out.dex"}};
	tc_error e;
	cr_assert_eq(ir_instrument(pairs, 2, 2, &e), TC_OK, "%s", e.message);
	char want[64], got[64];
	build_id_file(want, sizeof want);
	const char *outs[] = {"one-out.dex", "two-out.dex"};
	for (int i = 0; i < 2; i++) {
		size_t len;
		uint8_t *b = ir_load(outs[i], &len);
		dex_file out;
		cr_assert_eq(dex_parse(&out, &A2, b, len, &e), TC_OK, "%s", e.message);
		marker_value(&out, got, sizeof got);
		cr_expect_str_eq(got, i == 0 ? want : "", "%s", outs[i]);
		free(b);
	}
}

/* A dex that defines a class of the marker's name with other members (not ours): it is
 * left as it is, the dex gets no marker, and the run says so; the statistics name no
 * marker. */
Test(dex_instrument, a_dex_with_a_foreign_class_of_the_markers_name_gets_no_marker)
{
	dex_file d;
	db_init(&d, &A);
	traced_class(&d, "Lp/Main;");
	uint32_t k = db_class(&d, "L" OUT_MARKER_CLASS ";", DACC_PUBLIC);
	dex_insn ret[] = {db_op(DEX_OP_RETURN_VOID)};
	db_method(&d, k, "other", "()V", DACC_PUBLIC | DACC_STATIC, db_code(&d, 0, 0, 0, ret, 1));
	save(&d, "foreign.dex");
	instrument("foreign.dex", "foreign-out.dex");
	size_t len;
	uint8_t *b = ir_load("foreign-out.dex", &len);
	dex_file out;
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(dex_parse(&out, &A2, b, len, &e), TC_OK, "%s", e.message);
	cr_expect_eq(out.nclasses, d.nclasses, "no class added");
	char *s = stats();
	cr_expect(strstr(s, "defines a class of that name with other members"), "%s", s);
	cr_expect(strstr(s, "\"buildIdMarker\": \"\""), "%s", s);
	free(s);
	free(b);
}

/* --- issue 29, item 6: dex edge cases ----------------------------------------------- */

#define BEAT "Lcom/tencent/matrix/trace/core/AppMethodBeat;"

/* Every method of the dex file passes ART's verifier rules as tc-dexverify checks them. */
static void verified(const char *file)
{
	size_t len;
	uint8_t *b = ir_load(file, &len);
	arena a, s;
	arena_init(&a);
	arena_init(&s);
	dex_file d;
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(dex_parse(&d, &a, b, len, &e), TC_OK, "%s: %s", file, e.message);
	dex_verify_file f;
	cr_assert_eq(dex_verify_file_init(&f, &d, &a), TC_OK);
	for (uint32_t k = 0; k < d.nclasses; k++) {
		const dex_cdata *cd = d.classes[k].data;
		for (uint32_t i = 0; i < dex_cdata_nmethods(cd); i++) {
			const dex_emethod *m = dex_cdata_method(cd, i);
			if (!m->code)
				continue;
			dex_verify_result r;
			arena_reset(&s);
			cr_assert_eq(dex_verify_method(&f, &d.classes[k], m, &s, &r), 0);
			char label[512];
			dex_method_label(&d, m->idx, label, sizeof label);
			cr_expect(!r.failed, "%s: %s: %s", file, label, r.msg);
		}
	}
	arena_free(&s);
	arena_free(&a);
	free(b);
}

/* The output of in, parsed into out (A2); the input checked by the verifier's rules
 * first, the output after. */
static void instrument_parse(dex_file *d, const char *in, const char *outname, dex_file *out)
{
	save(d, in);
	verified(in);
	instrument(in, outname);
	verified(outname);
	size_t len;
	uint8_t *b = ir_load(outname, &len);
	tc_error e;
	tc_error_clear(&e);
	uint8_t *keep = arena_dup(&A2, b, len);
	free(b);
	cr_assert_eq(dex_parse(out, &A2, keep, len, &e), TC_OK, "%s", e.message);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* 65,534 method ids and one Activity without onWindowFocusChanged: i() and o() fit, the
 * focus method (at, its own id, the super's) does not. Its ids are not counted: the dex
 * is instrumented, without at() and without the focus method, and says so. */
Test(dex_instrument, two_ids_from_the_method_limit_the_probes_go_in_without_the_focus_method)
{
	dex_file d, out;
	db_init(&d, &A);
	traced_class(&d, "Lp/Main;");
	db_class_super(&d, "Lp/Act;", "Landroid/app/Activity;", DACC_PUBLIC);
	db_bulk_methods(&d, "Lp/Many;", 65534 - d.methods.n);
	instrument_parse(&d, "near.dex", "near-out.dex", &out);
	cr_expect_neq(db_find(&out, BEAT, "i", "(I)V"), DEX_NO_INDEX, "i() is called");
	cr_expect_neq(db_find(&out, BEAT, "o", "(I)V"), DEX_NO_INDEX, "o() is called");
	cr_expect_eq(db_find(&out, BEAT, "at", "(Landroid/app/Activity;Z)V"), DEX_NO_INDEX, "no at() id");
	cr_expect_eq(db_find(&out, "Lp/Act;", "onWindowFocusChanged", "(Z)V"), DEX_NO_INDEX);
	cr_expect_eq(out.methods.n, 65536u);
	char *s = stats();
	cr_expect(!strstr(s, "dex left unchanged"), "%s", s);
	cr_expect(strstr(s, "class p/Act: onWindowFocusChanged not added: its ids do not fit: a dex holds at most "
	                    "65,536 method ids"), "%s", s);
	cr_expect(strstr(s, "\"instrumented\": 1"), "%s", s);
	cr_expect(!strstr(s, "--classpath"), "every super class is known: %s", s);
	free(s);
}

/* One id closer (65,533): at() fits, the focus method does not; at()'s id, which nothing
 * would call, is taken back with it. */
Test(dex_instrument, three_ids_from_the_method_limit_no_unused_at_id_is_written)
{
	dex_file d, out;
	db_init(&d, &A);
	traced_class(&d, "Lp/Main;");
	db_class_super(&d, "Lp/Act;", "Landroid/app/Activity;", DACC_PUBLIC);
	db_bulk_methods(&d, "Lp/Many;", 65533 - d.methods.n);
	instrument_parse(&d, "near.dex", "near-out.dex", &out);
	cr_expect_eq(db_find(&out, BEAT, "at", "(Landroid/app/Activity;Z)V"), DEX_NO_INDEX, "no unused at() id");
	cr_expect_eq(out.methods.n, 65535u, "i() and o() only");
	char *s = stats();
	cr_expect(strstr(s, "class p/Act: onWindowFocusChanged not added"), "%s", s);
	free(s);
}

/* An Activity that declares onWindowFocusChanged needs only at(): when that id does not
 * fit, the rest is instrumented and the focus method keeps its code. */
Test(dex_instrument, at_that_does_not_fit_leaves_a_declared_focus_method_without_it)
{
	dex_file d, out;
	db_init(&d, &A);
	tc_error e;
	tc_error_clear(&e);
	uint32_t sup;
	cr_assert_eq(dex_intern_method(&d, "Landroid/app/Activity;", "onWindowFocusChanged", "(Z)V", &sup, &e), TC_OK);
	uint32_t k = db_class_super(&d, "Lp/Declares;", "Landroid/app/Activity;", DACC_PUBLIC);
	uint16_t r01[] = {0, 1};
	dex_insn body[] = {db_invoke(DEX_OP_INVOKE_SUPER, sup, r01, 2), db_op(DEX_OP_RETURN_VOID)};
	db_method(&d, k, "onWindowFocusChanged", "(Z)V", DACC_PUBLIC, db_code(&d, 2, 2, 2, body, 2));
	db_bulk_methods(&d, "Lp/Many;", 65534 - d.methods.n);
	instrument_parse(&d, "near.dex", "near-out.dex", &out);
	cr_expect_eq(db_find(&out, BEAT, "at", "(Landroid/app/Activity;Z)V"), DEX_NO_INDEX);
	char seq[512];
	const dex_code *c;
	ops(&out, "Lp/Declares;", "onWindowFocusChanged", seq, sizeof seq, &c);
	cr_expect(strstr(seq, "invoke-super") && count(seq, "invoke-static") == 3, "i(), o() twice: %s", seq);
	char *s = stats();
	cr_expect(!strstr(s, "dex left unchanged"), "%s", s);
	cr_expect(strstr(s, "AppMethodBeat.at not called: its method id does not fit: a dex holds at most 65,536 "
	                    "method ids"), "%s", s);
	free(s);
}

/* 65,535 type ids: the beat class and int (i(I)V) are two types too many; the report names the
 * type limit, not the method limit. */
Test(dex_instrument, a_type_id_overflow_names_the_type_limit)
{
	dex_file d;
	db_init(&d, &A);
	traced_class(&d, "Lp/Main;");
	db_bulk_types(&d, 65535 - d.types.n);
	save(&d, "types.dex");
	verified("types.dex");
	instrument("types.dex", "types-out.dex");
	size_t a, b;
	uint8_t *in = ir_load("types.dex", &a), *out = ir_load("types-out.dex", &b);
	cr_expect(a == b && !memcmp(in, out, a), "the output is the input, unchanged");
	char *s = stats();
	cr_expect(strstr(s, "dex left unchanged: the calls' ids do not fit: a dex holds at most 65,535 type ids "
	                    "(this one would need 65,537)"), "%s", s);
	cr_expect(!strstr(s, "method ids"), "%s", s);
	free(in);
	free(out);
	free(s);
}

/* A private or static onWindowFocusChanged(Z)V is no override of Activity's: the
 * framework never calls it, so it gets no at(); no public one can be added beside it
 * (one method id per class, name and descriptor); the report says which it is. */
Test(dex_instrument, a_private_or_static_onWindowFocusChanged_is_not_the_frameworks)
{
	dex_file d, out;
	db_init(&d, &A);
	tc_error e;
	tc_error_clear(&e);
	uint32_t callee;
	cr_assert_eq(dex_intern_method(&d, "Lp/Other;", "work", "()V", &callee, &e), TC_OK);
	dex_insn body[] = {db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0), db_op(DEX_OP_RETURN_VOID)};
	uint32_t k = db_class_super(&d, "Lp/Priv;", "Landroid/app/Activity;", DACC_PUBLIC);
	db_method(&d, k, "onWindowFocusChanged", "(Z)V", DACC_PRIVATE, db_code(&d, 2, 2, 0, body, 2));
	k = db_class_super(&d, "Lp/Stat;", "Landroid/app/Activity;", DACC_PUBLIC);
	db_method(&d, k, "onWindowFocusChanged", "(Z)V", DACC_PUBLIC | DACC_STATIC, db_code(&d, 1, 1, 0, body, 2));
	instrument_parse(&d, "priv.dex", "priv-out.dex", &out);
	cr_expect_eq(db_find(&out, BEAT, "at", "(Landroid/app/Activity;Z)V"), DEX_NO_INDEX, "at() is called nowhere");
	cr_expect_gt(code_of(&out, "Lp/Priv;", "onWindowFocusChanged", "(Z)V")->ninsns, 4u, "traced as any method");
	char *s = stats();
	cr_expect(strstr(s, "class p/Priv: onWindowFocusChanged not added: the class declares a private "
	                    "onWindowFocusChanged(Z)V, which overrides nothing (the framework never calls it) and "
	                    "leaves no room for an override (one method of a name and descriptor per class): "
	                    "AppMethodBeat.at is not called for this Activity"), "%s", s);
	cr_expect(strstr(s, "class p/Stat: onWindowFocusChanged not added: the class declares a static "
	                    "onWindowFocusChanged(Z)V"), "%s", s);
	cr_expect_eq(count(s, "onWindowFocusChanged not added"), 2u, "%s", s);
	free(s);
}

/* A base mapping whose largest id leaves fewer ids than the new methods need: the error
 * says what ran out and what to do. */
Test(dex_instrument, ids_exhausted_after_the_base_mapping_say_so_and_what_to_do)
{
	dex_file d;
	db_init(&d, &A);
	traced_class(&d, "Lp/A;");
	traced_class(&d, "Lp/B;");
	traced_class(&d, "Lp/C;");
	traced_class(&d, "Lp/D;");
	save(&d, "four.dex");
	FILE *f = fopen(ir_path("base.txt"), "w");
	cr_assert(f);
	fputs("1048570,1,q.Old old ()V\n", f);
	fclose(f);
	tc_pair pair = {ir_path("four.dex"), ir_path("four-out.dex"), false};
	tc_options o = {.pairs = &pair, .npairs = 1, .mapping_dir = ir_path("map"), .base_mapping = ir_path("base.txt"),
	                .beat = "com/tencent/matrix/trace/core/AppMethodBeat", .threads = 1, .deflate_level = 6,
	                .quiet = true};
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(tc_instrument(&o, &e), TC_ELIMIT, "%s", e.message);
	char msg[1200];
	tc_error_format(&e, msg, sizeof msg);
	cr_expect(strstr(msg, "method ids: exhausted: new ids follow the largest of --base-mapping "), "%s", msg);
	cr_expect(strstr(msg, " (1048570), which leaves 3 of the 1048573 ids for 4 methods new to this build: start "
	                      "the ids over by running without --base-mapping"), "%s", msg);
	cr_expect(access(ir_path("four-out.dex"), F_OK) != 0, "nothing written");
}

/* Classes whose super classes are neither inputs nor on the class path may be
 * Activities: said once, naming --classpath; a JDK super class is no Activity. */
Test(dex_instrument, unknown_super_classes_are_reported_once_naming_the_classpath)
{
	dex_file d, out;
	db_init(&d, &A);
	tc_error e;
	tc_error_clear(&e);
	uint32_t callee;
	cr_assert_eq(dex_intern_method(&d, "Lp/Other;", "work", "()V", &callee, &e), TC_OK);
	dex_insn body[] = {db_invoke(DEX_OP_INVOKE_VIRTUAL, callee, (uint16_t[]){0}, 1), db_op(DEX_OP_RETURN_VOID)};
	const char *const supers[][2] = {{"Lp/Main;", "Lcom/lib/BaseActivity;"}, {"Lp/Two;", "Lcom/lib/Other;"},
	                                 {"Lp/Job;", "Ljava/lang/Thread;"}, {"Lp/Sub;", "Lp/Main;"}};
	for (int i = 0; i < 4; i++) {
		uint32_t k = db_class_super(&d, supers[i][0], supers[i][1], DACC_PUBLIC);
		db_method(&d, k, "run", "()V", DACC_PUBLIC, db_code(&d, 1, 1, 1, body, 2));
	}
	instrument_parse(&d, "lib.dex", "lib-out.dex", &out);
	char *s = stats();
	cr_expect_eq(count(s, "--classpath"), 1u, "%s", s);
	cr_expect(strstr(s, "class p/Main: the super classes of 3 classes are neither inputs nor on the class path "
	                    "(p/Main's com/lib/BaseActivity, p/Two's com/lib/Other): an Activity among them is not known "
	                    "as one (its onWindowFocusChanged gets no AppMethodBeat.at); give the jars that define them "
	                    "(android.jar of the compile SDK, the app's libraries) with --classpath"), "%s", s);
	free(s);
}

/* tc-instrument in to out with the block list text rules (and base mapping text base). */
static void instrument_rules_base(const char *in, const char *out, const char *rules, const char *base)
{
	char bpath[256];
	snprintf(bpath, sizeof bpath, "%s", ir_path("base.txt"));
	if (base) {
		FILE *b = fopen(bpath, "w");
		cr_assert(b && fputs(base, b) >= 0 && !fclose(b));
	}
	FILE *f = fopen(ir_path("inline.rules"), "w");
	cr_assert(f && fputs(rules, f) >= 0 && !fclose(f));
	tc_pair pair = {ir_path(in), ir_path(out), false};
	tc_options o = {.pairs = &pair, .npairs = 1, .mapping_dir = ir_path("map"),
	                .beat = "com/tencent/matrix/trace/core/AppMethodBeat", .threads = 2, .deflate_level = 6,
	                .quiet = true, .blocklist = ir_path("inline.rules"), .base_mapping = base ? bpath : NULL};
	tc_error e;
	tc_error_clear(&e);
	cr_assert_eq(tc_instrument(&o, &e), TC_OK, "%s", e.message);
	verified(out);
}

static void instrument_rules(const char *in, const char *out, const char *rules)
{
	instrument_rules_base(in, out, rules, NULL);
}

static char *read_map(const char *name)
{
	char rel[64];
	snprintf(rel, sizeof rel, "map/%s", name);
	size_t len;
	uint8_t *b = ir_load(rel, &len);
	char *s = realloc(b, len + 1);
	s[len] = '\0';
	return s;
}

/* Methods of Lp/Small; that call Lp/Other;.work()V after `pad` const/16 (2 code units
 * each): pad * 2 + 4 code units, static ()V ("s<size>"), and, as an instance (I)V
 * method of a frame with no register but its parameters ("v<size>", so that the hook
 * adds two and moves the parameters back), pad * 2 + 4 as well; a constructor (7 code
 * units, hooked after the super call) and a static method with two returns (10). */
static const uint32_t SMALL_PADS[] = {0, 4, 6, 8, 10, 12, 13, 14, 15};

static void small_methods(dex_file *d)
{
	uint32_t k = db_class(d, "Lp/Small;", DACC_PUBLIC);
	tc_error e;
	tc_error_clear(&e);
	uint32_t callee, oinit;
	cr_assert_eq(dex_intern_method(d, "Lp/Other;", "work", "()V", &callee, &e), TC_OK);
	cr_assert_eq(dex_intern_method(d, "Ljava/lang/Object;", "<init>", "()V", &oinit, &e), TC_OK);
	for (size_t j = 0; j < sizeof SMALL_PADS / sizeof *SMALL_PADS; j++) {
		for (int inst = 0; inst < 2; inst++) {
			dex_insn code[20];
			uint32_t n = 0, pad = SMALL_PADS[j];
			for (uint32_t i = 0; i < pad; i++)
				code[n++] = db_lit(DEX_OP_CONST_16, inst, (int64_t)i); /* v0; v1 is p1 in v<size> */
			code[n++] = db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0);
			code[n++] = db_op(DEX_OP_RETURN_VOID);
			char name[16];
			snprintf(name, sizeof name, "%c%u", inst ? 'v' : 's', 2 * pad + 4);
			if (inst)
				db_method(d, k, name, "(I)V", DACC_PUBLIC, db_code(d, 2, 2, 0, code, n));
			else
				db_method(d, k, name, "()V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 0, 0, code, n));
		}
	}
	const uint16_t r0[] = {0};
	dex_insn ctor[] = {db_invoke(DEX_OP_INVOKE_DIRECT, oinit, r0, 1), db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0),
	                   db_op(DEX_OP_RETURN_VOID)};
	db_method(d, k, "<init>", "()V", DACC_PUBLIC | DACC_CONSTRUCTOR, db_code(d, 1, 1, 1, ctor, 3));
	dex_insn two[] = {db_branch(DEX_OP_IF_EQZ, 0, 0, 6), db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0),
	                  db_op(DEX_OP_RETURN_VOID), db_invoke(DEX_OP_INVOKE_STATIC, callee, NULL, 0),
	                  db_op(DEX_OP_RETURN_VOID)};
	db_method(d, k, "two", "(I)V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 1, 0, two, 5));
}

/* Checks the output of Small under a dex limit of `limit` code units: every method of it
 * that fitted the limit and is traced (changed) still fits it; one that is not changed
 * fitted and is listed in the ignore mapping, and counted as "inline"; returns how many
 * were left out. limit 0: none is left out. */
static uint32_t check_small(const dex_file *in, const char *outname, uint32_t limit)
{
	size_t len;
	uint8_t *b = ir_load(outname, &len);
	dex_file out;
	tc_error e;
	tc_error_clear(&e);
	uint8_t *keep = arena_dup(&A2, b, len);
	free(b);
	cr_assert_eq(dex_parse(&out, &A2, keep, len, &e), TC_OK, "%s", e.message);
	char *ig = read_map("ignoreMethodMapping.txt");
	uint32_t left = 0, fits = 0, k = 0, tlen;
	const uint8_t *t;
	while (k < in->nclasses && !((t = dex_type_desc(in, in->classes[k].type, &tlen)) && tlen == 9 &&
	                             !memcmp(t, "Lp/Small;", 9)))
		k++;
	cr_assert_lt(k, in->nclasses);
	const dex_cdata *cd = in->classes[k].data;
	for (uint32_t i = 0; i < dex_cdata_nmethods(cd); i++) {
		const dex_emethod *m = dex_cdata_method(cd, i);
		const dex_mid *mid = &in->methods.v[m->idx];
		const dex_str *nm = dex_string(in, mid->name);
		char name[64], desc[64], line[160];
		snprintf(name, sizeof name, "%.*s", (int)nm->len, (const char *)nm->data);
		cr_assert(dex_proto_desc(in, mid->proto, desc, sizeof desc));
		const dex_code *before = m->code;
		const dex_code *after = code_of(&out, "Lp/Small;", name, desc);
		snprintf(line, sizeof line, "p.Small %s %s\n", name, desc);
		bool listed = strstr(ig, line) != NULL;
		if (after->ninsns == before->ninsns) {
			cr_expect(listed, "%s is neither traced nor listed", name);
			cr_expect(limit && before->ninsns <= limit, "%s (%u) left out at limit %u", name, before->ninsns,
			          limit);
			left++;
		} else {
			cr_expect_not(listed, "%s is traced and listed", name);
			cr_expect(!limit || before->ninsns > limit || after->ninsns <= limit,
			          "traced %s has %u code units, past %u", name, after->ninsns, limit);
			if (limit && before->ninsns <= limit)
				fits++;
		}
	}
	cr_expect(!limit || fits > 0, "some method fits the limit with its probes");
	free(ig);
	char *s = stats();
	char want[32];
	snprintf(want, sizeof want, "\"inline\": %u", left);
	cr_expect(strstr(s, want), "%s not in %s", want, s);
	free(s);
	return left;
}

/* -keepinlinable N [M] on dex methods (rules/filter.h): M code units, ART's 32 when only N
 * is given (HotSpot's 35 bytes say nothing about dex); M = 0 filters no dex method. */
Test(dex_instrument, keepinlinable_leaves_out_the_dex_methods_their_probes_push_past_arts_limit)
{
	dex_file d;
	db_init(&d, &A);
	small_methods(&d);
	save(&d, "small.dex");
	verified("small.dex");
	instrument_rules("small.dex", "small-35.dex", "-keepinlinable 35\n");
	cr_expect_gt(check_small(&d, "small-35.dex", 32), 0, "ART's 32 by default");
	instrument_rules("small.dex", "small-24.dex", "-keepinlinable 35 24\n");
	uint32_t at24 = check_small(&d, "small-24.dex", 24);
	cr_expect_gt(at24, 0);
	instrument_rules("small.dex", "small-0.dex", "-keepinlinable 35 0\n");
	cr_expect_eq(check_small(&d, "small-0.dex", 0), 0, "M = 0: no dex method is left out");
}

/* The id's width counts: s12 (12 code units) is 29 hooked with ids up to 32767 (const/16)
 * and 32 with larger ones (const): under a limit of 30 it is traced, unless a base mapping
 * makes every new id larger than 32767. */
Test(dex_instrument, keepinlinable_on_dex_counts_the_width_of_the_id_it_gets)
{
	dex_file d;
	db_init(&d, &A);
	small_methods(&d);
	save(&d, "small.dex");
	instrument_rules("small.dex", "narrow.dex", "-keepinlinable 35 30\n");
	check_small(&d, "narrow.dex", 30);
	char *ig = read_map("ignoreMethodMapping.txt");
	cr_expect_not(strstr(ig, "p.Small s12 ()V\n"), "s12 with a small id fits: %s", ig);
	free(ig);
	instrument_rules_base("small.dex", "wide.dex", "-keepinlinable 35 30\n", "40000,1,p.Gone run ()V\n");
	check_small(&d, "wide.dex", 30);
	ig = read_map("ignoreMethodMapping.txt");
	cr_expect(strstr(ig, "p.Small s12 ()V\n"), "s12 with an id past 32767 does not fit: %s", ig);
	free(ig);
	char *mm = read_map("methodMapping.txt");
	cr_expect(strstr(mm, "40001,"), "new ids follow the base mapping's: %s", mm);
	free(mm);
}

/* Lp/Art; (not final) and Lp/Fin; (final), each method calling Lp/Other;.work()V, 4 to
 * 10 code units, every one within 32 with its probes: static s, virtual v, final virtual
 * f, Fin's virtual v, static t inside a try item of its own, static x that only throws,
 * static w with a throw and a return. */
static void art_methods(dex_file *d)
{
	uint32_t art = db_class(d, "Lp/Art;", DACC_PUBLIC), fin = db_class(d, "Lp/Fin;", DACC_PUBLIC | DACC_FINAL);
	tc_error e;
	tc_error_clear(&e);
	uint32_t work;
	cr_assert_eq(dex_intern_method(d, "Lp/Other;", "work", "()V", &work, &e), TC_OK);
	dex_insn call[] = {db_invoke(DEX_OP_INVOKE_STATIC, work, NULL, 0), db_op(DEX_OP_RETURN_VOID)};
	db_method(d, art, "s", "()V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 0, 0, call, 2));
	db_method(d, art, "v", "()V", DACC_PUBLIC, db_code(d, 1, 1, 0, call, 2));
	db_method(d, art, "f", "()V", DACC_PUBLIC | DACC_FINAL, db_code(d, 1, 1, 0, call, 2));
	db_method(d, fin, "v", "()V", DACC_PUBLIC, db_code(d, 1, 1, 0, call, 2));
	/* 0000 invoke-static work; 0003 return-void; 0004 move-exception v0; 0005 return-void */
	dex_insn guarded[] = {call[0], call[1], db_a(DEX_OP_MOVE_EXCEPTION, 0), db_op(DEX_OP_RETURN_VOID)};
	dex_code *t = db_code(d, 1, 0, 0, guarded, 4);
	t->ntries = 1;
	t->tries = arena_alloc(&A, sizeof *t->tries);
	t->tries[0] = (dex_try){0, 3, 0};
	t->nhandlers = 1;
	t->handlers = arena_zalloc(&A, sizeof *t->handlers);
	t->handlers[0].catch_all = 4;
	db_method(d, art, "t", "()V", DACC_PUBLIC | DACC_STATIC, t);
	dex_insn thrown[] = {call[0], db_a(DEX_OP_THROW, 0)};
	db_method(d, art, "x", "(Ljava/lang/Throwable;)V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 1, 0, thrown, 2));
	/* 0000 if-eqz p0, 0006; 0002 invoke-static work; 0005 throw p0; 0006 return-void */
	dex_insn either[] = {db_branch(DEX_OP_IF_EQZ, 0, 0, 6), call[0], db_a(DEX_OP_THROW, 0), call[1]};
	db_method(d, art, "w", "(Ljava/lang/Throwable;)V", DACC_PUBLIC | DACC_STATIC, db_code(d, 1, 1, 0, either, 4));
}

/* The ART -keepinlinable models (rules/filter.h), by its API: which of art_methods'
 * methods are left out ('L') and traced ('T'), in the order s, v, f, Fin.v, t, x, w. */
static void expect_art(const char *rules, const char *want)
{
	static const char *const keys[] = {"p.Art s ()V", "p.Art v ()V", "p.Art f ()V", "p.Fin v ()V", "p.Art t ()V",
	                                   "p.Art x (Ljava.lang.Throwable;)V", "p.Art w (Ljava.lang.Throwable;)V"};
	instrument_rules("art.dex", "art-out.dex", rules);
	char *ig = read_map("ignoreMethodMapping.txt");
	char got[8] = {0};
	for (size_t i = 0; i < 7; i++) {
		char line[80];
		snprintf(line, sizeof line, "%s\n", keys[i]);
		got[i] = strstr(ig, line) ? 'L' : 'T';
	}
	cr_expect_str_eq(got, want, "%s", rules);
	free(ig);
}

/* Before ART 14 (API 34) no callee with a try item is inlined, and the probes' catch-all
 * adds one: every method inlinable without probes is left out, t (a try item of its own)
 * and x (no return) are not inlinable either way; Android 7 (API 24, 25) inlines no
 * callee with a throw (w); up to API 23 no method that calls something is inlined. From
 * ART 14 on a callee with a try item is inlined but not where it is found by class
 * hierarchy analysis or an inline cache: the virtual method neither it nor its class
 * declares final (Art.v) is left out, the others fit 32 code units with their probes. */
Test(dex_instrument, keepinlinable_on_dex_models_arts_refusal_of_the_probes_try_item)
{
	dex_file d;
	db_init(&d, &A);
	art_methods(&d);
	save(&d, "art.dex");
	verified("art.dex");
	expect_art("-keepinlinable 35\n", "TLTTTTT");
	expect_art("-keepinlinable 35 32 34\n", "TLTTTTT");
	expect_art("-keepinlinable 35 32 33\n", "LLLLTTL");
	expect_art("-keepinlinable 35 32 26\n", "LLLLTTL");
	expect_art("-keepinlinable 35 32 25\n", "LLLLTTT");
	expect_art("-keepinlinable 35 32 23\n", "TTTTTTT");
	expect_art("-keepinlinable 35 0 33\n", "TTTTTTT");
	expect_art("-keepinlinable 35 3 33\n", "TTTTTTT"); /* none fits 3 code units */
}

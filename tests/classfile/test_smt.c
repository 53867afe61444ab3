/* Descriptors (JVMS 4.3) and the StackMapTable codec (JVMS 4.7.4): every frame form
 * decoded, encoded back byte for byte, the smallest form chosen for new frames, and
 * malformed tables. */
#include <string.h>

#include "desc.h"
#include "helpers.h"

static uint32_t end_of(const char *s, uint32_t pos)
{
	return cf_desc_type_end((const uint8_t *)s, (uint32_t)strlen(s), pos);
}

Test(desc, field_types)
{
	cr_assert_eq(end_of("I", 0), 1);
	cr_assert_eq(end_of("[[I", 0), 3);
	cr_assert_eq(end_of("Ljava/lang/String;", 0), 18);
	cr_assert_eq(end_of("IJ", 1), 2);
	cr_assert_eq(end_of("L;", 0), 0, "empty class name");
	cr_assert_eq(end_of("Lfoo", 0), 0, "no ;");
	cr_assert_eq(end_of("La.b;", 0), 0, "a dot in an internal name");
	cr_assert_eq(end_of("La[b;", 0), 0);
	cr_assert_eq(end_of("V", 0), 0, "void is no field type");
	cr_assert_eq(end_of("Q", 0), 0);
	cr_assert_eq(end_of("[", 0), 0);
	char dims[300];
	memset(dims, '[', 255);
	strcpy(dims + 255, "I");
	cr_assert_eq(end_of(dims, 0), 256, "255 dimensions (JVMS 4.3.2)");
	memset(dims, '[', 256);
	strcpy(dims + 256, "I");
	cr_assert_eq(end_of(dims, 0), 0, "256 dimensions");
	cr_assert(cf_desc_field_valid((const uint8_t *)"[Lx;", 4));
	cr_assert_not(cf_desc_field_valid((const uint8_t *)"II", 2));
	cr_assert_not(cf_desc_field_valid((const uint8_t *)"", 0));
	cr_assert_eq(cf_desc_words('J'), 2);
	cr_assert_eq(cf_desc_words('D'), 2);
	cr_assert_eq(cf_desc_words('V'), 0);
	cr_assert_eq(cf_desc_words('['), 1);
	cr_assert_eq(cf_desc_words('L'), 1);
}

static bool method(const char *s, cf_desc_method *m)
{
	return cf_desc_parse_method((const uint8_t *)s, (uint32_t)strlen(s), m);
}

Test(desc, method_types)
{
	cf_desc_method m;
	cr_assert(method("()V", &m));
	cr_assert(m.nargs == 0 && m.arg_words == 0 && m.ret_words == 0 && m.ret_pos == 2);
	cr_assert(method("(IJD[JLx;)J", &m));
	cr_assert(m.nargs == 5 && m.arg_words == 7 && m.ret_words == 2 && m.ret_pos == 10);
	cr_assert(method("(Z)[[Ljava/lang/Object;", &m));
	cr_assert(m.nargs == 1 && m.ret_words == 1);
	const char *bad[] = {"(V)V", "()", "(I)VV", "(I", "I", "(I)Q", "", "()L;", "(Lx)V", "(I)Vx"};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
		cr_assert_not(method(bad[k], &m), "%s", bad[k]);
}

Test(smt, types_from_descriptors)
{
	smt_vtype v;
	cr_assert(smt_from_desc((const uint8_t *)"Z", 1, &v) && v.tag == VT_INT);
	cr_assert(smt_from_desc((const uint8_t *)"C", 1, &v) && v.tag == VT_INT);
	cr_assert(smt_from_desc((const uint8_t *)"F", 1, &v) && v.tag == VT_FLOAT);
	cr_assert(smt_from_desc((const uint8_t *)"J", 1, &v) && v.tag == VT_LONG && smt_wide(v.tag));
	cr_assert(smt_from_desc((const uint8_t *)"D", 1, &v) && v.tag == VT_DOUBLE && smt_wide(v.tag));
	cr_assert(smt_from_desc((const uint8_t *)"Ljava/lang/Object;", 18, &v) && v.tag == VT_OBJECT);
	cr_assert(v.name_len == 16 && !memcmp(v.name, "java/lang/Object", 16) && v.cpidx == 0);
	cr_assert(smt_from_desc((const uint8_t *)"[I", 2, &v) && v.tag == VT_OBJECT);
	cr_assert(v.name_len == 2 && !memcmp(v.name, "[I", 2));
	cr_assert_not(smt_from_desc((const uint8_t *)"V", 1, &v));
	cr_assert_str_eq(smt_tag_name(VT_UNINIT_THIS), "UninitializedThis");
	cr_assert_str_eq(smt_tag_name(9), "invalid");
}

Test(smt, initial_frames)
{
	bld *b = bld_new(52, 0);
	bld_this(b, bld_class(b, "p/T"));
	bld_default_init(b);
	bld_method_nocode(b, ACC_STATIC, "s", "(IJLjava/lang/String;)V");
	bld_method_nocode(b, 0, "v", "([D)V");
	tcls t;
	tc_build(&t, b);
	arena a;
	arena_init(&a);
	tc_error err;
	tc_error_clear(&err);
	smt_vtype *l;
	uint16_t n;
	expect_ok(smt_initial(&t.cls, tc_method(&t, "s"), &a, &l, &n, &err), err);
	cr_assert_eq(n, 3, "a long is one entry");
	cr_assert(l[0].tag == VT_INT && l[1].tag == VT_LONG && l[2].tag == VT_OBJECT);
	expect_ok(smt_initial(&t.cls, tc_method(&t, "v"), &a, &l, &n, &err), err);
	cr_assert(n == 2 && l[0].tag == VT_OBJECT && l[0].name_len == 3 && !memcmp(l[0].name, "p/T", 3));
	cr_assert_eq(l[0].cpidx, t.cls.this_class);
	expect_ok(smt_initial(&t.cls, tc_method(&t, "<init>"), &a, &l, &n, &err), err);
	cr_assert(n == 1 && l[0].tag == VT_UNINIT_THIS);
	tc_drop(&t);

	/* java/lang/Object's constructor has an initialized this (JVMS 4.10.1.6) */
	b = bld_new(52, 0);
	bld_this(b, bld_class(b, "java/lang/Object"));
	bld_super(b, 0);
	bld_method_code(b, ACC_PUBLIC, "<init>", "()V", 0, 1, BYTES(OP_RETURN));
	tc_build(&t, b);
	expect_ok(smt_initial(&t.cls, tc_method(&t, "<init>"), &a, &l, &n, &err), err);
	cr_assert(n == 1 && l[0].tag == VT_OBJECT);
	tc_drop(&t);
	arena_free(&a);
}

/* A class whose method "m(IJ)V" (static: locals [int, long]) has a 40-byte code of nops
 * and the given table. */
static void with_table(tcls *t, const uint8_t *smt, size_t len, size_t *body)
{
	bld *b = bld_new(52, 0);
	bld_default_init(b);
	uint8_t code[40];
	memset(code, OP_NOP, sizeof code);
	code[39] = OP_RETURN;
	bld_method *m = bld_method_code(b, ACC_STATIC, "m", "(IJ)V", 2, 8, code, sizeof code);
	bld_code_attr(m, "StackMapTable", smt, len);
	bld_class(b, "java/lang/String"); /* the last entries: see str_index */
	size_t n;
	uint8_t *bytes = bld_finish(b, &n);
	if (body)
		*body = bld_last_layout(b)->code_attr[1][0];
	bld_free(b);
	cr_assert_eq(tc_parse(t, bytes, n), TC_OK, "%s", t->err.message);
}

static uint16_t str_index(tcls *t)
{
	for (uint16_t i = 1; i < t->cls.cp.count; i++) {
		uint32_t len;
		const uint8_t *s = cp_class_name(&t->cls.cp, i, &len);
		if (s && len == 16 && !memcmp(s, "java/lang/String", 16))
			return i;
	}
	cr_assert_fail("no String class");
	return 0;
}

static int decode(tcls *t, arena *a, smt_frame **f, uint32_t *n, tc_error *err)
{
	cf_member *m = tc_method(t, "m");
	smt_vtype *init;
	uint16_t ninit;
	tc_error_clear(err);
	cr_assert_eq(smt_initial(&t->cls, m, a, &init, &ninit, err), TC_OK);
	const cf_attr *at = tc_code_attr(t, "m", "StackMapTable");
	return smt_decode(&t->cls, at, 40, init, ninit, a, f, n, err);
}

Test(smt, every_form_decodes_and_encodes_back)
{
	/* The String class index is not known before building: build once to learn it. */
	tcls probe;
	with_table(&probe, BYTES(0, 0), NULL);
	uint16_t s = str_index(&probe);
	tc_drop(&probe);
	/* initial locals [int, long] */
	uint8_t smt[] = {0, 10,
		3,                               /* same @3 */
		64 + 0, VT_FLOAT,                /* same_locals_1_stack_item @4 [float] */
		247, U2(1), VT_OBJECT, U2(s),    /* ..._extended @6 [String] */
		251, U2(2),                      /* same_frame_extended @9 */
		252, U2(0), VT_DOUBLE,           /* append 1 @10: [int, long, double] */
		254, U2(0), VT_NULL, VT_TOP, VT_INT, /* append 3 @11: [.., null, top, int] */
		250, U2(0),                      /* chop 1 @12: [int, long, double, null, top] */
		248, U2(0),                      /* chop 3 @13: [int, long] */
		255, U2(1), U2(2), VT_INT, VT_UNINIT, U2(5), U2(2), VT_LONG, VT_UNINIT_THIS, /* full @15 */
		0,                               /* same @16 */
	};
	tcls t;
	with_table(&t, smt, sizeof smt, NULL);
	arena a;
	arena_init(&a);
	smt_frame *f;
	uint32_t n;
	tc_error err;
	expect_ok(decode(&t, &a, &f, &n, &err), err);
	cr_assert_eq(n, 10);
	uint32_t offs[] = {3, 4, 6, 9, 10, 11, 12, 13, 15, 16};
	uint16_t nloc[] = {2, 2, 2, 2, 3, 6, 5, 2, 2, 2};
	uint16_t nstk[] = {0, 1, 1, 0, 0, 0, 0, 0, 2, 0};
	for (uint32_t i = 0; i < n; i++) {
		cr_assert_eq(f[i].off, offs[i], "frame %u at %u", i, f[i].off);
		cr_assert_eq(f[i].nlocals, nloc[i], "frame %u locals %u", i, f[i].nlocals);
		cr_assert_eq(f[i].nstack, nstk[i], "frame %u stack %u", i, f[i].nstack);
	}
	cr_assert(f[1].stack[0].tag == VT_FLOAT);
	cr_assert(f[2].stack[0].tag == VT_OBJECT && f[2].stack[0].cpidx == s);
	cr_assert(f[4].locals[2].tag == VT_DOUBLE);
	cr_assert(f[5].locals[3].tag == VT_NULL && f[5].locals[4].tag == VT_TOP && f[5].locals[5].tag == VT_INT);
	cr_assert(f[8].locals[1].tag == VT_UNINIT && f[8].locals[1].off == 5);
	cr_assert(f[8].stack[0].tag == VT_LONG && f[8].stack[1].tag == VT_UNINIT_THIS);
	cr_assert(f[9].nlocals == 2 && f[9].locals[1].tag == VT_UNINIT);
	/* encoded back: the same bytes, forms kept even where smaller ones exist */
	tc_buf out;
	buf_init(&out);
	smt_vtype *init;
	uint16_t ninit;
	cr_assert_eq(smt_initial(&t.cls, tc_method(&t, "m"), &a, &init, &ninit, &err), TC_OK);
	expect_ok(smt_encode(&t.cls.cp, f, n, init, ninit, &out, &err), err);
	cr_assert(out.len == sizeof smt && !memcmp(out.data, smt, sizeof smt));
	buf_free(&out);
	arena_free(&a);
	tc_drop(&t);
}

/* New frames (SMT_NEW) take the smallest form that describes them. */
Test(smt, new_frames_take_the_smallest_form)
{
	tcls t;
	with_table(&t, BYTES(0, 0), NULL);
	arena a;
	arena_init(&a);
	tc_error err;
	tc_error_clear(&err);
	smt_vtype *init;
	uint16_t ninit;
	cr_assert_eq(smt_initial(&t.cls, tc_method(&t, "m"), &a, &init, &ninit, &err), TC_OK);
	smt_vtype I = {.tag = VT_INT}, J = {.tag = VT_LONG}, F = {.tag = VT_FLOAT}, N = {.tag = VT_NULL};
	smt_vtype loc5[] = {I, J, F, N, I};
	smt_vtype loc6[] = {I, J, F, N, I, I};
	smt_vtype st1[] = {F};
	smt_vtype st2[] = {F, F};
	struct {
		uint32_t off;
		uint16_t nl, ns;
		smt_vtype *l, *s;
		uint8_t want[16];
		uint32_t wlen;
	} cases[] = {
		{5, 2, 0, init, NULL, {5}, 1},                               /* same */
		{64, 2, 0, init, NULL, {251, U2(64)}, 3},                    /* same, extended */
		{63, 2, 1, init, st1, {64 + 63, VT_FLOAT}, 2},               /* same_locals_1 */
		{64, 2, 1, init, st1, {247, U2(64), VT_FLOAT}, 4},           /* ..._extended */
		{0, 1, 0, init, NULL, {250, U2(0)}, 3},                      /* chop 1 */
		{1, 0, 0, init, NULL, {249, U2(1)}, 3},                      /* chop 2 */
		{2, 5, 0, loc5, NULL, {254, U2(2), VT_FLOAT, VT_NULL, VT_INT}, 6}, /* append 3 */
		{3, 6, 0, loc6, NULL, {255, U2(3), U2(6), VT_INT, VT_LONG, VT_FLOAT, VT_NULL, VT_INT, VT_INT, U2(0)}, 13},
		{4, 2, 2, init, st2, {255, U2(4), U2(2), VT_INT, VT_LONG, U2(2), VT_FLOAT, VT_FLOAT}, 11},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		smt_frame fr = {.off = cases[k].off, .type = SMT_NEW, .nlocals = cases[k].nl, .nstack = cases[k].ns,
		                .locals = cases[k].l, .stack = cases[k].s};
		tc_buf out;
		buf_init(&out);
		expect_ok(smt_encode(&t.cls.cp, &fr, 1, init, ninit, &out, &err), err);
		cr_assert(out.len == 2 + cases[k].wlen && !memcmp(out.data + 2, cases[k].want, cases[k].wlen),
		          "case %zu: %zu bytes, first %u", k, out.len, out.len > 2 ? out.data[2] : 0);
		buf_free(&out);
	}
	/* an Object type known only by name gets a Class entry */
	smt_vtype obj = {.tag = VT_OBJECT, .name = (const uint8_t *)"q/New", .name_len = 5};
	smt_frame fr = {.off = 0, .type = SMT_NEW, .nlocals = 2, .nstack = 1, .locals = init, .stack = &obj};
	tc_buf out;
	buf_init(&out);
	uint32_t count = t.cls.cp.count;
	expect_ok(smt_encode(&t.cls.cp, &fr, 1, init, ninit, &out, &err), err);
	cr_assert_eq(t.cls.cp.count, count + 2, "Utf8 and Class added");
	cr_assert_eq(get_u2(out.data + 4), count + 1);
	buf_free(&out);
	/* frames out of order are the caller's error */
	smt_frame two[] = {{.off = 5, .type = SMT_NEW, .nlocals = 2, .locals = init},
	                   {.off = 5, .type = SMT_NEW, .nlocals = 2, .locals = init}};
	buf_init(&out);
	cr_assert_eq(smt_encode(&t.cls.cp, two, 2, init, ninit, &out, &err), TC_EARG);
	buf_free(&out);
	arena_free(&a);
	tc_drop(&t);
}

Test(smt, malformed_tables)
{
	struct {
		const char *what;
		uint8_t smt[12];
		uint32_t len;
		int code;
		const char *part;
		uint32_t rel; /* error offset from the attribute body */
	} cases[] = {
		{"reserved frame type", {0, 1, 128}, 3, TC_EFORMAT, "StackMapTable frame 0", 2},
		{"reserved frame type 246", {0, 2, 0, 246}, 4, TC_EFORMAT, "StackMapTable frame 1", 3},
		{"chop past the locals", {0, 2, 249, U2(0), 249, U2(0)}, 8, TC_EFORMAT, "StackMapTable frame 1", 5},
		{"unknown verification type", {0, 1, 64, 9}, 4, TC_EFORMAT, "StackMapTable frame 0", 3},
		{"Object of a Utf8", {0, 1, 64, VT_OBJECT, U2(1)}, 6, TC_EFORMAT, "StackMapTable frame 0", 3},
		{"Uninitialized past the code", {0, 1, 64, VT_UNINIT, U2(40)}, 6, TC_EFORMAT, "StackMapTable frame 0", 3},
		{"frame past the code", {0, 1, 251, U2(40)}, 5, TC_EFORMAT, "StackMapTable frame 0", 2},
		{"bytes after the last frame", {0, 1, 0, 0}, 4, TC_EFORMAT, "StackMapTable", 3},
		{"frame cut off", {0, 1, 255, U2(0), U2(3), VT_INT}, 7, TC_ETRUNC, "StackMapTable frame 0", 7},
		{"count cut off", {0}, 1, TC_ETRUNC, "StackMapTable", 0},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		tcls t;
		size_t body;
		with_table(&t, cases[k].smt, cases[k].len, &body);
		arena a;
		arena_init(&a);
		smt_frame *f;
		uint32_t n;
		tc_error err;
		int rc = decode(&t, &a, &f, &n, &err);
		cr_assert_eq(rc, cases[k].code, "%s: %d %s", cases[k].what, rc, err.message);
		cr_assert_str_eq(err.part, cases[k].part, "%s: %s", cases[k].what, err.part);
		cr_assert_eq(err.offset, body + cases[k].rel, "%s: offset %u, want %zu", cases[k].what, err.offset,
		             body + cases[k].rel);
		arena_free(&a);
		tc_drop(&t);
	}
}

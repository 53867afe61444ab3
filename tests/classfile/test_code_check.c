/* What code_open checks in a method body, and the exact error code, part and byte
 * offset for each kind of malformed code: undefined opcodes, bad wide, switches that
 * do not fit or are unsorted, branches into the middle of an instruction, exception
 * entries and stack-map frames off instruction boundaries, debug tables and type
 * annotations with bad offsets, constant-pool operands of the wrong kind. */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

typedef struct opened {
	tcls t;
	arena s;
	code_editor *ed;
	size_t code0;      /* offset of code[0] of m in the file */
	size_t attr[8];    /* bodies of m's nested Code attributes */
	int rc;
} opened;

/* Finishes b, whose method 1 is "m" (method 0 the default constructor), and opens m. */
static void open_m(bld *b, opened *o)
{
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	const bld_layout *L = bld_last_layout(b);
	o->code0 = L->code_bytes[1];
	for (int k = 0; k < 8; k++)
		o->attr[k] = L->code_attr[1][k];
	bld_free(b);
	cr_assert_eq(tc_parse(&o->t, bytes, len), TC_OK, "%s", o->t.err.message);
	arena_init(&o->s);
	tc_error_clear(&o->t.err);
	o->rc = code_open(&o->ed, &o->t.cls, tc_method(&o->t, "m"), &o->s, &o->t.err);
}

static void close_m(opened *o)
{
	arena_free(&o->s);
	tc_drop(&o->t);
}

static bld *with_m(uint16_t major, const uint8_t *code, size_t len)
{
	bld *b = bld_new(major, 0);
	bld_default_init(b);
	bld_method_code(b, ACC_STATIC, "m", "()V", 4, 4, code, len);
	return b;
}

static void expect_code_err(bld *b, int code, size_t rel, const char *part)
{
	opened o;
	open_m(b, &o);
	expect_err(o.rc, o.t.err, code, part, o.code0 + rel);
	cr_assert_null(o.ed);
	close_m(&o);
}

Test(code_check, undefined_opcodes)
{
	/* 0xca breakpoint and 0xfe/0xff impdep are reserved: never in class files. */
	uint8_t ops[] = {0xca, 0xcb, 0xd0, 0xe4, 0xfd, 0xfe, 0xff};
	for (size_t k = 0; k < sizeof ops; k++)
		expect_code_err(with_m(52, BYTES(OP_NOP, OP_ICONST_0, ops[k], OP_RETURN)), TC_EOPCODE, 2,
		                "Code");
}

Test(code_check, wide_of_non_widenable)
{
	uint8_t ops[] = {OP_IADD, OP_WIDE, OP_BIPUSH, OP_GOTO, OP_ILOAD_0, OP_LDC, 0xcb};
	for (size_t k = 0; k < sizeof ops; k++)
		expect_code_err(with_m(52, BYTES(OP_NOP, OP_WIDE, ops[k], 0, 1, OP_RETURN)), TC_EOPCODE, 1,
		                "Code");
}

Test(code_check, instructions_cut_off_by_the_end)
{
	expect_code_err(with_m(52, BYTES(OP_NOP, OP_SIPUSH, 1)), TC_ETRUNC, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_NOP, OP_GOTO_W, 0, 0, 0)), TC_ETRUNC, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_NOP, OP_WIDE)), TC_ETRUNC, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_NOP, OP_WIDE, OP_IINC, 0, 1, 0)), TC_ETRUNC, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_INVOKEINTERFACE, 0, 1, 1)), TC_ETRUNC, 0, "Code");
	/* tableswitch at 1: 2 bytes of padding, then default, low, high need 12 bytes */
	expect_code_err(with_m(52, BYTES(OP_ICONST_0, OP_TABLESWITCH, 0, 0, U4(0), U4(0))), TC_ETRUNC, 1, "Code");
}

Test(code_check, closed_operands)
{
	expect_code_err(with_m(52, BYTES(OP_ICONST_1, OP_NEWARRAY, 3, OP_POP, OP_RETURN)), TC_EOPCODE, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_ICONST_1, OP_NEWARRAY, 12, OP_POP, OP_RETURN)), TC_EOPCODE, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_ACONST_NULL, OP_INVOKEINTERFACE, U2(1), 0, 0, OP_RETURN)),
	                TC_EOPCODE, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_ACONST_NULL, OP_INVOKEINTERFACE, U2(1), 1, 1, OP_RETURN)),
	                TC_EOPCODE, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_NOP, OP_INVOKEDYNAMIC, U2(1), 0, 1, OP_RETURN)), TC_EOPCODE, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_NOP, OP_MULTIANEWARRAY, U2(1), 0, OP_RETURN)), TC_EOPCODE, 1, "Code");
}

/* tableswitch whose case table does not fit in the code, including bounds whose
 * count overflows 32 bits. */
Test(code_check, switch_too_long)
{
	/* at 0: 3 bytes of padding */
	expect_code_err(with_m(52, BYTES(OP_TABLESWITCH, 0, 0, 0, U4(16), U4(0), U4(1000), U4(16), OP_RETURN)),
	                TC_ETRUNC, 0, "Code");
	expect_code_err(with_m(52, BYTES(OP_TABLESWITCH, 0, 0, 0, U4(16), U4(0x80000000u), U4(0x7fffffff),
	                                 U4(16), OP_RETURN)),
	                TC_ETRUNC, 0, "Code");
	expect_code_err(with_m(52, BYTES(OP_LOOKUPSWITCH, 0, 0, 0, U4(12), U4(0x7fffffff), OP_RETURN)),
	                TC_ETRUNC, 0, "Code");
	/* low > high, and a negative npairs */
	expect_code_err(with_m(52, BYTES(OP_TABLESWITCH, 0, 0, 0, U4(16), U4(1), U4(0), OP_RETURN)),
	                TC_EOPCODE, 0, "Code");
	expect_code_err(with_m(52, BYTES(OP_LOOKUPSWITCH, 0, 0, 0, U4(12), U4(0xffffffffu), OP_RETURN)),
	                TC_EOPCODE, 0, "Code");
}

Test(code_check, lookupswitch_unsorted)
{
	/* iconst_0 at 0; lookupswitch at 1, 2 bytes padding, default, npairs 2,
	 * (5, ->) (3, ->): keys must increase (JVMS 6.5). All targets: return at 28. */
	expect_code_err(with_m(52, BYTES(OP_ICONST_0, OP_LOOKUPSWITCH, 0, 0, U4(27), U4(2), U4(5), U4(27),
	                                 U4(3), U4(27), OP_RETURN)),
	                TC_EOPCODE, 1, "Code");
	/* equal keys are not increasing either */
	expect_code_err(with_m(52, BYTES(OP_ICONST_0, OP_LOOKUPSWITCH, 0, 0, U4(27), U4(2), U4(3), U4(27),
	                                 U4(3), U4(27), OP_RETURN)),
	                TC_EOPCODE, 1, "Code");
	/* sorted by signed value: -1 before 1 is fine */
	opened o;
	open_m(with_m(52, BYTES(OP_ICONST_0, OP_LOOKUPSWITCH, 0, 0, U4(27), U4(2), U4(0xffffffffu), U4(27),
	                        U4(1), U4(27), OP_RETURN)),
	       &o);
	expect_ok(o.rc, o.t.err);
	cr_assert_eq(code_ninsns(o.ed), 3);
	cr_assert_eq(code_insn(o.ed, 2)->off, 28);
	close_m(&o);
}

Test(code_check, branch_into_the_middle)
{
	/* 0: sipush 1 (3 bytes)  3: pop  4: goto -3 (to 1, inside sipush) */
	expect_code_err(with_m(52, BYTES(OP_SIPUSH, U2(1), OP_POP, OP_GOTO, U2(-3), OP_RETURN)), TC_EBRANCH, 4, "Code");
	/* past the end, before the start */
	expect_code_err(with_m(52, BYTES(OP_NOP, OP_GOTO, U2(100), OP_RETURN)), TC_EBRANCH, 1, "Code");
	expect_code_err(with_m(52, BYTES(OP_NOP, OP_GOTO, U2(-2), OP_RETURN)), TC_EBRANCH, 1, "Code");
	/* to code_length exactly */
	expect_code_err(with_m(52, BYTES(OP_ICONST_0, OP_IFEQ, U2(4), OP_RETURN)), TC_EBRANCH, 1, "Code");
	/* goto_w into the middle */
	expect_code_err(with_m(52, BYTES(OP_GOTO_W, U4(2), OP_NOP, OP_RETURN)), TC_EBRANCH, 0, "Code");
	/* a switch case into the middle of the switch itself */
	expect_code_err(with_m(52, BYTES(OP_ICONST_0, OP_TABLESWITCH, 0, 0, U4(19), U4(0), U4(0), U4(2), OP_RETURN)),
	                TC_EBRANCH, 1, "Code");
	/* jsr into an operand */
	expect_code_err(with_m(49, BYTES(OP_JSR, U2(5), OP_RETURN, OP_BIPUSH, 1, OP_RET, 0)), TC_EBRANCH, 0, "Code");
}

Test(code_check, exception_entry_off_boundaries)
{
	/* 0: sipush 1  3: pop  4: return. Entry 1 starts inside the sipush. */
	bld *b = bld_new(52, 0);
	bld_default_init(b);
	bld_method *m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 0,
	                                BYTES(OP_SIPUSH, U2(1), OP_POP, OP_RETURN, OP_ATHROW));
	bld_exc(m, 0, 4, 5, 0);
	bld_exc(m, 1, 4, 5, 0);
	opened o;
	open_m(b, &o);
	/* entry 1: after code (6 bytes) and exception_table_length, 8 bytes per entry */
	expect_err(o.rc, o.t.err, TC_EBRANCH, "exception table", o.code0 + 6 + 2 + 8);
	close_m(&o);

	b = bld_new(52, 0);
	bld_default_init(b);
	m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 0, BYTES(OP_SIPUSH, U2(1), OP_POP, OP_RETURN, OP_ATHROW));
	bld_exc(m, 0, 2, 5, 0); /* end inside the sipush */
	open_m(b, &o);
	expect_err(o.rc, o.t.err, TC_EBRANCH, "exception table", o.code0 + 6 + 2);
	close_m(&o);

	b = bld_new(52, 0);
	bld_default_init(b);
	m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 0, BYTES(OP_SIPUSH, U2(1), OP_POP, OP_RETURN, OP_ATHROW));
	bld_exc(m, 0, 3, 2, 0); /* handler inside the sipush */
	open_m(b, &o);
	expect_err(o.rc, o.t.err, TC_EBRANCH, "exception table", o.code0 + 6 + 2);
	close_m(&o);

	/* end == code_length is fine */
	b = bld_new(52, 0);
	bld_default_init(b);
	m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 0, BYTES(OP_SIPUSH, U2(1), OP_POP, OP_RETURN, OP_ATHROW));
	bld_exc(m, 0, 6, 5, 0);
	open_m(b, &o);
	expect_ok(o.rc, o.t.err);
	close_m(&o);
}

/* StackMapTable frames whose offsets are not instructions. */
Test(code_check, frame_offset_not_on_an_instruction)
{
	/* static void m(int): 0: iload_0 1: ifeq +6 (->7) 4: sipush 1 7: return
	 * Frame 0 (same, delta 7) is right; frame 0 at 5 (inside sipush) is not. */
	uint8_t code[] = {OP_ILOAD_0, OP_IFEQ, U2(6), OP_SIPUSH, U2(1), OP_RETURN};
	bld *b = bld_new(52, 0);
	bld_default_init(b);
	bld_method *m = bld_method_code(b, ACC_STATIC, "m", "(I)V", 1, 1, code, sizeof code);
	bld_code_attr(m, "StackMapTable", BYTES(0, 2, 4, 2)); /* same@4, same@7 */
	opened o;
	open_m(b, &o);
	expect_ok(o.rc, o.t.err);
	close_m(&o);

	b = bld_new(52, 0);
	bld_default_init(b);
	m = bld_method_code(b, ACC_STATIC, "m", "(I)V", 1, 1, code, sizeof code);
	bld_code_attr(m, "StackMapTable", BYTES(0, 2, 5, 1)); /* same@5 (inside sipush), same@7 */
	open_m(b, &o);
	/* frame 0 starts after number_of_entries */
	expect_err(o.rc, o.t.err, TC_EBRANCH, "StackMapTable frame 0", o.attr[0] + 2);
	close_m(&o);

	/* A frame past the code is a format error of the table itself. */
	b = bld_new(52, 0);
	bld_default_init(b);
	m = bld_method_code(b, ACC_STATIC, "m", "(I)V", 1, 1, code, sizeof code);
	bld_code_attr(m, "StackMapTable", BYTES(0, 2, 7, 0)); /* same@7, same@8 */
	open_m(b, &o);
	expect_err(o.rc, o.t.err, TC_EFORMAT, "StackMapTable frame 1", o.attr[0] + 3);
	close_m(&o);
}

Test(code_check, uninitialized_offset_not_a_new)
{
	/* static void m(): 0: new #C 3: dup 4: iconst_0 5: ifeq +3 (->8: stack [U0 U0])
	 * 8: invokespecial C.<init> 11: pop 12: return. Frame at 8: full, stack
	 * [Uninitialized(0), Uninitialized(0)]; then Uninitialized(1), inside the new. */
	for (int bad = 0; bad < 2; bad++) {
		bld *b = bld_new(52, 0);
		bld_default_init(b);
		uint16_t c = bld_class(b, "java/lang/Object");
		uint16_t init = bld_methodref(b, "java/lang/Object", "<init>", "()V");
		bld_method *m = bld_method_code(b, ACC_STATIC, "m", "()V", 3, 0,
		                                BYTES(OP_NEW, U2(c), OP_DUP, OP_ICONST_0, OP_IFEQ, U2(3),
		                                      OP_INVOKESPECIAL, U2(init), OP_POP, OP_RETURN));
		uint16_t u = bad ? 1 : 0;
		bld_code_attr(m, "StackMapTable", BYTES(0, 1, 255, U2(8), U2(0), U2(2), 8, U2(u), 8, U2(u)));
		opened o;
		open_m(b, &o);
		if (!bad)
			expect_ok(o.rc, o.t.err);
		else
			expect_err(o.rc, o.t.err, TC_EBRANCH, "StackMapTable frame 0", o.attr[0] + 2);
		close_m(&o);
	}
}

Test(code_check, line_numbers_and_local_variables)
{
	uint8_t code[] = {OP_SIPUSH, U2(1), OP_POP, OP_RETURN}; /* 0, 3, 4 */
	/* LineNumberTable entry 1 at 2 (inside sipush) */
	bld *b = bld_new(52, 0);
	bld_default_init(b);
	bld_method *m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
	bld_code_attr(m, "LineNumberTable", BYTES(0, 2, U2(0), U2(10), U2(2), U2(11)));
	opened o;
	open_m(b, &o);
	expect_err(o.rc, o.t.err, TC_EFORMAT, "LineNumberTable", o.attr[0] + 2 + 4);
	close_m(&o);

	/* LineNumberTable with a byte after its entries */
	b = bld_new(52, 0);
	bld_default_init(b);
	m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
	bld_code_attr(m, "LineNumberTable", BYTES(0, 1, U2(0), U2(10), 0));
	open_m(b, &o);
	expect_err(o.rc, o.t.err, TC_EFORMAT, "LineNumberTable", o.attr[0] + 6);
	close_m(&o);

	/* LineNumberTable that claims 2 entries and has 1 */
	b = bld_new(52, 0);
	bld_default_init(b);
	m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
	bld_code_attr(m, "LineNumberTable", BYTES(0, 2, U2(0), U2(10)));
	open_m(b, &o);
	expect_err(o.rc, o.t.err, TC_ETRUNC, "LineNumberTable", o.attr[0] + 6);
	close_m(&o);

	/* LocalVariableTable: [0, 5) is fine (ends at code_length), [3, 5) fine, [0, 2) ends
	 * inside the sipush, [4, 6) ends past the code */
	struct {
		uint16_t start, len;
		bool ok;
	} ranges[] = {{0, 5, true}, {3, 2, true}, {0, 2, false}, {4, 2, false}, {1, 2, false}, {5, 0, false}};
	const char *names[] = {"LocalVariableTable", "LocalVariableTypeTable"};
	for (int kind = 0; kind < 2; kind++) {
		for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++) {
			b = bld_new(52, 0);
			bld_default_init(b);
			uint16_t n = bld_utf8(b, "x");
			uint16_t d = bld_utf8(b, "I");
			m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
			bld_code_attr(m, names[kind],
			              BYTES(0, 2, U2(0), U2(5), U2(n), U2(d), U2(0), U2(ranges[k].start),
			                    U2(ranges[k].len), U2(n), U2(d), U2(0)));
			open_m(b, &o);
			if (ranges[k].ok)
				expect_ok(o.rc, o.t.err);
			else
				expect_err(o.rc, o.t.err, TC_EFORMAT, names[kind], o.attr[0] + 2 + 10);
			close_m(&o);
		}
	}
}

/* Runtime(In)VisibleTypeAnnotations on instructions (JVMS 4.7.20.1). */
Test(code_check, type_annotation_offsets)
{
	uint8_t code[] = {OP_SIPUSH, U2(1), OP_POP, OP_RETURN}; /* 0, 3, 4 */
	const char *names[] = {"RuntimeVisibleTypeAnnotations", "RuntimeInvisibleTypeAnnotations"};
	for (int kind = 0; kind < 2; kind++) {
		/* offset_target (0x43 instanceof) at 1: inside sipush */
		bld *b = bld_new(52, 0);
		bld_default_init(b);
		uint16_t ty = bld_utf8(b, "LA;");
		bld_method *m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
		bld_code_attr(m, names[kind], BYTES(0, 1, 0x43, U2(1), 0, U2(ty), U2(0)));
		opened o;
		open_m(b, &o);
		expect_err(o.rc, o.t.err, TC_EFORMAT, names[kind], o.attr[0] + 3);
		close_m(&o);

		/* type_argument_target (0x4B) at 3 is fine, at 2 is not */
		for (int at = 3; at >= 2; at--) {
			b = bld_new(52, 0);
			bld_default_init(b);
			ty = bld_utf8(b, "LA;");
			m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
			bld_code_attr(m, names[kind], BYTES(0, 1, 0x4B, U2(at), 0, 0, U2(ty), U2(0)));
			open_m(b, &o);
			if (at == 3)
				expect_ok(o.rc, o.t.err);
			else
				expect_err(o.rc, o.t.err, TC_EFORMAT, names[kind], o.attr[0] + 3);
			close_m(&o);
		}

		/* localvar_target (0x40) with its second range ending inside sipush */
		b = bld_new(52, 0);
		bld_default_init(b);
		ty = bld_utf8(b, "LA;");
		m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
		bld_code_attr(m, names[kind],
		              BYTES(0, 1, 0x40, U2(2), U2(0), U2(5), U2(0), U2(0), U2(1), U2(0), 0, U2(ty), U2(0)));
		open_m(b, &o);
		expect_err(o.rc, o.t.err, TC_EFORMAT, names[kind], o.attr[0] + 5 + 6);
		close_m(&o);

		/* catch_target (0x42) past the exception table (empty here) */
		b = bld_new(52, 0);
		bld_default_init(b);
		ty = bld_utf8(b, "LA;");
		m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
		bld_code_attr(m, names[kind], BYTES(0, 1, 0x42, U2(0), 0, U2(ty), U2(0)));
		open_m(b, &o);
		expect_err(o.rc, o.t.err, TC_EFORMAT, names[kind], o.attr[0] + 2);
		close_m(&o);

		/* a target type that belongs on a class or method, not in Code */
		b = bld_new(52, 0);
		bld_default_init(b);
		ty = bld_utf8(b, "LA;");
		m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
		bld_code_attr(m, names[kind], BYTES(0, 1, 0x13, 0, U2(ty), U2(0)));
		open_m(b, &o);
		expect_err(o.rc, o.t.err, TC_EFORMAT, names[kind], o.attr[0] + 2);
		close_m(&o);

		/* an unknown element_value tag in the annotation */
		b = bld_new(52, 0);
		bld_default_init(b);
		ty = bld_utf8(b, "LA;");
		uint16_t nm = bld_utf8(b, "value");
		m = bld_method_code(b, ACC_STATIC, "m", "()V", 1, 1, code, sizeof code);
		bld_code_attr(m, names[kind], BYTES(0, 1, 0x43, U2(3), 0, U2(ty), U2(1), U2(nm), 'x', U2(0)));
		open_m(b, &o);
		expect_err(o.rc, o.t.err, TC_EFORMAT, names[kind], o.attr[0] + 12);
		close_m(&o);
	}
}

struct cpcase {
	const char *what;
	uint8_t op;
	int entry; /* which entry below */
	bool ok;
};

Test(code_check, constant_pool_operand_kinds)
{
	struct cpcase cases[] = {
		{"ldc Integer", OP_LDC_W, 0, true},
		{"ldc Float", OP_LDC_W, 1, true},
		{"ldc String", OP_LDC_W, 2, true},
		{"ldc Class", OP_LDC_W, 3, true},
		{"ldc MethodType", OP_LDC_W, 4, true},
		{"ldc MethodHandle", OP_LDC_W, 5, true},
		{"ldc Dynamic I", OP_LDC_W, 6, true},
		{"ldc Dynamic J", OP_LDC_W, 7, false},
		{"ldc Long", OP_LDC_W, 8, false},
		{"ldc Utf8", OP_LDC_W, 9, false},
		{"ldc Methodref", OP_LDC_W, 10, false},
		{"ldc2_w Long", OP_LDC2_W, 8, true},
		{"ldc2_w Double", OP_LDC2_W, 11, true},
		{"ldc2_w Dynamic J", OP_LDC2_W, 7, true},
		{"ldc2_w Dynamic I", OP_LDC2_W, 6, false},
		{"ldc2_w Integer", OP_LDC2_W, 0, false},
		{"getstatic Fieldref", OP_GETSTATIC, 12, true},
		{"getstatic Methodref", OP_GETSTATIC, 10, false},
		{"invokestatic Methodref", OP_INVOKESTATIC, 10, true},
		{"invokestatic InterfaceMethodref", OP_INVOKESTATIC, 13, true},
		{"invokevirtual InterfaceMethodref", OP_INVOKEVIRTUAL, 13, false},
		{"invokestatic Fieldref", OP_INVOKESTATIC, 12, false},
		{"invokespecial InterfaceMethodref", OP_INVOKESPECIAL, 13, true},
		{"new Class", OP_NEW, 3, true},
		{"new Utf8", OP_NEW, 9, false},
		{"checkcast String", OP_CHECKCAST, 2, false},
		{"instanceof Class", OP_INSTANCEOF, 3, true},
		{"anewarray Integer", OP_ANEWARRAY, 0, false},
		{"getfield with a bad field descriptor", OP_GETFIELD, 14, false},
		{"invokestatic with a bad method descriptor", OP_INVOKESTATIC, 15, false},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		bld *b = bld_new(55, 0);
		bld_default_init(b);
		uint16_t e[16];
		e[0] = bld_int(b, 1);
		e[1] = bld_float_bits(b, 0);
		e[2] = bld_string(b, "s");
		e[3] = bld_class(b, "java/lang/Object");
		e[4] = bld_methodtype(b, "()V");
		e[10] = bld_methodref(b, "T", "x", "()V");
		e[5] = bld_methodhandle(b, 6, e[10]);
		e[6] = bld_dynamic(b, 0, "d", "I");
		e[7] = bld_dynamic(b, 0, "d", "J");
		e[8] = bld_long(b, 1);
		e[9] = bld_utf8(b, "u");
		e[11] = bld_double_bits(b, 0);
		e[12] = bld_fieldref(b, "T", "f", "I");
		e[13] = bld_imethodref(b, "I", "x", "()V");
		e[14] = bld_fieldref(b, "T", "g", "Q");
		e[15] = bld_methodref(b, "T", "y", "(V)V");
		/* nop, then the instruction at 1 (operands not executed: only decoded) */
		uint16_t idx = e[cases[k].entry];
		bld_method_code(b, ACC_STATIC, "m", "()V", 4, 4, BYTES(OP_NOP, cases[k].op, U2(idx), OP_RETURN));
		opened o;
		open_m(b, &o);
		if (cases[k].ok)
			cr_assert_eq(o.rc, TC_OK, "%s: %s", cases[k].what, o.t.err.message);
		else
			expect_err(o.rc, o.t.err, TC_EFORMAT, "Code", o.code0 + 1);
		close_m(&o);
	}
}

Test(code_check, invokeinterface_and_ldc_operands)
{
	/* ldc (u1 index) of a Long and invokeinterface of a Methodref */
	bld *b = bld_new(52, 0);
	uint16_t l = bld_long(b, 1);
	bld_default_init(b);
	cr_assert_lt(l, 256);
	opened o;
	bld_method_code(b, ACC_STATIC, "m", "()V", 4, 4, BYTES(OP_NOP, OP_LDC, (uint8_t)l, OP_RETURN));
	open_m(b, &o);
	expect_err(o.rc, o.t.err, TC_EFORMAT, "Code", o.code0 + 1);
	close_m(&o);

	b = bld_new(52, 0);
	bld_default_init(b);
	uint16_t mr = bld_methodref(b, "T", "x", "()V");
	uint16_t imr = bld_imethodref(b, "I", "x", "()V");
	bld_method_code(b, ACC_STATIC, "m", "()V", 4, 4,
	                BYTES(OP_ACONST_NULL, OP_INVOKEINTERFACE, U2(imr), 1, 0, OP_ACONST_NULL,
	                      OP_INVOKEINTERFACE, U2(mr), 1, 0, OP_RETURN));
	open_m(b, &o);
	expect_err(o.rc, o.t.err, TC_EFORMAT, "Code", o.code0 + 7);
	close_m(&o);
}

Test(code_check, second_stack_map_table)
{
	bld *b = bld_new(52, 0);
	bld_default_init(b);
	bld_method *m = bld_method_code(b, ACC_STATIC, "m", "()V", 0, 0, BYTES(OP_RETURN));
	bld_code_attr(m, "StackMapTable", BYTES(0, 0));
	bld_code_attr(m, "StackMapTable", BYTES(0, 0));
	opened o;
	open_m(b, &o);
	expect_err(o.rc, o.t.err, TC_EFORMAT, "StackMapTable", o.attr[1]);
	close_m(&o);
}

Test(code_check, method_without_code)
{
	bld *b = bld_new(52, 0);
	bld_default_init(b);
	bld_method_nocode(b, ACC_ABSTRACT | ACC_PUBLIC, "m", "()V");
	size_t len;
	uint8_t *bytes = bld_finish(b, &len);
	size_t at = bld_last_layout(b)->method[1];
	bld_free(b);
	tcls t;
	cr_assert_eq(tc_parse(&t, bytes, len), TC_OK);
	arena s;
	arena_init(&s);
	code_editor *ed = (code_editor *)&s; /* must be reset to NULL */
	tc_error_clear(&t.err);
	int rc = code_open(&ed, &t.cls, tc_method(&t, "m"), &s, &t.err);
	expect_err(rc, t.err, TC_EARG, "method", at);
	cr_assert_null(ed);
	arena_free(&s);
	tc_drop(&t);
}

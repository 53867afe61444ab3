/* criterion.h: the part of Criterion's API that tests/runtime uses, for the
 * builds that have no Criterion (the ARM cross builds run under qemu-user and
 * the musl build, tests/runtime/cross.sh). Same sources, same semantics where
 * the tests rely on them: each test runs in a forked process with its suite's
 * .init and .fini around it, a failed assertion ends that test, and the exit
 * status is non-zero if any test failed. Not a general replacement: no
 * parameterized tests, theories, expectations or command-line options. */
#ifndef MINICRIT_CRITERION_H
#define MINICRIT_CRITERION_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct mc_suite {
	const char *name;
	void (*init)(void);
	void (*fini)(void);
};

struct mc_test {
	const char *suite, *name;
	void (*fn)(void);
	struct mc_test *next;
};

void mc_register_test(struct mc_test *t);
void mc_register_suite(const struct mc_suite *s);
/* ends the test: prints file:line, the failed expression and the message */
_Noreturn void mc_fail(const char *file, int line, const char *expr, const char *fmt, ...);

/* A constructor registers each test and suite before main (GCC and Clang). */
#define Test(suite, name)                                                          \
	static void mc_fn_##suite##_##name(void);                                  \
	static struct mc_test mc_test_##suite##_##name = { #suite, #name,          \
	                                                   mc_fn_##suite##_##name, 0 }; \
	__attribute__((constructor)) static void mc_reg_##suite##_##name(void)     \
	{                                                                          \
		mc_register_test(&mc_test_##suite##_##name);                       \
	}                                                                          \
	static void mc_fn_##suite##_##name(void)

#define TestSuite(suite, ...)                                                      \
	static const struct mc_suite mc_suite_##suite;                             \
	__attribute__((constructor)) static void mc_regsuite_##suite(void)         \
	{                                                                          \
		mc_register_suite(&mc_suite_##suite);                              \
	}                                                                          \
	static const struct mc_suite mc_suite_##suite = { .name = #suite, __VA_ARGS__ }

/* Criterion's message arguments are optional: a trailing "" fills them in. */
#define MC_CHECK_(cond, text, ...)                                                 \
	do {                                                                       \
		if (!(cond))                                                       \
			mc_fail(__FILE__, __LINE__, text, __VA_ARGS__);            \
	} while (0)
#define MC_OP_(op, a, b, ...) MC_CHECK_((a) op (b), #a " " #op " " #b, __VA_ARGS__)

#define cr_assert(...) MC_T_(__VA_ARGS__, "")
#define MC_T_(c, ...) MC_CHECK_(c, #c, __VA_ARGS__)
#define cr_assert_not(...) MC_F_(__VA_ARGS__, "")
#define MC_F_(c, ...) MC_CHECK_(!(c), "!(" #c ")", __VA_ARGS__)
#define cr_assert_eq(...) MC_OP_(==, __VA_ARGS__, "")
#define cr_assert_neq(...) MC_OP_(!=, __VA_ARGS__, "")
#define cr_assert_lt(...) MC_OP_(<, __VA_ARGS__, "")
#define cr_assert_leq(...) MC_OP_(<=, __VA_ARGS__, "")
#define cr_assert_gt(...) MC_OP_(>, __VA_ARGS__, "")
#define cr_assert_geq(...) MC_OP_(>=, __VA_ARGS__, "")
#define cr_assert_null(...) MC_NULL_(__VA_ARGS__, "")
#define MC_NULL_(p, ...) MC_CHECK_((p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_assert_not_null(...) MC_NNULL_(__VA_ARGS__, "")
#define MC_NNULL_(p, ...) MC_CHECK_((p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_assert_str_eq(...) MC_STR_(__VA_ARGS__, "")
#define MC_STR_(a, b, ...) MC_CHECK_(strcmp((a), (b)) == 0, "strcmp(" #a ", " #b ") == 0", __VA_ARGS__)
#define cr_assert_str_neq(...) MC_STRN_(__VA_ARGS__, "")
#define MC_STRN_(a, b, ...) MC_CHECK_(strcmp((a), (b)) != 0, "strcmp(" #a ", " #b ") != 0", __VA_ARGS__)
#define cr_assert_fail(...) MC_CHECK_(0, "failed", __VA_ARGS__, "")
/* ends the test as passed, saying why it did not run (the test runs in a child) */
#define cr_skip_test(...) (fprintf(stderr, "skipped: " __VA_ARGS__), fputc('\n', stderr), _exit(0))
#define cr_log_info(...) (fprintf(stderr, __VA_ARGS__), fputc('\n', stderr))

#endif

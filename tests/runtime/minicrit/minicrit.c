/* minicrit.c: the runner behind criterion/criterion.h (see there). Runs every
 * registered test in a child process, in registration order, prints one line
 * per test and a summary, and exits 1 if any failed. A test that dies of a
 * signal fails with the signal's number. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "criterion/criterion.h"

#define MAX_SUITES 64

static struct mc_test *head, **tail = &head;
static const struct mc_suite *suites[MAX_SUITES];
static int n_suites;

void mc_register_test(struct mc_test *t)
{
	*tail = t;
	tail = &t->next;
}

void mc_register_suite(const struct mc_suite *s)
{
	if (n_suites == MAX_SUITES) {
		fprintf(stderr, "minicrit: more than %d suites\n", MAX_SUITES);
		exit(2);
	}
	suites[n_suites++] = s;
}

void mc_fail(const char *file, int line, const char *expr, const char *fmt, ...)
{
	fprintf(stderr, "%s:%d: assertion failed: %s", file, line, expr);
	if (fmt && *fmt) {
		va_list ap;
		va_start(ap, fmt);
		fputs(": ", stderr);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
	fflush(NULL);
	_exit(1);
}

static const struct mc_suite *suite_of(const char *name)
{
	for (int i = 0; i < n_suites; i++)
		if (strcmp(suites[i]->name, name) == 0)
			return suites[i];
	return NULL;
}

static int run(const struct mc_test *t)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 0;
	}
	if (pid == 0) {
		const struct mc_suite *s = suite_of(t->suite);
		if (s && s->init)
			s->init();
		t->fn();
		if (s && s->fini)
			s->fini();
		fflush(NULL);
		_exit(0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok - %s::%s\n", t->suite, t->name);
		return 1;
	}
	if (WIFSIGNALED(status))
		printf("not ok - %s::%s: killed by signal %d\n", t->suite, t->name, WTERMSIG(status));
	else
		printf("not ok - %s::%s\n", t->suite, t->name);
	return 0;
}

int main(void)
{
	int passed = 0, failed = 0;
	for (const struct mc_test *t = head; t; t = t->next)
		run(t) ? passed++ : failed++;
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

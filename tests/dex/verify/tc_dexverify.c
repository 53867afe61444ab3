/* tc-dexverify: checks every method of every class of dex files with the
 * rules of ART's method verifier (dex/dex_verify.h), for the tests of the dex instrumenter.
 *
 * usage: tc-dexverify [-q] [--max-errors N] [--strict-monitors] [--stats] FILE.dex...
 * One line per failing method, "FILE: Lcls;->name(desc): at code unit N (opcode): what",
 * then per file "FILE: C classes, M methods checked, F failures, L locking". Locking
 * failures (ART's soft VERIFY_ERROR_LOCKING) count apart but fail the run too: an
 * instrumenter must not cause them; so do methods too costly to verify (counted as
 * failures, their line says so). -q: failures only, no summaries. --max-errors N:
 * print at most N failures per file (all are counted). --strict-monitors: beyond ART, a
 * throwing instruction with a monitor held must be inside a try (ART checks only those in
 * one; real d8 and dx code never has one outside). --stats: per file, the checker's
 * work against the methods' sizes (DEX_VERIFY_WORK_FACTOR), and the method that needed the
 * most per size. Exit 0 clean, 1 if any method fails, 2 if a file cannot be read or
 * parsed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "dex.h"
#include "tool_read.h"
#include "dex_op.h"
#include "dex_verify.h"

typedef struct opts {
	bool quiet;
	bool strict_monitors;
	bool stats;
	unsigned long max_errors;
} opts;

typedef struct counts {
	uint32_t classes, methods, failures, locking;
	unsigned long printed;
	uint64_t work, size;
	double worst;         /* the largest work / size of a method */
	uint32_t worst_idx;   /* its method index */
} counts;

static void report(const char *path, const dex_file *d, const dex_emethod *m, const dex_verify_result *r,
                   const opts *o, counts *c)
{
	if (r->failed)
		c->failures++;
	else if (r->locking)
		c->locking++;
	else
		return;
	if (c->printed++ >= o->max_errors)
		return;
	char label[1400];
	dex_method_label(d, m->idx, label, sizeof label);
	if (r->failed && !r->at_insn)
		printf("%s: %s: %s\n", path, label, r->msg);
	else if (r->failed)
		printf("%s: %s: at code unit %u (%s): %s\n", path, label, r->pc, dex_op_table[r->op].name, r->msg);
	else
		printf("%s: %s: at code unit %u (%s): %s\n", path, label, r->lock_pc, dex_op_table[r->lock_op].name,
		       r->lock_msg);
}

static int check_methods(const char *path, const dex_verify_file *f, const dex_class *cls, const dex_emethod *ms,
                         uint32_t n, arena *scratch, const opts *o, counts *c)
{
	for (uint32_t i = 0; i < n; i++) {
		dex_verify_result r;
		arena_reset(scratch);
		if (dex_verify_method(f, cls, &ms[i], scratch, &r) != 0) {
			fprintf(stderr, "%s: out of memory\n", path);
			return 2;
		}
		c->methods++;
		c->work += r.work;
		c->size += r.size;
		if (r.size && (double)r.work / (double)r.size > c->worst) {
			c->worst = (double)r.work / (double)r.size;
			c->worst_idx = ms[i].idx;
		}
		report(path, f->d, &ms[i], &r, o, c);
	}
	return 0;
}

static int check_file(const char *path, const opts *o)
{
	size_t len = 0;
	uint8_t *data = tool_read_file(path, &len);
	if (!data)
		return 2;
	arena a, scratch;
	arena_init(&a);
	arena_init(&scratch);
	dex_file d;
	tc_error err;
	tc_error_clear(&err);
	int rc = 0;
	if (dex_parse(&d, &a, data, len, &err) != TC_OK) {
		char msg[2048];
		tc_error_format(&err, msg, sizeof msg);
		fprintf(stderr, "%s: %s\n", path, msg);
		rc = 2;
		goto cleanup;
	}
	dex_verify_file f;
	if (dex_verify_file_init(&f, &d, &a) != TC_OK) {
		fprintf(stderr, "%s: out of memory\n", path);
		rc = 2;
		goto cleanup;
	}
	f.strict_monitors = o->strict_monitors;
	counts c = {0};
	for (uint32_t i = 0; i < d.nclasses && rc == 0; i++) {
		const dex_class *cls = &d.classes[i];
		c.classes++;
		if (!cls->data)
			continue;
		rc = check_methods(path, &f, cls, cls->data->dmethods, cls->data->ndmethods, &scratch, o, &c);
		if (rc == 0)
			rc = check_methods(path, &f, cls, cls->data->vmethods, cls->data->nvmethods, &scratch, o, &c);
	}
	if (rc == 0) {
		if (!o->quiet)
			printf("%s: %u classes, %u methods checked, %u failures, %u locking\n", path, c.classes,
			       c.methods, c.failures, c.locking);
		if (o->stats) {
			char label[1400] = "none";
			if (c.worst > 0)
				dex_method_label(&d, c.worst_idx, label, sizeof label);
			printf("%s: work %llu steps for a size of %llu (%.2f per unit); most per size: %.2f, %s "
			       "(budget: %u per unit)\n", path, (unsigned long long)c.work, (unsigned long long)c.size,
			       c.size ? (double)c.work / (double)c.size : 0.0, c.worst, label, f.work_factor);
		}
		rc = c.failures || c.locking ? 1 : 0;
	}
cleanup:
	arena_free(&scratch);
	arena_free(&a);
	free(data);
	return rc;
}

static int usage(void)
{
	fprintf(stderr, "usage: tc-dexverify [-q] [--max-errors N] [--strict-monitors] [--stats] FILE.dex...\n");
	return 2;
}

int main(int argc, char **argv)
{
	opts o = {false, false, false, (unsigned long)-1};
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q")) {
			o.quiet = true;
		} else if (!strcmp(argv[i], "--strict-monitors")) {
			o.strict_monitors = true;
		} else if (!strcmp(argv[i], "--stats")) {
			o.stats = true;
		} else if (!strcmp(argv[i], "--max-errors") && i + 1 < argc) {
			char *end;
			o.max_errors = strtoul(argv[++i], &end, 10);
			if (*end || !*argv[i])
				return usage();
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			return usage();
		}
	}
	if (i == argc)
		return usage();
	int worst = 0;
	for (; i < argc; i++) {
		int rc = check_file(argv[i], &o);
		if (rc > worst)
			worst = rc;
	}
	return worst;
}

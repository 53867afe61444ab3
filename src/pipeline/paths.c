/* The paths of a run, compared before anything is read or written: an output must not
 * be another output, lie inside one, or be (or lie inside) something the run reads.
 * Two --in given one --out used to fail half way, after the first had replaced it. */
#define _DEFAULT_SOURCE /* realpath */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline/instrument.h"
#include "maps/base_mapping.h"
#include "pipeline/pipeline.h"

enum { PATH_SIZE = 8192 };

/* Appends component c (length n) to the absolute path p, resolving "." and "..". */
static void push(char *p, const char *c, size_t n)
{
	if (n == 0 || (n == 1 && c[0] == '.'))
		return;
	size_t len = strlen(p);
	if (n == 2 && c[0] == '.' && c[1] == '.') {
		char *slash = strrchr(p, '/');
		if (slash)
			*(slash == p ? slash + 1 : slash) = '\0';
		return;
	}
	if (len + 1 + n + 1 > PATH_SIZE)
		return;
	if (len > 1)
		p[len++] = '/';
	memcpy(p + len, c, n);
	p[len + n] = '\0';
}

/* The path as the file system will take it: absolute, symbolic links resolved where it
 * exists, "." and ".." resolved in the part that does not exist yet, no trailing '/'. */
static void resolve(const char *path, char *out)
{
	char abs[PATH_SIZE];
	if (path[0] == '/') {
		snprintf(abs, sizeof abs, "%s", path);
	} else {
		char cwd[PATH_SIZE / 2];
		if (!getcwd(cwd, sizeof cwd))
			snprintf(cwd, sizeof cwd, ".");
		snprintf(abs, sizeof abs, "%.4000s/%.4000s", cwd, path);
	}
	/* the longest prefix that exists, then the rest */
	size_t end = strlen(abs);
	for (;;) {
		char head[PATH_SIZE], real[PATH_MAX];
		memcpy(head, abs, end);
		head[end] = '\0';
		if (end == 0 || realpath(head, real)) {
			snprintf(out, PATH_SIZE, "%s", end ? real : "/");
			break;
		}
		while (end > 0 && abs[end - 1] != '/')
			end--;
		while (end > 0 && abs[end - 1] == '/')
			end--;
	}
	for (const char *c = abs + end; *c;) {
		while (*c == '/')
			c++;
		size_t n = strcspn(c, "/");
		push(out, c, n);
		c += n;
	}
}

/* Whether a is b or lies inside it. */
static bool within(const char *a, const char *b)
{
	size_t n = strlen(b);
	if (n == 1 && b[0] == '/')
		return true;
	return !strncmp(a, b, n) && (a[n] == '\0' || a[n] == '/');
}

int tc_check_paths(const tc_options *o, tc_error *err)
{
	size_t n = o->npairs, m = o->nclasspath;
	char(*in)[PATH_SIZE] = malloc((n + m + 1) * sizeof *in);
	char(*out)[PATH_SIZE] = malloc((n + 1) * sizeof *out);
	char side[PATH_SIZE];
	size_t *group = NULL;
	int rc = TC_OK;
	if (!in || !out) {
		rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "tc-instrument", "no memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		resolve(o->pairs[i].in, in[i]);
		resolve(o->pairs[i].out, out[i]);
	}
	for (size_t i = 0; i < m; i++)
		resolve(o->classpath[i], in[n + i]);
#define REFUSE(...)                                                             \
	do {                                                                    \
		rc = tc_fail(err, TC_EARG, TC_NO_OFFSET, o->pairs[i].out, __VA_ARGS__); \
		goto done;                                                      \
	} while (0)
	/* group[i]: the first pair of the inputs joined into pair i's output */
	group = malloc((n + 1) * sizeof *group);
	if (!group) {
		rc = tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "tc-instrument", "no memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		group[i] = i > 0 && o->pairs[i].joined ? group[i - 1] : i;
	for (size_t i = 0; i < n; i++) {
		/* pair i's input is one of several joined into its --out */
		bool joined = group[i] + 1 < n && o->pairs[group[i] + 1].joined;
		for (size_t j = 0; j < n; j++) {
			if (j < i && group[j] == group[i] && !strcmp(in[i], in[j]))
				REFUSE("--in %s is given twice for it", o->pairs[i].in);
			/* a jar joined from a directory must not land in it (the next run would read it) */
			if (joined && group[j] == group[i] && within(out[i], in[j]) && strcmp(out[i], in[j]))
				REFUSE("--out lies inside --in %s, which is joined into it", o->pairs[j].in);
			if (j == i || group[j] == group[i])
				continue; /* inputs joined into one jar share it; it may be one of them */
			if (j < i && !strcmp(out[i], out[j]))
				REFUSE("--out is given twice (for --in %s and for --in %s)", o->pairs[j].in, o->pairs[i].in);
			if (strcmp(out[i], out[j]) && within(out[i], out[j]))
				REFUSE("--out (for --in %s) lies inside --out %s (for --in %s)", o->pairs[i].in,
				       o->pairs[j].out, o->pairs[j].in);
			/* its own input it may replace: it is read before anything is written */
			if (within(out[i], in[j]))
				REFUSE("--out (for --in %s) is or lies inside --in %s, which this run reads", o->pairs[i].in,
				       o->pairs[j].in);
		}
		for (size_t k = 0; k < m; k++)
			if (within(out[i], in[n + k]) && strcmp(in[n + k], in[i])) /* its own input again */
				REFUSE("--out (for --in %s) is or lies inside the --classpath entry %s, which this run reads",
				       o->pairs[i].in, o->classpath[k]);
		const char *const files[] = {o->base_mapping, o->blocklist, o->proguard};
		const char *const opts[] = {"--base-mapping", "--blocklist", "--proguard-mapping"};
		for (int k = 0; k < 3; k++) {
			if (!files[k])
				continue;
			resolve(files[k], side);
			if (!strcmp(out[i], side))
				REFUSE("--out (for --in %s) is the %s file", o->pairs[i].in, opts[k]);
		}
		if (o->mapping_dir) {
			resolve(o->mapping_dir, side);
			if (!strcmp(out[i], side))
				REFUSE("--out (for --in %s) is the --mapping-dir", o->pairs[i].in);
			static const char *const names[] = {"methodMapping.txt", "ignoreMethodMapping.txt",
			                                    "instrument-stats.json"};
			size_t len = strlen(side);
			for (int k = 0; k < 3; k++)
				if (!strncmp(out[i], side, len) && out[i][len] == '/' && !strcmp(out[i] + len + 1, names[k]))
					REFUSE("--out (for --in %s) is %s of the --mapping-dir %s", o->pairs[i].in, names[k],
					       o->mapping_dir);
		}
	}
#undef REFUSE
done:
	free(group);
	free(in);
	free(out);
	return rc;
}

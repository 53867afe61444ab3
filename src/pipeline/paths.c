/* The paths of a run, compared before anything is read or written: an output must not
 * be another output, lie inside one, or be (or lie inside) something the run reads.
 * Two --in given one --out used to fail half way, after the first had replaced it. */
#define _DEFAULT_SOURCE /* realpath */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
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

/* --- kinds: an output is what its input is ------------------------------------------ */

enum kind { K_NONE, K_FILE, K_DIR, K_JAR, K_APK, K_DEX };

static const char *const KIND_WORD[] = {
	[K_NONE] = "a file", [K_FILE] = "a file", [K_DIR] = "a directory", [K_JAR] = "a jar",
	[K_APK] = "an APK", [K_DEX] = "a dex file",
};

static bool ends_with_ci(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n > k && !strcasecmp(s + n - k, tail);
}

/* What a name says: .jar or .zip a jar, .apk an APK, .dex a dex file, a final '/' a
 * directory; K_NONE for any other name. */
static enum kind kind_of_name(const char *path)
{
	size_t n = strlen(path);
	if (n && path[n - 1] == '/')
		return K_DIR;
	if (ends_with_ci(path, ".jar") || ends_with_ci(path, ".zip"))
		return K_JAR;
	if (ends_with_ci(path, ".apk"))
		return K_APK;
	if (ends_with_ci(path, ".dex"))
		return K_DEX;
	return K_NONE;
}

/* An input: a directory; a dex file (pl_sniff_dex, as classify_input decides it); else
 * a jar, an APK when its name says so (a renamed APK is a jar by name, and takes a jar's
 * name). K_NONE when it cannot be read or is no regular file (classify says so). */
static enum kind kind_of_input(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return K_NONE;
	if (S_ISDIR(st.st_mode))
		return K_DIR;
	if (!S_ISREG(st.st_mode))
		return K_NONE; /* a FIFO would block the open, /dev/zero is endless: classify refuses them */
	if (pl_sniff_dex(path))
		return K_DEX;
	return kind_of_name(path) == K_APK ? K_APK : K_JAR;
}

/* An output: what is there (a directory, a file), else what its name says. */
static enum kind kind_of_output(const char *path, bool *exists)
{
	struct stat st;
	*exists = stat(path, &st) == 0;
	if (*exists && S_ISDIR(st.st_mode))
		return K_DIR;
	enum kind k = kind_of_name(path);
	return k == K_NONE && *exists ? K_FILE : k;
}

/* Whether an input of kind in may be written as an output of kind out. */
static bool kinds_match(enum kind in, enum kind out)
{
	if (out == K_NONE)
		return true;
	if (in == K_DIR)
		return out == K_DIR;
	return out == in || out == K_FILE; /* an existing file of another name is replaced */
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
	/* an output is what its input is: several --in joined make one jar */
	for (size_t i = 0; i < n; i++) {
		bool joined = (i > 0 && o->pairs[i].joined) || (i + 1 < n && o->pairs[i + 1].joined);
		if (joined && o->pairs[i].joined)
			continue; /* the group's first pair says it for all */
		enum kind in_kind = joined ? K_JAR : kind_of_input(o->pairs[i].in);
		bool exists;
		enum kind out_kind = kind_of_output(o->pairs[i].out, &exists);
		if (in_kind == K_NONE || kinds_match(in_kind, out_kind) || (joined && out_kind == K_FILE))
			continue;
		char says[64];
		if (out_kind == K_DIR && exists)
			snprintf(says, sizeof says, "is a directory");
		else if (out_kind == K_FILE)
			snprintf(says, sizeof says, "is a file");
		else if (out_kind == K_DIR)
			snprintf(says, sizeof says, "names a directory (a final '/')");
		else
			snprintf(says, sizeof says, "names %s (%s)", KIND_WORD[out_kind], strrchr(o->pairs[i].out, '.'));
		if (joined)
			REFUSE("--out %s, but several --in joined into one --out make a jar: give a jar's path (.jar)", says);
		static const char *const want[] = {[K_DIR] = "a directory", [K_JAR] = "a jar's path (.jar)",
		                                   [K_APK] = "an APK's path (.apk)", [K_DEX] = "a dex file's path (.dex)"};
		REFUSE("--out %s, but --in %s is %s, and an output is what its input is: give %s%s", says, o->pairs[i].in,
		       KIND_WORD[in_kind], want[in_kind],
		       in_kind == K_DIR ? " (several --in given before one --out ending in .jar are joined into it)" : "");
	}
#undef REFUSE
done:
	free(group);
	free(in);
	free(out);
	return rc;
}

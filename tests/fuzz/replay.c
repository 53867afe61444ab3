/* Runs a fuzz target on files and directories of inputs (one input per file), for
 * builds without libFuzzer: `fuzz-replay tests/fuzz/regressions`, linked with each
 * target (fuzz_classfile.c, tests/compiler/fuzz/fuzz_*.c). A broken invariant
 * aborts, as under libFuzzer; otherwise it prints how many inputs ran. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			uint8_t *p = realloc(buf, cap *= 2);
			if (!p) {
				free(buf);
				buf = NULL;
			}
			buf = p;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 1;
}

static int run_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		perror(path);
		return -1;
	}
	int total = 0;
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && total >= 0) {
			char sub[4096];
			snprintf(sub, sizeof sub, "%s/%s", path, names[i]->d_name);
			int k = run_path(sub);
			total = k < 0 ? -1 : total + k;
		}
		free(names[i]);
	}
	free(names);
	return total;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	int total = 0;
	for (int i = 1; i < argc; i++) {
		int k = run_path(argv[i]);
		if (k < 0)
			return 1;
		total += k;
	}
	printf("replayed %d inputs\n", total);
	return 0;
}

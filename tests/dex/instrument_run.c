#include "instrument_run.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/instrument.h"

static char dir[64];

void ir_setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/tc-dexinst-XXXXXX");
	cr_assert(mkdtemp(dir));
}

void ir_teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

char *ir_path(const char *name)
{
	static char p[8][256];
	static int k;
	k = (k + 1) % 8;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

uint8_t *ir_load(const char *name, size_t *len)
{
	FILE *f = fopen(ir_path(name), "rb");
	cr_assert(f, "%s", name);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	uint8_t *b = malloc(*len + 1);
	cr_assert(b && fread(b, 1, *len, f) == *len);
	fclose(f);
	b[*len] = '\0';
	return b;
}

void ir_save(const char *name, const uint8_t *data, size_t len)
{
	FILE *f = fopen(ir_path(name), "wb");
	cr_assert(f && fwrite(data, 1, len, f) == len && !fclose(f), "%s", name);
}

int ir_instrument(const char *const names[][2], size_t n, int threads, tc_error *e)
{
	tc_pair *pairs = calloc(n, sizeof *pairs);
	char (*p)[256] = calloc(2 * n + 1, sizeof *p);
	cr_assert(pairs && p);
	for (size_t i = 0; i < n; i++) {
		snprintf(p[2 * i], sizeof p[0], "%s", ir_path(names[i][0]));
		snprintf(p[2 * i + 1], sizeof p[0], "%s", ir_path(names[i][1]));
		pairs[i] = (tc_pair){p[2 * i], p[2 * i + 1], false};
	}
	snprintf(p[2 * n], sizeof p[0], "%s", ir_path("map"));
	tc_options o = {.pairs = pairs, .npairs = n, .mapping_dir = p[2 * n],
	                .beat = "com/tencent/matrix/trace/core/AppMethodBeat", .threads = threads, .deflate_level = 6,
	                .quiet = true};
	tc_error_clear(e);
	int rc = tc_instrument(&o, e);
	free(pairs);
	free(p);
	return rc;
}

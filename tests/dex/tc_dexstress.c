/* tc-dexstress: the code editor on every method of real dex files. Each method with
 * code gets an entry hook, an exit hook before every return and a catch-all exit (the
 * shape tc-instrument produces), through dex_hook_apply; the files are written to OUTDIR
 * for the oracles (dexdump, baksmali, tc-dexverify, enjarify + HotSpot).
 *
 * usage: tc-dexstress [--ids-only | --tight | --tight-only] OUTDIR FILE.dex...
 *   --ids-only    only add the probe's ids (every index of the file moves; no code edit)
 *   --tight       first make every frame as tight as its code allows (tighten.h), then
 *                 hook: every "no spare register" path of the hooks on real code
 *   --tight-only  only the tight frames, no hooks: the input --tight hooks, for the
 *                 oracles to judge on its own
 * Prints per file: methods hooked, methods refused (by reason), and with the tight
 * modes what the frames lost; exits 1 if a file cannot be read, edited or written. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dex.h"
#include "tool_read.h"
#include "dex_edit.h"
#include "dex_hook.h"
#include "tighten.h"

static const char PROBE[] = "Ltc/DexProbe;";

typedef struct reason {
	char msg[512]; /* a tc_error message */
	unsigned n;
} reason;

static void count(reason *r, size_t *nr, const char *msg)
{
	for (size_t i = 0; i < *nr; i++)
		if (!strncmp(r[i].msg, msg, sizeof r[i].msg - 1)) {
			r[i].n++;
			return;
		}
	if (*nr < 64) {
		snprintf(r[*nr].msg, sizeof r[*nr].msg, "%s", msg);
		r[(*nr)++].n = 1;
	}
}

enum mode { HOOK, IDS_ONLY, TIGHT, TIGHT_ONLY };

typedef struct run {
	enum mode mode;
	uint32_t in, out;
	arena *scratch, *keep;
	unsigned done;
	reason rs[64];
	size_t nrs;
	tighten_stats tight;
} run;

static int hook_list(dex_file *d, dex_emethod *ms, uint32_t n, run *x)
{
	uint32_t in = x->in, out = x->out;
	arena *scratch = x->scratch, *keep = x->keep;
	for (uint32_t i = 0; i < n; i++) {
		dex_emethod *m = &ms[i];
		if (!m->code)
			continue;
		if (x->mode == TIGHT || x->mode == TIGHT_ONLY) {
			arena_reset(scratch);
			m->code = tighten(d, m->code, keep, scratch, &x->tight);
		}
		if (x->mode == TIGHT_ONLY)
			continue;
		arena_reset(scratch);
		tc_error e;
		tc_error_clear(&e);
		dex_editor *ed;
		dex_hook h = {.entry = in, .exit = out, .value = (int32_t)(m->idx + 1), .extra = DEX_NO_INDEX,
		           .after_init = dex_str_eq(d, d->methods.v[m->idx].name, "<init>")};
		dex_code *c;
		if (dex_edit_open(&ed, d, m->code, m->idx, (m->flags & DACC_STATIC) != 0, scratch, &e) ||
		    dex_hook_apply(ed, &h, &e) || dex_edit_commit(ed, keep, &c, &e)) {
			if (e.code == TC_ENOMEM)
				return e.code;
			/* "reason (code unit N)": counted without the position */
			char msg[sizeof e.message];
			snprintf(msg, sizeof msg, "%s", e.message);
			char *at = strstr(msg, " (code unit");
			if (at)
				*at = '\0';
			count(x->rs, &x->nrs, msg);
			if (getenv("STRESS_VERBOSE")) {
				char label[512], full[1024];
				dex_method_label(d, m->idx, label, sizeof label);
				tc_error_format(&e, full, sizeof full);
				fprintf(stderr, "  %s: %s\n", label, full);
			}
			continue;
		}
		m->code = c;
		x->done++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	enum mode mode = HOOK;
	if (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "--ids-only"))
			mode = IDS_ONLY;
		else if (!strcmp(argv[1], "--tight"))
			mode = TIGHT;
		else if (!strcmp(argv[1], "--tight-only"))
			mode = TIGHT_ONLY;
		else
			argc = 0;
		argv++;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: tc-dexstress [--ids-only | --tight | --tight-only] OUTDIR FILE.dex...\n");
		return 2;
	}
	int status = 0;
	for (int f = 2; f < argc; f++) {
		size_t len = 0;
		uint8_t *data = tool_read_file(argv[f], &len);
		if (!data)
			return 1;
		arena a, scratch, keep;
		arena_init(&a);
		arena_init(&scratch);
		arena_init(&keep);
		dex_file d;
		tc_error e;
		tc_error_clear(&e);
		uint32_t in, out;
		char msg[1200];
		tc_buf o;
		buf_init(&o);
		if (dex_parse(&d, &a, data, len, &e) || dex_intern_method(&d, PROBE, "i", "(I)V", &in, &e) ||
		    dex_intern_method(&d, PROBE, "o", "(I)V", &out, &e)) {
			tc_error_format(&e, msg, sizeof msg);
			fprintf(stderr, "%s: %s\n", argv[f], msg);
			return 1;
		}
		unsigned total = 0;
		run x = {.mode = mode, .in = in, .out = out, .scratch = &scratch, .keep = &keep};
		for (uint32_t k = 0; k < d.nclasses && mode != IDS_ONLY; k++) {
			dex_cdata *cd = d.classes[k].data;
			if (!cd)
				continue;
			for (uint32_t i = 0; i < cd->ndmethods; i++)
				total += cd->dmethods[i].code != NULL;
			for (uint32_t i = 0; i < cd->nvmethods; i++)
				total += cd->vmethods[i].code != NULL;
			if (hook_list(&d, cd->dmethods, cd->ndmethods, &x) || hook_list(&d, cd->vmethods, cd->nvmethods, &x)) {
				fprintf(stderr, "%s: no memory\n", argv[f]);
				return 1;
			}
		}
		if (dex_write(&d, &o, &e)) {
			tc_error_format(&e, msg, sizeof msg);
			fprintf(stderr, "%s: write: %s\n", argv[f], msg);
			status = 1;
		} else {
			const char *base = strrchr(argv[f], '/');
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[1], base ? base + 1 : argv[f]);
			FILE *w = fopen(path, "wb");
			if (!w || fwrite(o.data, 1, o.len, w) != o.len || fclose(w)) {
				fprintf(stderr, "%s: %s\n", path, strerror(errno));
				return 1;
			}
		}
		printf("%s: %u of %u methods hooked, %zu -> %zu bytes\n", argv[f], x.done, total, len, o.len);
		if (mode == TIGHT || mode == TIGHT_ONLY) {
			const tighten_stats *t = &x.tight;
			printf("  tight: %u of %u frames made smaller, %u registers removed, %u locals share "
			       "parameter registers; %u frames without a local, %u under 3 registers, "
			       "%u left as they were (undecodable or too large)\n",
			       t->tightened, t->methods, t->removed, t->into_params, t->no_locals, t->under3, t->skipped);
		}
		for (size_t i = 0; i < x.nrs; i++)
			printf("  refused %u: %s\n", x.rs[i].n, x.rs[i].msg);
		buf_free(&o);
		arena_free(&a);
		arena_free(&scratch);
		arena_free(&keep);
		free(data);
	}
	return status;
}

/* tc-dump: print class files as text, or check that they round-trip byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classfile.h"
#include "code.h"
#include "dex.h"
#include "dex_edit.h"
#include "tc-dump/dump.h"
#include "containers/walk.h"

static const char usage[] =
	"usage: tc-dump [--roundtrip [--shallow]] [--quiet] PATH...\n"
	"\n"
	"PATH is a .class or .dex file, a directory (searched recursively) or a jar or APK\n"
	"(its class files and dex files).\n"
	"\n"
	"Without options, prints every class in a stable text form: header, constant pool,\n"
	"fields, methods with their code (offsets, operands, exception table, stack-map\n"
	"frames, line numbers, local variables) and attributes; and every dex file: its\n"
	"classes, members, code disassembled with ids resolved, tries, debug events.\n"
	"\n"
	"  --roundtrip  parse and write every class and dex file again and report each one\n"
	"               whose bytes differ from the input. By default every method body is\n"
	"               also decoded and laid out again through the code editor (class files:\n"
	"               instructions, stack map, line numbers, local variables, type\n"
	"               annotations; dex: instructions, payloads, tries, debug info), which\n"
	"               for dex must leave the disassembly unchanged. A dex file that is not\n"
	"               laid out as the writer lays out (another tool's, or one holding\n"
	"               unreferenced items) is \"equivalent\" when it reads back the same.\n"
	"  --shallow    with --roundtrip: only the class structure, not the method bodies.\n"
	"  --quiet      with --roundtrip: print only problems and the summary.\n"
	"\n"
	"Exit status: 0 when all is well, 1 when a class differs or cannot be read, 2 on\n"
	"usage or I/O errors.\n";

typedef struct opts {
	bool roundtrip, shallow, quiet;
	arena class_arena, scratch;
	tc_buf out;
	unsigned long classes, same, differ, bad, dex, dex_same, dex_equivalent;
} opts;

static void report(const char *label, const tc_error *err)
{
	char msg[1024];
	tc_error e = *err;
	tc_error_context(&e, label, NULL, NULL);
	tc_error_format(&e, msg, sizeof msg);
	fprintf(stderr, "%s\n", msg);
}

static int deep_rewrite(cf_class *cls, arena *scratch, tc_error *err)
{
	for (uint32_t i = 0; i < cls->nmethods; i++) {
		cf_member *m = &cls->methods[i];
		if (!cf_method_code(cls, m))
			continue;
		arena_reset(scratch);
		code_editor *ed;
		if (code_open(&ed, cls, m, scratch, err) != TC_OK || code_commit(ed, err) != TC_OK) {
			char label[256];
			cf_member_label(cls, m, label, sizeof label);
			tc_error_context(err, NULL, NULL, label);
			return err->code;
		}
	}
	return TC_OK;
}

/* The dump of d as a string (malloc'd), for comparisons. */
static char *dump_text(const dex_file *d, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	if (!f)
		return NULL;
	dump_dex(f, d);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The line where two texts part, and a few lines around it in each. */
static void show_diff(const char *a, size_t la, const char *b, size_t lb, size_t at)
{
	size_t start = at;
	for (int lines = 0; start > 0 && lines < 4; start--)
		lines += a[start - 1] == '\n';
	const char *txt[2] = {a, b};
	size_t len[2] = {la, lb};
	for (int k = 0; k < 2; k++) {
		size_t end = at;
		for (int lines = 0; end < len[k] && lines < 4; end++)
			lines += txt[k][end] == '\n';
		fprintf(stderr, "--- %s:\n%.*s\n", k ? "after" : "before", (int)(end - start), txt[k] + start);
	}
}

/* Every method through the code editor with no edit; the model then holds the
 * relaid-out code. */
static int dex_deep(dex_file *d, arena *keep, arena *scratch, tc_error *err)
{
	for (uint32_t k = 0; k < d->nclasses; k++) {
		dex_cdata *cd = d->classes[k].data;
		for (uint32_t i = 0; i < dex_cdata_nmethods(cd); i++) {
			dex_emethod *m = dex_cdata_method(cd, i);
			if (!m->code)
				continue;
			arena_reset(scratch);
			dex_editor *e;
			if (dex_edit_open(&e, d, m->code, m->idx, (m->flags & DACC_STATIC) != 0, scratch, err) != TC_OK ||
			    dex_edit_commit(e, keep, &m->code, err) != TC_OK) {
				char label[1024];
				dex_method_label(d, m->idx, label, sizeof label);
				tc_error_context(err, NULL, NULL, label);
				return err->code;
			}
		}
	}
	return TC_OK;
}

static int on_dex(opts *o, const char *label, const uint8_t *data, size_t len)
{
	o->dex++;
	arena_reset(&o->class_arena);
	tc_error err;
	tc_error_clear(&err);
	dex_file d;
	if (dex_parse(&d, &o->class_arena, data, len, &err) != TC_OK) {
		report(label, &err);
		o->bad++;
		return 0;
	}
	if (!o->roundtrip) {
		printf("# %s\n", label);
		o->bad += dump_dex(stdout, &d) ? 1 : 0;
		return 0;
	}
	buf_clear(&o->out);
	if (dex_write(&d, &o->out, &err) != TC_OK) {
		report(label, &err);
		o->bad++;
		return 0;
	}
	bool same = o->out.len == len && memcmp(o->out.data, data, len) == 0;
	/* A file written back differently (its input not laid out as the writer lays
	 * out, or holding unreferenced items) must still read back to the same content;
	 * every method then also goes through the editor unless --shallow. */
	size_t la = 0, lb = 0;
	char *before = dump_text(&d, &la), *after = NULL;
	arena keep, again_arena;
	arena_init(&keep);
	arena_init(&again_arena);
	dex_file again;
	bool equivalent = same;
	if (!same) {
		if (dex_parse(&again, &again_arena, o->out.data, o->out.len, &err) != TC_OK) {
			report(label, &err);
		} else if (!(after = dump_text(&again, &lb)) || !before || la != lb || memcmp(before, after, la)) {
			fprintf(stderr, "%s: written back, reads back different\n", label);
		} else {
			equivalent = true;
			o->dex_equivalent++;
		}
		free(after);
		after = NULL;
		arena_reset(&again_arena);
	}
	if (equivalent && !o->shallow) {
		/* through the editor: the same disassembly after a re-read */
		if (dex_deep(&d, &keep, &o->scratch, &err) != TC_OK || dex_write(&d, &o->out, &err) != TC_OK ||
		    dex_parse(&again, &again_arena, o->out.data, o->out.len, &err) != TC_OK) {
			report(label, &err);
			equivalent = same = false;
		} else if (!(after = dump_text(&again, &lb)) || !before || la != lb || memcmp(before, after, la)) {
			size_t at = 0;
			while (before && after && at < la && at < lb && before[at] == after[at])
				at++;
			fprintf(stderr, "%s: the disassembly differs after the editor, at character %zu\n", label, at);
			if (before && after)
				show_diff(before, la, after, lb, at);
			equivalent = same = false;
		}
	}
	free(before);
	free(after);
	arena_free(&keep);
	arena_free(&again_arena);
	if (equivalent && !same) {
		if (!o->quiet)
			printf("equivalent %s\n", label);
		return 0;
	}
	if (same) {
		o->dex_same++;
		if (!o->quiet)
			printf("same %s\n", label);
	} else {
		o->differ++;
	}
	return 0;
}

static int on_class(void *ctx, const char *label, const uint8_t *data, size_t len)
{
	opts *o = ctx;
	if (dex_is_dex(data, len))
		return on_dex(o, label, data, len);
	o->classes++;
	arena_reset(&o->class_arena);
	tc_error err;
	tc_error_clear(&err);
	cf_class cls;
	if (cf_parse(&cls, &o->class_arena, data, len, &err) != TC_OK) {
		report(label, &err);
		o->bad++;
		return 0;
	}
	if (!o->roundtrip) {
		printf("# %s\n", label);
		o->bad += dump_class(stdout, &cls, &o->scratch) ? 1 : 0;
		return 0;
	}
	if (!o->shallow && deep_rewrite(&cls, &o->scratch, &err) != TC_OK) {
		report(label, &err);
		o->bad++;
		return 0;
	}
	buf_clear(&o->out);
	if (cf_write(&cls, &o->out, &err) != TC_OK) {
		report(label, &err);
		o->bad++;
		return 0;
	}
	if (o->out.len == len && memcmp(o->out.data, data, len) == 0) {
		o->same++;
		if (!o->quiet)
			printf("same %s\n", label);
		return 0;
	}
	size_t at = 0;
	while (at < len && at < o->out.len && o->out.data[at] == data[at])
		at++;
	fprintf(stderr, "%s: differs at byte %zu (%zu bytes in, %zu out)\n", label, at, len, o->out.len);
	o->differ++;
	return 0;
}

int main(int argc, char **argv)
{
	opts o = {0};
	int first = 1;
	for (; first < argc && argv[first][0] == '-'; first++) {
		const char *a = argv[first];
		if (!strcmp(a, "--roundtrip"))
			o.roundtrip = true;
		else if (!strcmp(a, "--shallow"))
			o.shallow = true;
		else if (!strcmp(a, "--quiet"))
			o.quiet = true;
		else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "--")) {
			first++;
			break;
		} else {
			fprintf(stderr, "tc-dump: unknown option %s\n%s", a, usage);
			return 2;
		}
	}
	if (first >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	arena_init(&o.class_arena);
	arena_init(&o.scratch);
	buf_init(&o.out);
	int status = 0;
	for (int i = first; i < argc; i++) {
		tc_error err;
		tc_error_clear(&err);
		if (walk_classes_and_dex(argv[i], on_class, &o, &err) != TC_OK) {
			report(argv[i], &err);
			status = 2;
		}
	}
	if (o.roundtrip) {
		/* the class-file line as it always was; dex counts after it when there were any */
		fprintf(stderr, "tc-dump: %lu classes, %lu identical, %lu differ, %lu unreadable", o.classes, o.same,
		        o.differ, o.bad);
		if (o.dex)
			fprintf(stderr, "; %lu dex files, %lu identical, %lu equivalent", o.dex, o.dex_same,
			        o.dex_equivalent);
		fputc('\n', stderr);
	}
	if (status == 0 && (o.differ || o.bad))
		status = 1;
	buf_free(&o.out);
	arena_free(&o.class_arena);
	arena_free(&o.scratch);
	return status;
}

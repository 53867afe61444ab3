/* tc-dump: print class files as text, or check that they round-trip byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classfile.h"
#include "code.h"
#include "dump.h"
#include "walk.h"

static const char usage[] =
	"usage: tc-dump [--roundtrip [--shallow]] [--quiet] PATH...\n"
	"\n"
	"PATH is a .class file, a directory (searched recursively) or a jar.\n"
	"\n"
	"Without options, prints every class in a stable text form: header, constant pool,\n"
	"fields, methods with their code (offsets, operands, exception table, stack-map\n"
	"frames, line numbers, local variables) and attributes.\n"
	"\n"
	"  --roundtrip  parse and write every class again and report each one whose bytes\n"
	"               differ from the input. By default every method body is also decoded\n"
	"               and laid out again through the code editor (instructions, stack map,\n"
	"               line numbers, local variables, type annotations).\n"
	"  --shallow    with --roundtrip: only the class structure, not the method bodies.\n"
	"  --quiet      with --roundtrip: print only problems and the summary.\n"
	"\n"
	"Exit status: 0 when all is well, 1 when a class differs or cannot be read, 2 on\n"
	"usage or I/O errors.\n";

typedef struct opts {
	bool roundtrip, shallow, quiet;
	arena class_arena, scratch;
	cf_buf out;
	unsigned long classes, same, differ, bad;
} opts;

static void report(const char *label, const cf_error *err)
{
	char msg[1024];
	cf_error e = *err;
	cf_error_context(&e, label, NULL, NULL);
	cf_error_format(&e, msg, sizeof msg);
	fprintf(stderr, "%s\n", msg);
}

static int deep_rewrite(cf_class *cls, arena *scratch, cf_error *err)
{
	for (uint32_t i = 0; i < cls->nmethods; i++) {
		cf_member *m = &cls->methods[i];
		if (!cf_method_code(cls, m))
			continue;
		arena_reset(scratch);
		code_editor *ed;
		if (code_open(&ed, cls, m, scratch, err) != CF_OK || code_commit(ed, err) != CF_OK) {
			char label[256];
			cf_member_label(cls, m, label, sizeof label);
			cf_error_context(err, NULL, NULL, label);
			return err->code;
		}
	}
	return CF_OK;
}

static int on_class(void *ctx, const char *label, const uint8_t *data, size_t len)
{
	opts *o = ctx;
	o->classes++;
	arena_reset(&o->class_arena);
	cf_error err;
	cf_error_clear(&err);
	cf_class cls;
	if (cf_parse(&cls, &o->class_arena, data, len, &err) != CF_OK) {
		report(label, &err);
		o->bad++;
		return 0;
	}
	if (!o->roundtrip) {
		printf("# %s\n", label);
		o->bad += dump_class(stdout, &cls, &o->scratch) ? 1 : 0;
		return 0;
	}
	if (!o->shallow && deep_rewrite(&cls, &o->scratch, &err) != CF_OK) {
		report(label, &err);
		o->bad++;
		return 0;
	}
	buf_clear(&o->out);
	if (cf_write(&cls, &o->out, &err) != CF_OK) {
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
		cf_error err;
		cf_error_clear(&err);
		if (walk_classes(argv[i], on_class, &o, &err) != CF_OK) {
			report(argv[i], &err);
			status = 2;
		}
	}
	if (o.roundtrip)
		fprintf(stderr, "tc-dump: %lu classes, %lu identical, %lu differ, %lu unreadable\n",
		        o.classes, o.same, o.differ, o.bad);
	if (status == 0 && (o.differ || o.bad))
		status = 1;
	buf_free(&o.out);
	arena_free(&o.class_arena);
	arena_free(&o.scratch);
	return status;
}

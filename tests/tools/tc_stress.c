/* tc-stress: edits every method of a corpus through the code editor, for HotSpot to
 * verify and run. For each method with code:
 *   - at entry (in constructors: right after this/super init): sipush id; invokestatic P.i(I)V
 *   - before every return: sipush id; invokestatic P.o(I)V
 *   - before random instructions: nop, iconst_0/pop, or a call to P.r()V
 *   - with --bloat N: N bytes of nops before one random instruction of every K-th method
 *     that has branches (--bloat-every K, default 64), so that the branches across it
 *     must be widened (goto_w, inverted conditionals and their frames)
 *   - an outermost catch-all handler from entry to end: sipush id; invokestatic P.o(I)V; athrow
 *   - with --force-long: every goto/jsr in its wide form and every conditional inverted
 *     around a goto_w (code_force_long_branches), so that each one needs the new
 *     stack-map frame the editor computes
 * P is --probe (default java/lang/TcProbe). With --no-calls every call becomes a push
 * and pop of the id instead: classes that run during VM start-up (java.base) cannot call
 * a class that is not loaded yet. Methods the editor refuses stay unchanged and are
 * counted by reason. The output mirrors the input paths under OUTDIR.
 *
 * usage: tc-stress [--seed N] [--bloat N] [--bloat-every K] [--probe CLASS] [--no-handler]
 *                  [--no-calls] [--force-long] INPUT OUTDIR */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "classfile.h"
#include "code.h"
#include "containers/walk.h"

typedef struct stress {
	const char *in, *outdir, *probe;
	uint64_t seed;
	uint32_t bloat, bloat_every;
	bool handler, force_long;
	arena ca, scratch;
	tc_buf out;
	unsigned long classes, methods, edited, refused[16], class_errors, widened;
} stress;

static uint64_t next(uint64_t *s)
{
	/* splitmix64: deterministic across platforms. */
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int mkdirs(const char *path)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

static int write_out(const char *path, const uint8_t *data, size_t len)
{
	if (mkdirs(path) != 0)
		return -1;
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t w = fwrite(data, 1, len, f);
	return fclose(f) == 0 && w == len ? 0 : -1;
}

static bool calls = true;

static size_t call(uint8_t *p, uint16_t id, uint16_t ref)
{
	p[0] = OP_SIPUSH;
	put_u2(p + 1, id);
	p[3] = calls ? OP_INVOKESTATIC : OP_POP;
	if (!calls)
		return 4;
	put_u2(p + 4, ref);
	return 6;
}

static int edit_method(stress *s, cf_class *cls, cf_member *m, uint16_t id, uint16_t ref_i,
                       uint16_t ref_o, uint16_t ref_r, tc_error *err)
{
	code_editor *ed;
	if (code_open(&ed, cls, m, &s->scratch, err) != TC_OK)
		return err->code;
	uint32_t n = code_ninsns(ed);
	uint8_t seq[16];
	uint32_t start = 0;
	bool is_init = cp_utf8_eq(&cls->cp, m->name, "<init>");
	bool traced = true;
	if (is_init) {
		uint32_t init;
		tc_error e2;
		tc_error_clear(&e2);
		if (code_this_init(ed, &init, &e2) == TC_OK)
			start = init + 1;
		else
			traced = false;
	}
	if (traced && code_insert(ed, start, CODE_FALLTHROUGH, seq, (uint32_t)call(seq, id, ref_i), err) != TC_OK)
		return err->code;
	uint64_t rng = s->seed ^ ((uint64_t)id << 20);
	bool branches = false;
	for (uint32_t i = 0; i < n && !branches; i++)
		branches = cf_op_has(code_insn(ed, i)->op, OPF_BRANCH);
	uint32_t bloat_at = UINT32_MAX;
	if (s->bloat && branches && n > 2 && next(&rng) % s->bloat_every == 0)
		bloat_at = (uint32_t)(next(&rng) % n);
	for (uint32_t i = 0; i < n; i++) {
		const cf_insn *in = code_insn(ed, i);
		if (cf_op_has(in->op, OPF_RETURN) && traced && i >= start &&
		    code_insert(ed, i, CODE_AT_TARGET, seq, (uint32_t)call(seq, id, ref_o), err) != TC_OK)
			return err->code;
		uint64_t r = next(&rng);
		if (r % 8 == 0) {
			switch ((r >> 8) % 3) {
			case 0:
				seq[0] = OP_NOP;
				code_insert(ed, i, CODE_AT_TARGET, seq, 1, err);
				break;
			case 1:
				seq[0] = OP_ICONST_0;
				seq[1] = OP_POP;
				code_insert(ed, i, CODE_AT_TARGET, seq, 2, err);
				break;
			default:
				seq[0] = calls ? OP_INVOKESTATIC : OP_NOP;
				put_u2(seq + 1, ref_r);
				code_insert(ed, i, CODE_AT_TARGET, seq, calls ? 3 : 1, err);
				break;
			}
			if (err->code != TC_OK)
				return err->code;
		}
		if (i == bloat_at) {
			uint8_t *pad = arena_alloc(&s->scratch, s->bloat);
			if (!pad)
				return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, "stress", "no memory");
			memset(pad, OP_NOP, s->bloat);
			if (code_insert(ed, i, CODE_AT_TARGET, pad, s->bloat, err) != TC_OK)
				return err->code;
		}
	}
	if (traced && s->handler) {
		size_t k = call(seq, id, ref_o);
		seq[k++] = OP_ATHROW;
		if (code_add_handler(ed, start, n, 0, seq, (uint32_t)k, err) != TC_OK)
			return err->code;
	}
	if (s->force_long)
		code_force_long_branches(ed, 1);
	return code_commit(ed, err);
}

static int on_class(void *ctx, const char *label, const uint8_t *data, size_t len)
{
	stress *s = ctx;
	s->classes++;
	arena_reset(&s->ca);
	tc_error err;
	tc_error_clear(&err);
	cf_class cls;
	const char *rel = strchr(label, '!');
	rel = rel ? rel + 1 : label + strlen(s->in) + (label[strlen(s->in)] == '/');
	char path[8192];
	snprintf(path, sizeof path, "%s/%s", s->outdir, rel);
	if (cf_parse(&cls, &s->ca, data, len, &err) != TC_OK) {
		s->class_errors++;
		fprintf(stderr, "%s: %s\n", label, err.message);
		return write_out(path, data, len);
	}
	uint16_t ref_i = cp_add_methodref(&cls.cp, s->probe, "i", "(I)V", false, &err);
	uint16_t ref_o = ref_i ? cp_add_methodref(&cls.cp, s->probe, "o", "(I)V", false, &err) : 0;
	uint16_t ref_r = ref_o ? cp_add_methodref(&cls.cp, s->probe, "r", "()V", false, &err) : 0;
	if (!ref_r || (cls.access & ACC_MODULE)) {
		s->class_errors += ref_r == 0;
		return write_out(path, data, len);
	}
	for (uint32_t i = 0; i < cls.nmethods; i++) {
		cf_member *m = &cls.methods[i];
		if (!cf_method_code(&cls, m))
			continue;
		/* HotSpot registers a finalizer for every instance of a class whose finalize()
		 * is more than `return` (ClassFileParser: has_finalizer); editing Object's empty
		 * one makes every object finalizable and breaks VM start-up. */
		if (cp_utf8_eq(&cls.cp, m->name, "finalize") && cp_utf8_eq(&cls.cp, m->desc, "()V"))
			continue;
		s->methods++;
		arena_reset(&s->scratch);
		tc_error_clear(&err);
		if (edit_method(s, &cls, m, (uint16_t)(s->methods & 0x7fff), ref_i, ref_o, ref_r, &err) == TC_OK) {
			s->edited++;
		} else {
			s->refused[-err.code & 15]++;
			if (err.code != TC_ELIMIT && err.code != TC_EUNSUPPORTED) {
				char label2[256], msg[512];
				cf_member_label(&cls, m, label2, sizeof label2);
				tc_error_context(&err, label, NULL, label2);
				tc_error_format(&err, msg, sizeof msg);
				fprintf(stderr, "refused: %s\n", msg);
			}
		}
	}
	buf_clear(&s->out);
	if (cf_write(&cls, &s->out, &err) != TC_OK)
		return fprintf(stderr, "%s: write: %s\n", label, err.message), 1;
	if (write_out(path, s->out.data, s->out.len) != 0)
		return fprintf(stderr, "%s: cannot write %s\n", label, path), 1;
	return 0;
}

int main(int argc, char **argv)
{
	stress s = {.probe = "java/lang/TcProbe", .seed = 1, .handler = true, .bloat_every = 64};
	int i = 1;
	for (; i + 1 < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--seed"))
			s.seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--bloat"))
			s.bloat = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--bloat-every"))
			s.bloat_every = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--probe"))
			s.probe = argv[++i];
		else if (!strcmp(argv[i], "--no-handler"))
			s.handler = false;
		else if (!strcmp(argv[i], "--no-calls"))
			calls = false;
		else if (!strcmp(argv[i], "--force-long"))
			s.force_long = true;
		else
			break;
	}
	if (argc - i != 2 || s.bloat_every == 0) {
		fprintf(stderr, "usage: tc-stress [--seed N] [--bloat N] [--bloat-every K] [--probe CLASS] "
		                "[--no-handler] [--no-calls] [--force-long] INPUT OUTDIR\n");
		return 2;
	}
	s.in = argv[i];
	s.outdir = argv[i + 1];
	arena_init(&s.ca);
	arena_init(&s.scratch);
	buf_init(&s.out);
	tc_error err;
	tc_error_clear(&err);
	int rc = walk_classes(s.in, on_class, &s, &err);
	if (rc != 0 && err.code)
		fprintf(stderr, "%s: %s\n", s.in, err.message);
	printf("classes %lu methods %lu edited %lu refused-limit %lu refused-unsupported %lu "
	       "refused-other %lu class-errors %lu\n",
	       s.classes, s.methods, s.edited, s.refused[-TC_ELIMIT], s.refused[-TC_EUNSUPPORTED],
	       s.methods - s.edited - s.refused[-TC_ELIMIT] - s.refused[-TC_EUNSUPPORTED], s.class_errors);
	buf_free(&s.out);
	arena_free(&s.ca);
	arena_free(&s.scratch);
	return rc ? 1 : 0;
}

/* Dex inputs: a dex file (alone, in a directory, or a classes*.dex entry of a jar or an
 * APK) is one UNIT_DEX unit followed by one UNIT_DEXCLASS unit per class it defines.
 * Its classes are collected and edited like class files (collect.c, inject_dex.c); the
 * ids the edits call are added once per dex between the phases (dexin_prepare), and
 * the dex is written whole at the end (dexin_write). A dex whose new ids would not fit
 * the format, or whose rewrite fails the writer's own re-read, is left as it was, with
 * every method that was to be traced reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dex.h"
#include "file.h"
#include "method_mapping.h"
#include "pipeline/pipeline.h"
#include "containers/walk.h"

void dexin_free(dexin *x)
{
	if (!x)
		return;
	arena_free(&x->a);
	free(x->bytes);
	free(x);
}

dexin *dexin_new(const pl_run *r, uint8_t *bytes, size_t len)
{
	dexin *x = calloc(1, sizeof *x);
	if (!x) {
		free(bytes);
		return NULL;
	}
	arena_init_sized(&x->a, len > ((size_t)1 << 20) ? len * 3 : 0);
	/* the model is bounded like the bytes: a hostile dex can make many small items */
	x->a.limit = (size_t)r->max_input;
	x->bytes = bytes;
	x->len = len;
	x->beat_i = x->beat_o = x->beat_at = DEX_NO_INDEX;
	return x;
}

void dexin_parse(const pl_run *r, dexin *x)
{
	tc_error_clear(&x->parse_err);
	if (dex_parse(&x->d, &x->a, x->bytes, x->len, &x->parse_err) == TC_OK) {
		x->parsed = true;
		return;
	}
	if (x->parse_err.code == TC_ENOMEM) {
		tc_error_clear(&x->parse_err);
		tc_fail(&x->parse_err, TC_ENOMEM, TC_NO_OFFSET, "dex",
		        "no memory for its model (the input limit is %llu MB, --max-input-mb)",
		        (unsigned long long)(r->max_input >> 20));
	}
}

int dexin_attach(pl_run *r, pl_input *in, const char *name, uint64_t entry, dexin *x, tc_error *err)
{
	pl_unit *u = pl_unit_new(r, in, name, err);
	if (!u) {
		dexin_free(x);
		return err->code;
	}
	size_t ui = (size_t)(u - r->units);
	u->kind = UNIT_DEX;
	u->entry = entry;
	u->dex = x;
	u->in_size = x->len;
	if (!x->parsed) {
		char msg[1200];
		tc_error_format(&x->parse_err, msg, sizeof msg);
		u->state = US_MALFORMED;
		u->error = pl_keep_str(&r->workers[0], msg, strlen(msg));
		return TC_OK;
	}
	for (uint32_t k = 0; k < x->d.nclasses; k++) {
		pl_unit *c = pl_unit_new(r, in, r->units[ui].name, err);
		if (!c)
			return err->code;
		c->kind = UNIT_DEXCLASS;
		c->entry = entry;
		c->dex = x;
		c->dex_class = k;
	}
	return TC_OK;
}

int dexin_add(pl_run *r, pl_input *in, const char *name, uint64_t entry, uint8_t *bytes, size_t len, tc_error *err)
{
	dexin *x = dexin_new(r, bytes, len);
	if (!x)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "no memory");
	dexin_parse(r, x);
	return dexin_attach(r, in, name, entry, x, err);
}

/* The units of the classes of the dex unit u: u + 1 .. u + n (a class added, the
 * marker, has none). */
static uint32_t classes_of(const pl_unit *u)
{
	return u->dex->parsed ? u->dex->d.nclasses - u->dex->added : 0;
}

/* The same counted from the units, within its input (the dex need not be parsed). */
static uint32_t classes_of_units(const pl_run *r, const pl_unit *u)
{
	size_t i = (size_t)(u - r->units), end = u->in->first + u->in->count;
	uint32_t n = 0;
	while (i + n + 1 < end && r->units[i + n + 1].kind == UNIT_DEXCLASS && r->units[i + n + 1].dex == u->dex)
		n++;
	return n;
}

/* The dex stays as it was: what was to be traced in it is counted as not instrumented
 * (before the edits: every method to trace; after them: what they changed). */
static void leave(pl_run *r, pl_unit *u, const char *why, bool edited)
{
	u->dex->left = true;
	u->dex->marker = false;
	for (uint32_t k = 1; k <= classes_of(u); k++) {
		pl_unit *c = u + k;
		if (edited) {
			c->skipped += c->instrumented;
		} else {
			for (uint32_t j = 0; j < c->nmethods; j++)
				c->skipped += c->methods[j].verdict == V_TRACE && !c->methods[j].preset;
		}
		c->instrumented = c->focus_added = c->focus_injected = 0;
		c->changed = false;
	}
	pl_unit_report(u, &r->workers[0], "dex left unchanged: %s", why);
}

int dexin_load(pl_run *r, pl_unit *u, tc_error *err)
{
	dexin *x = u->dex;
	if (!x->pending)
		return TC_OK;
	x->pending = false;
	pl_input *in = u->in;
	tc_buf b;
	buf_init(&b);
	int rc;
	if (in->jar) {
		if (!in->zip && (rc = jar_open(&in->zip, in->in, err)) != TC_OK)
			return rc;
		rc = jar_read(in->zip, u->entry, &b, r->max_input, NULL, err);
	} else {
		char path[4200];
		if (in->dex)
			snprintf(path, sizeof path, "%s", in->in);
		else
			walk_path_join(path, sizeof path, in->in, "/", u->name);
		rc = tc_file_read(path, &b, r->max_input, TC_LIMIT_OPTION, err);
	}
	if (rc != TC_OK) {
		buf_free(&b);
		return rc;
	}
	x->bytes = buf_take(&b, &x->len);
	tc_error perr;
	tc_error_clear(&perr);
	/* the cache said it parsed: the same bytes parse the same */
	if (dex_parse(&x->d, &x->a, x->bytes, x->len, &perr) != TC_OK || x->d.nclasses != classes_of_units(r, u))
		return tc_fail(err, TC_EFORMAT, TC_NO_OFFSET, u->name, "changed since it was cached");
	x->parsed = true;
	return TC_OK;
}

/* The build-id marker (pipeline.h: OUT_MARKER_CLASS, out_plan_marker) as a class of the
 * dex, what d8 makes of the class file output.c writes:
 *   public final synthetic class BuildId { public static final String ID = "<hex>"; }
 * The value is the class's static_values (an encoded_array_item, dex format
 * "class_def_item"): set when the class is initialized, with no <clinit> to run, so the
 * class has no method and no code to verify. Its ids are added as any edit's are; when
 * they would not fit, the dex gets no marker (reported). A dex that defines the class
 * already (an output instrumented again) has its value replaced, so that a second run
 * writes what the first wrote. */
static int add_marker(pl_run *r, pl_unit *u, tc_error *err)
{
	dexin *x = u->dex;
	dex_file *d = &x->d;
	const char *cls = "L" OUT_MARKER_CLASS ";", *str = "Ljava/lang/String;";
	char hex[MM_BUILD_ID_HEX];
	mm_build_id_hex(r->marker_id, hex);
	uint32_t have = DEX_NO_INDEX;
	for (uint32_t k = 0; k < d->nclasses && have == DEX_NO_INDEX; k++) {
		uint32_t len;
		const uint8_t *desc = dex_type_desc(d, d->classes[k].type, &len);
		if (desc && len == strlen(cls) && !memcmp(desc, cls, len))
			have = k;
	}
	dex_mark m;
	dex_mark_ids(d, &m);
	tc_error e;
	tc_error_clear(&e);
	uint32_t type, super, field, value;
	if (dex_intern_type(d, cls, &type, &e) != TC_OK || dex_intern_type(d, "Ljava/lang/Object;", &super, &e) != TC_OK ||
	    dex_intern_field(d, cls, OUT_MARKER_FIELD, str, &field, &e) != TC_OK ||
	    dex_intern_string(d, hex, MM_BUILD_ID_HEX - 1, &value, &e) != TC_OK)
		return tc_fail(err, e.code, TC_NO_OFFSET, u->name, "%s", e.message);
	char over[160];
	if (dex_ids_over(d, over, sizeof over)) {
		dex_rollback_ids(d, &m);
		pl_unit_report(u, &r->workers[0], "the build-id marker class %s not added: its ids do not fit: %s",
		               OUT_MARKER_CLASS, over);
		return TC_OK;
	}
	if (have != DEX_NO_INDEX) {
		const dex_class *k = &d->classes[have];
		const dex_cdata *c = k->data;
		if (!c || c->nsfields != 1 || c->nifields || c->ndmethods || c->nvmethods || c->sfields[0].idx != field) {
			pl_unit_report(u, &r->workers[0], "the build-id marker class %s not added: the dex defines a class "
			               "of that name with other members", OUT_MARKER_CLASS);
			return TC_OK;
		}
	}
	/* encoded_array_item: uleb128 size 1, then one VALUE_STRING (0x17) of the index in
	 * as few bytes as it takes (value_arg: bytes - 1), little-endian; model indices,
	 * which the writer maps to the file's */
	uint8_t enc[6];
	size_t n = 0;
	enc[n++] = 1;
	int bytes = value > 0xffffff ? 4 : value > 0xffff ? 3 : value > 0xff ? 2 : 1;
	enc[n++] = (uint8_t)((bytes - 1) << 5 | 0x17);
	for (int b = 0; b < bytes; b++)
		enc[n++] = (uint8_t)(value >> (8 * b));
	dex_blob *v = dex_item_new(d, sizeof *v);
	uint8_t *data = arena_dup(d->a, enc, n);
	if (!v || !data)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	v->data = data;
	v->len = (uint32_t)n;
	if (have != DEX_NO_INDEX) {
		d->classes[have].values = v;
		x->marker = true;
		return TC_OK;
	}
	dex_cdata *c = dex_item_new(d, sizeof *c);
	dex_efield *f = arena_zalloc(d->a, sizeof *f);
	dex_class *all = arena_zalloc(d->a, ((size_t)d->nclasses + 1) * sizeof *all);
	if (!c || !f || !all)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	*f = (dex_efield){field, DACC_PUBLIC | DACC_STATIC | DACC_FINAL};
	c->nsfields = 1;
	c->sfields = f;
	if (d->nclasses)
		memcpy(all, d->classes, d->nclasses * sizeof *all);
	/* last: its superclass is no class of the dex, so any place keeps ART's order
	 * (a class after its superclass and interfaces) */
	all[d->nclasses] = (dex_class){type, DACC_PUBLIC | DACC_FINAL | DACC_SYNTHETIC, super, DEX_NO_INDEX,
	                               NULL, NULL, c, v};
	d->classes = all;
	d->nclasses++;
	x->added = 1;
	x->marker = true;
	return TC_OK;
}

int dexin_prepare(pl_run *r, pl_unit *u, tc_error *err)
{
	dexin *x = u->dex;
	if (u->in->classpath || u->in->result_hit)
		return TC_OK;
	if (x->pending && dexin_load(r, u, err) != TC_OK)
		return err->code;
	if (!x->parsed)
		return TC_OK;
	if (r->marker_unit == (size_t)(u - r->units) && !x->marker && add_marker(r, u, err) != TC_OK)
		return err->code;
	bool any = false, declared = false;
	for (uint32_t k = 1; k <= classes_of(u); k++) {
		any |= pl_unit_wants_edit(u + k);
		declared |= u[k].activity && u[k].focus_declared;
	}
	if (!any)
		return TC_OK;
	dex_file *d = &x->d;
	char beat[1100], over[160];
	snprintf(beat, sizeof beat, "L%s;", r->opt->beat);
	static const char AT_DESC[] = "(Landroid/app/Activity;Z)V";
	dex_mark m;
	dex_mark_ids(d, &m);
	tc_error e;
	tc_error_clear(&e);
	if (dex_intern_method(d, beat, "i", "(I)V", &x->beat_i, &e) != TC_OK ||
	    dex_intern_method(d, beat, "o", "(I)V", &x->beat_o, &e) != TC_OK)
		return tc_fail(err, e.code, TC_NO_OFFSET, u->name, "%s", e.message);
	if (dex_ids_over(d, over, sizeof over)) {
		dex_rollback_ids(d, &m);
		char why[200];
		snprintf(why, sizeof why, "the calls' ids do not fit: %s", over);
		leave(r, u, why, false);
		return TC_OK;
	}
	/* Only ids something calls are added: at() for the Activities that declare
	 * onWindowFocusChanged, then with each added focus method (its id, the super's) */
	if (declared) {
		dex_mark_ids(d, &m);
		if (dex_intern_method(d, beat, "at", AT_DESC, &x->beat_at, &e) != TC_OK)
			return tc_fail(err, e.code, TC_NO_OFFSET, u->name, "%s", e.message);
		if (dex_ids_over(d, over, sizeof over)) {
			dex_rollback_ids(d, &m);
			x->beat_at = DEX_NO_INDEX;
			for (uint32_t k = 1; k <= classes_of(u); k++)
				if (u[k].activity && u[k].focus_declared)
					pl_unit_report(u + k, &r->workers[0], "class %s: AppMethodBeat.at not called: its method "
					               "id does not fit: %s", u[k].cls, over);
		}
	}
	for (uint32_t k = 1; k <= classes_of(u); k++) {
		pl_unit *c = u + k;
		if (!c->add_focus)
			continue;
		char cls[1100], sup[1100];
		snprintf(cls, sizeof cls, "L%s;", c->cls);
		snprintf(sup, sizeof sup, "L%s;", c->super ? c->super : "java/lang/Object");
		dex_mark_ids(d, &m);
		uint32_t at = x->beat_at;
		if ((at == DEX_NO_INDEX && dex_intern_method(d, beat, "at", AT_DESC, &at, &e) != TC_OK) ||
		    dex_intern_method(d, cls, "onWindowFocusChanged", "(Z)V", &c->focus_method, &e) != TC_OK ||
		    dex_intern_method(d, sup, "onWindowFocusChanged", "(Z)V", &c->focus_super, &e) != TC_OK)
			return tc_fail(err, e.code, TC_NO_OFFSET, u->name, "%s", e.message);
		if (dex_ids_over(d, over, sizeof over)) {
			dex_rollback_ids(d, &m);
			c->add_focus = false;
			pl_unit_report(c, &r->workers[0], "class %s: onWindowFocusChanged not added: its ids do not fit: %s",
			               c->cls, over);
		} else {
			x->beat_at = at;
		}
	}
	/* the method checker's facts, once the ids are final (the workers only read them);
	 * with --strict-monitors' rule: a probe must not leave a lock held */
	if (dex_verify_file_init(&x->vfy, d, &x->a) != TC_OK)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	x->vfy.strict_monitors = true;
	return TC_OK;
}

/* The model once its dex is written: nothing reads it again but its count of classes
 * (classes_of), so its arena, whose pages the kernel has already faulted in, takes the
 * read-back's model. A fresh arena held both models at once and had its pages zeroed
 * again (22.9 MB for the server APK's classes.dex: the run's peak RSS went from 124 to
 * 103 MB at -j2). Its pointers are cleared, so that a later use faults rather than
 * reading the read-back's data. */
static void drop_model(dexin *x)
{
	uint32_t n = x->d.nclasses;
	memset(&x->d, 0, sizeof x->d);
	x->d.nclasses = n;
	memset(&x->vfy, 0, sizeof x->vfy);
	arena_reset(&x->a);
}

int dexin_write(pl_run *r, pl_unit *u, pl_worker *w, tc_error *err)
{
	dexin *x = u->dex;
	const uint8_t *data = x->bytes;
	size_t len = x->len;
	bool changed = x->marker;
	for (uint32_t k = 1; k <= classes_of(u); k++)
		changed |= u[k].changed;
	if (changed && !x->left) {
		tc_error e;
		tc_error_clear(&e);
		buf_clear(&w->out);
		if (dex_write(&x->d, &w->out, &e) == TC_OK && w->out.err)
			tc_fail(&e, TC_ENOMEM, TC_NO_OFFSET, "dex writer", "no memory");
		const uint8_t *out = w->out.data;
		size_t out_len = w->out.len;
		/* In a jar: into the archive's form first, so that a large dex's parts deflate on
		 * the other workers while this one checks it (dropped if it fails). */
		if (e.code == TC_OK && u->in->jar) {
			if (out_jar_entry(r, u, w, out, out_len, NULL, 0, err) != TC_OK)
				return err->code;
			if (u->split)
				out = u->split->data; /* w->out was taken */
		}
		if (e.code == TC_OK) {
			/* The writer's output read back by the reader, which checks what ART's
			 * file verifier checks: a dex we got wrong never reaches a build. */
			drop_model(x);
			size_t limit = x->a.limit;
			x->a.limit = 0; /* the output's model, as large as the output needs */
			dex_file again;
			dex_parse(&again, &x->a, out, out_len, &e);
			arena_free(&x->a);
			x->a.limit = limit;
		}
		if (e.code != TC_OK && u->in->jar)
			out_jar_entry_drop(u);
		if (e.code == TC_ENOMEM)
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
		if (e.code != TC_OK) {
			char msg[1200];
			tc_error_format(&e, msg, sizeof msg);
			leave(r, u, msg, true);
		} else {
			data = out;
			len = out_len;
			u->changed = true;
		}
	}
	u->out_size = len;
	pl_input *in = u->in;
	if (in->dex)
		return out_write_file(w, in->stage, data, len, true, err);
	if (!in->jar) {
		/* a directory's rewritten files go with its cached result */
		if (r->keep_dir_outs && u->changed && (u->out_len = len) && !(u->out = arena_dup(&w->outs, data, len)))
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
		return out_dir_file(w, u, data, len, err);
	}
	return TC_OK; /* a jar's entry was made above */
}

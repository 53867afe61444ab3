/* The run's units (pipeline.h): made as the inputs are listed (or read from the cache), their
 * bytes read for a phase, their reports and counters kept as the phases settle each method;
 * and the strings that live as long as the run, in a worker's keep arena. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "pipeline/pipeline.h"
#include "containers/walk.h"
#include "containers/zlib_io.h"

char *pl_keep_str(pl_worker *w, const char *s, size_t len)
{
	char *p = arena_alloc(&w->keep, len + 1);
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

pl_unit *pl_unit_new(pl_run *r, pl_input *in, const char *name, tc_error *err)
{
	if (r->nunits == r->capunits) {
		size_t cap = r->capunits ? r->capunits * 2 : 4096;
		pl_unit *u = realloc(r->units, cap * sizeof *u);
		if (!u) {
			tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "no memory");
			return NULL;
		}
		r->units = u;
		r->capunits = cap;
	}
	pl_unit *u = &r->units[r->nunits];
	memset(u, 0, sizeof *u);
	u->in = in;
	if (!(u->name = pl_keep_str(&r->workers[0], name, strlen(name)))) {
		tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, in->in, "no memory");
		return NULL;
	}
	r->nunits++;
	return u;
}

int pl_unit_bytes(pl_run *r, pl_unit *u, pl_worker *w, const uint8_t **data, size_t *len, tc_error *err)
{
	if (u->data) {
		*data = u->data;
		*len = u->data_len;
		return TC_OK;
	}
	if (u->in->jar) {
		/* Stored or deflated: read (inflated, CRC checked) from the mapped jar. */
		if (!w->inflater && !(w->inflater = zio_inflater_new()))
			return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "cannot start inflate");
		if (jar_read(u->in->zip, u->entry, &w->in, r->max_input, w->inflater, err) != TC_OK)
			return err->code;
	} else {
		char path[4200];
		walk_path_join(path, sizeof path, u->in->in, "/", u->name);
		if (tc_file_read(path, &w->in, r->max_input, TC_LIMIT_OPTION, err) != TC_OK)
			return err->code;
	}
	*data = w->in.data;
	*len = w->in.len;
	return TC_OK;
}

bool pl_unit_wants_edit(const pl_unit *u)
{
	if (u->state != US_OK || !u->traceable || u->blocked)
		return false;
	if (u->activity)
		return true;
	for (uint32_t k = 0; k < u->nmethods; k++)
		if (u->methods[k].verdict == V_TRACE && !u->methods[k].preset)
			return true;
	return false;
}

void pl_unit_report(pl_unit *u, pl_worker *w, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pl_report *r = arena_zalloc(&w->keep, sizeof *r);
	if (!r || !(r->text = pl_keep_str(w, msg, strlen(msg))))
		return;
	pl_report **tail = &u->reports;
	while (*tail)
		tail = &(*tail)->next;
	*tail = r;
}

void pl_unit_skip(pl_unit *u, pl_worker *w, const char *label, const tc_error *e)
{
	char msg[900];
	tc_error c = *e;
	c.member[0] = '\0'; /* the label names the method */
	tc_error_format(&c, msg, sizeof msg);
	pl_unit_report(u, w, "%s: not instrumented: %s", label, msg);
	u->skipped++;
}

int pl_unit_settle(pl_unit *u, int rc, const tc_error *e, bool id, bool focus, tc_error *err)
{
	if (rc == TC_OK) {
		u->changed = true;
		u->instrumented += id;
		u->focus_injected += focus;
		return 0;
	}
	if (e->code == TC_ENOMEM)
		return tc_fail(err, TC_ENOMEM, TC_NO_OFFSET, u->name, "no memory");
	return 1;
}

const char *pl_focus_blocked_word(const pl_unit *u)
{
	return u->focus_blocked == FOCUS_STATIC ? "static" : "private";
}

void pl_unit_report_focus_blocked(pl_unit *u, pl_worker *w)
{
	pl_unit_report(u, w, "class %s: onWindowFocusChanged not added: the class declares a %s "
	               "onWindowFocusChanged(Z)V, which overrides nothing (the framework never calls it) and leaves "
	               "no room for an override (one method of a name and descriptor per class): AppMethodBeat.at is "
	               "not called for this Activity", u->cls, pl_focus_blocked_word(u));
}

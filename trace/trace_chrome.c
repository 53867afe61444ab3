/* trace_chrome.c: see trace_chrome.h. The event objects are built with the
 * runtime's JSON writer; the array around them is written here, so the
 * output streams. */
#include "trace_chrome.h"

#include <inttypes.h>
#include <stdlib.h>

#include "json.h"
#include "bytes.h"

typedef struct writer {
	FILE *out;
	const tr_mapping *m;
	const tr_chrome_opts *o;
	uint32_t tid;         /* the track being written */
	const char *category; /* its slices' (NULL: methods and messages) */
	tr_chrome_dropped drop; /* spans shorter than o->min_us */
	tc_buf name;
	int first;
	int rc;
	tc_error *err;
} writer;

static void emit(writer *w, json *j)
{
	char *text = json_take(j);
	if (!text) {
		if (w->rc == TC_OK)
			w->rc = tc_set(w->err, TC_ENOMEM, "chrome: out of memory");
		return;
	}
	if (w->rc == TC_OK && fprintf(w->out, "%s%s", w->first ? "\n" : ",\n", text) < 0)
		w->rc = tc_set(w->err, TC_EIO, "write failed");
	w->first = 0;
	free(text);
}

static void head(writer *w, json *j, const char *ph, uint64_t ts_ms)
{
	json_begin_object(j);
	json_kv_string(j, "ph", ph);
	json_kv_int(j, "pid", w->o->pid);
	json_kv_int(j, "tid", w->tid);
	json_kv_int(j, "ts", (int64_t)(w->o->base_us + ts_ms * 1000));
}

static const char *name_of(writer *w, uint32_t id, tr_name_style style)
{
	w->name.len = 0;
	tr_name_put(&w->name, w->m, id, style);
	return w->name.err || !w->name.str ? "" : w->name.str;
}

static void begin(writer *w, const tr_span *sp)
{
	json j;
	json_init(&j);
	head(w, &j, w->o->complete ? "X" : "B", sp->start_ms);
	if (w->o->complete)
		json_kv_int(&j, "dur", (int64_t)((sp->end_ms - sp->start_ms) * 1000));
	if (sp->message != TR_NONE) {
		char buf[48];
		snprintf(buf, sizeof buf, "message %zu", sp->message);
		json_kv_string(&j, "name", buf);
		json_kv_string(&j, "cat", "message");
	} else {
		json_kv_string(&j, "name", name_of(w, sp->id, w->o->names));
		json_kv_string(&j, "cat", w->category ? w->category : "method");
	}
	json_key(&j, "args");
	json_begin_object(&j);
	json_kv_int(&j, "id", sp->id);
	json_kv_string(&j, "method", name_of(w, sp->id, TR_NAME_FULL));
	if (sp->flags & TR_SPAN_OPEN)
		json_kv_string(&j, "note", "no out event: still running at the end of the trace");
	else if (sp->flags & TR_SPAN_CUT)
		json_kv_string(&j, "note", "no out event: closed when its caller returned");
	if (sp->flags & TR_SPAN_CLIPPED)
		json_kv_bool(&j, "clipped", true);
	json_end_object(&j);
	json_end_object(&j);
	emit(w, &j);
	json_dispose(&j);
}

static void end(writer *w, const tr_span *sp)
{
	json j;
	json_init(&j);
	head(w, &j, "E", sp->end_ms);
	json_end_object(&j);
	emit(w, &j);
	json_dispose(&j);
}

static void metadata(writer *w, const char *what, const char *value)
{
	json j;
	json_init(&j);
	json_begin_object(&j);
	json_kv_string(&j, "ph", "M");
	json_kv_int(&j, "pid", w->o->pid);
	json_kv_int(&j, "tid", w->tid);
	json_kv_string(&j, "name", what);
	json_key(&j, "args");
	json_begin_object(&j);
	json_kv_string(&j, "name", value);
	json_end_object(&j);
	json_end_object(&j);
	emit(w, &j);
	json_dispose(&j);
}

static void instant(writer *w, const tr_instant *in)
{
	json j;
	json_init(&j);
	head(w, &j, "i", in->ts_ms);
	json_kv_string(&j, "s", "t");
	json_kv_string(&j, "name", in->name);
	json_kv_string(&j, "cat", "report");
	if (in->args_json) {
		/* splice the args object in as it is */
		json_key(&j, "args");
		buf_puts(&j.sb, in->args_json);
		j.after_key = false;
	}
	json_end_object(&j);
	emit(w, &j);
	json_dispose(&j);
}

/* The walk's calls (tr_spans_walk): B/E pairs, or X events written at their begin. */
static int on_begin(void *user, const tr_span *sp)
{
	writer *w = user;
	begin(w, sp);
	return w->rc;
}

static int on_end(void *user, const tr_span *sp)
{
	writer *w = user;
	if (!w->o->complete)
		end(w, sp);
	return w->rc;
}

/* One track's slices in pre-order; with short_out, spans shorter than o->min_us are
 * left out and counted. */
static void slices(writer *w, const tr_span *v, size_t n, size_t *open, bool short_out)
{
	tr_spans_walk(v, n, short_out ? w->o->min_us : 0, open, on_begin, on_end, w, &w->drop);
}

static int on_instant(void *user, const tr_instant *in)
{
	writer *w = user;
	instant(w, in);
	return w->rc;
}

int tr_chrome_each_instant(const tr_chrome_opts *o, int (*fn)(void *user, const tr_instant *in), void *user,
                           tc_error *err)
{
	int rc = TC_OK;
	while (o->next_instant && rc == TC_OK) {
		tr_instant in;
		int got = o->next_instant(o->instant_user, &in, err);
		if (got <= 0)
			return got;
		rc = fn(user, &in);
	}
	return rc;
}

int tr_chrome_write_tracks(FILE *out, const tr_chrome_track *tracks, size_t n, const tr_mapping *m,
                           const tr_chrome_opts *o, tr_chrome_dropped *dropped, tc_error *err)
{
	writer w = { .out = out, .m = m, .o = o, .tid = n ? tracks[0].tid : o->tid, .first = 1, .rc = TC_OK, .err = err };
	buf_init(&w.name);
	size_t most = 1;
	for (size_t k = 0; k < n; k++) {
		size_t c = tracks[k].sections ? tracks[k].spans->n_sect : tracks[k].spans->n;
		if (c > most)
			most = c;
	}
	size_t *open = malloc(most * sizeof *open);
	if (!open)
		return tc_set(err, TC_ENOMEM, "chrome: out of memory");
	if (fputs("{\"traceEvents\":[", out) < 0)
		w.rc = tc_set(err, TC_EIO, "write failed");
	metadata(&w, "process_name", o->process_name ? o->process_name : "tracecanary");
	tr_span_stats st = { 0 };
	for (size_t k = 0; k < n && w.rc == TC_OK; k++) {
		const tr_chrome_track *t = &tracks[k];
		w.tid = t->tid;
		w.category = t->sections ? "section" : NULL;
		metadata(&w, "thread_name", t->name ? t->name : "main");
		if (t->sections) {
			/* sections are few and named by the user: all of them stay */
			slices(&w, t->spans->sect, t->spans->n_sect, open, false);
			continue;
		}
		slices(&w, t->spans->v, t->spans->n, open, true);
		st.dropped_outs += t->spans->stats.dropped_outs;
		st.open_at_end += t->spans->stats.open_at_end;
		st.cut += t->spans->stats.cut;
	}
	w.tid = n ? tracks[0].tid : o->tid;
	w.category = NULL;
	if (w.rc == TC_OK) {
		int rc = tr_chrome_each_instant(o, on_instant, &w, err);
		if (rc != TC_OK)
			w.rc = rc;
	}
	if (w.rc == TC_OK) {
		json j;
		json_init(&j);
		json_begin_object(&j);
		json_kv_string(&j, "producer", "tc-trace");
		if (o->source)
			json_kv_string(&j, "source", o->source);
		if (o->slice)
			json_kv_string(&j, "slice", o->slice);
		json_kv_int(&j, "droppedOuts", (int64_t)st.dropped_outs);
		json_kv_int(&j, "openAtEnd", (int64_t)st.open_at_end);
		json_kv_int(&j, "closedWithCaller", (int64_t)st.cut);
		if (o->min_us) {
			json_kv_int(&j, "minUs", (int64_t)o->min_us);
			json_kv_int(&j, "shortSpansLeftOut", (int64_t)w.drop.spans);
			json_kv_int(&j, "shortSpansMs", (int64_t)w.drop.ms);
		}
		if (o->base_us)
			json_kv_int(&j, "timeBaseUs", (int64_t)o->base_us);
		/* a span's times are whole ms of this tick: one shorter may read 0 */
		if (o->resolution_ms)
			json_kv_int(&j, "clockResolutionMs", (int64_t)o->resolution_ms);
		json_end_object(&j);
		char *other = json_take(&j);
		if (!other)
			w.rc = tc_set(err, TC_ENOMEM, "chrome: out of memory");
		else if (fprintf(out, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":%s}\n", other) < 0)
			w.rc = tc_set(err, TC_EIO, "write failed");
		free(other);
		json_dispose(&j);
	}
	free(open);
	buf_free(&w.name);
	if (dropped)
		*dropped = w.drop;
	return w.rc;
}

int tr_chrome_write(FILE *out, const tr_spans *s, const tr_mapping *m, const tr_chrome_opts *o,
                    tr_chrome_dropped *dropped, tc_error *err)
{
	tr_chrome_track t = { o->tid, o->thread_name, s, false };
	return tr_chrome_write_tracks(out, &t, 1, m, o, dropped, err);
}

/* trace_perfetto.c: see trace_perfetto.h. The protobuf is written by hand: a varint is
 * base's LEB128 (buf_uleb), a nested message is built in a buffer of its own and
 * appended with its length. Field numbers are perfetto_trace.proto's; the tests decode
 * every output with protoc against that file, and with a decoder of their own. */
#include "trace_perfetto.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "json_read.h"
#include "tc_event.h"

/* wire types */
enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2 };

/* perfetto_trace.proto's field numbers, by message */
enum {
	TRACE_PACKET = 1,                                    /* Trace */
	PKT_TIMESTAMP = 8, PKT_SEQ_ID = 10, PKT_TRACK_EVENT = 11, PKT_INTERNED = 12,
	PKT_SEQ_FLAGS = 13, PKT_DEFAULTS = 59, PKT_TRACK_DESCRIPTOR = 60, PKT_CLOCK_SNAPSHOT = 6,
	DEF_CLOCK_ID = 58,                                   /* TracePacketDefaults */
	SNAP_CLOCKS = 1, SNAP_PRIMARY = 2, CLOCK_ID = 1, CLOCK_TIMESTAMP = 2, /* ClockSnapshot(.Clock) */
	TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT = 5, /* TrackDescriptor */
	PD_PID = 1, PD_NAME = 6,                             /* ProcessDescriptor */
	THD_PID = 1, THD_TID = 2, THD_NAME = 5,              /* ThreadDescriptor */
	TE_CATEGORY_IIDS = 3, TE_ANNOTATIONS = 4, TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK = 11,
	TE_NAME = 23,                                        /* TrackEvent */
	DA_NAME_IID = 1, DA_BOOL = 2, DA_UINT = 3, DA_INT = 4, DA_DOUBLE = 5, DA_STRING = 6,
	DA_NAME = 10, DA_DICT = 11, DA_ARRAY = 12, DA_STRING_IID = 17, /* DebugAnnotation */
	ID_CATEGORIES = 1, ID_EVENT_NAMES = 2, ID_ANNOTATION_NAMES = 3, ID_STRINGS = 29, /* InternedData */
	IN_IID = 1, IN_NAME = 2,                             /* EventName, EventCategory, ...Name, InternedString */
	PKT_CHROME_EVENTS = 5, CEB_METADATA = 2,            /* TracePacket.chrome_events: ChromeEventBundle */
	CM_NAME = 1, CM_INT = 4,                             /* ChromeMetadata */
};
enum { TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3 };
enum { SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2 };
enum { CLOCK_REALTIME = 1, CLOCK_MONOTONIC = 3 };
enum { SEQUENCE = 1 };

/* the interned categories and annotation names, sent in the first packet */
enum { CAT_METHOD = 1, CAT_MESSAGE, CAT_SECTION, CAT_REPORT };
static const char *const categories[] = { NULL, "method", "message", "section", "report" };
enum { AN_ID = 1, AN_METHOD, AN_NOTE, AN_CLIPPED };
static const char *const annotation_names[] = { NULL, "id", "method", "note", "clipped" };

/* track uuids: the process's, then per track given 2k + 2 (its own) and 2k + 3 (its
 * messages'); any constant works as long as it is unique in the trace */
#define UUID_PROCESS 1u

static void pb_tag(tc_buf *b, uint32_t field, int wt)
{
	buf_uleb(b, (uint64_t)field << 3 | (uint64_t)wt);
}

static void pb_uint(tc_buf *b, uint32_t field, uint64_t v)
{
	pb_tag(b, field, WT_VARINT);
	buf_uleb(b, v);
}

static void pb_bytes(tc_buf *b, uint32_t field, const void *p, size_t n)
{
	pb_tag(b, field, WT_LEN);
	buf_uleb(b, n);
	buf_bytes(b, p, n);
}

static void pb_str(tc_buf *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

static void pb_msg(tc_buf *b, uint32_t field, const tc_buf *m)
{
	pb_bytes(b, field, m->data, m->len);
}

static void pb_double(tc_buf *b, uint32_t field, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof v);
	pb_tag(b, field, WT_I64);
	uint8_t le[8];
	put_le8(le, v);
	buf_bytes(b, le, 8);
}

/* An interned-name table: one iid per method id (ids are below 2^20), 0 for "not sent
 * yet"; allocated on first use. */
typedef struct iid_table {
	uint32_t *v;
	uint32_t next;
} iid_table;

typedef struct writer {
	FILE *out;
	const tr_mapping *m;
	const tr_chrome_opts *o;
	uint64_t base_ns;
	iid_table names, fulls; /* event names (o->names' style), full names (annotation strings) */
	tc_buf pkt, ev, ann, interned, sub, name; /* scratch, reused */
	tc_buf pkt_out;
	tr_chrome_dropped drop;
	int rc;
	tc_error *err;
} writer;

static void nomem(writer *w)
{
	if (w->rc == TC_OK)
		w->rc = tc_set(w->err, TC_ENOMEM, "perfetto: out of memory");
}

/* Writes the packet in w->pkt as one Trace.packet and clears it. */
static void flush_packet(writer *w)
{
	tc_buf *o = &w->pkt_out;
	o->len = 0;
	pb_msg(o, TRACE_PACKET, &w->pkt);
	/* a buffer that failed to grow stays failed: the packet may lack a part */
	if (o->err || w->pkt.err || w->ev.err || w->ann.err || w->interned.err || w->sub.err || w->name.err)
		nomem(w);
	else if (w->rc == TC_OK && fwrite(o->data, 1, o->len, w->out) != o->len)
		w->rc = tc_set(w->err, TC_EIO, "write failed");
	w->pkt.len = 0;
}

static const char *name_of(writer *w, uint32_t id, tr_name_style style)
{
	w->name.len = 0;
	tr_name_put(&w->name, w->m, id, style);
	return w->name.err || !w->name.str ? "" : w->name.str;
}

/* The iid of id's name in t, interning it into w->interned (as InternedData field
 * `field`) when it is new. 0 when out of memory. */
static uint32_t intern(writer *w, iid_table *t, uint32_t field, uint32_t id, tr_name_style style)
{
	if (id > TC_ID_MAX)
		return 0;
	if (!t->v && !(t->v = calloc((size_t)TC_ID_MAX + 1, sizeof *t->v))) {
		nomem(w);
		return 0;
	}
	if (t->v[id])
		return t->v[id];
	uint32_t iid = t->v[id] = ++t->next;
	w->sub.len = 0;
	pb_uint(&w->sub, IN_IID, iid);
	pb_str(&w->sub, IN_NAME, name_of(w, id, style));
	pb_msg(&w->interned, field, &w->sub);
	return iid;
}

/* Starts a packet at time ms on the sequence. */
static void packet_at(writer *w, uint64_t ms)
{
	w->pkt.len = 0;
	pb_uint(&w->pkt, PKT_TIMESTAMP, w->base_ns + ms * 1000000u);
	pb_uint(&w->pkt, PKT_SEQ_ID, SEQUENCE);
}

/* Ends a track-event packet: the event in w->ev, the interned data it needs. */
static void event_packet(writer *w)
{
	pb_msg(&w->pkt, PKT_TRACK_EVENT, &w->ev);
	if (w->interned.len)
		pb_msg(&w->pkt, PKT_INTERNED, &w->interned);
	pb_uint(&w->pkt, PKT_SEQ_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	w->interned.len = 0;
	flush_packet(w);
}

static void annotate_uint(tc_buf *ev, tc_buf *ann, uint32_t name_iid, uint64_t v)
{
	ann->len = 0;
	pb_uint(ann, DA_NAME_IID, name_iid);
	pb_uint(ann, DA_UINT, v);
	pb_msg(ev, TE_ANNOTATIONS, ann);
}

static void annotate_str(tc_buf *ev, tc_buf *ann, uint32_t name_iid, const char *s)
{
	ann->len = 0;
	pb_uint(ann, DA_NAME_IID, name_iid);
	pb_str(ann, DA_STRING, s);
	pb_msg(ev, TE_ANNOTATIONS, ann);
}

static void begin(writer *w, const tr_span *sp, uint64_t track, uint32_t cat)
{
	packet_at(w, sp->start_ms);
	tc_buf *ev = &w->ev;
	ev->len = 0;
	pb_uint(ev, TE_TYPE, TYPE_SLICE_BEGIN);
	pb_uint(ev, TE_TRACK, track);
	pb_uint(ev, TE_CATEGORY_IIDS, sp->message != TR_NONE ? CAT_MESSAGE : cat);
	if (sp->message != TR_NONE) {
		char buf[48];
		snprintf(buf, sizeof buf, "message %zu", sp->message);
		pb_str(ev, TE_NAME, buf);
	} else {
		uint32_t iid = intern(w, &w->names, ID_EVENT_NAMES, sp->id, w->o->names);
		if (iid)
			pb_uint(ev, TE_NAME_IID, iid);
	}
	annotate_uint(ev, &w->ann, AN_ID, sp->id);
	uint32_t full = intern(w, &w->fulls, ID_STRINGS, sp->id, TR_NAME_FULL);
	if (full) {
		w->ann.len = 0;
		pb_uint(&w->ann, DA_NAME_IID, AN_METHOD);
		pb_uint(&w->ann, DA_STRING_IID, full);
		pb_msg(ev, TE_ANNOTATIONS, &w->ann);
	}
	if (sp->flags & TR_SPAN_OPEN)
		annotate_str(ev, &w->ann, AN_NOTE, "no out event: still running at the end of the trace");
	else if (sp->flags & TR_SPAN_CUT)
		annotate_str(ev, &w->ann, AN_NOTE, "no out event: closed when its caller returned");
	if (sp->flags & TR_SPAN_CLIPPED) {
		w->ann.len = 0;
		pb_uint(&w->ann, DA_NAME_IID, AN_CLIPPED);
		pb_uint(&w->ann, DA_BOOL, 1);
		pb_msg(ev, TE_ANNOTATIONS, &w->ann);
	}
	event_packet(w);
}

static void end(writer *w, const tr_span *sp, uint64_t track)
{
	packet_at(w, sp->end_ms);
	w->ev.len = 0;
	pb_uint(&w->ev, TE_TYPE, TYPE_SLICE_END);
	pb_uint(&w->ev, TE_TRACK, track);
	event_packet(w);
}

/* A track being walked (tr_spans_walk): its uuid and category, and the track its
 * messages also go on (0: none). */
typedef struct walk {
	writer *w;
	uint64_t track, messages_track;
	uint32_t cat;
} walk;

static int on_begin(void *user, const tr_span *sp)
{
	walk *k = user;
	if (sp->message != TR_NONE && k->messages_track) {
		/* a message's own row: it has nothing nested, so it ends at once */
		begin(k->w, sp, k->messages_track, k->cat);
		end(k->w, sp, k->messages_track);
	}
	begin(k->w, sp, k->track, k->cat);
	return k->w->rc;
}

static int on_end(void *user, const tr_span *sp)
{
	walk *k = user;
	end(k->w, sp, k->track);
	return k->w->rc;
}

/* One track's slices, B/E in pre-order; with short_out, spans shorter than min_us are
 * left out and counted, as in the Chrome export. With messages_track set, each message
 * is also a slice on that track. */
static void slices(writer *w, const tr_span *v, size_t n, size_t *open, bool short_out, uint64_t track,
                   uint32_t cat, uint64_t messages_track)
{
	walk k = { .w = w, .track = track, .messages_track = messages_track, .cat = cat };
	tr_spans_walk(v, n, short_out ? w->o->min_us : 0, open, on_begin, on_end, &k, &w->drop);
}

static void track_descriptor(writer *w, uint64_t uuid, uint64_t parent, const char *name, uint32_t pid,
                             int64_t tid)
{
	w->pkt.len = 0;
	pb_uint(&w->pkt, PKT_SEQ_ID, SEQUENCE);
	tc_buf *td = &w->ev, *d = &w->sub;
	td->len = d->len = 0;
	pb_uint(td, TD_UUID, uuid);
	if (parent)
		pb_uint(td, TD_PARENT, parent);
	if (tid >= 0) {
		pb_uint(d, THD_PID, pid);
		pb_uint(d, THD_TID, (uint64_t)tid);
		pb_str(d, THD_NAME, name);
		pb_msg(td, TD_THREAD, d);
	} else {
		pb_str(td, TD_NAME, name);
	}
	pb_msg(&w->pkt, PKT_TRACK_DESCRIPTOR, td);
	flush_packet(w);
}

/* The first packets: the clocks (the ring's time base on CLOCK_MONOTONIC, paired with
 * its wall time), the state cleared with the defaults and the interned categories and
 * annotation names, the process's track. */
static void preamble(writer *w, uint64_t wall_ns)
{
	tc_buf *p = &w->pkt, *a = &w->ev, *c = &w->sub;
	p->len = a->len = 0;
	pb_uint(p, PKT_SEQ_ID, SEQUENCE);
	c->len = 0;
	pb_uint(c, CLOCK_ID, CLOCK_MONOTONIC);
	pb_uint(c, CLOCK_TIMESTAMP, w->base_ns);
	pb_msg(a, SNAP_CLOCKS, c);
	if (wall_ns) {
		c->len = 0;
		pb_uint(c, CLOCK_ID, CLOCK_REALTIME);
		pb_uint(c, CLOCK_TIMESTAMP, wall_ns);
		pb_msg(a, SNAP_CLOCKS, c);
	}
	pb_uint(a, SNAP_PRIMARY, CLOCK_MONOTONIC);
	pb_msg(p, PKT_CLOCK_SNAPSHOT, a);
	pb_uint(p, PKT_TIMESTAMP, w->base_ns);
	flush_packet(w);

	p->len = a->len = 0;
	pb_uint(p, PKT_SEQ_ID, SEQUENCE);
	pb_uint(p, PKT_SEQ_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	c->len = 0;
	pb_uint(c, DEF_CLOCK_ID, CLOCK_MONOTONIC);
	pb_msg(p, PKT_DEFAULTS, c);
	tc_buf *in = &w->interned;
	in->len = 0;
	for (uint32_t k = 1; k < sizeof categories / sizeof categories[0]; k++) {
		c->len = 0;
		pb_uint(c, IN_IID, k);
		pb_str(c, IN_NAME, categories[k]);
		pb_msg(in, ID_CATEGORIES, c);
	}
	for (uint32_t k = 1; k < sizeof annotation_names / sizeof annotation_names[0]; k++) {
		c->len = 0;
		pb_uint(c, IN_IID, k);
		pb_str(c, IN_NAME, annotation_names[k]);
		pb_msg(in, ID_ANNOTATION_NAMES, c);
	}
	pb_msg(p, PKT_INTERNED, in);
	in->len = 0;
	/* the process's track in the same packet */
	a->len = c->len = 0;
	pb_uint(a, TD_UUID, UUID_PROCESS);
	pb_uint(c, PD_PID, w->o->pid);
	pb_str(c, PD_NAME, w->o->process_name ? w->o->process_name : "tracecanary");
	pb_msg(a, TD_PROCESS, c);
	pb_msg(p, PKT_TRACK_DESCRIPTOR, a);
	flush_packet(w);
	/* the clock's tick, as the Chrome export's otherData has it: trace
	 * processor keeps a ChromeEventBundle's metadata in its metadata table */
	if (w->o->resolution_ms) {
		p->len = a->len = c->len = 0;
		pb_uint(p, PKT_SEQ_ID, SEQUENCE);
		pb_str(c, CM_NAME, "clockResolutionMs");
		pb_uint(c, CM_INT, w->o->resolution_ms);
		pb_msg(a, CEB_METADATA, c);
		pb_msg(p, PKT_CHROME_EVENTS, a);
		flush_packet(w);
	}
}

/* A JSON value as a debug annotation's value (into a, which holds its name already). */
static void annotation_value(writer *w, tc_buf *a, const json_val *v, int depth)
{
	switch (v->type) {
	case JSON_NULL:
		pb_str(a, DA_STRING, "null");
		break;
	case JSON_BOOL:
		pb_uint(a, DA_BOOL, v->b);
		break;
	case JSON_NUM: {
		int64_t i;
		if (json_get_int(v, &i))
			pb_uint(a, DA_INT, (uint64_t)i);
		else
			pb_double(a, DA_DOUBLE, strtod(v->s, NULL));
		break;
	}
	case JSON_STR:
		pb_bytes(a, DA_STRING, v->s, v->len);
		break;
	case JSON_ARR:
	case JSON_OBJ: {
		/* nested: each entry built in a buffer of its own */
		for (size_t i = 0; i < v->n && w->rc == TC_OK; i++) {
			tc_buf e;
			buf_init(&e);
			const json_val *x = v->type == JSON_ARR ? &v->items[i] : &v->members[i].val;
			if (v->type == JSON_OBJ)
				pb_bytes(&e, DA_NAME, v->members[i].key, v->members[i].key_len);
			if (depth < JSON_READ_MAX_DEPTH)
				annotation_value(w, &e, x, depth + 1);
			if (e.err)
				nomem(w);
			pb_msg(a, v->type == JSON_ARR ? DA_ARRAY : DA_DICT, &e);
			buf_free(&e);
		}
		break;
	}
	}
}

static void instant(writer *w, const tr_instant *in, uint64_t track)
{
	packet_at(w, in->ts_ms);
	tc_buf *ev = &w->ev;
	ev->len = 0;
	pb_uint(ev, TE_TYPE, TYPE_INSTANT);
	pb_uint(ev, TE_TRACK, track);
	pb_uint(ev, TE_CATEGORY_IIDS, CAT_REPORT);
	pb_str(ev, TE_NAME, in->name);
	if (in->args_json) {
		json_doc doc;
		size_t off;
		char why[128];
		int rc = json_parse(&doc, in->args_json, strlen(in->args_json), &off, why, sizeof why);
		if (rc == TC_ENOMEM)
			nomem(w);
		else if (rc != TC_OK && w->rc == TC_OK)
			w->rc = tc_set(w->err, TC_EFORMAT, "perfetto: a report's args: %s", why);
		else if (rc == TC_OK && doc.root.type == JSON_OBJ) {
			for (size_t i = 0; i < doc.root.n && w->rc == TC_OK; i++) {
				tc_buf a;
				buf_init(&a);
				pb_bytes(&a, DA_NAME, doc.root.members[i].key, doc.root.members[i].key_len);
				annotation_value(w, &a, &doc.root.members[i].val, 1);
				if (a.err)
					nomem(w);
				pb_msg(ev, TE_ANNOTATIONS, &a);
				buf_free(&a);
			}
		}
		json_doc_dispose(&doc);
	}
	event_packet(w);
}

/* The instants' track (tr_chrome_each_instant). */
typedef struct instants {
	writer *w;
	uint64_t track;
} instants;

static int on_instant(void *user, const tr_instant *in)
{
	instants *k = user;
	instant(k->w, in, k->track);
	return k->w->rc;
}

int tr_perfetto_write_tracks(FILE *out, const tr_chrome_track *tracks, size_t n, const tr_mapping *m,
                             const tr_chrome_opts *o, uint64_t base_ns, uint64_t wall_ns,
                             tr_chrome_dropped *dropped, tc_error *err)
{
	writer w = { .out = out, .m = m, .o = o, .base_ns = base_ns, .rc = TC_OK, .err = err };
	tc_buf *bufs[] = { &w.pkt, &w.ev, &w.ann, &w.interned, &w.sub, &w.name, &w.pkt_out };
	for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
		buf_init(bufs[k]);
	size_t most = 1;
	for (size_t k = 0; k < n; k++) {
		size_t c = tracks[k].sections ? tracks[k].spans->n_sect : tracks[k].spans->n;
		if (c > most)
			most = c;
	}
	size_t *open = malloc(most * sizeof *open);
	if (!open)
		return tc_set(err, TC_ENOMEM, "perfetto: out of memory");
	preamble(&w, wall_ns);
	for (size_t k = 0; k < n && w.rc == TC_OK; k++) {
		const tr_chrome_track *t = &tracks[k];
		uint64_t uuid = 2 * k + 2;
		const char *name = t->name ? t->name : "main";
		if (t->sections) {
			/* sections are few and named by the user: all of them stay */
			track_descriptor(&w, uuid, UUID_PROCESS, name, 0, -1);
			slices(&w, t->spans->sect, t->spans->n_sect, open, false, uuid, CAT_SECTION, 0);
			continue;
		}
		track_descriptor(&w, uuid, UUID_PROCESS, name, o->pid, t->tid);
		uint64_t messages = 0;
		if (t->spans->messages) {
			char mname[128];
			snprintf(mname, sizeof mname, "%.100s messages", name);
			messages = uuid + 1;
			track_descriptor(&w, messages, UUID_PROCESS, mname, 0, -1);
		}
		slices(&w, t->spans->v, t->spans->n, open, true, uuid, CAT_METHOD, messages);
	}
	instants at = { .w = &w, .track = n ? 2 : UUID_PROCESS };
	if (w.rc == TC_OK) {
		int rc = tr_chrome_each_instant(o, on_instant, &at, err);
		if (rc != TC_OK)
			w.rc = rc;
	}
	if (w.rc == TC_OK && fflush(out) != 0)
		w.rc = tc_set(err, TC_EIO, "write failed");
	free(open);
	free(w.names.v);
	free(w.fulls.v);
	for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
		buf_free(bufs[k]);
	if (dropped)
		*dropped = w.drop;
	return w.rc;
}

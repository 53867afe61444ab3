/* trace_text.c: see trace_text.h. Trees may be deep (a recursion of
 * thousands of levels), so the walk keeps its own stack. */
#include "trace_text.h"

#include <inttypes.h>
#include <stdlib.h>

#include "bytes.h"

static const char *mark(uint32_t flags)
{
	if (flags & TR_SPAN_OPEN)
		return "  [no out: still running at the end]";
	if (flags & TR_SPAN_CUT)
		return "  [no out: closed with its caller]";
	return "";
}

static int flush(FILE *out, tc_buf *sb, tc_error *err)
{
	if (sb->err)
		return tc_set(err, TC_ENOMEM, "out of memory");
	if (sb->len && fwrite(sb->str, 1, sb->len, out) != sb->len)
		return tc_set(err, TC_EIO, "write failed");
	sb->len = 0;
	return TC_OK;
}

int tr_tree_write_text(FILE *out, const tr_tree *t, const tr_mapping *m, const tr_text_opts *o, tc_error *err)
{
	size_t *stack = malloc(t->n * sizeof *stack);
	if (!stack)
		return tc_set(err, TC_ENOMEM, "tree: out of memory");
	tc_buf sb;
	buf_init(&sb);
	uint64_t whole = t->v[0].total_ms;
	buf_printf(&sb, "%10s %6s %10s %8s  %s\n", "total ms", "%", "self ms", "calls", "method");
	size_t sp = 0;
	/* push children last-first so that the first pops first */
	size_t mark_sp = sp;
	for (size_t c = t->v[0].first_child; c != TR_NONE; c = t->v[c].next_sibling)
		stack[sp++] = c;
	for (size_t a = mark_sp, b = sp; a + 1 < b; a++, b--) {
		size_t x = stack[a]; stack[a] = stack[b - 1]; stack[b - 1] = x;
	}
	int rc = TC_OK;
	while (sp > 0 && rc == TC_OK) {
		const tr_node *nd = &t->v[stack[--sp]];
		if (nd->total_ms < o->min_ms || (o->max_depth && nd->depth > o->max_depth))
			continue;
		double pct = whole ? 100.0 * (double)nd->total_ms / (double)whole : 0.0;
		buf_printf(&sb, "%10" PRIu64 " %6.1f %10" PRIu64 " %8" PRIu64 "  ", nd->total_ms, pct, nd->self_ms,
		          nd->calls);
		for (size_t d = 1; d < nd->depth; d++)
			buf_puts(&sb, "  ");
		tr_name_put(&sb, m, nd->id, TR_NAME_FULL);
		buf_puts(&sb, mark(nd->flags));
		buf_putc(&sb, '\n');
		mark_sp = sp;
		for (size_t c = nd->first_child; c != TR_NONE; c = t->v[c].next_sibling)
			stack[sp++] = c;
		for (size_t a = mark_sp, b = sp; a + 1 < b; a++, b--) {
			size_t x = stack[a]; stack[a] = stack[b - 1]; stack[b - 1] = x;
		}
		if (sb.len > 65536)
			rc = flush(out, &sb, err);
	}
	if (rc == TC_OK)
		rc = flush(out, &sb, err);
	buf_free(&sb);
	free(stack);
	return rc;
}

/* a message for the sort: longest first, equal durations in message order */
typedef struct msg_key {
	uint64_t ms;
	size_t message, span;
} msg_key;

static int by_dur(const void *a, const void *b)
{
	const msg_key *x = a, *y = b;
	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return x->message < y->message ? -1 : x->message > y->message;
}

int tr_messages_write(FILE *out, const tr_spans *s, const tr_mapping *m, int longest_first, tc_error *err)
{
	tc_buf sb;
	buf_init(&sb);
	buf_printf(&sb, "%8s %10s %10s  %s\n", "message", "start ms", "ms", "heaviest call");
	int rc = TC_OK;
	size_t n = 0;
	msg_key *order = NULL;
	for (size_t i = 0; i < s->n; i++)
		n += s->v[i].message != TR_NONE;
	if (n && !(order = malloc(n * sizeof *order))) {
		buf_free(&sb);
		return tc_set(err, TC_ENOMEM, "out of memory");
	}
	for (size_t i = 0, k = 0; i < s->n; i++)
		if (s->v[i].message != TR_NONE)
			order[k++] = (msg_key){ s->v[i].end_ms - s->v[i].start_ms, s->v[i].message, i };
	if (longest_first && n)
		qsort(order, n, sizeof *order, by_dur);
	for (size_t k = 0; k < n && rc == TC_OK; k++) {
		size_t i = order[k].span;
		const tr_span *msg = &s->v[i];
		/* direct children follow in pre-order until depth falls back */
		size_t best = TR_NONE;
		for (size_t j = i + 1; j < s->n && s->v[j].depth > msg->depth; j++)
			if (s->v[j].parent == i &&
			    (best == TR_NONE || s->v[j].end_ms - s->v[j].start_ms > s->v[best].end_ms - s->v[best].start_ms))
				best = j;
		buf_printf(&sb, "%8zu %10" PRIu64 " %10" PRIu64 "  ", msg->message, msg->start_ms,
		          msg->end_ms - msg->start_ms);
		if (best != TR_NONE) {
			tr_name_put(&sb, m, s->v[best].id, TR_NAME_FULL);
			buf_printf(&sb, " (%" PRIu64 " ms)", s->v[best].end_ms - s->v[best].start_ms);
		} else {
			buf_puts(&sb, "-");
		}
		buf_puts(&sb, mark(msg->flags));
		buf_putc(&sb, '\n');
		if (sb.len > 65536)
			rc = flush(out, &sb, err);
	}
	if (rc == TC_OK)
		rc = flush(out, &sb, err);
	buf_free(&sb);
	free(order);
	return rc;
}

void tr_spans_write_notes(FILE *out, const char *prefix, const tr_spans *s, uint64_t written, size_t kept)
{
	const tr_span_stats *st = &s->stats;
#define PL(n, one, many) ((n) == 1 ? (one) : (many))
	if (st->dropped_outs && written > kept)
		fprintf(out,
		        "%s%zu out %s without an in %s dropped: the ring wrapped (%" PRIu64 " events written, the last %zu "
		        "kept) and overwrote %s\n",
		        prefix, st->dropped_outs, PL(st->dropped_outs, "event", "events"), PL(st->dropped_outs, "was", "were"),
		        written, kept, PL(st->dropped_outs, "its in", "their ins"));
	else if (st->dropped_outs)
		fprintf(out,
		        "%s%zu out %s without an in %s dropped: the recording began inside %s (the ring never "
		        "wrapped)\n",
		        prefix, st->dropped_outs, PL(st->dropped_outs, "event", "events"), PL(st->dropped_outs, "was", "were"),
		        PL(st->dropped_outs, "that call", "those calls"));
	if (st->open_at_end)
		fprintf(out, "%s%zu %s no out event and %s closed at the end (%" PRIu64 " ms)\n", prefix,
		        st->open_at_end, PL(st->open_at_end, "method had", "methods had"), PL(st->open_at_end, "was", "were"),
		        s->last_ms);
	if (st->cut)
		fprintf(out, "%s%zu %s no out event and %s closed with %s caller\n", prefix, st->cut,
		        PL(st->cut, "method had", "methods had"), PL(st->cut, "was", "were"), PL(st->cut, "its", "their"));
	if (st->clamped)
		fprintf(out, "%s%zu event %s backwards and %s raised to the previous one\n", prefix, st->clamped,
		        PL(st->clamped, "time went", "times went"), PL(st->clamped, "was", "were"));
#undef PL
}

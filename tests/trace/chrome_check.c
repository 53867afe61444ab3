#include "chrome_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

typedef struct ev {
	int64_t pid, tid, ts, dur;
	char ph;
	size_t index;
} ev;

static int cmp_track(const void *a, const void *b)
{
	const ev *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index); /* file order */
}

/* X events of one track by start, longer first */
static int cmp_x(const void *a, const void *b)
{
	const ev *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

#define FAIL(...) do { snprintf(why, cap, __VA_ARGS__); rc = -1; goto done; } while (0)

int chrome_check(const char *text, size_t n, chrome_stats *st, char *why, size_t cap)
{
	memset(st, 0, sizeof *st);
	json_doc doc;
	size_t off;
	char jwhy[128];
	int rc = 0;
	ev *evs = NULL, *xs = NULL;
	int64_t *stack = NULL;
	if (json_parse(&doc, text, n, &off, jwhy, sizeof jwhy) != 0) {
		snprintf(why, cap, "not JSON: byte %zu: %s", off, jwhy);
		return -1;
	}
	const json_val *arr = json_get(&doc.root, "traceEvents");
	if (!arr || arr->type != JSON_ARR)
		FAIL("no traceEvents array");
	evs = calloc(arr->n + 1, sizeof *evs);
	xs = calloc(arr->n + 1, sizeof *xs);
	stack = calloc(arr->n + 1, sizeof *stack);
	if (!evs || !xs || !stack)
		FAIL("out of memory");
	size_t k = 0;
	for (size_t i = 0; i < arr->n; i++) {
		const json_val *e = &arr->items[i];
		const json_val *ph = json_get(e, "ph");
		int64_t pid, tid, ts = 0, dur = 0;
		if (!ph || ph->type != JSON_STR || ph->len != 1)
			FAIL("event %zu: no ph", i);
		if (!json_get_int(json_get(e, "pid"), &pid) || !json_get_int(json_get(e, "tid"), &tid))
			FAIL("event %zu: no integer pid/tid", i);
		char c = ph->s[0];
		if (c == 'M') {
			st->metadata++;
			const json_val *name = json_get(e, "name"), *args = json_get(e, "args");
			if (name && name->type == JSON_STR && strcmp(name->s, "thread_name") == 0) {
				const json_val *tn = json_get(args, "name");
				if (!tn || tn->type != JSON_STR)
					FAIL("event %zu: thread_name without args.name", i);
				st->thread_names++;
			}
			continue;
		}
		if (!json_get_int(json_get(e, "ts"), &ts))
			FAIL("event %zu: no integer ts", i);
		if (c == 'i' || c == 'I') {
			st->instants++;
			continue;
		}
		if (c == 'X') {
			if (!json_get_int(json_get(e, "dur"), &dur) || dur < 0)
				FAIL("event %zu: X without a dur >= 0", i);
			st->completes++;
		} else if (c == 'B') {
			st->begins++;
		} else if (c == 'E') {
			st->ends++;
		} else {
			FAIL("event %zu: unexpected ph '%c'", i, c);
		}
		if (c != 'E') {
			const json_val *name = json_get(e, "name");
			if (!name || name->type != JSON_STR)
				FAIL("event %zu: no name", i);
		}
		evs[k++] = (ev){ pid, tid, ts, dur, c, i };
	}
	if (!st->thread_names)
		FAIL("no thread_name metadata event");
	qsort(evs, k, sizeof *evs, cmp_track);
	for (size_t a = 0; a < k;) {
		size_t b = a;
		while (b < k && evs[b].pid == evs[a].pid && evs[b].tid == evs[a].tid)
			b++;
		/* B/E: a parenthesized sequence in file order, ts never going back */
		size_t depth = 0, nx = 0;
		int64_t last = INT64_MIN;
		for (size_t i = a; i < b; i++) {
			if (evs[i].ph == 'X') {
				xs[nx++] = evs[i];
				continue;
			}
			if (evs[i].ts < last)
				FAIL("tid %lld: event %zu: ts %lld before the previous %lld", (long long)evs[i].tid,
				     evs[i].index, (long long)evs[i].ts, (long long)last);
			last = evs[i].ts;
			if (evs[i].ph == 'B') {
				if (++depth > st->max_depth)
					st->max_depth = depth;
			} else if (depth-- == 0) {
				FAIL("tid %lld: event %zu: E without an open B", (long long)evs[i].tid, evs[i].index);
			}
		}
		if (depth)
			FAIL("tid %lld: %zu B events never ended", (long long)evs[a].tid, depth);
		/* X: each lies within the innermost enclosing one or after it */
		qsort(xs, nx, sizeof *xs, cmp_x);
		size_t sp = 0;
		for (size_t i = 0; i < nx; i++) {
			int64_t s = xs[i].ts, e = xs[i].ts + xs[i].dur;
			while (sp && stack[sp - 1] <= s && !(stack[sp - 1] == s && xs[i].dur == 0))
				sp--;
			if (sp && e > stack[sp - 1])
				FAIL("tid %lld: X event %zu [%lld, %lld] overlaps its parent ending at %lld",
				     (long long)xs[i].tid, xs[i].index, (long long)s, (long long)e, (long long)stack[sp - 1]);
			stack[sp++] = e;
			if (sp > st->max_depth)
				st->max_depth = sp;
		}
		a = b;
	}
done:
	free(evs);
	free(xs);
	free(stack);
	json_doc_dispose(&doc);
	return rc;
}

/* The Chrome trace writer: every output is checked with chrome_check (per
 * thread, B/E well-parenthesized with non-decreasing ts, X nested by
 * [ts, ts+dur]), on nested, unbalanced and random input. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_check.h"
#include "helpers.h"
#include "trace_chrome.h"

static tr_spans s;
static tr_mapping *m;
static tc_error err;
static char *out;
static size_t out_len;
static chrome_stats cs;
static tr_chrome_dropped dropped;

static void setup(void)
{
	static const char map[] = "1,1,a.Main run ()V\n2,1,a.Main \"quoted\\\" (I)V\n"
	                          "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";
	FILE *f = fmemopen((void *)map, sizeof map - 1, "rb");
	cr_assert_eq(tr_mapping_read(&m, f, "map", &err), TC_OK, "%s", err.message);
	fclose(f);
}

static void teardown(void)
{
	tr_spans_dispose(&s);
	tr_mapping_free(m);
	free(out);
	out = NULL;
}

TestSuite(chrome, .init = setup, .fini = teardown);

static void write_opts(const uint64_t *ev, size_t n, tr_chrome_opts *o)
{
	cr_assert_eq(tr_spans_build(&s, ev, n, TR_NO_TIME, &err), TC_OK);
	free(out);
	out = NULL;
	FILE *f = open_memstream(&out, &out_len);
	cr_assert_eq(tr_chrome_write(f, &s, m, o, &dropped, &err), TC_OK, "%s", err.message);
	fclose(f);
	char why[256];
	cr_assert_eq(chrome_check(out, out_len, &cs, why, sizeof why), 0, "%s\n%s", why, out);
}

static void write_events(const uint64_t *ev, size_t n, bool complete)
{
	tr_chrome_opts o = { 0 };
	o.pid = 42;
	o.tid = 42;
	o.complete = complete;
	o.names = TR_NAME_SHORT;
	write_opts(ev, n, &o);
}

Test(chrome, nested_slices_and_messages)
{
	uint64_t ev[] = { I(D, 10), I(1, 11), I(2, 12), O(2, 15), O(1, 21), O(D, 22) };
	write_events(ev, N(ev), false);
	cr_assert_eq(cs.begins, 3);
	cr_assert_eq(cs.ends, 3);
	cr_assert_eq(cs.max_depth, 3);
	cr_assert_eq(cs.thread_names, 1);
	cr_assert(strstr(out, "{\"ph\":\"M\",\"pid\":42,\"tid\":42,\"name\":\"thread_name\",\"args\":{\"name\":\"main\"}}"), "%s", out);
	cr_assert(strstr(out, "{\"ph\":\"B\",\"pid\":42,\"tid\":42,\"ts\":10000,\"name\":\"message 0\",\"cat\":\"message\","
	                      "\"args\":{\"id\":1048574,\"method\":\"android.os.Handler.dispatchMessage (Landroid.os.Message;)V\"}}"),
	          "%s", out);
	cr_assert(strstr(out, "{\"ph\":\"B\",\"pid\":42,\"tid\":42,\"ts\":11000,\"name\":\"a.Main.run\",\"cat\":\"method\","
	                      "\"args\":{\"id\":1,\"method\":\"a.Main.run ()V\"}}"),
	          "%s", out);
	/* a name with JSON's special characters stays valid JSON */
	cr_assert(strstr(out, "\"name\":\"a.Main.\\\"quoted\\\\\\\"\""), "%s", out);
	cr_assert(strstr(out, "{\"ph\":\"E\",\"pid\":42,\"tid\":42,\"ts\":15000}"), "%s", out);
	cr_assert(strstr(out, "\"otherData\":{\"producer\":\"tc-trace\",\"droppedOuts\":0,\"openAtEnd\":0,\"closedWithCaller\":0}"),
	          "%s", out);
}

Test(chrome, complete_events)
{
	uint64_t ev[] = { I(D, 10), I(1, 11), I(2, 12), O(2, 15), I(2, 15), O(2, 15), O(1, 21), O(D, 22) };
	write_events(ev, N(ev), true);
	cr_assert_eq(cs.completes, 4);
	cr_assert_eq(cs.begins + cs.ends, 0);
	cr_assert(strstr(out, "\"ph\":\"X\",\"pid\":42,\"tid\":42,\"ts\":12000,\"dur\":3000,\"name\":\"a.Main.\\\"quoted"), "%s", out);
}

/* What a wrap and a kill leave: outs first, ins last. */
Test(chrome, unbalanced_input_nests)
{
	uint64_t ev[] = { O(2, 1), O(1, 2), O(D, 3), I(D, 4), I(1, 5), I(2, 6), O(1, 8), I(7, 9), O(9, 10), O(D, 11),
	                  I(D, 12), I(1, 13), I(2, 20) };
	write_events(ev, N(ev), false);
	cr_assert_eq(cs.begins, 7);
	cr_assert_eq(cs.ends, 7);
	cr_assert(strstr(out, "\"note\":\"no out event: closed when its caller returned\""), "%s", out);
	cr_assert(strstr(out, "\"note\":\"no out event: still running at the end of the trace\""), "%s", out);
	cr_assert(strstr(out, "\"droppedOuts\":4,\"openAtEnd\":3,\"closedWithCaller\":2"), "%s", out);
	/* the open ones end at the last event's time */
	cr_assert(strstr(out, "{\"ph\":\"E\",\"pid\":42,\"tid\":42,\"ts\":20000}\n]"), "%s", out);
	write_events(ev, N(ev), true);
	cr_assert_eq(cs.completes, 7);
}

static int instants_left;

static int next_instant(void *user, tr_instant *in, tc_error *e)
{
	(void)user;
	(void)e;
	if (instants_left == 0)
		return 0;
	instants_left--;
	in->ts_ms = 14;
	in->name = "Trace_EvilMethod NORMAL";
	in->args_json = "{\"line\":1,\"cost\":800}";
	return 1;
}

Test(chrome, instants_and_names)
{
	uint64_t ev[] = { I(D, 10), I(1, 11), O(1, 21), O(D, 22) };
	tr_chrome_opts o = { 0 };
	o.pid = 7;
	o.tid = 8;
	o.process_name = "tracecanary (pid 7)";
	o.thread_name = "main";
	o.names = TR_NAME_FULL;
	o.next_instant = next_instant;
	o.source = "x.ring";
	o.slice = "all";
	instants_left = 2;
	write_opts(ev, N(ev), &o);
	cr_assert_eq(cs.instants, 2);
	cr_assert(strstr(out, "{\"ph\":\"i\",\"pid\":7,\"tid\":8,\"ts\":14000,\"s\":\"t\",\"name\":\"Trace_EvilMethod NORMAL\","
	                      "\"cat\":\"report\",\"args\":{\"line\":1,\"cost\":800}}"),
	          "%s", out);
	cr_assert(strstr(out, "\"name\":\"a.Main.run ()V\",\"cat\":\"method\""), "%s", out);
	cr_assert(strstr(out, "\"args\":{\"name\":\"tracecanary (pid 7)\"}"), "%s", out);
	cr_assert(strstr(out, "\"source\":\"x.ring\",\"slice\":\"all\""), "%s", out);
}

Test(chrome, ts_on_the_rings_clock)
{
	/* the ring's time base was 5 s of CLOCK_MONOTONIC: 5,000,000 us */
	uint64_t ev[] = { I(D, 10), I(1, 11), O(1, 21), O(D, 22) };
	tr_chrome_opts o = { 0 };
	o.pid = o.tid = 7;
	o.base_us = 5000000;
	o.complete = true;
	write_opts(ev, N(ev), &o);
	cr_assert(strstr(out, "\"ts\":5010000,\"dur\":12000,\"name\":\"message 0\""), "%s", out);
	cr_assert(strstr(out, "\"ts\":5011000,\"dur\":10000,"), "%s", out);
	cr_assert(strstr(out, "\"timeBaseUs\":5000000"), "%s", out);
}

Test(chrome, short_spans_are_left_out_and_counted)
{
	/* message 0 (12 ms): 1 (10 ms) calls 2 three times, 0, 1 and 3 ms; message 1 is 0 ms */
	uint64_t ev[] = { I(D, 10), I(1, 11), I(2, 12), O(2, 12), I(2, 12), I(3, 12), O(3, 12), O(2, 13),
	                  I(2, 14), O(2, 17), O(1, 21), O(D, 22), I(D, 30), I(1, 30), O(1, 30), O(D, 30) };
	for (int complete = 0; complete < 2; complete++) {
		tr_chrome_opts o = { 0 };
		o.pid = o.tid = 1;
		o.complete = complete;
		o.min_us = 1000;
		write_opts(ev, N(ev), &o);
		/* kept: message 0, 1, the 1 ms and the 3 ms call of 2 */
		cr_assert_eq(complete ? cs.completes : cs.begins, 4, "%s", out);
		cr_assert_eq(dropped.spans, 4);
		cr_assert_eq(dropped.messages, 1);
		cr_assert_eq(dropped.ms, 0);
		cr_assert(strstr(out, "\"minUs\":1000,\"shortSpansLeftOut\":4,\"shortSpansMs\":0"), "%s", out);
	}
	tr_chrome_opts o = { 0 };
	o.pid = o.tid = 1;
	o.min_us = 2000; /* now the 1 ms call goes too: 1 ms left out */
	write_opts(ev, N(ev), &o);
	cr_assert_eq(cs.begins, 3, "%s", out);
	cr_assert_eq(dropped.spans, 5);
	cr_assert_eq(dropped.ms, 1);
}

Test(chrome, empty_trace_is_still_a_trace)
{
	write_events(NULL, 0, false);
	cr_assert_eq(cs.begins, 0);
	cr_assert_eq(cs.metadata, 2);
}

Test(chrome, sliced_spans_nest)
{
	uint64_t ev[] = { I(D, 0), I(1, 10), I(2, 20), O(2, 30), I(2, 30), O(2, 45), O(1, 50), O(D, 60) };
	cr_assert_eq(tr_spans_build(&s, ev, N(ev), TR_NO_TIME, &err), TC_OK);
	tr_spans part = { 0 };
	tr_slice q = { TR_SLICE_TIME, 25, 40, 0, 0 };
	cr_assert_eq(tr_spans_slice(&part, &s, &q, &err), TC_OK);
	FILE *f = open_memstream(&out, &out_len);
	tr_chrome_opts o = { 0 };
	o.pid = o.tid = 1;
	cr_assert_eq(tr_chrome_write(f, &part, m, &o, NULL, &err), TC_OK);
	fclose(f);
	tr_spans_dispose(&part);
	char why[256];
	cr_assert_eq(chrome_check(out, out_len, &cs, why, sizeof why), 0, "%s\n%s", why, out);
	cr_assert_eq(cs.begins, 4);
	cr_assert(strstr(out, "\"clipped\":true"), "%s", out);
}

/* The checker itself catches what it should. */
Test(chrome, checker_rejects_bad_nesting)
{
	char why[256];
	const char *bad[] = {
		"{\"traceEvents\":[{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"m\"}},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":1}]}",
		"{\"traceEvents\":[{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"m\"}},"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":5,\"name\":\"a\"},{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":4}]}",
		"{\"traceEvents\":[{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"m\"}},"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":5,\"name\":\"a\"}]}",
		"{\"traceEvents\":[{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"m\"}},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10,\"name\":\"a\"},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":10,\"name\":\"b\"}]}",
		"{\"traceEvents\":[{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":5,\"name\":\"a\"},{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":6}]}",
		"{\"traceEvents\":[]",
	};
	for (size_t i = 0; i < N(bad); i++)
		cr_assert_eq(chrome_check(bad[i], strlen(bad[i]), &cs, why, sizeof why), -1, "case %zu", i);
}

/* Random streams: always nested output, in both forms. */
Test(chrome, random_input_always_nests)
{
	unsigned seed = 99;
	for (int iter = 0; iter < 200; iter++) {
		size_t n = 1 + (size_t)(iter * 13 % 300);
		uint64_t *ev = malloc(n * sizeof *ev);
		uint64_t t = 0;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			unsigned r = seed >> 8;
			t += r % 3;
			if (r % 31 == 0 && t > 2)
				t -= 2;
			uint32_t id = (r >> 4) % 4 == 0 ? D : (r >> 4) % 5;
			ev[i] = r % 19 == 0 ? 0 : tc_event_encode((r >> 12) % 2, id, t);
		}
		write_events(ev, n, iter % 2);
		free(ev);
	}
}

/* Report lines: the stack and key parsers, and both outputs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_report.h"

static tc_stack st;
static tr_mapping *m;
static tc_error err;
static char why[160];
static size_t bad;

static void setup(void)
{
	static const char map[] = "20,1,sample.Main onClick (Landroid.view.View;)V\n21,2,sample.Main slowWork ()V\n"
	                          "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";
	FILE *f = fmemopen((void *)map, sizeof map - 1, "rb");
	cr_assert_eq(tr_mapping_read(&m, f, "map", &err), TC_OK);
	fclose(f);
}

static void teardown(void)
{
	tc_stack_dispose(&st);
	tr_mapping_free(m);
}

TestSuite(report, .init = setup, .fini = teardown);

Test(report, stack_lines)
{
	const char *text = "0,1048574,1,800\n1,20,1,800\n2,21,3,-5\n";
	cr_assert_eq(tr_stack_parse(&st, text, strlen(text), &bad, why, sizeof why), TC_OK, "%s", why);
	cr_assert_eq(st.len, 3);
	cr_assert_eq(st.items[0].id, 1048574);
	cr_assert_eq(st.items[0].dur_ms, 800);
	cr_assert_eq(st.items[2].depth, 2);
	cr_assert_eq(st.items[2].count, 3);
	cr_assert_eq(st.items[2].dur_ms, -5); /* Matrix's open-method quirk can write these */
	/* no final newline; empty stack */
	cr_assert_eq(tr_stack_parse(&st, "0,1,1,5", 7, &bad, why, sizeof why), TC_OK);
	cr_assert_eq(st.len, 1);
	cr_assert_eq(tr_stack_parse(&st, "", 0, &bad, why, sizeof why), TC_OK);
	cr_assert_eq(st.len, 0);
}

Test(report, malformed_stack_lines)
{
	static const struct {
		const char *text;
		size_t line;
		const char *why;
	} cases[] = {
		{ "0,1,1,5\n1,x,1,5\n", 2, "bad method id" },
		{ "0,1,1\n", 1, "bad count" },
		{ "0,1,1,5,6\n", 1, "bad duration" },
		{ "-1,1,1,5\n", 1, "bad depth" },
		{ "0,1048576,1,5\n", 1, "bad method id" },
		{ "0,1,-1,5\n", 1, "bad count" },
		{ "0,1,1,99999999999\n", 1, "bad duration" },
		{ "0,1,1,5\n\n", 2, "bad depth" },
		{ " 0,1,1,5\n", 1, "bad depth" },
		{ "0,1,1,5 \n", 1, "bad duration" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_assert_eq(tr_stack_parse(&st, cases[i].text, strlen(cases[i].text), &bad, why, sizeof why), TC_EFORMAT,
		             "case %zu", i);
		cr_expect_eq(bad, cases[i].line, "case %zu: line %zu", i, bad);
		cr_expect(strstr(why, cases[i].why), "case %zu: %s", i, why);
	}
}

Test(report, stack_keys)
{
	uint32_t *ids;
	size_t n;
	cr_assert_eq(tr_key_parse(&ids, &n, "21|", 3, &bad), TC_OK);
	cr_assert_eq(n, 1);
	cr_assert_eq(ids[0], 21);
	free(ids);
	cr_assert_eq(tr_key_parse(&ids, &n, "1|2|3|4|5|", 10, &bad), TC_OK); /* Matrix's old form */
	cr_assert_eq(n, 5);
	cr_assert_eq(ids[4], 5);
	free(ids);
	cr_assert_eq(tr_key_parse(&ids, &n, "", 0, &bad), TC_OK);
	cr_assert_eq(n, 0);
	cr_assert_eq(tr_key_parse(&ids, &n, "21", 2, &bad), TC_EFORMAT);
	cr_assert_eq(bad, 2);
	cr_assert_eq(tr_key_parse(&ids, &n, "21|x|", 5, &bad), TC_EFORMAT);
	cr_assert_eq(bad, 3);
	cr_assert_eq(tr_key_parse(&ids, &n, "|", 1, &bad), TC_EFORMAT);
	cr_assert_eq(tr_key_parse(&ids, &n, "99999999999|", 12, &bad), TC_EFORMAT);
	cr_assert_null(ids);
}

static char *write_line(const char *line, int text, int expect_rc)
{
	json_doc doc;
	size_t off;
	char w[128];
	cr_assert_eq(json_parse(&doc, line, strlen(line), &off, w, sizeof w), TC_OK, "%s", w);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	tr_report_opts o = { m, text };
	cr_assert_eq(tr_report_write(f, &doc.root, "r.jsonl", 7, &o, &err), expect_rc, "%s", err.message);
	fclose(f);
	json_doc_dispose(&doc);
	return buf;
}

Test(report, json_keeps_fields_and_adds_decoded_ones)
{
	char *out = write_line("{\"cpu_app\":1.50,\"detail\":\"NORMAL\",\"cost\":800,\"stack\":\"0,1048574,1,800\\n1,20,1,800\\n"
	                       "2,21,1,790\\n\",\"stackKey\":\"21|\",\"tag\":\"Trace_EvilMethod\",\"time\":17}",
	                       0, TC_OK);
	cr_assert_str_eq(out,
	                 "{\"cpu_app\":1.50,\"detail\":\"NORMAL\",\"cost\":800,\"stack\":\"0,1048574,1,800\\n1,20,1,800\\n"
	                 "2,21,1,790\\n\",\"stackDecoded\":["
	                 "{\"depth\":0,\"id\":1048574,\"name\":\"android.os.Handler.dispatchMessage (Landroid.os.Message;)V\",\"count\":1,\"durMs\":800},"
	                 "{\"depth\":1,\"id\":20,\"name\":\"sample.Main.onClick (Landroid.view.View;)V\",\"count\":1,\"durMs\":800},"
	                 "{\"depth\":2,\"id\":21,\"name\":\"sample.Main.slowWork ()V\",\"count\":1,\"durMs\":790}],"
	                 "\"stackKey\":\"21|\",\"stackKeyDecoded\":\"sample.Main.slowWork ()V|\","
	                 "\"tag\":\"Trace_EvilMethod\",\"time\":17}\n");
	free(out);
}

Test(report, unknown_ids_and_reports_without_stacks)
{
	char *out = write_line("{\"stack\":\"0,99,1,5\\n\",\"stackKey\":\"99|\"}", 0, TC_OK);
	cr_assert_str_eq(out, "{\"stack\":\"0,99,1,5\\n\",\"stackDecoded\":[{\"depth\":0,\"id\":99,\"name\":\"#99\","
	                      "\"count\":1,\"durMs\":5}],\"stackKey\":\"99|\",\"stackKeyDecoded\":\"#99|\"}\n");
	free(out);
	out = write_line("{\"tag\":\"Trace_FPS\",\"dropLevel\":{\"DROPPED_BEST\":3},\"fps\":59.5}", 0, TC_OK);
	cr_assert_str_eq(out, "{\"tag\":\"Trace_FPS\",\"dropLevel\":{\"DROPPED_BEST\":3},\"fps\":59.5}\n");
	free(out);
}

Test(report, text_for_people)
{
	char *out = write_line("{\"machine\":\"HIGH\",\"detail\":\"ANR\",\"cost\":5000,\"stack\":\"0,1048574,1,5000\\n1,21,1,5000\\n\","
	                       "\"stackKey\":\"21|\",\"threadStack\":\"at a.B.c(B.java:1)\\nat a.B.d(B.java:2)\\n\","
	                       "\"memory\":{\"vm_size\":8},\"tag\":\"Trace_EvilMethod\"}",
	                       1, TC_OK);
	cr_assert_str_eq(out, "r.jsonl:7: Trace_EvilMethod ANR\n"
	                      "  cost: 5000\n"
	                      "  memory: {\"vm_size\":8}\n"
	                      "  stackKey: sample.Main.slowWork ()V|\n"
	                      "  stack: 2 items\n"
	                      "          ms  calls  method\n"
	                      "        5000      1  android.os.Handler.dispatchMessage (Landroid.os.Message;)V\n"
	                      "        5000      1    sample.Main.slowWork ()V\n"
	                      "  threadStack:\n"
	                      "    at a.B.c(B.java:1)\n"
	                      "    at a.B.d(B.java:2)\n"
	                      "\n");
	free(out);
}

Test(report, bad_fields_name_file_and_line)
{
	free(write_line("[1]", 0, TC_EFORMAT));
	cr_assert_str_eq(err.message, "r.jsonl:7: a report line must be a JSON object");
	free(write_line("{\"stack\":5}", 0, TC_EFORMAT));
	cr_assert_str_eq(err.message, "r.jsonl:7: \"stack\" is not a string");
	free(write_line("{\"stack\":\"0,1,1,5\\nbad\\n\"}", 0, TC_EFORMAT));
	cr_assert(strstr(err.message, "r.jsonl:7: \"stack\" line 2: bad depth"), "%s", err.message);
	free(write_line("{\"stackKey\":\"1|2\"}", 0, TC_EFORMAT));
	cr_assert_str_eq(err.message, "r.jsonl:7: \"stackKey\" at character 4: expected \"methodId|\"");
	free(write_line("{\"stackKey\":[]}", 1, TC_EFORMAT));
	cr_assert_str_eq(err.message, "r.jsonl:7: \"stackKey\" is not a string");
}

Test(report, decoded_fields_are_replaced_not_doubled)
{
	char *once = write_line("{\"stack\":\"0,20,1,5\\n\",\"stackKey\":\"20|\"}", 0, TC_OK);
	once[strlen(once) - 1] = '\0';
	char *twice = write_line(once, 0, TC_OK);
	cr_assert_eq(strncmp(once, twice, strlen(once)), 0, "%s\n%s", once, twice);
	free(once);
	free(twice);
}

/* trace_check: checks tc-trace's outputs for e2e.sh.
 *
 *   trace_check chrome FILE   a Chrome trace whose events nest per thread
 *                             (chrome_check.h); prints the counts
 *   trace_check jsonl FILE    every line is one JSON object
 *
 * Exit status 0 when the file passes, 1 with the reason otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_check.h"
#include "tool_read.h"
#include "json_read.h"
#include "trace_lines.h"

int main(int argc, char **argv)
{
	if (argc != 3)
		return fputs("usage: trace_check chrome|jsonl FILE\n", stderr), 2;
	if (strcmp(argv[1], "chrome") == 0) {
		size_t n;
		char *text = (char *)tool_read_file(argv[2], &n);
		if (!text)
			return 1;
		chrome_stats st;
		char why[256];
		int rc = chrome_check(text, n, &st, why, sizeof why);
		free(text);
		if (rc != 0) {
			printf("%s: %s\n", argv[2], why);
			return 1;
		}
		printf("%s: ok: %zu B, %zu E, %zu X, %zu instants, %zu metadata, depth %zu\n", argv[2], st.begins,
		       st.ends, st.completes, st.instants, st.metadata, st.max_depth);
		return 0;
	}
	if (strcmp(argv[1], "jsonl") == 0) {
		FILE *f = fopen(argv[2], "rb");
		if (!f)
			return perror(argv[2]), 1;
		tr_lines lr;
		tr_lines_init(&lr, f, argv[2], 0);
		const char *s;
		size_t n, count = 0;
		int rc, bad = 0;
		tc_error err;
		while ((rc = tr_lines_next(&lr, &s, &n, &err)) > 0 && !bad) {
			json_doc doc;
			size_t off;
			char why[128];
			if (json_parse(&doc, s, n, &off, why, sizeof why) != 0 || doc.root.type != JSON_OBJ) {
				printf("%s:%llu:%zu: %s\n", argv[2], (unsigned long long)lr.line_no, off + 1,
				       why[0] ? why : "not an object");
				bad = 1;
			}
			json_doc_dispose(&doc);
			count++;
		}
		tr_lines_dispose(&lr);
		fclose(f);
		if (rc < 0)
			printf("%s\n", err.message);
		if (bad || rc < 0)
			return 1;
		printf("%s: ok: %zu JSON lines\n", argv[2], count);
		return 0;
	}
	return fputs("usage: trace_check chrome|jsonl FILE\n", stderr), 2;
}

#include "tool_read.h"

#include <stdio.h>

#include "bytes.h"
#include "file.h"

uint8_t *tool_read_file(const char *path, size_t *len)
{
	tc_buf b;
	buf_init(&b);
	tc_error e;
	tc_error_clear(&e);
	if (tc_file_read(path, &b, UINT64_MAX, NULL, &e) != TC_OK) {
		char text[1200];
		tc_error_format(&e, text, sizeof text);
		fprintf(stderr, "%s\n", text);
		buf_free(&b);
		return NULL;
	}
	buf_u1(&b, 0);
	if (b.err != TC_OK) {
		fprintf(stderr, "%s: out of memory\n", path);
		buf_free(&b);
		return NULL;
	}
	*len = b.len - 1;
	return b.data;
}

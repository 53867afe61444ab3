#include "trace_lines.h"
#include "try.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 65536u

void tr_lines_init(tr_lines *lr, FILE *f, const char *name, size_t max_len)
{
	memset(lr, 0, sizeof *lr);
	lr->f = f;
	lr->name = name;
	lr->max_len = max_len ? max_len : TR_LINE_MAX_DEFAULT;
}

void tr_lines_dispose(tr_lines *lr)
{
	free(lr->blk);
	buf_free(&lr->line);
	lr->blk = NULL;
	lr->blk_pos = lr->blk_len = 0;
}

static int append(tr_lines *lr, const unsigned char *p, size_t n, tc_error *err)
{
	if (n > lr->max_len - lr->line.len)
		return tc_set(err, TC_EFORMAT, "%s:%llu: line longer than %zu bytes", lr->name,
		               (unsigned long long)lr->line_no, lr->max_len);
	buf_putn(&lr->line, (const char *)p, n);
	if (lr->line.err)
		return tc_set(err, TC_ENOMEM, "%s:%llu: out of memory", lr->name,
		               (unsigned long long)lr->line_no);
	return TC_OK;
}

int tr_lines_next(tr_lines *lr, const char **s, size_t *n, tc_error *err)
{
	if (!lr->blk && !(lr->blk = malloc(BLOCK)))
		return tc_set(err, TC_ENOMEM, "%s: out of memory", lr->name);
	lr->line.len = 0;
	lr->line_no++;
	lr->offset = lr->next_offset;
	int any = 0;
	TRY(append(lr, (const unsigned char *)"", 0, err));
	for (;;) {
		if (lr->blk_pos == lr->blk_len) {
			if (lr->eof)
				break;
			lr->blk_len = fread(lr->blk, 1, BLOCK, lr->f);
			lr->blk_pos = 0;
			if (lr->blk_len == 0) {
				if (ferror(lr->f))
					return tc_set(err, TC_EIO, "%s: read: %s", lr->name, strerror(errno));
				lr->eof = 1;
				break;
			}
		}
		any = 1;
		const unsigned char *p = lr->blk + lr->blk_pos;
		size_t avail = lr->blk_len - lr->blk_pos;
		const unsigned char *nl = memchr(p, '\n', avail);
		size_t take = nl ? (size_t)(nl - p) : avail;
		TRY(append(lr, p, take, err));
		lr->blk_pos += take + (nl ? 1 : 0);
		lr->next_offset += take + (nl ? 1 : 0);
		if (nl)
			break;
	}
	if (!any) {
		lr->line_no--;
		return 0;
	}
	if (lr->line.len && lr->line.str[lr->line.len - 1] == '\r')
		lr->line.str[--lr->line.len] = '\0';
	*s = lr->line.str;
	*n = lr->line.len;
	return 1;
}

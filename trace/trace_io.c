/* trace_io.c: see trace_io.h. */
#include "trace_io.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tr_output_open(tr_output *o, const char *path, tc_error *err)
{
	memset(o, 0, sizeof *o);
	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
		return TC_OK;
	}
	size_t n = strlen(path);
	o->path = malloc(n + 1);
	o->tmp = malloc(n + 32);
	if (!o->path || !o->tmp) {
		tr_output_abort(o);
		return tc_set(err, TC_ENOMEM, "%s: out of memory", path);
	}
	memcpy(o->path, path, n + 1);
	/* a device or a pipe (-o /dev/stdout, a FIFO) is written to directly:
	 * renaming over it would replace it */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		free(o->tmp);
		o->tmp = NULL;
		o->f = fopen(path, "wb");
		if (!o->f) {
			int e = errno;
			tr_output_abort(o);
			return tc_set(err, TC_EIO, "%s: %s", path, strerror(e));
		}
		return TC_OK;
	}
	snprintf(o->tmp, n + 32, "%s.tmp%ld", path, (long)getpid());
	o->f = fopen(o->tmp, "wb");
	if (!o->f) {
		int e = errno;
		tr_output_abort(o);
		return tc_set(err, TC_EIO, "%s: %s", path, strerror(e));
	}
	return TC_OK;
}

int tr_output_commit(tr_output *o, tc_error *err)
{
	int rc = TC_OK;
	if (!o->path) {
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = tc_set(err, TC_EIO, "standard output: write failed");
		o->f = NULL;
		return rc;
	}
	if (!o->tmp) {
		int bad = ferror(o->f);
		if (fclose(o->f) != 0 || bad)
			rc = tc_set(err, TC_EIO, "%s: write failed", o->path);
		o->f = NULL;
		free(o->path);
		o->path = NULL;
		return rc;
	}
	int bad = ferror(o->f);
	if (fclose(o->f) != 0 || bad)
		rc = tc_set(err, TC_EIO, "%s: write failed", o->path);
	o->f = NULL;
	if (rc == TC_OK && rename(o->tmp, o->path) != 0)
		rc = tc_set(err, TC_EIO, "%s: %s", o->path, strerror(errno));
	if (rc != TC_OK)
		remove(o->tmp);
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return rc;
}

void tr_output_abort(tr_output *o)
{
	/* the temporary file exists only while it is open */
	if (o->path && o->f) {
		fclose(o->f);
		if (o->tmp)
			remove(o->tmp);
	}
	o->f = NULL;
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
}

char *tr_prev_ring(const char *path)
{
	size_t n = strlen(path);
	if (n >= 5 && strcmp(path + n - 5, ".prev") == 0)
		return NULL;
	char *prev = malloc(n + sizeof ".prev");
	if (!prev)
		return NULL;
	memcpy(prev, path, n);
	memcpy(prev + n, ".prev", sizeof ".prev");
	struct stat st;
	if (stat(prev, &st) != 0) {
		free(prev);
		return NULL;
	}
	return prev;
}

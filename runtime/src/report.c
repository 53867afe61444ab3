/* report.c: the parts every report shares (Matrix's DeviceUtil.getDeviceInfo
 * first, Plugin.onDetectIssue's tag/process/time last) and delivery. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context.h"
#include "json.h"

void report_begin(tc_ctx *ctx, json *j)
{
	tc_device_info d = { "UN_KNOW", 0, -1, -1 };
	procinfo_device_info(ctx, &d);
	json_begin_object(j);
	json_kv_string(j, "machine", d.machine ? d.machine : "UN_KNOW");
	json_kv_double(j, "cpu_app", d.cpu_app);
	json_kv_int(j, "mem", d.mem_bytes);
	json_kv_int(j, "mem_free", d.mem_free_kb);
}

/* One write per line with O_APPEND, so lines from two processes sharing a
 * file do not interleave within a line (for lines up to PIPE_BUF on pipes;
 * regular files in practice). Tracer thread, the only writer, and with no
 * lock held: the file may be slow or block (a full disk, a FIFO), and only
 * reports wait for it. */
static void append_line(tc_ctx *ctx, const char *path, const char *text)
{
	size_t n = strlen(text);
	char *line = malloc(n + 1);
	if (!line)
		return;
	memcpy(line, text, n);
	line[n] = '\n';
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int e = errno;
	if (fd >= 0) {
		size_t off = 0;
		while (off < n + 1) {
			ssize_t w = write(fd, line + off, n + 1 - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				e = errno;
				break;
			}
			off += (size_t)w;
		}
		close(fd);
	}
	free(line);
	if (fd < 0)
		ctx_log(ctx, TC_LOG_ERROR, "Matrix.Trace", "report file %s: %s", path, strerror(e));
}

void report_send(tc_ctx *ctx, json *j, const char *tag, const char *key)
{
	char *process = procinfo_process_name(ctx);
	/* the notes of the start (tc_first_report_note), in the first report only */
	pthread_mutex_lock(&ctx->mu);
	for (size_t k = 0; k < ctx->n_first_notes; k++) {
		json_kv_string(j, ctx->first_notes[k].key, ctx->first_notes[k].value);
		free(ctx->first_notes[k].key);
		free(ctx->first_notes[k].value);
	}
	ctx->n_first_notes = 0;
	pthread_mutex_unlock(&ctx->mu);
	json_kv_string(j, "tag", tag);
	json_kv_string(j, "process", process ? process : "");
	json_kv_int(j, "time", (int64_t)procinfo_wall_ms(ctx));
	/* the build whose mapping decodes the report's method ids, as the ring's header
	 * has it (tc_reconfigure keeps it; it replaces cfg under mu); left out when unknown,
	 * so that such a report is Matrix's exactly */
	pthread_mutex_lock(&ctx->mu);
	uint64_t build_id = ctx->cfg.build_id;
	pthread_mutex_unlock(&ctx->mu);
	if (build_id) {
		char id[17];
		snprintf(id, sizeof id, "%016llx", (unsigned long long)build_id);
		json_kv_string(j, "buildId", id);
	}
	json_end_object(j);
	free(process);
	char *text = json_take(j);
	if (!text) {
		ctx_log(ctx, TC_LOG_ERROR, "Matrix.Trace", "report %s: out of memory", tag);
		return;
	}
	/* tc_reconfigure may replace the settings while not started (under mu) */
	pthread_mutex_lock(&ctx->mu);
	tc_report_fn fn = ctx->cfg.on_report;
	void *user = ctx->cfg.report_user;
	char *path = ctx->report_path ? strdup(ctx->report_path) : NULL;
	pthread_mutex_unlock(&ctx->mu);
	tc_report r = { tag, key ? key : "", text };
	if (fn)
		fn(user, &r);
	if (path)
		append_line(ctx, path, text);
	free(path);
	free(text);
}

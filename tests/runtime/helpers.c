#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t fake_now(void *user)
{
	return ((fake *)user)->now_ns;
}

static uint64_t fake_wall(void *user)
{
	(void)user;
	return 1700000000000u;
}

static void fake_device(void *user, tc_device_info *d)
{
	(void)user;
	d->machine = "HIGH";
	d->cpu_app = 1.5;
	d->mem_bytes = INT64_C(6442450944);
	d->mem_free_kb = 1024;
}

static void fake_stat(void *user, tc_process_stat *s)
{
	(void)user;
	s->priority = 10;
	s->nice = -10;
	s->dalvik_heap_kb = 2048;
	s->native_heap_kb = 4096;
	s->vm_size_kb = 8192;
}

static char *fake_stack(void *user, int style)
{
	(void)user;
	return strdup(style == 2 ? "at Main.run(Main.java:1)\n" : " \n|*\t\tat Main:run(1)\n");
}

static char *fake_name(void *user)
{
	(void)user;
	return strdup("com.example.app");
}

static void collect(void *user, const tc_report *r)
{
	fake *f = user;
	if (f->n_reports == sizeof f->reports / sizeof f->reports[0])
		return;
	f->reports[f->n_reports].tag = strdup(r->tag);
	f->reports[f->n_reports].key = strdup(r->key);
	f->reports[f->n_reports].json = strdup(r->json);
	f->n_reports++;
}

static void collect_log(void *user, int level, const char *tag, const char *text)
{
	fake *f = user;
	(void)level;
	size_t add = strlen(tag) + strlen(text) + 3;
	char *p = realloc(f->logs, f->log_len + add + 1);
	if (!p)
		return;
	f->logs = p;
	f->log_len += (size_t)sprintf(p + f->log_len, "%s: %s\n", tag, text);
}

static void on_enter(void *user, uint32_t id)
{
	fake *f = user;
	if (f->n_entered < 16)
		f->entered[f->n_entered++] = id;
}

void fake_config(tc_config *c, fake *f)
{
	memset(f, 0, sizeof *f);
	f->now_ns = 1000000000u;
	tc_config_init(c);
	c->capacity = 4096;
	c->threads = false;
	c->clock = (tc_clock){ fake_now, f };
	c->probe = (tc_probe){ .user = f, .wall_ms = fake_wall, .device_info = fake_device, .process_stat = fake_stat,
	                       .thread_stack = fake_stack, .process_name = fake_name };
	c->on_report = collect;
	c->report_user = f;
	c->on_log = collect_log;
	c->log_user = f;
	c->on_method_enter = on_enter;
	c->enter_user = f;
}

void fake_free(fake *f)
{
	for (size_t i = 0; i < f->n_reports; i++) {
		free(f->reports[i].tag);
		free(f->reports[i].key);
		free(f->reports[i].json);
	}
	free(f->logs);
	memset(f, 0, sizeof *f);
}

void fake_advance_ms(fake *f, uint64_t ms)
{
	f->now_ns += ms * 1000000u;
}

int fake_find(const fake *f, const char *tag, int nth)
{
	for (size_t i = 0; i < f->n_reports; i++)
		if (strcmp(f->reports[i].tag, tag) == 0 && nth-- == 0)
			return (int)i;
	return -1;
}

const char *fake_json(const fake *f, int i)
{
	return i >= 0 ? f->reports[i].json : "";
}

void rec_in(tc_ctx *ctx, uint32_t id)
{
	tc_record(ctx, id, true);
}

void rec_out(tc_ctx *ctx, uint32_t id)
{
	tc_record(ctx, id, false);
}

bool await_word_at_least(const tc_ctx *ctx, int64_t ms, long timeout_ms)
{
	for (long i = 0; i < timeout_ms && tc_clock_word(ctx) < ms; i++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	return tc_clock_word(ctx) >= ms;
}

int fake_start(tc_ctx **ctx, const tc_config *cfg)
{
	int rc = tc_ctx_new(ctx, cfg, NULL);
	return rc == TC_RT_OK ? tc_start(*ctx, NULL) : rc;
}

void fake_end(tc_ctx **ctx, fake *f)
{
	tc_ctx_free(*ctx);
	*ctx = NULL;
	fake_free(f);
}

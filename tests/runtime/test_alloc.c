/* What a message costs the recording thread in allocations: none, frames and
 * tracers on (Matrix posted two tasks per message to its tracer thread, and
 * this runtime once allocated them and a copy of the scene per frame). The
 * runtime's malloc, calloc, realloc and strdup calls are counted through the
 * linker (-Wl,--wrap, tests/runtime/meson.build). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static size_t allocs;

void *__wrap_malloc(size_t n)
{
	allocs++;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	allocs++;
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	allocs++;
	return __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	allocs++;
	return __real_strdup(s);
}

static fake f;
static tc_ctx *ctx;

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
	fake_free(&f);
}

TestSuite(alloc, .fini = teardown);

/* a message that runs a frame and a few traced calls */
static void message(void)
{
	tc_dispatch_begin(ctx);
	tc_vsync(ctx, f.now_ns);
	rec_in(ctx, 1);
	rec_in(ctx, 2);
	rec_out(ctx, 2);
	rec_out(ctx, 1);
	fake_advance_ms(&f, 5);
	tc_dispatch_end(ctx);
	fake_advance_ms(&f, 11);
}

Test(alloc, a_message_allocates_nothing)
{
	tc_config c;
	fake_config(&c, &f);
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
	cr_assert_eq(tc_start(ctx, NULL), TC_RT_OK);
	tc_set_scene(ctx, "Main");
	message(); /* the first frame makes the scene's window */
	size_t before = allocs;
	for (int i = 0; i < 100; i++)
		message();
	cr_assert_eq(allocs, before, "%zu allocations in 100 messages", allocs - before);
	cr_assert_eq(tc_written(ctx), 101 * 6);
}

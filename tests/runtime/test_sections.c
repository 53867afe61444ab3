/* Sections (tc_section_begin/end): named intervals on the recording thread,
 * their names in the ring's header, nesting and its limits, and the stack
 * analysis, which does not take them for methods. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "tc_analysis.h"
#include "tc_ringfile.h"

static fake f;
static tc_ctx *ctx;

static void setup(void)
{
	tc_config c;
	fake_config(&c, &f);
	cr_assert_eq(tc_ctx_new(&ctx, &c, NULL), TC_RT_OK);
}

static void teardown(void)
{
	tc_ctx_free(ctx);
	ctx = NULL;
	fake_free(&f);
}

TestSuite(sections, .init = setup, .fini = teardown);

static size_t events(uint64_t **ev)
{
	size_t n;
	cr_assert_eq(tc_copy_since(ctx, (tc_index){ 0 }, ev, &n, NULL), TC_RT_OK);
	return n;
}

static void decode(tc_ring_image *r)
{
	size_t size;
	void *base = tc_ring_base(ctx, &size);
	cr_assert_eq(tc_ring_decode(r, base, size, NULL), TC_RT_OK);
}

Test(sections, begin_and_end_bracket_methods_and_name_the_interval)
{
	cr_assert_eq(tc_section_begin(ctx, "cold start", NULL), TC_RT_OK);
	fake_advance_ms(&f, 10);
	rec_in(ctx, 7);
	cr_assert_eq(tc_section_begin(ctx, "inflate", NULL), TC_RT_OK);
	fake_advance_ms(&f, 5);
	tc_section_end(ctx);
	rec_out(ctx, 7);
	cr_assert_eq(tc_section_begin(ctx, "cold start", NULL), TC_RT_OK, "a name used again keeps its id");
	tc_section_end(ctx);
	tc_section_end(ctx);
	uint64_t *ev;
	size_t n = events(&ev);
	uint64_t want[] = {
		tc_event_encode(true, TC_ID_SECTION, 0),       tc_event_encode(true, 7, 10),
		tc_event_encode(true, TC_ID_SECTION + 1, 10),  tc_event_encode(false, TC_ID_SECTION + 1, 15),
		tc_event_encode(false, 7, 15),                 tc_event_encode(true, TC_ID_SECTION, 15),
		tc_event_encode(false, TC_ID_SECTION, 15),     tc_event_encode(false, TC_ID_SECTION, 15),
	};
	cr_assert_eq(n, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(ev[i], want[i], "event %zu", i);
	free(ev);
	tc_ring_image r;
	decode(&r);
	cr_assert_str_eq(r.names[0], "cold start");
	cr_assert_str_eq(r.names[1], "inflate");
	tc_ring_image_dispose(&r);
	cr_assert_eq(f.n_entered, 1, "a section is not a method: no method-enter call");
}

Test(sections, the_stack_analysis_skips_them)
{
	tc_dispatch_begin(ctx);
	tc_section_begin(ctx, "a", NULL);
	rec_in(ctx, 7);
	fake_advance_ms(&f, 20);
	tc_section_end(ctx); /* ends inside the method: sections need not nest with methods */
	rec_out(ctx, 7);
	tc_dispatch_end(ctx);
	uint64_t *ev;
	size_t n = events(&ev);
	tc_stack st = { 0 };
	cr_assert_eq(tc_stack_build(&st, ev, n, true, TC_NO_END_TIME), TC_RT_OK);
	cr_assert_eq(st.len, 2);
	cr_assert_eq(st.items[0].id, TC_ID_DISPATCH);
	cr_assert_eq(st.items[1].id, 7);
	cr_assert_eq(st.items[1].dur_ms, 20);
	tc_stack_dispose(&st);
	free(ev);
}

Test(sections, an_end_without_a_begin_is_ignored)
{
	tc_section_end(ctx);
	cr_assert_eq(tc_written(ctx), 0);
}

Test(sections, names_are_checked_kept_short_and_limited)
{
	tc_rt_error err = { 0 };
	cr_assert_eq(tc_section_begin(ctx, "", &err), TC_RT_EINVAL);
	cr_assert_eq(tc_section_begin(ctx, NULL, &err), TC_RT_EINVAL);
	/* 62 ASCII bytes, then a 3-byte character: cut before it, at 62 */
	char long_name[80];
	memset(long_name, 'x', 62);
	strcpy(long_name + 62, "\xe2\x82\xac and more");
	uint32_t id;
	cr_assert_eq(tc_section_id(ctx, long_name, &id, NULL), TC_RT_OK);
	tc_ring_image r;
	decode(&r);
	cr_assert_eq(strlen(r.names[0]), 62);
	tc_ring_image_dispose(&r);
	uint32_t again;
	cr_assert_eq(tc_section_id(ctx, long_name, &again, NULL), TC_RT_OK);
	cr_assert_eq(again, id, "the same long name finds its entry");
	for (uint32_t k = 1; k < TC_SECTION_MAX; k++) {
		char name[16];
		snprintf(name, sizeof name, "s%u", k);
		cr_assert_eq(tc_section_id(ctx, name, &id, NULL), TC_RT_OK);
		cr_assert_eq(id, TC_ID_SECTION + k);
	}
	cr_assert_eq(tc_section_begin(ctx, "one too many", &err), TC_RT_ENOSPC);
	cr_assert(strstr(err.message, "\"one too many\" not recorded"), "%s", err.message);
	cr_assert_eq(tc_written(ctx), 0);
	cr_assert_eq(tc_section_begin(ctx, "s5", NULL), TC_RT_OK, "a known name still works");
}

Test(sections, deeper_than_32_are_not_recorded_but_pair_up)
{
	for (int k = 0; k < 40; k++)
		cr_assert_eq(tc_section_begin(ctx, "deep", NULL), TC_RT_OK);
	for (int k = 0; k < 40; k++)
		tc_section_end(ctx);
	cr_assert_eq(tc_written(ctx), 64, "32 begins and their 32 ends");
	tc_section_end(ctx);
	cr_assert_eq(tc_written(ctx), 64);
}

Test(sections, names_move_with_the_ring)
{
	cr_assert_eq(tc_section_begin(ctx, "early", NULL), TC_RT_OK);
	tc_config c;
	fake_config(&c, &f);
	f.n_reports = 0;
	c.capacity = 100;
	cr_assert_eq(tc_reconfigure(ctx, &c, NULL), TC_RT_OK);
	tc_section_end(ctx);
	tc_ring_image r;
	decode(&r);
	cr_assert_eq(r.capacity, 100);
	cr_assert_str_eq(r.names[0], "early");
	cr_assert_eq(r.count, 2);
	tc_ring_image_dispose(&r);
}

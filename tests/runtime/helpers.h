/* helpers.h: an injected clock, a fake probe and a report collector, so that
 * tracer tests are exact. */
#ifndef TC_TEST_HELPERS_H
#define TC_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc_runtime.h"

typedef struct fake {
	uint64_t now_ns;
	struct {
		char *tag, *key, *json;
	} reports[32];
	size_t n_reports;
	char *logs;
	size_t log_len;
	uint32_t entered[16];
	size_t n_entered;
} fake;

/* A config with no threads, the fake clock (starting at 1 s), a fixed
 * probe and the collector. */
void fake_config(tc_config *c, fake *f);
void fake_free(fake *f);
/* tc_ctx_new and tc_start of cfg: TC_RT_OK, or the failing call's code. */
int fake_start(tc_ctx **ctx, const tc_config *cfg);
/* Frees *ctx (NULL is fine), sets it NULL, and frees f's reports and logs. */
void fake_end(tc_ctx **ctx, fake *f);
void fake_advance_ms(fake *f, uint64_t ms);
/* index of the n-th report with this tag (0-based), or -1 */
int fake_find(const fake *f, const char *tag, int nth);
/* the JSON value text after "key": in report i (for quick checks) */
const char *fake_json(const fake *f, int i);

/* record helpers: in/out at the current fake time */
void rec_in(tc_ctx *ctx, uint32_t id);
void rec_out(tc_ctx *ctx, uint32_t id);

/* Waits (timeout_ms at most) for the clock word to be a time of at least ms: whether
 * the clock thread moved it. Waited for, not timed: under qemu beside the other suites
 * in CI the thread can go tens of ms without a tick. */
bool await_word_at_least(const tc_ctx *ctx, int64_t ms, long timeout_ms);

#endif

/* hookset.c: see hookset.h. */
#include "hookset.h"
#include "rt_error.h"

#include <time.h>

tc_ctx *hookset_enter(hookset *h)
{
	/* seq_cst on both sides: uninstall stores NULL then reads inflight, a hook adds to
	 * inflight then reads the owner; one of them sees the other */
	atomic_fetch_add_explicit(&h->inflight, 1, memory_order_seq_cst);
	tc_ctx *ctx = atomic_load_explicit(&h->ctx, memory_order_seq_cst);
	if (!ctx)
		atomic_fetch_sub_explicit(&h->inflight, 1, memory_order_release);
	return ctx;
}

void hookset_leave(hookset *h)
{
	atomic_fetch_sub_explicit(&h->inflight, 1, memory_order_release);
}

static void remove_all(hookset *h)
{
	for (size_t i = 0; i < HOOKSET_MAX; i++) {
		if (h->ids[i] >= 0)
			tc_plthook_remove(h->ids[i], NULL);
		h->ids[i] = -1;
	}
}

int hookset_lock(hookset *h, tc_ctx *ctx, tc_ctx **cur, const char *what, tc_rt_error *err)
{
	pthread_mutex_lock(&h->mu);
	*cur = atomic_load(&h->ctx);
	if (*cur && *cur != ctx) {
		pthread_mutex_unlock(&h->mu);
		return tc_rt_set(err, TC_RT_EBUSY, "another context traces %s", what);
	}
	return TC_RT_OK;
}

int hookset_install(hookset *h, tc_ctx *ctx, const tc_plthook_spec *specs, size_t n, const char *tag,
                    const char *calls, tc_rt_error *err)
{
	int rc = TC_RT_OK;
	remove_all(h);
	for (size_t i = 0; i < n && i < HOOKSET_MAX && rc == TC_RT_OK; i++) {
		tc_plthook_spec s = specs[i];
		rc = tc_plthook_add(&s, &h->ids[i], err);
	}
	if (rc != TC_RT_OK)
		remove_all(h);
	atomic_store(&h->ctx, rc == TC_RT_OK ? ctx : NULL);
	pthread_mutex_unlock(&h->mu);
	if (rc != TC_RT_OK)
		return rc;
	size_t slots = 0;
	for (size_t i = 0; i < n && i < HOOKSET_MAX; i++) {
		tc_plthook_stat st;
		if (tc_plthook_stat_get(h->ids[i], &st, NULL) == TC_RT_OK)
			slots += st.slots;
	}
	if (!slots)
		ctx_log(ctx, TC_LOG_WARN, tag, "no library matching \"%s\" calls %s (yet)", specs[0].libs, calls);
	return TC_RT_OK;
}

void hookset_uninstall(hookset *h, tc_ctx *ctx)
{
	pthread_mutex_lock(&h->mu);
	if (atomic_load(&h->ctx) != ctx) {
		pthread_mutex_unlock(&h->mu);
		return;
	}
	remove_all(h);
	atomic_store(&h->ctx, NULL);
	pthread_mutex_unlock(&h->mu);
	/* calls that took the context finish with it (a report posted before the tracer thread
	 * stops is delivered or dropped there) */
	while (atomic_load_explicit(&h->inflight, memory_order_acquire) != 0) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

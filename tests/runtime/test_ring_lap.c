/* A copier racing a staged writer that laps it (ring_pull_some): the writer
 * stores slot then count with release, as ThreadRing and AppMethodBeat do, and
 * never waits for a copy. Whatever the writer may have overwritten while it
 * was copied is dropped (an empty slot) and counted as lost, never kept as
 * the event of the slot it sits in: every slot of the copy holds its own
 * event or nothing. Built with ThreadSanitizer too (rt_ring_lap_tsan) and
 * under qemu-arm (cross.sh). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ring.h"
#include "tc_ringfile.h"

#define SLOTS 64u

/* A staging ring as ThreadRing's long[] (test_feed.c has the same):
 * event k holds k + 1, so that a slot says which event it is. */
typedef struct stage {
	_Atomic uint64_t count;
	_Atomic uint64_t slot[SLOTS];
	_Atomic uint64_t copied;
	/* the deterministic test: events the writer stores in the middle of a copy */
	uint64_t lap_during_copy;
	/* reads of the count: those from torn_from on, torn_reads of them, see
	 * torn instead (a writer stopped between the halves of its count store) */
	unsigned reads, torn_from, torn_reads;
	uint64_t torn;
	/* the threaded test: every torn_every-th read sees the count 2^32 off
	 * (reads are the copier's alone; the writer reads its count itself) */
	unsigned torn_every;
} stage;

static void st_write(stage *s)
{
	uint64_t n = atomic_load_explicit(&s->count, memory_order_relaxed);
	atomic_store_explicit(&s->slot[n & (SLOTS - 1)], n + 1, memory_order_relaxed);
	atomic_store_explicit(&s->count, n + 1, memory_order_release);
}

static uint64_t st_count(void *u)
{
	stage *s = u;
	if (s->reads++ >= s->torn_from && s->torn_reads) {
		s->torn_reads--;
		return s->torn;
	}
	if (s->torn_every && s->reads % s->torn_every == 0)
		return atomic_load_explicit(&s->count, memory_order_acquire) +
		       (s->reads / s->torn_every % 2 ? UINT64_C(1) << 32 : -(UINT64_C(1) << 32));
	return atomic_load_explicit(&s->count, memory_order_acquire);
}

static void st_copy(void *u, uint64_t first, size_t n, uint64_t *out)
{
	stage *s = u;
	for (size_t i = 0; i < n; i++) {
		if (i == n / 2)
			for (; s->lap_during_copy; s->lap_during_copy--)
				st_write(s); /* the writer runs on while the copier is half way */
		out[i] = atomic_load_explicit(&s->slot[(first + i) & (SLOTS - 1)], memory_order_relaxed);
	}
}

static void st_copied(void *u, uint64_t count)
{
	atomic_store_explicit(&((stage *)u)->copied, count, memory_order_relaxed);
}

static stage st;
static ring r;

static tc_feed feed(void)
{
	return (tc_feed){ st_count, st_copy, NULL, NULL, NULL, st_copied, SLOTS, &st };
}

static void open_ring(uint64_t capacity)
{
	memset(&st, 0, sizeof st);
	ring_params p = { .capacity = capacity, .own_fd = -1, .resolution_ms = 5 };
	tc_rt_error err = { 0 };
	cr_assert_eq(ring_open(&r, &p, &err), TC_RT_OK, "%s", err.message);
}

static void teardown(void)
{
	ring_close(&r);
}

/* The ring's events from `from` on (its newest capacity at most): each slot
 * holds its event or 0. Returns the slots that hold another event; *empty
 * counts the empty ones. */
static uint64_t wrong_slots_from(uint64_t from, uint64_t *empty)
{
	uint64_t end = ring_seq(&r), wrong = 0;
	uint64_t lo = end > r.capacity ? end - r.capacity : 0;
	if (lo < from)
		lo = from;
	*empty = 0;
	for (uint64_t e = lo; e < end; e++) {
		uint64_t v = atomic_load_explicit(&r.slots[e % r.capacity], memory_order_relaxed);
		if (v == 0)
			++*empty;
		else if (v != e + 1)
			wrong++;
	}
	return wrong;
}

static uint64_t wrong_slots(uint64_t *empty)
{
	return wrong_slots_from(0, empty);
}

TestSuite(ring_lap, .fini = teardown);

Test(ring_lap, a_copy_the_writer_laps_midway_keeps_no_newer_event)
{
	open_ring(SLOTS);
	tc_feed f = feed();
	for (int k = 0; k < 10; k++)
		st_write(&st);
	uint64_t lost;
	cr_assert_eq(ring_pull_some(&r, &f, UINT64_MAX, &lost), 10);
	cr_assert_eq(lost, 0);
	for (int k = 0; k < 60; k++)
		st_write(&st); /* 70 written, 60 to copy */
	st.lap_during_copy = 40; /* events 70..109 land in the middle of the copy (over slots 6..45) */
	cr_assert_eq(ring_pull_some(&r, &f, UINT64_MAX, &lost), 60, "the count moves to what was read first");
	uint64_t empty, wrong = wrong_slots(&empty);
	cr_assert_eq(wrong, 0, "%llu slots hold a newer event than theirs", (unsigned long long)wrong);
	/* events 10..69 were copied; 110 + 2 - 64 = 48: those before 48 may be newer ones */
	cr_assert_eq(lost, 38, "events 10..47 dropped, counted lost (got %llu)", (unsigned long long)lost);
	cr_assert_eq(empty, 38);
	cr_assert_eq(ring_lost(&r), 38, "the ring's header counts them");
	cr_assert_eq(ring_pull_some(&r, &f, UINT64_MAX, &lost), 40);
	cr_assert_eq(lost, 0, "events 70..109 are still whole");
	cr_assert_eq(wrong_slots(&empty), 0);
	cr_assert_eq(empty, 2, "of the newest 64 (46..109) only 46 and 47, dropped by the first copy, are empty");
	cr_assert_eq(atomic_load(&st.copied), 110);
}

Test(ring_lap, a_copy_that_lost_nothing_counts_nothing)
{
	open_ring(SLOTS);
	tc_feed f = feed();
	uint64_t lost;
	for (int round = 0; round < 10; round++) {
		for (unsigned k = 0; k < SLOTS - 2; k++)
			st_write(&st);
		cr_assert_eq(ring_pull_some(&r, &f, UINT64_MAX, &lost), SLOTS - 2);
		cr_assert_eq(lost, 0, "round %d", round);
	}
	uint64_t empty;
	cr_assert_eq(wrong_slots(&empty), 0);
	cr_assert_eq(empty, 0);
	cr_assert_eq(ring_lost(&r), 0);
}

/* 32-bit ARM: a writer stopped between the two halves of its count store
 * (tc_ringfile.h, "Staged writers") where the low half carries: high half
 * new, low half old, 2^32 - 1 above the real count, and two reads agree on
 * it. The copy must not take the writer for lapped and move its count
 * there: the ring would copy nothing more for 2^32 events. */
Test(ring_lap, a_count_read_half_stored_across_its_carry_is_not_taken)
{
	open_ring(SLOTS);
	tc_feed f = feed();
	uint64_t lost;
	for (int k = 0; k < 5; k++)
		st_write(&st);
	cr_assert_eq(ring_pull_some(&r, &f, UINT64_MAX, &lost), 5);
	atomic_store(&st.count, 5 + (UINT64_C(1) << 32) - 1);
	cr_assert_eq(ring_pull_some(&r, &f, UINT64_MAX, &lost), 0, "a half-stored count is left for the next copy");
	cr_assert_eq(lost, 0);
	cr_assert_eq(ring_lost(&r), 0);
	atomic_store(&st.count, 5);
	for (int k = 0; k < 3; k++)
		st_write(&st);
	cr_assert_eq(ring_pull_some(&r, &f, UINT64_MAX, &lost), 3, "the next copy goes on from the real count");
	uint64_t empty;
	cr_assert_eq(wrong_slots(&empty), 0);
	cr_assert_eq(empty, 0);
}

/* The same half-stored count, read by a copy since an index (the ANR and
 * signal tracers' on their own threads while the recording thread writes):
 * it is no count the ring ever had, so it says nothing of the index. Both
 * halves' mixes (2^32 above what was stored whole before the store, 2^32
 * below what it stores), at the count's first read and at its second (the
 * seqlock's, after the copy): the copy reads the count again, and gets the
 * index's events. */
Test(ring_lap, a_copy_since_an_index_does_not_take_a_half_stored_count_for_a_lap)
{
	open_ring(SLOTS);
	tc_feed f = feed();
	for (int k = 0; k < 20; k++)
		st_write(&st);
	const uint64_t mark = 12;
	const uint64_t mixes[] = { 20 + (UINT64_C(1) << 32), 21 - (UINT64_C(1) << 32) };
	for (unsigned k = 0; k < 4; k++) {
		st.reads = 0;
		st.torn_from = k / 2; /* the first read, then the second */
		st.torn_reads = 1;
		st.torn = mixes[k % 2];
		uint64_t *ev = NULL;
		size_t n = 0;
		tc_rt_error err = { 0 };
		int rc = ring_feed_copy_since(&f, SLOTS, mark, &ev, &n, &err);
		cr_assert_eq(rc, TC_RT_OK, "mix %u at read %u: %s", k % 2, k / 2, err.message);
		cr_assert_eq(st.torn_reads, 0, "the torn read was read");
		cr_assert_eq(n, 9, "the event before the index and 12..19 (got %zu)", n);
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(ev[i], mark + i, "event %zu is its own", i); /* event e holds e + 1 */
		free(ev);
		st.reads = 0;
		st.torn_from = 0;
		st.torn_reads = 1;
		cr_assert(ring_feed_index_valid(&f, SLOTS, mark), "mix %u: the index is valid", k % 2);
	}
	/* a writer that stays between its halves: the copy says so, and does
	 * not call the index overwritten */
	st.reads = 0;
	st.torn_reads = UINT32_MAX;
	uint64_t *ev = NULL;
	size_t n = 0;
	tc_rt_error err = { 0 };
	cr_assert_eq(ring_feed_copy_since(&f, SLOTS, mark, &ev, &n, &err), TC_RT_EBUSY, "%s", err.message);
	cr_assert(strstr(err.message, "half-stored"), "%s", err.message);
	cr_assert_null(ev);
	cr_assert_eq(n, 0);
	st.torn_reads = 0;
}

static _Atomic bool stop;

static void *writer(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		st_write(&st);
	return NULL;
}

static double secs(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* A writer that laps the copier again and again on another thread (64 slots,
 * as the reproduction): no copied slot holds an event other than its
 * own, and what was written is either in the ring or counted lost. */
Test(ring_lap, a_writer_that_laps_on_another_thread_never_shows_in_a_wrong_slot)
{
	open_ring(SLOTS);
	tc_feed f = feed();
	atomic_store(&stop, false);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, writer, NULL), 0);
	uint64_t copies = 0, copied = 0, lost = 0, wrong = 0, empty_total = 0;
	double until = secs() + 0.5;
	while (secs() < until || copies < 2000) {
		uint64_t l, empty, before = ring_seq(&r);
		uint64_t n = ring_pull_some(&r, &f, UINT64_MAX, &l);
		copies += n != 0;
		copied += n;
		lost += l;
		wrong += wrong_slots_from(before, &empty); /* the events this copy moved */
		empty_total += empty;
		if (copies >= 200000)
			break;
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	cr_log_info("lapping writer: %llu copies, %llu events moved, %llu lost, %llu in a wrong slot",
	            (unsigned long long)copies, (unsigned long long)copied, (unsigned long long)lost,
	            (unsigned long long)wrong);
	cr_assert_eq(wrong, 0, "%llu slots held a newer event than theirs", (unsigned long long)wrong);
	cr_assert_eq(ring_lost(&r), lost, "the header counts every loss");
	cr_assert_leq(lost, copied);
}

/* copy_since (the ANR and signal tracers' copy, off the recording thread)
 * under the same lapping writer, with every fifth read of its count
 * half-stored: each copy is the index's events in order, every one its own
 * (the event before the index, or from the index on when the writer took
 * that one during the copy), or TC_RT_ESTALE for an index the writer has
 * really lapped: the count read whole after it says so (it only grows). */
Test(ring_lap, a_copy_since_under_a_lapping_writer_is_its_own_events_or_a_real_lap)
{
	open_ring(SLOTS);
	tc_feed f = feed();
	st.torn_every = 5;
	atomic_store(&stop, false);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, writer, NULL), 0);
	uint64_t copies = 0, whole = 0, stale = 0, false_stale = 0, wrong = 0, other = 0;
	double until = secs() + 0.3;
	while ((secs() < until || copies < 1000) && copies < 100000) {
		/* a mark taken up to 80 events ago (some past what the ring holds:
		 * 62 are safe), read whole as the recording thread's; the copy races
		 * the writer at the edge */
		uint64_t now = atomic_load_explicit(&st.count, memory_order_acquire), back = copies % 81;
		uint64_t mark = now - (back < now ? back : now);
		uint64_t *ev = NULL;
		size_t n = 0;
		tc_rt_error err = { 0 };
		int rc = ring_feed_copy_since(&f, SLOTS, mark, &ev, &n, &err);
		copies++;
		if (rc == TC_RT_OK) {
			whole++;
			/* event e holds e + 1: the first is event mark - 1 (0 for a mark at 0) or mark */
			if (n && ev[0] != mark && ev[0] != mark + 1)
				wrong++;
			for (size_t i = 1; i < n; i++)
				wrong += ev[i] != ev[i - 1] + 1;
		} else if (rc == TC_RT_ESTALE) {
			stale++;
			now = atomic_load_explicit(&st.count, memory_order_acquire);
			false_stale += now + RING_WRITER_AHEAD - (mark - 1) <= SLOTS;
		} else {
			other++;
		}
		free(ev);
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	cr_log_info("copy_since under a lapping writer: %llu copies, %llu whole, %llu of a lapped index",
	            (unsigned long long)copies, (unsigned long long)whole, (unsigned long long)stale);
	cr_assert_eq(wrong, 0, "%llu events out of place", (unsigned long long)wrong);
	cr_assert_eq(false_stale, 0, "%llu indexes called overwritten that were not", (unsigned long long)false_stale);
	cr_assert_eq(other, 0, "%llu copies failed otherwise", (unsigned long long)other);
	cr_assert_gt(whole, 0, "no copy came through");
}

package com.tencent.matrix.trace.core;

/**
 * The start's self-check of the fast path (issue 28): tc-hotpath proves the writers' per-event
 * calls against one pinned ART's intrinsics list, and a newer ART could make them calls again
 * (a JNI call each, ten times the cost) with nothing to say so. So at start, on a thread of its
 * own, this times bursts of events written as the writers write them (a volatile read of the
 * clock word, then {@code Unsafe.getLong}, {@code putLong}, {@code putOrderedLong} on a staging
 * ring: AppMethodBeat.i/o, ThreadRing.event) into a scratch ring, and gives the runtime the
 * cost of one event (tc_self_check: the ring's header, and a note in the first report). Above
 * {@link TraceCanary.Config#selfCheckMaxNs} it logs a warning, and with {@link
 * TraceCanary.Config#selfCheckStops} stops recording.
 *
 * <p>The cost is the fastest of {@link #BURSTS} bursts: the first ones may run before the JIT
 * compiles the loop (an interpreted event costs what a compiled one never does), and another
 * thread may preempt any one of them; the fastest is what the compiled stores cost.
 */
final class SelfCheck implements Runnable {
    static final int BURSTS = 5;
    /** Stands for AppMethodBeat.sNow: a volatile the loop reads per event, as the writers do. */
    private static volatile long sWord = 5;
    /** The scratch ring, reachable from a static so that no compiler drops its stores. */
    static long[] sScratch;

    private final long ctx;
    private final int events;
    private final int maxNs;
    private final boolean stops;
    /** What starting the check cost the starting thread (ns), set once it has started. */
    private volatile long startCostNs = -1;

    SelfCheck(long ctx, int events, int maxNs, boolean stops) {
        this.ctx = ctx;
        this.events = events;
        this.maxNs = maxNs;
        this.stops = stops;
    }

    /** Starts the check on a daemon thread of its own (its cost to the caller: the start). */
    static void start(long ctx, TraceCanary.Config c) {
        if (c.selfCheckEvents <= 0 || AppMethodBeat.U == null) {
            return;
        }
        long t0 = System.nanoTime();
        SelfCheck check = new SelfCheck(ctx, c.selfCheckEvents, c.selfCheckMaxNs, c.selfCheckStops);
        Thread t = new Thread(check, "tc-selfcheck");
        t.setDaemon(true);
        t.start();
        check.startCostNs = System.nanoTime() - t0;
    }

    /** n events into r (slots mask + 1) as the writers store them; the time they took, ns. */
    static long burst(long[] r, int mask, int n) {
        sun.misc.Unsafe u = AppMethodBeat.U;
        long t0 = System.nanoTime();
        for (int k = 0; k < n; k++) {
            long now = sWord;
            long s = u.getLong(r, AppMethodBeat.SEQ);
            u.putLong(r, AppMethodBeat.SLOT0 + ((s & mask) << 3),
                    ((k & 1) == 0 ? AppMethodBeat.IN : 0) | ((long) (k & 0xFFFF) << 43) | now);
            u.putOrderedLong(r, AppMethodBeat.SEQ, s + 1);
        }
        return System.nanoTime() - t0;
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        int slots = 1 << 16;
        long[] r = Staging.ring(slots);
        sScratch = r;
        int per = Math.max(1, events / BURSTS);
        long best = Long.MAX_VALUE;
        for (int b = 0; b < BURSTS; b++) {
            best = Math.min(best, burst(r, slots - 1, per));
        }
        long ps = best * 1000 / per;
        long took = System.nanoTime() - start;
        String line = String.format(java.util.Locale.ROOT,
                "%d.%03d ns per event (the fastest of %d bursts of %d events; threshold %d ns); the check took %.1f ms "
                        + "on its thread, %.2f ms of the starting thread's",
                ps / 1000, ps % 1000, BURSTS, per, maxNs, took / 1e6, startCostNs / 1e6);
        boolean slow = ps > (long) maxNs * 1000;
        synchronized (TraceCanary.class) {
            if (TraceCanary.ctx != ctx) {
                return; // released meanwhile
            }
            Native.selfCheck(ctx, ps);
            if (slow) {
                line += stops ? ": over the threshold, recording stopped (Config.selfCheckStops)"
                        : ": over the threshold (is an Unsafe accessor a call on this VM?)";
            }
            Native.firstReportNote(ctx, "selfCheck", line);
            if (slow && stops) {
                TraceCanary.stop();
            }
        }
        TraceCanary.log(slow ? TraceCanary.LOG_WARN : TraceCanary.LOG_INFO, "self-check: " + line);
    }
}

package com.tencent.matrix.trace.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The writer of the threads other than the recording thread, when every thread records
 * ({@link TraceCanary#THREADS_ALL}): each writes into a ring of its own in the thread file
 * (runtime/include/tc_ringfile.h), which the native runtime made once and never moves, so
 * a thread keeps its ring's address for good. A thread's first event asks the runtime for
 * its ring (a JNI call, under the class lock of TraceCanary); after that an event takes no
 * lock and allocates nothing: the thread finds its ring in a small table indexed by its
 * id (or, if another thread holds that entry, in a ThreadLocal), stores the event, a store
 * fence, then the count, as the recording thread does.
 *
 * <p>Time: while a main-looper message runs, the native clock thread keeps the thread
 * file's clock word current and says so ("ticking"); otherwise the event reads
 * System.nanoTime itself. On the ByteBuffer path (VMs without raw Unsafe accesses, Android
 * 5 and 6) it always reads the clock: a ByteBuffer read cannot be ordered after the ticking
 * flag's without a full fence.
 *
 * <p>A thread that finds every ring taken gets a ring object with no ring: its events are
 * counted (in batches, by the runtime) instead of recorded.
 */
final class ThreadRing {
    // tc_ringfile.h: the thread file's header
    static final int OFF_T_NOW = 128;
    static final int OFF_T_TICKING = 136;
    static final int DROP_BATCH = 256;
    private static final int CACHE_SIZE = 256; // a power of two
    static final int SECTION_DEPTH = 32;

    /** The recent rings by thread id (racy: an entry is checked against its tid, final). */
    private static final ThreadRing[] CACHE = new ThreadRing[CACHE_SIZE];
    private static ThreadLocal<ThreadRing> sLocal = new ThreadLocal<>();
    /** Bumped for each new thread file: rings of an older one are dropped when met. */
    static int sGen;

    final long tid;
    final int gen;
    final long header;                 // 0: this thread has no ring
    final long threads;                // the thread file's header
    final long timeBase;
    final long slotsBase, slotsEnd;    // raw path
    long slot;
    final ByteBuffer buf;              // buffer path
    final int headerSize, offEnd;
    int off;
    private volatile int fenceWord;
    long dropped;                      // events not recorded, not yet counted by the runtime
    final int[] sections = new int[SECTION_DEPTH];
    int depth;

    private ThreadRing(long tid, int gen, long header, long threads, ByteBuffer b) {
        this.tid = tid;
        this.gen = gen;
        this.header = header;
        this.threads = threads;
        if (b == null) {
            timeBase = slotsBase = slotsEnd = 0;
            buf = null;
            headerSize = offEnd = 0;
            return;
        }
        b.order(ByteOrder.nativeOrder());
        long cap = b.getLong(AppMethodBeat.OFF_CAPACITY);
        headerSize = b.getInt(AppMethodBeat.OFF_HEADER_SIZE);
        timeBase = b.getLong(AppMethodBeat.OFF_TIME_BASE);
        buf = b;
        offEnd = (int) (headerSize + cap * 8);
        slotsBase = header + headerSize;
        slotsEnd = slotsBase + cap * 8;
        long s = b.getLong(AppMethodBeat.OFF_SEQ) % cap; // events native code wrote first
        slot = slotsBase + s * 8;
        off = (int) (headerSize + s * 8);
    }

    /** The calling thread's ring. */
    static ThreadRing here(Thread t) {
        long tid = t.getId();
        ThreadRing r = CACHE[(int) tid & (CACHE_SIZE - 1)];
        return r != null && r.tid == tid ? r : slow(t, tid);
    }

    private static ThreadRing slow(Thread t, long tid) {
        ThreadRing r = sLocal.get();
        if (r == null) {
            r = TraceCanary.threadRing(t); // the first event: registers it
            sLocal.set(r);
        }
        CACHE[(int) tid & (CACHE_SIZE - 1)] = r;
        return r;
    }

    /** Under TraceCanary's lock: a ring object for thread t, from the runtime's answer. */
    static ThreadRing make(Thread t, long address, ByteBuffer region, long threads) {
        return new ThreadRing(t.getId(), sGen, address, threads, address != 0 ? region : null);
    }

    /** A new thread file (or none): forget every ring of the old one. Under TraceCanary's lock. */
    static void reset() {
        sGen++;
        Arrays.fill(CACHE, null);
        sLocal = new ThreadLocal<>();
    }

    /** A ring that does not record now: its status is off, or it belongs to an older
     *  thread file (then the thread asks again at its next event). */
    void idle() {
        if (gen != sGen) {
            CACHE[(int) tid & (CACHE_SIZE - 1)] = null;
            sLocal.remove();
        }
    }

    /** This thread has no ring: count its event, in batches. */
    void drop() {
        if (threads != 0 && ++dropped == DROP_BATCH) {
            dropped = 0;
            TraceCanary.threadEventsDropped(DROP_BATCH);
        }
        idle();
    }

    /** Milliseconds since the time base: the clock thread's while it ticks. */
    long nowRaw(sun.misc.Unsafe u) {
        if (u.getInt(threads + OFF_T_TICKING) != 0) {
            u.loadFence(); // the clock word after the flag (set in that order, with release)
            return u.getLong(threads + OFF_T_NOW);
        }
        return (System.nanoTime() - timeBase) / 1_000_000L;
    }

    long nowClock() {
        return (System.nanoTime() - timeBase) / 1_000_000L;
    }

    /** The buffer path's fence (AppMethodBeat.fence), on a word of this thread's own. */
    void fence() {
        fenceWord = 0;
        int unused = fenceWord;
    }
}

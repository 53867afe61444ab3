package com.tencent.matrix.trace.core;

/**
 * The writer of the threads other than the recording thread, when every thread records
 * ({@link TraceCanary#THREADS_ALL}): each writes, as the recording thread does
 * (AppMethodBeat), into a ring of its own on the Java heap, as large as its ring in the
 * thread file (runtime/include/tc_ringfile.h), of which that ring (in a file) is the copy
 * the runtime makes at every clock tick. A thread's first event registers its ring (a JNI
 * call, under TraceCanary's lock); after that an event takes no lock, allocates nothing and
 * calls nothing native: the thread finds its ring in a small table indexed by its id (else,
 * if another thread took that entry, through a ThreadLocal, on the slow path).
 *
 * <p>When a thread ends, the runtime copies its last events and may give its ring in the
 * thread file to a later thread; its Java ring goes with it (the table's entry of a dead
 * thread is dropped when the next thread registers). A thread that finds every ring in
 * use gets a ThreadRing with no ring: its events are counted, in batches, and at each
 * batch it asks again.
 */
final class ThreadRing {
    static final int DROP_BATCH = 256;
    /** The token of a ring the thread interceptor (or Config.threadNames) said no to:
     *  its events are neither recorded nor counted, and it never asks again. */
    static final long NOT_RECORDED = -1;
    static final int SECTION_DEPTH = 32;
    private static final int CACHE_SIZE = 256; // a power of two

    /** The recent rings by thread id (racy: an entry is checked against its tid, final). */
    private static final ThreadRing[] CACHE = new ThreadRing[CACHE_SIZE];
    /** Bumped for each new thread file: a ring of an older one is registered again. */
    static int sGen;

    final long tid;
    final Thread thread;
    final int gen;
    final long[] ring;                 // null: this thread has no ring (every one was in use)
    final int mask;                    // its events - 1 (a power of two)
    final long token;                  // its ring's, for Native.threadEnded
    int dropped;                       // events not recorded, not yet counted by the runtime
    final int[] sections = new int[SECTION_DEPTH];
    int depth;

    ThreadRing(Thread t, long[] ring, long token) {
        this.tid = t.getId();
        this.thread = t;
        this.gen = sGen;
        this.ring = ring;
        this.mask = ring != null ? ring.length - Staging.SLOTS - 1 : 0;
        this.token = token;
    }

    /** The calling thread's ring. */
    static ThreadRing here(Thread t) {
        long id = t.getId();
        ThreadRing r = CACHE[(int) id & (CACHE_SIZE - 1)];
        return r != null && r.tid == id ? r : TraceCanary.threadRing(t);
    }

    void event(int methodId, long inBit) {
        if (methodId >= AppMethodBeat.METHOD_ID_MAX) {
            return;
        }
        long[] r = ring;
        if (r == null) {
            if (token == NOT_RECORDED) {
                return;
            }
            if (++dropped == DROP_BATCH) {
                dropped = 0;
                TraceCanary.threadEventsDropped(this);
            }
            return;
        }
        long now = AppMethodBeat.sNow;
        if (now < 0 && (now = AppMethodBeat.slowNow(now)) < 0) {
            return;
        }
        sun.misc.Unsafe u = AppMethodBeat.U;
        long s = u.getLong(r, AppMethodBeat.SEQ);
        u.putLong(r, AppMethodBeat.SLOT0 + ((s & mask) << 3), inBit | ((long) methodId << 43) | now);
        u.putOrderedLong(r, AppMethodBeat.SEQ, s + 1);
    }

    /** Under TraceCanary's lock: r is its thread's ring now. */
    static void cache(ThreadRing r) {
        CACHE[(int) r.tid & (CACHE_SIZE - 1)] = r;
    }

    /** Under TraceCanary's lock: an entry of a thread that has ended, taken out of the
     *  table (its staging ring can go), or null when there is none. */
    static ThreadRing takeEnded() {
        for (int k = 0; k < CACHE_SIZE; k++) {
            ThreadRing e = CACHE[k];
            if (e != null && !e.thread.isAlive()) {
                CACHE[k] = null;
                return e;
            }
        }
        return null;
    }

    /** A new thread file (or none): forget every ring of the old one. Under TraceCanary's lock. */
    static void reset() {
        sGen++;
        for (int k = 0; k < CACHE_SIZE; k++) {
            CACHE[k] = null;
        }
    }
}

package com.tencent.matrix.trace.core;

import android.app.Activity;

/**
 * The class instrumented code calls: {@code i(id)} at method entry, {@code o(id)}
 * before each exit, {@code at(activity, hasFocus)} in Activity.onWindowFocusChanged.
 *
 * <p>An event costs what a store into a Java array costs, on ART as on HotSpot: it
 * makes no JNI call and no call into native code. The recording thread's events go
 * into a ring on the Java heap, a {@code long[]} as large as the runtime's ring: the
 * event with {@code Unsafe.putLong(Object, long, long)}, then the count with {@code
 * Unsafe.putOrderedLong} (a release store: a thread that reads the count sees the
 * events below it), both compiler intrinsics on ART since Android 5.0 and on HotSpot.
 * That array is the ring of record: the native runtime reads the events there (the
 * tracers' copies), writes its message markers there, and, with a ring file, copies it
 * into the file (which a killed process leaves behind) at every tick of its clock
 * thread. The time is the clock word {@link #sNow}, which the clock thread keeps; when
 * it is stale (the thread sleeps: no message ran and nothing was written for a tick)
 * the event kicks it ({@link #slowNow}), once. The raw-address
 * Unsafe accessors and System.nanoTime are JNI calls on ART, and Unsafe's fences came
 * with Android 7.0; none is on this path (runtime/README.md, "The Java writer";
 * tests/runtime/hotpath checks the compiled classes).
 *
 * <p>Only the recording thread (the main thread) writes into this ring. When every
 * thread records ({@link TraceCanary#THREADS_ALL}), the others write into staging rings
 * of their own ({@link ThreadRing}) the same way.
 *
 * <p>Before the runtime is started, the first {@code i()} starts recording (as Matrix's
 * AppMethodBeat does), so the application's own start is traced; see {@link
 * TraceCanary#configure}.
 */
public final class AppMethodBeat {
    public static final int METHOD_ID_MAX = 0xFFFFF;
    public static final int METHOD_ID_DISPATCH = 0xFFFFE;

    static final long IN = 1L << 63;
    /** The clock word (tc_runtime.h TC_CLOCK_*): a time (ms since the ring's time base,
     *  >= 0) while the clock thread keeps it, else one of these. */
    static final long CLOCK_STALE = -1, CLOCK_OFF = -2;

    static final sun.misc.Unsafe U = Staging.unsafe();
    /** Unsafe offsets of a staging ring's count, copied count and first event. */
    static final long SEQ, COPIED, SLOT0;

    static {
        long base = U != null ? U.arrayBaseOffset(long[].class) : 0;
        SEQ = base + 8L * Staging.SEQ;
        COPIED = base + 8L * Staging.COPIED;
        SLOT0 = base + 8L * Staging.SLOTS;
    }

    /** The clock word, stored by the native runtime (jni_glue.c): the one thing an event
     *  reads that another thread writes. */
    static volatile long sNow = CLOCK_OFF;
    static long[] sRing;                           // the recording thread's staging ring
    static int sMask;                              // its events - 1 (a power of two)
    static Thread sThread;                         // the recording thread, while its events are recorded
    static Thread sOwner;                          // the recording thread (also when U is null: none are)
    static boolean sInside;                        // re-entrancy guard of the slow paths (recording thread)
    static boolean sThreadsOn;                     // every thread records (ThreadRing)
    static final int[] sSections = new int[ThreadRing.SECTION_DEPTH]; // open sections (recording thread)
    static int sSectionDepth;

    private AppMethodBeat() {}

    public static void i(int methodId) {
        Thread t = Thread.currentThread();
        if (t != sThread) {
            other(t, methodId, IN);
            return;
        }
        if (methodId >= METHOD_ID_MAX) {
            return;
        }
        long now = sNow;
        if (now < 0 && (now = slowNow(now)) < 0) {
            return;
        }
        long[] r = sRing;
        long s = U.getLong(r, SEQ);
        U.putLong(r, SLOT0 + ((s & sMask) << 3), IN | ((long) methodId << 43) | now);
        U.putOrderedLong(r, SEQ, s + 1); // after the event: publishes it (tc_ringfile.h)
    }

    public static void o(int methodId) {
        Thread t = Thread.currentThread();
        if (t != sThread) {
            other(t, methodId, 0);
            return;
        }
        if (methodId >= METHOD_ID_MAX) {
            return;
        }
        long now = sNow;
        if (now < 0 && (now = slowNow(now)) < 0) {
            return;
        }
        long[] r = sRing;
        long s = U.getLong(r, SEQ);
        U.putLong(r, SLOT0 + ((s & sMask) << 3), ((long) methodId << 43) | now);
        U.putOrderedLong(r, SEQ, s + 1);
    }

    /** An event of a thread other than the recording thread (inBit: IN or 0): into its
     *  own ring, or before any runtime the first i() on the main thread starts one. Out of
     *  line, so that i() and o() stay small. */
    private static void other(Thread t, int methodId, long inBit) {
        if (sThreadsOn) {
            ThreadRing.here(t).event(methodId, inBit);
        } else if (sThread == null && inBit != 0) {
            TraceCanary.beforeStart(methodId);
        }
    }

    /** The clock word was negative: stale, so the clock thread is kicked and the time it
     *  gives is used; or not recording (-1 back). */
    @SlowPath("the first event after a tick of the clock thread found nothing written and no message running")
    static long slowNow(long word) {
        return word == CLOCK_STALE ? TraceCanary.kick() : -1;
    }

    /** A section begins (id, TraceCanary.sectionId) or the innermost ends, on the calling
     *  thread: recorded as the pseudo-method id's in and out (tc_event.h). Sections deeper
     *  than SECTION_DEPTH are not recorded, but still pair up. */
    static void section(int id, boolean begin) {
        int[] stack;
        int depth;
        ThreadRing r = null;
        if (Thread.currentThread() == sThread) {
            stack = sSections;
            depth = sSectionDepth;
        } else if (sThreadsOn) {
            r = ThreadRing.here(Thread.currentThread());
            stack = r.sections;
            depth = r.depth;
        } else {
            return;
        }
        if (begin) {
            if (depth < stack.length) {
                stack[depth] = id;
                i(id);
            }
            depth++;
        } else if (depth > 0) {
            depth--;
            if (depth < stack.length) {
                o(stack[depth]);
            }
        }
        if (r == null) {
            sSectionDepth = depth;
        } else {
            r.depth = depth;
        }
    }

    /** Injected into Activity.onWindowFocusChanged(boolean) after i(). */
    public static void at(Activity activity, boolean isFocus) {
        TraceCanary.activityFocus(activity, isFocus);
    }

    /** A staging ring for a ring of this capacity (as many events or more: a power of
     *  two). Under TraceCanary's lock. */
    static long[] ring(int capacity) {
        if (U == null) {
            throw new IllegalStateException("no sun.misc.Unsafe: the writer cannot publish its events");
        }
        int slots = Staging.slotsFor(capacity);
        return sRing != null && sRing.length == Staging.SLOTS + slots ? sRing : Staging.ring(slots);
    }

    /** Records from now on for recordThread into r, which the runtime has attached: it moved
     *  the events there and set its count (Native.attach). Under TraceCanary's lock, on the
     *  recording thread. */
    static void attach(Thread recordThread, long[] r) {
        sRing = r;
        sMask = r.length - Staging.SLOTS - 1;
        sThread = recordThread;
        sOwner = recordThread;
    }

    /** The runtime runs for recordThread (messages, reports) but its events are not
     *  recorded: no usable Unsafe ({@link Staging#problem}). i() and o() then take the
     *  other-thread path, which returns at once. */
    static void own(Thread recordThread) {
        sOwner = recordThread;
    }

    /** Every thread records, or (false) only the recording thread; under TraceCanary's lock. */
    static void allThreads(boolean on) {
        if (!on) {
            sThreadsOn = false;
        }
        ThreadRing.reset();
        sThreadsOn = on;
    }

    /** Moves recording to the calling thread. */
    static void bind(Thread t) {
        sOwner = t;
        if (sRing != null) {
            sThread = t;
        }
    }
}

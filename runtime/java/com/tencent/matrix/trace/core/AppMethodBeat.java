package com.tencent.matrix.trace.core;

import android.app.Activity;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The class instrumented code calls: {@code i(id)} at method entry, {@code o(id)}
 * before each exit, {@code at(activity, hasFocus)} in Activity.onWindowFocusChanged.
 *
 * <p>Events go straight into the ring that the native runtime owns (see
 * runtime/include/tc_ringfile.h): the event into the next slot, then the
 * header's write count, with the time read from the header's clock word that
 * the native clock thread keeps current while a message runs; outside a
 * message (idle handlers, input events, code before the first message) that
 * thread sleeps, and the event reads the clock (System.nanoTime, the ring's
 * CLOCK_MONOTONIC) itself. A JNI call per event would cost
 * about 7 times more. Only the recording thread (the main thread) writes, so
 * plain stores suffice for the event; but other threads copy the ring while it
 * writes (the ANR check), and on a weakly ordered CPU (ARM) they could see the
 * new count before the event it counts: a store fence between the two gives
 * the count store release semantics, which is what tc_ringfile.h promises
 * readers. On VMs whose sun.misc.Unsafe has raw-address accessors and fences
 * (HotSpot, ART since 7.0) the stores are raw and the fence is
 * Unsafe.storeFence(); otherwise they go through a direct ByteBuffer over the
 * same memory, fenced by a volatile write and read.
 *
 * <p>Only the recording thread touches the ring: the thread is checked before
 * anything is read from it. That thread alone lets go of the ring before it
 * is replaced (the first {@link TraceCanary#start}) or freed ({@link
 * TraceCanary#release}), so no other thread can read memory already freed.
 * When every thread records ({@link TraceCanary#THREADS_ALL}), the others write
 * into rings of their own ({@link ThreadRing}), which are never moved or
 * unmapped.
 *
 * <p>Before the runtime is started, the first {@code i()} starts recording
 * (as Matrix's AppMethodBeat does), so the application's own start is traced;
 * see {@link TraceCanary#configure}.
 */
public final class AppMethodBeat {
    public static final int METHOD_ID_MAX = 0xFFFFF;
    public static final int METHOD_ID_DISPATCH = 0xFFFFE;

    // tc_ringfile.h
    static final int OFF_HEADER_SIZE = 12;
    static final int OFF_CAPACITY = 24;
    static final int OFF_TIME_BASE = 32;
    static final int OFF_STATUS = 56;
    static final int OFF_SEQ = 64;
    static final int OFF_NOW = 128;
    static final int STATUS_READY = 1;
    private static final long IN = 1L << 63;
    private static final long TIME_MASK = 0x7FFFFFFFFFFL;

    static final sun.misc.Unsafe U = unsafe();
    /** Raw-address stores available: a constant, so the JIT keeps one branch. */
    static final boolean RAW = U != null;

    /** Address of the ring header, 0 while there is none. Volatile: it publishes the fields below. */
    static volatile long sHeader;
    static long sSlot, sSlotsBase, sSlotsEnd;      // raw path: addresses
    static ByteBuffer sBuf;                        // buffer path
    static int sOff, sOffEnd, sHeaderSize;
    static long sCapacity;
    static long sTimeBase;                         // the ring's time 0, System.nanoTime() base
    static boolean sInMessage;                     // a main-looper message runs (recording thread)
    static Thread sThread;                         // the recording thread
    static boolean sInside;                        // re-entrancy guard (recording thread)
    static boolean sThreadsOn;                     // every thread records (ThreadRing)
    static final int[] sSections = new int[ThreadRing.SECTION_DEPTH]; // open sections (recording thread)
    static int sSectionDepth;
    private static volatile int sFence;            // fence() only

    private AppMethodBeat() {}

    private static sun.misc.Unsafe unsafe() {
        if ("false".equals(System.getProperty("tc.raw"))) {
            return null; // -Dtc.raw=false: the ByteBuffer path, e.g. to measure it
        }
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            sun.misc.Unsafe u = (sun.misc.Unsafe) f.get(null);
            // ART before 7.0 lacks the raw-address accessors and the fences.
            sun.misc.Unsafe.class.getMethod("putLong", long.class, long.class);
            sun.misc.Unsafe.class.getMethod("getLong", long.class);
            sun.misc.Unsafe.class.getMethod("getInt", long.class);
            sun.misc.Unsafe.class.getMethod("storeFence");
            sun.misc.Unsafe.class.getMethod("loadFence");
            return u;
        } catch (Throwable t) {
            return null;
        }
    }

    public static void i(int methodId) {
        if (!RAW) {
            iBuffer(methodId);
            return;
        }
        long h = sHeader;
        if (h == 0) {
            TraceCanary.beforeStart(methodId);
            return;
        }
        if (Thread.currentThread() != sThread) {
            if (sThreadsOn) {
                other(methodId, IN);
            }
            return;
        }
        if (methodId >= METHOD_ID_MAX || sInside || U.getInt(h + OFF_STATUS) < STATUS_READY) {
            return;
        }
        sInside = true;
        long p = sSlot;
        U.putLong(p, IN | ((long) methodId << 43) | ((sInMessage ? U.getLong(h + OFF_NOW) : clockMs()) & TIME_MASK));
        p += 8;
        sSlot = p == sSlotsEnd ? sSlotsBase : p;
        U.storeFence(); // the event before the count that publishes it (tc_ringfile.h)
        U.putLong(h + OFF_SEQ, U.getLong(h + OFF_SEQ) + 1);
        sInside = false;
    }

    public static void o(int methodId) {
        if (!RAW) {
            oBuffer(methodId);
            return;
        }
        long h = sHeader;
        if (h == 0) {
            return;
        }
        if (Thread.currentThread() != sThread) {
            if (sThreadsOn) {
                other(methodId, 0);
            }
            return;
        }
        if (methodId >= METHOD_ID_MAX || U.getInt(h + OFF_STATUS) < STATUS_READY) {
            return;
        }
        long p = sSlot;
        U.putLong(p, ((long) methodId << 43) | ((sInMessage ? U.getLong(h + OFF_NOW) : clockMs()) & TIME_MASK));
        p += 8;
        sSlot = p == sSlotsEnd ? sSlotsBase : p;
        U.storeFence();
        U.putLong(h + OFF_SEQ, U.getLong(h + OFF_SEQ) + 1);
    }

    /** An event of a thread other than the recording thread (inBit: IN or 0), into its
     *  own ring; out of line, so that i() and o() stay small. */
    private static void other(int methodId, long inBit) {
        ThreadRing r = ThreadRing.here(Thread.currentThread());
        long h = r.header;
        if (h == 0) {
            r.drop();
            return;
        }
        if (methodId >= METHOD_ID_MAX) {
            return;
        }
        if (U.getInt(h + OFF_STATUS) < STATUS_READY) {
            r.idle();
            return;
        }
        long p = r.slot;
        U.putLong(p, inBit | ((long) methodId << 43) | (r.nowRaw(U) & TIME_MASK));
        p += 8;
        r.slot = p == r.slotsEnd ? r.slotsBase : p;
        U.storeFence();
        U.putLong(h + OFF_SEQ, U.getLong(h + OFF_SEQ) + 1);
    }

    private static void otherBuffer(int methodId, long inBit) {
        ThreadRing r = ThreadRing.here(Thread.currentThread());
        ByteBuffer b = r.buf;
        if (b == null) {
            r.drop();
            return;
        }
        if (methodId >= METHOD_ID_MAX) {
            return;
        }
        if (b.getInt(OFF_STATUS) < STATUS_READY) {
            r.idle();
            return;
        }
        int p = r.off;
        b.putLong(p, inBit | ((long) methodId << 43) | (r.nowClock() & TIME_MASK));
        p += 8;
        r.off = p == r.offEnd ? r.headerSize : p;
        r.fence();
        b.putLong(OFF_SEQ, b.getLong(OFF_SEQ) + 1);
    }

    // The same through the ByteBuffer, out of line so that i() and o() stay
    // small enough for the JIT to inline everywhere.
    private static void iBuffer(int methodId) {
        if (sHeader == 0) {
            TraceCanary.beforeStart(methodId);
            return;
        }
        if (Thread.currentThread() != sThread) {
            if (sThreadsOn) {
                otherBuffer(methodId, IN);
            }
            return;
        }
        if (methodId >= METHOD_ID_MAX || sInside) {
            return;
        }
        ByteBuffer b = sBuf;
        if (b.getInt(OFF_STATUS) < STATUS_READY) {
            return;
        }
        sInside = true;
        int p = sOff;
        b.putLong(p, IN | ((long) methodId << 43) | ((sInMessage ? b.getLong(OFF_NOW) : clockMs()) & TIME_MASK));
        p += 8;
        sOff = p == sOffEnd ? sHeaderSize : p;
        fence();
        b.putLong(OFF_SEQ, b.getLong(OFF_SEQ) + 1);
        sInside = false;
    }

    private static void oBuffer(int methodId) {
        if (sHeader == 0) {
            return;
        }
        if (Thread.currentThread() != sThread) {
            if (sThreadsOn) {
                otherBuffer(methodId, 0);
            }
            return;
        }
        if (methodId >= METHOD_ID_MAX) {
            return;
        }
        ByteBuffer b = sBuf;
        if (b.getInt(OFF_STATUS) < STATUS_READY) {
            return;
        }
        int p = sOff;
        b.putLong(p, ((long) methodId << 43) | ((sInMessage ? b.getLong(OFF_NOW) : clockMs()) & TIME_MASK));
        p += 8;
        sOff = p == sOffEnd ? sHeaderSize : p;
        fence();
        b.putLong(OFF_SEQ, b.getLong(OFF_SEQ) + 1);
    }

    /** Milliseconds since the ring's time base: the event time outside messages. */
    private static long clockMs() {
        return (System.nanoTime() - sTimeBase) / 1_000_000L;
    }

    /** The ByteBuffer path's fence, with Java 8 means: a volatile write, then a volatile
     *  read (StoreLoad). Earlier stores cannot pass the write, later ones cannot pass the
     *  read, and the two stay in order: ART and HotSpot emit a full barrier between them. */
    private static void fence() {
        sFence = 0;
        int unused = sFence;
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

    /** Points the writer at a ring; recording thread, before sHeader is published. */
    static void attach(long address, ByteBuffer region, Thread recordThread) {
        ByteBuffer b = region.order(ByteOrder.nativeOrder());
        long cap = b.getLong(OFF_CAPACITY);
        int hs = b.getInt(OFF_HEADER_SIZE);
        sCapacity = cap;
        sHeaderSize = hs;
        sTimeBase = b.getLong(OFF_TIME_BASE);
        sBuf = b;
        sOffEnd = (int) (hs + cap * 8);
        sSlotsBase = address + hs;
        sSlotsEnd = sSlotsBase + cap * 8;
        sThread = recordThread;
        resync(b.getLong(OFF_SEQ));
        sHeader = address; // volatile: publishes the fields above
    }

    /** Forgets the ring; the caller frees or replaces it afterwards, on the recording thread. */
    static void detach() {
        sHeader = 0;
        sBuf = null;
    }

    /** Every thread records, or (false) only the recording thread; under TraceCanary's lock. */
    static void allThreads(boolean on) {
        if (!on) {
            sThreadsOn = false;
        }
        ThreadRing.reset();
        sThreadsOn = on;
    }

    /** The native side wrote events (message markers): move to seq's slot. */
    static void resync(long seq) {
        long slot = seq % sCapacity;
        sSlot = sSlotsBase + slot * 8;
        sOff = (int) (sHeaderSize + slot * 8);
    }

    /** Moves recording to the calling thread. */
    static void bind(Thread t) {
        sThread = t;
    }
}

package com.tencent.matrix.trace.core;

/**
 * The Java writer on a weakly ordered CPU (sun.misc.Unsafe is replaced by the store-buffer
 * model in tests/runtime/weak/sun/misc/Unsafe.java). After every traced call the stores
 * still buffered reach memory in the worst allowed order, and after each one the ring is
 * read as another thread reads it (the ANR check's copy, tc_ringfile.h): whenever the
 * count says n events were written, event n-1 must be in its slot. Without a fence
 * between the event and the count, the count can land first.
 *
 *   java --patch-module jdk.unsupported=WEAK --add-exports java.base/jdk.internal.misc=jdk.unsupported
 *        -Dtc.lib=LIB -cp ... com.tencent.matrix.trace.core.WeakOrder
 */
public final class WeakOrder {
    private static final int EVENTS = 200;
    private static final long[] expected = new long[EVENTS]; // id and direction, by seq
    private static int written, checks, broken;
    private static String firstBroken;

    private static void check() {
        long h = AppMethodBeat.sHeader;
        long seq = sun.misc.Unsafe.memoryLong(h + AppMethodBeat.OFF_SEQ);
        checks++;
        if (seq == 0) {
            return;
        }
        long slot = sun.misc.Unsafe.memoryLong(h + AppMethodBeat.sHeaderSize
                + ((seq - 1) % AppMethodBeat.sCapacity) * 8);
        long want = expected[(int) (seq - 1)];
        if ((slot & ~0x7FFFFFFFFFFL) != want) {
            broken++;
            if (firstBroken == null) {
                firstBroken = "count " + seq + " visible before its event (slot holds 0x" + Long.toHexString(slot) + ")";
            }
        }
    }

    private static void traced(int id, boolean in) {
        expected[written++] = (in ? 1L << 63 : 0) | ((long) id << 43);
        if (in) {
            AppMethodBeat.i(id);
        } else {
            AppMethodBeat.o(id);
        }
        sun.misc.Unsafe.settle(WeakOrder::check);
    }

    public static void main(String[] args) {
        TraceCanary.Config c = new TraceCanary.Config().libraryPath(System.getProperty("tc.lib"));
        c.tracers = 0;
        c.capacity = 4096;
        TraceCanary.start(c, null);
        if (!AppMethodBeat.RAW) {
            System.out.println("not ok - the raw path took the model of sun.misc.Unsafe");
            System.exit(1);
        }
        for (int id = 1; written < EVENTS; id++) {
            traced(id, true);
            traced(id, false);
        }
        long seq = TraceCanary.written();
        TraceCanary.release();
        int failed = 0;
        if (seq == EVENTS) {
            System.out.println("ok - " + EVENTS + " events recorded");
        } else {
            System.out.println("not ok - " + EVENTS + " events recorded: " + seq);
            failed++;
        }
        if (broken == 0) {
            System.out.println("ok - no reader saw a count before its event (" + checks + " views)");
        } else {
            System.out.println("not ok - " + broken + " of " + checks + " views saw a count before its event; first: "
                    + firstBroken);
            failed++;
        }
        System.out.println("# " + sun.misc.Unsafe.fences() + " fences");
        System.exit(failed == 0 ? 0 : 1);
    }
}

package com.tencent.matrix.trace.core;

/** Bench access to the runtime's package: the cost of one JNI call (a
 *  native that only reads the write count), the floor of a design that
 *  calls into C per event. */
public final class JniCall {
    private JniCall() {}

    public static long loop(int n) {
        long h = AppMethodBeat.sHeader == 0 ? 0 : ctx();
        long t = System.nanoTime(), s = 0;
        for (int k = 0; k < n; k++) {
            s += Native.written(h);
        }
        long d = System.nanoTime() - t;
        if (s == 42) System.out.print("");
        return d;
    }

    public static boolean raw() {
        return AppMethodBeat.RAW;
    }

    private static long ctx() {
        return TraceCanary.handle();
    }
}

package com.tencent.matrix.trace.core;

/** Bench access to the runtime's package: the cost of one JNI call (a
 *  native that only reads the status), the floor of a design that
 *  calls into C per event. Uses only what every version of the runtime has,
 *  so that run.sh can measure a baseline build with the same bench. */
public final class JniCall {
    private JniCall() {}

    public static long loop(int n) {
        long h = TraceCanary.handle();
        long t = System.nanoTime(), s = 0;
        for (int k = 0; k < n; k++) {
            s += Native.status(h);
        }
        long d = System.nanoTime() - t;
        if (s == 42) System.out.print("");
        return d;
    }
}

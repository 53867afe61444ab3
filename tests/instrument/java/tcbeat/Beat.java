package tcbeat;

/**
 * The beat class for instrumenting the JDK itself (tests/instrument/jdk.sh): it lives
 * in java.base (patched in) and counts i() and o() per thread.
 *
 * It must not call anything that is instrumented, or it would recurse: only array
 * stores, Thread.currentThread() (native) and Thread.getId() (a getter, which the
 * filters never trace). Counters are per thread slot, so no locking is needed.
 *
 * The JDK calls i() and o() from the first class initializers of VM start-up, before
 * Thread can be used: counting starts only once a driver calls start().
 */
public final class Beat {
    private static final int SLOTS = 1 << 16;
    private static final long[] IN = new long[SLOTS];
    private static final long[] OUT = new long[SLOTS];

    private static volatile boolean counting;

    private Beat() {}

    public static void start() {
        counting = true;
    }

    public static void i(int id) {
        if (counting)
            IN[(int) (Thread.currentThread().getId() & (SLOTS - 1))]++;
    }

    public static void o(int id) {
        if (counting)
            OUT[(int) (Thread.currentThread().getId() & (SLOTS - 1))]++;
    }

    public static long ins(long threadId) {
        return IN[(int) (threadId & (SLOTS - 1))];
    }

    public static long outs(long threadId) {
        return OUT[(int) (threadId & (SLOTS - 1))];
    }
}

package android.os;

/** Stub: uptime from System.nanoTime (CLOCK_MONOTONIC on Linux, as on Android), which
 *  stubAdvance can move forward. */
public final class SystemClock {
    private static volatile long advancedMs;

    private SystemClock() {}

    public static long uptimeMillis() {
        return System.nanoTime() / 1_000_000L + advancedMs;
    }

    // ---- stub helper, not Android API ----

    /** Moves uptime forward by ms (not System.nanoTime, the runtime's clock): for code
     *  that acts once a minute. Messages due meanwhile become due at once. */
    public static void stubAdvance(long ms) {
        advancedMs += ms;
    }

    public static long elapsedRealtime() {
        return uptimeMillis();
    }

    public static void sleep(long ms) {
        long end = uptimeMillis() + ms;
        for (long left = ms; left > 0; left = end - uptimeMillis()) {
            try {
                Thread.sleep(left);
            } catch (InterruptedException e) {
                // as Android: keep sleeping
            }
        }
    }
}

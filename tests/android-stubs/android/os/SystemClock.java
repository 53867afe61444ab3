package android.os;

/** Stub: uptime from System.nanoTime (CLOCK_MONOTONIC on Linux, as on Android). */
public final class SystemClock {
    private SystemClock() {}

    public static long uptimeMillis() {
        return System.nanoTime() / 1_000_000L;
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

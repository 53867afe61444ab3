package sample;

/** Busy waiting that shows up as the method's own time (not sleeping: on a device
 *  the main thread would be running, and so does the runtime's clock here). */
final class Work {
    private static volatile long sink;

    private Work() {}

    static void spin(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L;
        long x = 1;
        while (System.nanoTime() < end)
            x = x * 6364136223846793005L + 1442695040888963407L;
        sink = x;
    }

    static long elapsedSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000L;
    }
}

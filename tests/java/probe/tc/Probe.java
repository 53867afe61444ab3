package tc;

/** The calls tc-stress inserts (--probe tc/Probe) into corpora outside the JDK. */
public final class Probe {
    public static long calls;

    private Probe() {
    }

    public static void i(int id) {
        calls++;
    }

    public static void o(int id) {
        calls++;
    }

    public static void r() {
        calls++;
    }
}

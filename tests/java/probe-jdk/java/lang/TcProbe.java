package java.lang;

/**
 * The calls tc-stress inserts into the JDK's modules other than java.base (java.base
 * itself is stressed with --no-calls: it runs before any probe could be loaded). Patched
 * into java.base, so every module can call it. It only counts, racily: a count above
 * zero shows that edited code ran.
 */
public final class TcProbe {
    private static long calls;

    private TcProbe() {
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

    public static long calls() {
        return calls;
    }
}

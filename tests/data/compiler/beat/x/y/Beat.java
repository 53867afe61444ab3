package x.y;

import x.y.z.Log;

/* A beat class for --beat-class x.y.Beat: records the calls through Log, a class of a
 * sub-package. Were x.y or x.y.z instrumented, i() would call itself without end. */
public final class Beat {
    private static final StringBuilder EVENTS = new StringBuilder();
    private static int depth;

    private Beat() {
    }

    public static void i(int id) {
        depth++;
        Log.add(EVENTS, "i" + id);
    }

    public static void o(int id) {
        depth--;
        Log.add(EVENTS, "o" + id);
    }

    public static String events() {
        return EVENTS.toString().trim() + " depth=" + depth;
    }
}

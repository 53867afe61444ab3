/** Printing for the test programs. Lives outside the instrumented input (class path only),
 *  so it never shows up in the event sequences. */
public final class Out {
    private Out() {}

    public static void p(String s) {
        System.out.println(s);
    }
}

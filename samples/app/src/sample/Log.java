package sample;

/** The app's debug log (quiet unless -Dsample.verbose=true). */
final class Log {
    private static final boolean VERBOSE = Boolean.getBoolean("sample.verbose");

    private Log() {}

    static void d(String msg) {
        if (VERBOSE)
            System.out.println("sample: " + msg);
    }
}

/**
 * Probes that do nothing: i() and o() are empty static methods. Code instrumented with
 * --beat-class EmptyBeat carries the probes' whole shape (the pushes, the calls, the
 * catch-all handler, the larger methods) but records nothing, so its cost against the
 * untraced code is what the shape alone costs the JIT (bench/runtime/javac/shape.sh).
 */
public final class EmptyBeat {
    private EmptyBeat() {
    }

    public static void i(int methodId) {
    }

    public static void o(int methodId) {
    }
}

package android.util;

/** Stub. */
public interface Printer {
    void println(String x);
}

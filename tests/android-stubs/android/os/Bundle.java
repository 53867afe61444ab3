package android.os;

/** Stub: only passed around. */
public final class Bundle {
}

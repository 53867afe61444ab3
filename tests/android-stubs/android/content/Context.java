package android.content;

/** Stub: the common base of Activity and Application. */
public abstract class Context {
}

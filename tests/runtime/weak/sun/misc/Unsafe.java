package sun.misc;

import java.util.ArrayList;
import java.util.List;

/**
 * A weakly ordered CPU, for the runtime's Java writers (AppMethodBeat, ThreadRing): this
 * class is patched over the JDK's sun.misc.Unsafe (java --patch-module
 * jdk.unsupported=...) and implements what the writers use. Their stores do not reach
 * memory at once: they wait in a store buffer, which the writing thread reads through (a
 * thread sees its own stores). A release store (putOrderedLong) first lets every earlier
 * store reach memory, in program order, and then waits in the buffer itself. settle() lets
 * what is left reach memory in the worst order ARM allows for stores no release
 * separates, the newest first (a later store may pass a release store), and runs a check
 * after each, as another thread reading memory would. Memory is read and written through
 * the JDK's own jdk.internal.misc.Unsafe. One writing thread at a time; no other code may
 * use this class meanwhile.
 */
public final class Unsafe {
    private static final Unsafe theUnsafe = new Unsafe();
    private static final jdk.internal.misc.Unsafe MEMORY = jdk.internal.misc.Unsafe.getUnsafe();

    private static final class Store {
        final Object o;
        final long off, value;

        Store(Object o, long off, long value) {
            this.o = o;
            this.off = off;
            this.value = value;
        }
    }

    private static final List<Store> buffer = new ArrayList<>(); // oldest first
    private static int releases;

    private Unsafe() {}

    public int arrayBaseOffset(Class<?> c) {
        return MEMORY.arrayBaseOffset(c);
    }

    public void putLong(Object o, long off, long value) {
        buffer.add(new Store(o, off, value));
    }

    public void putOrderedLong(Object o, long off, long value) {
        releases++;
        drain();
        buffer.add(new Store(o, off, value));
    }

    public long getLong(Object o, long off) {
        for (int i = buffer.size() - 1; i >= 0; i--) {
            Store s = buffer.get(i);
            if (s.o == o && s.off == off) {
                return s.value;
            }
        }
        return MEMORY.getLong(o, off);
    }

    private static void drain() {
        for (Store s : buffer) {
            MEMORY.putLong(s.o, s.off, s.value);
        }
        buffer.clear();
    }

    // ---- for the test, not sun.misc.Unsafe API ----

    /** Lets the buffered stores reach memory, newest first, running check after each. */
    public static void settle(Runnable check) {
        while (!buffer.isEmpty()) {
            Store s = buffer.remove(buffer.size() - 1);
            MEMORY.putLong(s.o, s.off, s.value);
            check.run();
        }
    }

    /** Release stores the writers have made. */
    public static int releases() {
        return releases;
    }
}

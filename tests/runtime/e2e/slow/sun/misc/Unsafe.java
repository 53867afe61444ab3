package sun.misc;

/**
 * sun.misc.Unsafe as a VM on which the writers' accessors are calls, not intrinsics (what a
 * newer ART could make of them): patched over the JDK's (java --patch-module
 * jdk.unsupported=...) for e2e.sh's mode self-check-slow. Each member works, through the
 * JDK's own jdk.internal.misc.Unsafe, and putOrderedLong takes about a microsecond more, as
 * a few JNI transitions on a phone would.
 */
public final class Unsafe {
    private static final Unsafe theUnsafe = new Unsafe();
    private static final jdk.internal.misc.Unsafe MEMORY = jdk.internal.misc.Unsafe.getUnsafe();

    private Unsafe() {}

    public int arrayBaseOffset(Class<?> c) {
        return MEMORY.arrayBaseOffset(c);
    }

    public long getLong(Object o, long off) {
        return MEMORY.getLong(o, off);
    }

    public void putLong(Object o, long off, long value) {
        MEMORY.putLong(o, off, value);
    }

    public void putOrderedLong(Object o, long off, long value) {
        long end = System.nanoTime() + 1000;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        MEMORY.putLongRelease(o, off, value);
    }
}

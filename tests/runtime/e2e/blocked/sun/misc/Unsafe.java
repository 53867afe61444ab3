package sun.misc;

/**
 * sun.misc.Unsafe as a device whose hidden-API policy blocks one member: patched over the
 * JDK's (java --patch-module jdk.unsupported=...) for e2e.sh's mode unsafe-blocked.
 * theUnsafe can be read and the accessors work, but putOrderedLong throws what ART throws
 * for a blocked method at its first call, NoSuchMethodError. Memory is read and written
 * through the JDK's own jdk.internal.misc.Unsafe.
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
        throw new NoSuchMethodError("No virtual method putOrderedLong(Ljava/lang/Object;JJ)V in class "
                + "Lsun/misc/Unsafe; or its super classes (declaration of 'sun.misc.Unsafe' appears in "
                + "/apex/com.android.art/javalib/core-oj.jar)");
    }
}

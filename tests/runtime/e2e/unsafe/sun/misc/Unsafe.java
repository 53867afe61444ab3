package sun.misc;

/**
 * sun.misc.Unsafe as a VM that treats the writers' release store otherwise than HotSpot:
 * patched over the JDK's (java --patch-module jdk.unsupported=...) by e2e.sh, which says
 * how with -Dtc.e2e.unsafe=
 * <ul>
 * <li>{@code slow} (mode self-check-slow): the writers' accessors are calls, not
 *     intrinsics (what a newer ART could make of them): putOrderedLong takes about a
 *     microsecond more, as a few JNI transitions on a phone would;
 * <li>{@code blocked} (mode unsafe-blocked): a device whose hidden-API policy blocks one
 *     member: putOrderedLong throws what ART throws for a blocked method at its first
 *     call, NoSuchMethodError.
 * </ul>
 * Neither (no property): it works as the JDK's. theUnsafe can be read and every other
 * member works. Memory is read and written through
 * the JDK's own jdk.internal.misc.Unsafe.
 */
public final class Unsafe {
    private static final Unsafe theUnsafe = new Unsafe();
    private static final jdk.internal.misc.Unsafe MEMORY = jdk.internal.misc.Unsafe.getUnsafe();
    private static final String MODE = System.getProperty("tc.e2e.unsafe", "");
    private static final boolean SLOW = MODE.equals("slow");
    private static final boolean BLOCKED = MODE.equals("blocked");

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
        if (BLOCKED) {
            throw new NoSuchMethodError("No virtual method putOrderedLong(Ljava/lang/Object;JJ)V in class "
                    + "Lsun/misc/Unsafe; or its super classes (declaration of 'sun.misc.Unsafe' appears in "
                    + "/apex/com.android.art/javalib/core-oj.jar)");
        }
        long end = SLOW ? System.nanoTime() + 1000 : 0;
        while (SLOW && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        MEMORY.putLongRelease(o, off, value);
    }
}

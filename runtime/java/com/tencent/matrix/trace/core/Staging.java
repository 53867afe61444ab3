package com.tencent.matrix.trace.core;

import java.lang.reflect.Field;

/**
 * What the writers' staging rings need from the VM, found once, out of the writers'
 * classes (so that these reference nothing but what every API level has; see
 * tests/runtime/hotpath). A staging ring is a {@code long[]}: element 0 the count of
 * events written, element 1 the count copied, elements {@link #SLOTS}.. the events
 * (runtime/include/tc_ringfile.h, "Staged writers"; jni_glue.c reads it).
 */
final class Staging {
    /** Element 0 is the count of events written (the writer's); element 1 the count the
     *  runtime has copied (the runtime's); the events start at element SLOTS, so that the
     *  counts have a cache line of their own. */
    static final int SEQ = 0, COPIED = 1, SLOTS = 8;

    private Staging() {}

    /** Why {@link #unsafe} gave null (one line), or null. */
    static String problem;

    /** sun.misc.Unsafe: HotSpot, and ART from Android 5.0 (its (Object, long) accessors and
     *  putOrderedLong are compiler intrinsics there); null elsewhere, or where a member the
     *  writers use per event is refused (problem says which). Each is called once here, on
     *  a scratch staging ring: a hidden-API policy that blocks one (targetSdk 28 and up;
     *  ART is updated through Mainline from API 31) throws at its first call
     *  (NoSuchMethodError, a LinkageError), which must be here, at start, not inside every
     *  traced method. */
    static sun.misc.Unsafe unsafe() {
        sun.misc.Unsafe u;
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            u = (sun.misc.Unsafe) f.get(null);
        } catch (Throwable t) {
            problem = "no sun.misc.Unsafe: " + t;
            return null;
        }
        String member = "arrayBaseOffset(Class)";
        try {
            long[] a = ring(2);
            long base = u.arrayBaseOffset(long[].class);
            member = "getLong(Object, long)";
            long s = u.getLong(a, base + 8L * SEQ);
            member = "putLong(Object, long, long)";
            u.putLong(a, base + 8L * SLOTS, s + 7);
            member = "putOrderedLong(Object, long, long)";
            u.putOrderedLong(a, base + 8L * SEQ, s + 1);
            // read back through Unsafe too: a thread sees its own stores (tests/runtime/weak
            // models a store buffer that plain reads of the array would miss)
            if (u.getLong(a, base + 8L * SEQ) != 1 || u.getLong(a, base + 8L * SLOTS) != 7) {
                problem = "sun.misc.Unsafe's accessors do not address a long[]'s elements";
                return null;
            }
        } catch (LinkageError | SecurityException | UnsupportedOperationException e) {
            problem = "sun.misc.Unsafe." + member + " refused: " + e;
            return null;
        }
        return u;
    }

    /** A staging ring of slots events (a power of two). */
    static long[] ring(int slots) {
        return new long[SLOTS + slots];
    }

    /** The events a staging ring holds for a ring of capacity events: a power of two, as
     *  many or more. */
    static int slotsFor(int capacity) {
        int slots = 2;
        while (slots < capacity && slots < (1 << 30)) {
            slots <<= 1;
        }
        return slots;
    }
}

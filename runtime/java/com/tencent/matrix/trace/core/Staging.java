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

    /** sun.misc.Unsafe: HotSpot, and ART from Android 5.0 (its (Object, long) accessors and
     *  putOrderedLong are compiler intrinsics there); null elsewhere. */
    static sun.misc.Unsafe unsafe() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (Throwable t) {
            return null;
        }
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

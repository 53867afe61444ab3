package com.tencent.matrix.trace.android;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/** Reflection on the framework's hidden members, which hidden-API enforcement (Android
 *  9+) may refuse: each call returns an accessible member of the class or one of its
 *  superclasses, or throws (a refusal is an InaccessibleObjectException or a
 *  SecurityException on some VMs, a NoSuchFieldException or NoSuchMethodException on
 *  Android). */
final class Reflection {
    private Reflection() {}

    static Field field(Class<?> c, String name) throws NoSuchFieldException {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try {
                Field f = k.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(c.getName() + "." + name);
    }

    /** Declared methods too: getMethod sees public ones only. */
    static Method method(Class<?> c, String name, Class<?>... parameterTypes) throws NoSuchMethodException {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try {
                Method m = k.getDeclaredMethod(name, parameterTypes);
                m.setAccessible(true);
                return m;
            } catch (NoSuchMethodException e) {
                // look in the superclass
            }
        }
        throw new NoSuchMethodException(c.getName() + "." + name);
    }
}

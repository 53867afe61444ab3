package sun.misc;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A weakly ordered CPU, for the runtime's Java writer (AppMethodBeat): this class is
 * patched over the JDK's sun.misc.Unsafe (java --patch-module jdk.unsupported=...) and
 * implements what the writer uses. Its raw-address stores do not reach memory at once:
 * they wait in a store buffer, which the writing thread reads through (a thread sees its
 * own stores), until a fence drains it in program order. settle() then lets what is left
 * reach memory in the worst order that ARM allows for stores no fence separates, the
 * newest first, and runs a check, as another thread would read memory, after each
 * store. Memory is read and written through the JDK's own jdk.internal.misc.Unsafe.
 * One writing thread; no other code may use this class meanwhile.
 */
public final class Unsafe {
    private static final Unsafe theUnsafe = new Unsafe();
    private static final jdk.internal.misc.Unsafe MEMORY = jdk.internal.misc.Unsafe.getUnsafe();
    private static final List<long[]> buffer = new ArrayList<>(); // {address, value}, oldest first
    private static int fences;

    static {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new AssertionError("getInt below assumes little-endian longs");
        }
    }

    private Unsafe() {}

    public void putLong(long address, long value) {
        buffer.add(new long[] {address, value});
    }

    public long getLong(long address) {
        for (int i = buffer.size() - 1; i >= 0; i--) {
            if (buffer.get(i)[0] == address) {
                return buffer.get(i)[1];
            }
        }
        return MEMORY.getLong(address);
    }

    public int getInt(long address) {
        for (int i = buffer.size() - 1; i >= 0; i--) {
            long[] s = buffer.get(i);
            if (s[0] == address) {
                return (int) s[1];
            }
            if (s[0] == address - 4) {
                return (int) (s[1] >>> 32);
            }
        }
        return MEMORY.getInt(address);
    }

    public void storeFence() {
        fences++;
        drain();
    }

    /** Loads are not reordered in this model (it buffers stores): nothing to do. */
    public void loadFence() {
    }

    public void fullFence() {
        fences++;
        drain();
    }

    private static void drain() {
        for (long[] s : buffer) {
            MEMORY.putLong(s[0], s[1]);
        }
        buffer.clear();
    }

    // ---- for the test, not sun.misc.Unsafe API ----

    /** Lets the buffered stores reach memory, newest first, running check after each. */
    public static void settle(Runnable check) {
        while (!buffer.isEmpty()) {
            long[] s = buffer.remove(buffer.size() - 1);
            MEMORY.putLong(s[0], s[1]);
            check.run();
        }
    }

    /** A long as another thread reads it from memory, past the store buffer. */
    public static long memoryLong(long address) {
        return MEMORY.getLong(address);
    }

    /** Fences the writer has executed. */
    public static int fences() {
        return fences;
    }
}

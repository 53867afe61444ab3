package com.tencent.matrix.trace.core;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The Java writers on a weakly ordered CPU (sun.misc.Unsafe is replaced by the store-buffer
 * model in tests/runtime/weak/sun/misc/Unsafe.java). After every traced call the stores
 * still buffered reach memory in the worst allowed order, and after each one the runtime
 * copies the staging ring as it does from its clock thread (the real pull, through JNI:
 * the count, an acquire fence, the events) and the ring file is read as a killed process
 * leaves it: whenever its count says n events were written, event n-1 must be in its slot.
 * Without the release store of the count (putOrderedLong), the count can reach memory
 * before the event, the pull copies a slot that does not hold it yet, and the file keeps
 * that (weak.sh also runs a copy of the writers with that store made plain, and expects
 * this test to fail). The recording thread's writer first, then another thread's
 * (threads = all).
 *
 *   java --patch-module jdk.unsupported=WEAK --add-exports java.base/jdk.internal.misc=jdk.unsupported
 *        -Dtc.lib=LIB -cp ... com.tencent.matrix.trace.core.WeakOrder DIR
 */
public final class WeakOrder {
    private static final int EVENTS = 200;
    private static final long[] expected = new long[EVENTS]; // id and direction, by seq
    private static int written, checks, broken, failed;
    private static String firstBroken;
    private static MappedByteBuffer file;
    private static int ring;                // the ring's offset in the file
    private static Runnable pull;

    private static MappedByteBuffer map(String path) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(path, "r")) {
            MappedByteBuffer b = f.getChannel().map(FileChannel.MapMode.READ_ONLY, 0, f.length());
            b.order(ByteOrder.nativeOrder());
            return b;
        }
    }

    private static void check() {
        pull.run();
        long seq = file.getLong(ring + 64);
        checks++;
        if (seq == 0) {
            return;
        }
        int headerSize = file.getInt(ring + 12);
        long cap = file.getLong(ring + 24);
        long slot = file.getLong(ring + headerSize + (int) ((seq - 1) % cap) * 8);
        long want = seq <= EVENTS ? expected[(int) (seq - 1)] : -1;
        if ((slot & ~0x7FFFFFFFFFFL) != want) {
            broken++;
            if (firstBroken == null) {
                firstBroken = "count " + seq + " copied before its event (slot holds 0x" + Long.toHexString(slot) + ")";
            }
        }
    }

    private static void traced(int id, boolean in) {
        expected[written++] = (in ? 1L << 63 : 0) | ((long) id << 43);
        if (in) {
            AppMethodBeat.i(id);
        } else {
            AppMethodBeat.o(id);
        }
        sun.misc.Unsafe.settle(WeakOrder::check);
    }

    /** Traced calls until the ring's count reaches EVENTS (it holds `written` already). */
    private static void phase(String who) {
        checks = broken = 0;
        firstBroken = null;
        for (int id = 1; written < EVENTS; id++) {
            traced(id, true);
            if (written < EVENTS) {
                traced(id, false);
            }
        }
        pull.run();
        long seq = file.getLong(ring + 64);
        if (seq == EVENTS) {
            System.out.println("ok - " + who + ": " + EVENTS + " events recorded");
        } else {
            System.out.println("not ok - " + who + ": " + EVENTS + " events recorded: " + seq);
            failed++;
        }
        if (broken == 0) {
            System.out.println("ok - " + who + ": no copy took a count before its event (" + checks + " views)");
        } else {
            System.out.println("not ok - " + who + ": " + broken + " of " + checks
                    + " views copied a count before its event; first: " + firstBroken);
            failed++;
        }
    }

    public static void main(String[] args) throws Exception {
        String path = new File(args[0], "ring").getPath();
        TraceCanary.Config c = new TraceCanary.Config().libraryPath(System.getProperty("tc.lib"));
        c.tracers = 0;
        c.capacity = 4096;
        c.bufferPath = path;
        c.threads = TraceCanary.THREADS_ALL;
        c.threadCapacity = 4096;
        c.maxThreads = 2;
        // no start-up self-check: its burst of stores through this test's Unsafe, which
        // holds every store until settle(), would be another writer the phases do not expect
        c.selfCheckEvents = 0;
        TraceCanary.start(c, null);

        file = map(path);
        ring = 0;
        pull = TraceCanary::pull; // copies into the ring file, as the clock thread does
        phase("the recording thread");

        int before = sun.misc.Unsafe.releases();
        Thread t = new Thread(() -> {
            try {
                file = map(path + "-threads");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            ring = 256; // the thread file's first ring
            pull = TraceCanary::pullThread;
            written = 0;
            traced(999, true); // registers the thread's ring: its event 0
            phase("another thread");
        }, "weak-writer");
        t.start();
        t.join();
        System.out.println("# release stores: " + before + " on the recording thread, "
                + (sun.misc.Unsafe.releases() - before) + " on the other");
        TraceCanary.release();
        System.exit(failed == 0 ? 0 : 1);
    }
}

import com.tencent.matrix.trace.core.AppMethodBeat;
import com.tencent.matrix.trace.core.JniCall;
import com.tencent.matrix.trace.core.TraceCanary;

import java.util.Arrays;

/**
 * bench/runtime driver (see run.sh).
 *
 *   java Bench micro ROUNDS                  per-event cost: peer, ours, and a JNI call
 *   java Bench workload PASSES               ms per pass: untraced, peer, ours in turn
 *   java Bench micro-threads ROUNDS          per-event cost with every thread recording
 *                                            (threads = all): ours on the main thread and
 *                                            on a second thread, against the peer's
 *
 * Both recorders record on the calling thread with their clock threads
 * running, and neither ever sees a message end, so both clocks keep ticking.
 */
public final class Bench {
    static long sink;

    /** Starts the runtime (recording only: no tracer would report on a benchmark) and a
     *  message that lasts until the end: as in an app, where traced code runs in
     *  main-looper messages, the events' time comes from the clock thread. */
    static void startOurs() {
        startOurs(TraceCanary.THREADS_MAIN);
    }

    static void startOurs(int threads) {
        TraceCanary.Config c = new TraceCanary.Config().libraryPath(System.getProperty("tc.lib"));
        c.threads = threads;
        c.clockResolutionMs = Integer.getInteger("tc.tick", c.clockResolutionMs); // -Dtc.tick=MS
        c.expireMs = 0;
        c.tracers = 0;
        TraceCanary.start(c, (tag, key, json) -> { });
        TraceCanary.dispatchBegin();
    }

    // i(a) i(b) o(b) o(a): four events per iteration, ids varying
    static long peerLoop(int n) {
        long t = System.nanoTime();
        for (int k = 0; k < n; k++) {
            int a = k & 1023;
            MatrixBeat.i(a);
            MatrixBeat.i(a + 1);
            MatrixBeat.o(a + 1);
            MatrixBeat.o(a);
        }
        return System.nanoTime() - t;
    }

    static long oursLoop(int n) {
        long t = System.nanoTime();
        for (int k = 0; k < n; k++) {
            int a = k & 1023;
            AppMethodBeat.i(a);
            AppMethodBeat.i(a + 1);
            AppMethodBeat.o(a + 1);
            AppMethodBeat.o(a);
        }
        return System.nanoTime() - t;
    }

    static long emptyLoop(int n) {
        long t = System.nanoTime();
        for (int k = 0; k < n; k++) {
            sink += k & 1023;
        }
        return System.nanoTime() - t;
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    static void micro(int rounds) {
        MatrixBeat.start(Thread.currentThread());
        startOurs();
        final int n = 25_000_000; // 100M events per variant per round
        double[] peer = new double[rounds], ours = new double[rounds], jni = new double[rounds], empty = new double[rounds];
        for (int w = 0; w < 3; w++) { // warm-up: compile everything
            peerLoop(n / 10); oursLoop(n / 10); emptyLoop(n / 10); JniCall.loop(n / 100);
        }
        for (int r = 0; r < rounds; r++) {
            // alternate the order so neither always runs first
            if ((r & 1) == 0) {
                peer[r] = peerLoop(n) / (4.0 * n);
                ours[r] = oursLoop(n) / (4.0 * n);
            } else {
                ours[r] = oursLoop(n) / (4.0 * n);
                peer[r] = peerLoop(n) / (4.0 * n);
            }
            jni[r] = JniCall.loop(n / 10) / (n / 10.0);
            empty[r] = emptyLoop(n) / (4.0 * n);
            System.err.printf("round %d: peer %.3f ours %.3f jni %.3f empty %.3f ns%n", r, peer[r], ours[r], jni[r], empty[r]);
        }
        // outside a message (idle handlers, input, code before the first message) an
        // event reads the clock itself
        TraceCanary.dispatchEnd();
        double[] outside = new double[3];
        for (int r = 0; r < outside.length; r++) {
            outside[r] = oursLoop(n / 4) / (double) n;
        }
        System.out.printf("micro peer_ns=%.3f ours_ns=%.3f jni_call_ns=%.3f loop_ns=%.3f ours_outside_ns=%.3f "
                + "ours_events=%d%n", median(peer), median(ours), median(jni), median(empty), median(outside),
                TraceCanary.written());
    }

    /** oursLoop(n) on a thread of its own (a ring of its own, its first event takes it),
     *  while the main thread is in a message: the clock thread keeps its time too. */
    static long oursOnThread(int n) {
        long[] ns = new long[1];
        Thread t = new Thread(() -> ns[0] = oursLoop(n), "bench-worker");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return ns[0];
    }

    static void microThreads(int rounds) {
        MatrixBeat.start(Thread.currentThread());
        startOurs(TraceCanary.THREADS_ALL);
        final int n = 25_000_000;
        double[] peer = new double[rounds], main = new double[rounds], other = new double[rounds];
        for (int w = 0; w < 3; w++) {
            peerLoop(n / 10); oursLoop(n / 10); oursOnThread(n / 10);
        }
        for (int r = 0; r < rounds; r++) {
            int first = r % 3;
            for (int j = 0; j < 3; j++) {
                switch ((first + j) % 3) {
                    case 0: peer[r] = peerLoop(n) / (4.0 * n); break;
                    case 1: main[r] = oursLoop(n) / (4.0 * n); break;
                    default: other[r] = oursOnThread(n) / (4.0 * n); break;
                }
            }
            System.err.printf("round %d (threads = all): peer %.3f ours main %.3f ours second thread %.3f ns%n",
                    r, peer[r], main[r], other[r]);
        }
        System.out.printf("micro-threads peer_ns=%.3f ours_main_ns=%.3f ours_thread_ns=%.3f%n",
                median(peer), median(main), median(other));
    }

    /** Untraced, peer and ours in turn, passes times; medians of the second half. */
    static void workload(int passes) {
        MatrixBeat.start(Thread.currentThread());
        startOurs();
        java.util.function.LongSupplier[] w = { WorkloadNone::run, WorkloadPeer::run, WorkloadOurs::run };
        double[][] ms = new double[3][passes];
        long before = TraceCanary.written();
        for (int k = 0; k < passes; k++) {
            for (int j = 0; j < 3; j++) {
                int v = (j + k) % 3; // rotate who goes first
                long t = System.nanoTime();
                sink += w[v].getAsLong();
                ms[v][k] = (System.nanoTime() - t) / 1e6;
            }
        }
        long events = (TraceCanary.written() - before) / passes;
        double[] m = new double[3];
        for (int j = 0; j < 3; j++) {
            m[j] = median(Arrays.copyOfRange(ms[j], passes / 2, passes));
        }
        System.out.printf("workload none=%.4f peer=%.4f ours=%.4f events_per_pass=%d%n", m[0], m[1], m[2], events);
    }

    public static void main(String[] a) {
        if (a[0].equals("micro")) micro(Integer.parseInt(a[1]));
        else if (a[0].equals("micro-threads")) microThreads(Integer.parseInt(a[1]));
        else workload(Integer.parseInt(a[1]));
        if (sink == 42) System.out.println();
    }
}

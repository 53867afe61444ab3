import com.tencent.matrix.trace.core.TraceCanary;

import java.util.Arrays;
import javax.tools.ToolProvider;

/**
 * Times javac compiling a source set on the main thread, with jdk.compiler instrumented
 * by tc-instrument and recording into one recorder:
 *   none  the JDK's javac, not instrumented
 *   peer  instrumented with --beat-class MatrixBeat (the Matrix-style Java recorder)
 *   ours  instrumented for com.tencent.matrix.trace.core.AppMethodBeat (this runtime)
 *   ours-all  the same, every thread recording (threads = all)
 * -Dbench.message=true runs ours inside one main-looper message (the clock thread's time).
 * Prints the median wall time of the last half of the compilations (the first half
 * warms the JIT up).
 *
 * usage: JavacBench none|peer|ours|ours-all ROUNDS JAVAC-ARGS...
 * With -Dtc.ring=PATH (and -Dtc.capacity=EVENTS) "ours" records into that ring file, with
 * -Dtc.messages=true each compilation as one message (hot.sh reads such rings).
 */
public final class JavacBench {
    public static void main(String[] args) {
        String recorder = args[0];
        int rounds = Integer.parseInt(args[1]);
        String[] javacArgs = Arrays.copyOfRange(args, 2, args.length);
        if (recorder.equals("peer")) {
            MatrixBeat.start(Thread.currentThread());
        } else if (recorder.startsWith("ours")) {
            TraceCanary.Config c = new TraceCanary.Config().libraryPath(System.getProperty("tc.lib"));
            if (recorder.equals("ours-all")) {
                c.threads = TraceCanary.THREADS_ALL;
            }
            c.tracers = 0; /* record only: the cost under test is the hot path */
            /* -Dtc.ring=PATH -Dtc.capacity=N: keep the events in a ring file (hot.sh reads it) */
            c.bufferPath = System.getProperty("tc.ring");
            c.capacity = Integer.getInteger("tc.capacity", c.capacity);
            /* -Dtc.clock.ms=N: the clock thread's tick in messages (its share of the cost) */
            c.clockResolutionMs = Integer.getInteger("tc.clock.ms", c.clockResolutionMs);
            TraceCanary.start(c, (tag, key, json) -> {});
            TraceCanary.bindRecordingThread();
            if (Boolean.getBoolean("bench.message")) {
                /* as in an app, where traced code runs in main-looper messages: one message
                 * lasting the whole run, so the clock thread keeps the events' time (as the
                 * peer's always does); without it every event reads the clock itself */
                TraceCanary.dispatchBegin();
            }
        }
        /* -Dtc.messages=true: each compilation is a main-looper message, so that a ring
         * shows one compilation as `tc-trace tree --message N` */
        boolean messages = recorder.equals("ours") && Boolean.getBoolean("tc.messages");
        long[] ns = new long[rounds], cpu = new long[rounds];
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int r = 0; r < rounds; r++) {
            long c0 = mx.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            if (messages)
                TraceCanary.dispatchBegin();
            int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, javacArgs);
            if (messages)
                TraceCanary.dispatchEnd();
            ns[r] = System.nanoTime() - t0;
            cpu[r] = mx.getCurrentThreadCpuTime() - c0;
            if (rc != 0)
                throw new IllegalStateException("javac failed: " + rc);
        }
        long[] tail = Arrays.copyOfRange(ns, rounds / 2, rounds);
        Arrays.sort(tail);
        /* the compiling thread's own CPU time: less sensitive to a loaded machine than the
         * wall time (no waiting for a core), but without the JIT's and the clock's threads */
        long[] ctail = Arrays.copyOfRange(cpu, rounds / 2, rounds);
        Arrays.sort(ctail);
        /* Proof that the recorder recorded: events written (the peer's wrapping index). */
        long events = recorder.startsWith("ours") ? TraceCanary.written() : recorder.equals("peer") ? MatrixBeat.sIndex : 0;
        /* one write: printf writes its pieces one by one, and the JIT's -XX:+PrintCompilation
         * lines (inlining.sh) cut in between them */
        System.out.print(String.format("%s median_ms %.1f events %d cpu_ms %.1f%n", recorder,
                tail[tail.length / 2] / 1e6, events, ctail[ctail.length / 2] / 1e6));
        System.out.flush();
    }
}

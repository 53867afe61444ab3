package com.tencent.matrix.trace.core;

import java.nio.ByteBuffer;

/** The JNI surface of libtracecanary (runtime/src/jni_glue.c). Package-private. */
final class Native {
    private Native() {}

    // Option slots of create()/reconfigure(); keep in step with jni_glue.c.
    static final int OPT_CAPACITY = 0, OPT_RESOLUTION = 1, OPT_TRACERS = 2, OPT_EXPIRE = 3, OPT_EVIL = 4,
            OPT_LAG = 5, OPT_ANR = 6, OPT_ANR_INVALID = 7, OPT_STACK_STYLE = 8, OPT_FPS_SLICE = 9,
            OPT_FRAME_INTERVAL = 10, OPT_DROP_FROZEN = 11, OPT_DROP_HIGH = 12, OPT_DROP_MIDDLE = 13,
            OPT_DROP_NORMAL = 14, OPT_COLD = 15, OPT_WARM = 16, OPT_HAS_ACTIVITY = 17, OPT_LOG = 18,
            OPT_THREADS = 19, OPT_THREAD_CAPACITY = 20, OPT_MAX_THREADS = 21, OPT_BLOCK_CONTEXT = 22,
            OPT_TOUCH_LAG = 23, OPT_BUILD_ID = 24, OPT_COUNT = 25;
    /** threadStack's style for the calling thread's stack (tc_runtime.h TC_STACK_CALLER). */
    static final int STACK_CALLER = 3;

    static native long create(long[] opts, String bufferPath, String reportPath, String splash,
            String priorityLibs, String touchLibs);
    /** May replace the ring: the Java writer must not hold its address (TraceCanary.reconfigure). */
    static native void reconfigure(long ctx, long[] opts, String bufferPath, String reportPath, String splash,
            String priorityLibs, String touchLibs);
    /** The ring as the runtime holds it (tests, tools): what a staging ring holds since its
     *  last copy is not in it yet. */
    static native ByteBuffer region(long ctx);
    /** Attaches the calling (recording) thread's staging ring (Staging), as large as the
     *  ring or larger: the ring of record from now on; the newest events move there and its
     *  count is set. */
    static native void attach(long ctx, long[] staging);
    /** The ring's capacity (events). */
    static native int capacity(long ctx);
    static native int start(long ctx);
    static native void stop(long ctx);
    static native void release(long ctx);
    static native int status(long ctx);
    /** Binds the calling thread as the recording thread, named name. */
    static native void bindThread(long ctx, String name);
    /** Names the calling thread's ring as tc-trace shows it. */
    static native void threadName(long ctx, String name);
    /** Every thread records (THREADS_ALL): the thread file exists. */
    static native boolean threadsOn(long ctx);
    /** Events per thread's ring in the thread file (a thread's Java ring holds as many). */
    static native int threadCapacity(long ctx);
    /** Attaches the calling thread's staging ring to a ring of its own, named name: the
     *  ring's token (> 0, for threadEnded); 0 when every ring is in use (counted; ask again
     *  later); -1 without THREADS_ALL. */
    static native long threadAttach(long ctx, String name, long[] staging);
    /** The thread of that ring ended: the ring may go to the next thread. */
    static native void threadEnded(long ctx, long token);
    static native void threadsDropped(long ctx, long events);
    /** Copies the calling thread's staging ring now. */
    static native void pull(long ctx);
    /** The clock word was stale: the clock thread ticks again; returns the time (ms since
     *  the time base), or -2 when not recording. */
    static native long kick(long ctx);
    /** The event id of a section name, or -1 when the names are all taken. */
    static native int sectionId(long ctx, String name);

    /** The start's self-check: what one event of the writers cost, in ps (tc_self_check). */
    static native void selfCheck(long ctx, long psPerEvent);
    /** A string field the next report carries, once (tc_first_report_note). */
    static native void firstReportNote(long ctx, String key, String value);
    /** Both copy the staging ring, write the marker and reset its count. */
    static native void dispatchBegin(long ctx);
    static native void dispatchEnd(long ctx);
    static native void idleBegin(long ctx);
    static native void idleEnd(long ctx);
    static native void vsync(long ctx, long vsyncNanos);
    /** ns: the TC_FM_* durations, then the intended vsync (-1 before API 26). */
    static native void frameMetrics(long ctx, long[] ns);
    static native void viewPhase(long ctx, int phase);
    static native void viewSource(long ctx, int source);
    static native void frameInterval(long ctx, long nanos);
    static native void foreground(long ctx, boolean foreground);
    static native long written(long ctx);
    static native void appCreateBegin(long ctx);
    static native void appCreateEnd(long ctx, int what, boolean byLaunchActivity);
    static native void scene(long ctx, String scene);
    static native void activityCreated(long ctx, String cls, int identity);
    static native void activityDestroyed(long ctx, String cls, int identity);
    static native void activityFocus(long ctx, String cls, int identity, boolean focus);

    // ---- upcalls from the native tracer thread ----

    static void onReport(String tag, String key, String json) {
        TraceCanary.ReportListener l = TraceCanary.listener;
        if (l != null) {
            l.onReport(tag, key, json);
        }
    }

    static void onLog(int level, String tag, String text) {
        TraceCanary.LogListener l = TraceCanary.logListener;
        if (l != null) {
            l.onLog(level, tag, text);
        }
    }

    /** The recording thread's stack. Styles as Matrix's looperPrinterStackStyle:
     *  0 simple (frames 3..11), 1 whole, 2 raw StackTraceElement lines; STACK_CALLER: the
     *  calling thread's own, raw lines from the frame that called into native code (a PLT
     *  hook's upcall: who changed the main thread's priority). */
    static String threadStack(int style) {
        if (style == STACK_CALLER) {
            StackTraceElement[] st = Thread.currentThread().getStackTrace();
            StringBuilder sb = new StringBuilder();
            int i = 0;
            while (i < st.length && (st[i].getClassName().equals("java.lang.Thread")
                    || st[i].getClassName().equals(Native.class.getName()))) {
                i++; // getStackTrace and this method
            }
            for (; i < st.length; i++) {
                sb.append(st[i].toString()).append('\n');
            }
            return sb.toString();
        }
        Thread t = AppMethodBeat.sOwner;
        if (t == null) {
            return "";
        }
        StackTraceElement[] st = t.getStackTrace();
        StringBuilder sb = new StringBuilder();
        if (style == 2) {
            for (StackTraceElement e : st) {
                sb.append(e.toString()).append('\n');
            }
            return sb.toString();
        }
        sb.append(" \n");
        for (int i = style == 0 ? 3 : 0; i < st.length; i++) {
            if (style == 0 && (i >= st.length - 3 || i >= 12)) {
                break;
            }
            StackTraceElement e = st[i];
            sb.append("|*\t\tat ").append(e.getClassName()).append(':').append(e.getMethodName())
                    .append('(').append(e.getLineNumber()).append(")\n");
        }
        return sb.toString();
    }

    /** The block context's GC counters (TraceCanary.GcProbe): false when unknown. */
    static boolean gcStats(long[] out) {
        TraceCanary.GcProbe p = TraceCanary.gcProbe;
        if (p == null) {
            return false;
        }
        try {
            return p.gcStats(out);
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** The signal-ANR watcher's question (TraceCanary.QueueProbe). */
    static long queueHeadLate() {
        TraceCanary.QueueProbe p = TraceCanary.queueProbe;
        if (p == null) {
            return Long.MIN_VALUE;
        }
        try {
            return p.headLateMs();
        } catch (RuntimeException e) {
            return Long.MIN_VALUE;
        }
    }

    /** The signal-ANR watcher's other question (TraceCanary.ErrorStateProbe); 0 without one. */
    static int errorState() {
        TraceCanary.ErrorStateProbe p = TraceCanary.errorStateProbe;
        if (p == null) {
            return 0;
        }
        try {
            return p.errorState();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    static void onExpired() {
        TraceCanary.expired();
    }

    static long javaHeapKb() {
        Runtime r = Runtime.getRuntime();
        return (r.totalMemory() - r.freeMemory()) / 1024;
    }
}

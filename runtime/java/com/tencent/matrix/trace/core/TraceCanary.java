package com.tencent.matrix.trace.core;

import android.os.Handler;
import android.os.Looper;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Starting, configuring and stopping tracing, and receiving reports.
 *
 * <pre>
 *   TraceCanary.Config c = new TraceCanary.Config().reportPath(path);
 *   TraceCanary.start(c, (tag, key, json) -&gt; upload(tag, json));
 * </pre>
 *
 * On Android, {@code com.tencent.matrix.trace.android.AndroidTracing.install}
 * does this and hooks the main looper, frames and the activity lifecycle. On
 * another JVM, a looper of your own calls {@link #dispatchBegin()} and
 * {@link #dispatchEnd()} around each message.
 *
 * <p>Status, as Matrix's AppMethodBeat: DEFAULT (no runtime yet) -&gt; READY
 * (recording, after the first traced call) -&gt; STARTED (tracers on) -&gt;
 * STOPPED. Unlike Matrix, {@link #start} also works from DEFAULT.
 */
public final class TraceCanary {
    public static final int STATUS_DEFAULT = Integer.MAX_VALUE;
    public static final int STATUS_STARTED = 2;
    public static final int STATUS_READY = 1;
    public static final int STATUS_STOPPED = -1;
    public static final int STATUS_EXPIRED_START = -2;
    public static final int STATUS_OUT_RELEASE = -3;
    /** A start failed (no native library, bad configuration): stay out of the way. */
    public static final int STATUS_FAILED = -4;

    public static final int TRACER_EVIL = 1, TRACER_ANR = 2, TRACER_FRAME = 4, TRACER_STARTUP = 8;
    /** SIGQUIT (the system's ANR dump): a process-wide handler chained to the one before it;
     *  not in the default set (runtime/README.md, "Signal ANR"). */
    public static final int TRACER_SIGNAL_ANR = 16;
    /** An idle handler of the main queue running 2 s or more (API 23+, by reflection); not in
     *  the default set. */
    public static final int TRACER_IDLE = 32;
    /** The main thread's priority, scheduling policy or timer slack changed by a call in one of
     *  {@link Config#priorityLibs} (PLT hooks); not in the default set (runtime/README.md,
     *  "Thread priority and touch lag"). */
    public static final int TRACER_PRIORITY = 64;
    /** An input event taking {@link Config#touchLagMs} or longer from its arrival to its
     *  finished signal, seen in {@link Config#touchLibs} (PLT hooks); not in the default set. */
    public static final int TRACER_TOUCH = 128;

    /** How late the main queue's head message is, in ms, for the signal-ANR check; set by the
     *  Android glue (reflection). Long.MIN_VALUE: the queue is empty or cannot be read. */
    public interface QueueProbe {
        long headLateMs();
    }

    static volatile QueueProbe queueProbe;

    public static void setQueueProbe(QueueProbe p) {
        queueProbe = p;
    }

    /** The process's error state for the signal-ANR check (ActivityManager's, set by the
     *  Android glue): 1 this process is not responding, -1 another is, 0 neither. */
    public interface ErrorStateProbe {
        int errorState();
    }

    static volatile ErrorStateProbe errorStateProbe;

    public static void setErrorStateProbe(ErrorStateProbe p) {
        errorStateProbe = p;
    }

    /** The runtime's GC counters for the block context (Config.blockContext): fills
     *  out with ART's art.gc.gc-count, gc-time (ms), blocking-gc-count and blocking-gc-time
     *  (ms), or returns false when they cannot be known (before API 23). Called on the
     *  runtime's clock thread when a message begins, and when one turns out slow. */
    public interface GcProbe {
        boolean gcStats(long[] out);
    }

    static volatile GcProbe gcProbe;

    public static void setGcProbe(GcProbe p) {
        gcProbe = p;
    }

    /** Decides, once per thread (at its first traced call), whether a thread other than
     *  the recording thread records (THREADS_ALL); see Config.threadNames. */
    public interface ThreadInterceptor {
        boolean record(Thread t);
    }

    static volatile ThreadInterceptor threadInterceptor;
    /** Config.threadNames of the runtime's configuration (under the class lock). */
    private static String threadNames;

    /** Set before the threads to judge make their first traced call: a thread already
     *  judged keeps its answer. null: every thread (or Config.threadNames) records. */
    public static void setThreadInterceptor(ThreadInterceptor i) {
        threadInterceptor = i;
    }

    /** Which threads record (Config.threads): the recording thread only (Matrix), or every
     *  thread, each into a ring of its own (runtime/README.md, "Every thread"). */
    public static final int THREADS_MAIN = 0, THREADS_ALL = 1;

    /** Called on the runtime's tracer thread, one call per report. */
    public interface ReportListener {
        void onReport(String tag, String key, String json);
    }

    /** Called on the runtime's threads with logcat blocks and warnings. */
    public interface LogListener {
        void onLog(int level, String tag, String text);
    }

    /** Settings; defaults are Matrix's. Capacity, bufferPath and clockResolutionMs
     *  shape the ring when the runtime is created (the first traced call, or start), and
     *  once more at the first start: if the ring the first traced call made differs, the
     *  events recorded so far move into the ring start asks for. */
    public static final class Config {
        public int capacity = 1_000_000;
        public String bufferPath;
        /** The clock thread's tick while a message runs (1 to 1000 ms), which is the
         *  resolution of the events' times there: 5 ms, as Matrix, wakes the thread a quarter
         *  as often as 1 ms in a busy app; 1 ms gives finer traces (runtime/README.md,
         *  "Battery"). */
        public int clockResolutionMs = 5;
        public int tracers = TRACER_EVIL | TRACER_ANR | TRACER_FRAME | TRACER_STARTUP;
        /** THREADS_MAIN or THREADS_ALL. The other threads' rings are made once, when every
         *  thread first records (a file bufferPath-threads, with bufferPath), and keep their
         *  size afterwards. */
        public int threads = THREADS_MAIN;
        /** Events per other thread's ring (THREADS_ALL). */
        public int threadCapacity = 32_768;
        /** Other threads given a ring (THREADS_ALL); later ones are counted, not recorded. */
        public int maxThreads = 32;
        /** THREADS_ALL narrowed: ';'-separated thread-name globs ('*' any run, '?' one
         *  character), matched once per thread against its name at its first traced call;
         *  a thread matching none does not record (nor is it counted). null: every thread.
         *  With a ThreadInterceptor both must agree. */
        public String threadNames;
        /** Slow-message, lag and ANR reports say why the main thread was slow: Matrix's
         *  usage, CPU and GC during the message (runtime/README.md, "Block context"). */
        public boolean blockContext;
        public int expireMs = 10_000;
        public int evilThresholdMs = 700;
        public int lagMs = 2000;
        public int anrMs = 5000;
        public int anrInvalidMs = 6000;
        public int stackStyle = 0;
        public int fpsSliceMs = 10_000;
        public long frameIntervalNanos = 16_666_667L;
        public int dropFrozen = 42, dropHigh = 24, dropMiddle = 9, dropNormal = 3;
        public int coldThresholdMs = 10_000;
        public int warmThresholdMs = 4_000;
        public String splashActivities;
        /** TRACER_PRIORITY: the libraries whose calls are hooked, ';'-separated patterns
         *  (fnmatch, on the file name; with a '/' on the path); null is Matrix's every ".so". */
        public String priorityLibs;
        /** TRACER_TOUCH: the libraries whose input-channel calls are hooked; null is
         *  "libinput.so". */
        public String touchLibs;
        /** TRACER_TOUCH: an input event this slow (arrival to finished signal) is reported. */
        public int touchLagMs = 2000;
        public boolean hasActivity = true;
        public String reportPath;
        /** A path for System.load; null uses System.loadLibrary("tracecanary"). */
        public String libraryPath;
        /** The start's self-check of the writers (SelfCheck): events timed on a thread of its
         *  own into a scratch ring, off the recording thread; 0: no check. The cost of one
         *  event goes into the ring's header and the first report. */
        public int selfCheckEvents = 100_000;
        /** An event dearer than this (ns) is warned of: the writers' Unsafe stores are
         *  calls on this VM, not the intrinsics they are on ART since 5.0 and on HotSpot. */
        public int selfCheckMaxNs = 50;
        /** Over selfCheckMaxNs, stop recording (TraceCanary.stop) besides the warning. */
        public boolean selfCheckStops;

        public Config capacity(int v) { capacity = v; return this; }
        public Config bufferPath(String v) { bufferPath = v; return this; }
        public Config clockResolutionMs(int v) { clockResolutionMs = v; return this; }
        public Config tracers(int v) { tracers = v; return this; }
        public Config threads(int v) { threads = v; return this; }
        public Config threadNames(String v) { threadNames = v; return this; }
        public Config blockContext(boolean v) { blockContext = v; return this; }
        public Config evilThresholdMs(int v) { evilThresholdMs = v; return this; }
        public Config splashActivities(String v) { splashActivities = v; return this; }
        public Config hasActivity(boolean v) { hasActivity = v; return this; }
        public Config priorityLibs(String v) { priorityLibs = v; return this; }
        public Config touchLibs(String v) { touchLibs = v; return this; }
        public Config touchLagMs(int v) { touchLagMs = v; return this; }
        public Config reportPath(String v) { reportPath = v; return this; }
        public Config libraryPath(String v) { libraryPath = v; return this; }
        public Config selfCheckEvents(int v) { selfCheckEvents = v; return this; }
        public Config selfCheckMaxNs(int v) { selfCheckMaxNs = v; return this; }
        public Config selfCheckStops(boolean v) { selfCheckStops = v; return this; }

        long[] options(boolean log) {
            long[] o = new long[Native.OPT_COUNT];
            o[Native.OPT_CAPACITY] = capacity;
            o[Native.OPT_RESOLUTION] = clockResolutionMs;
            o[Native.OPT_TRACERS] = tracers;
            o[Native.OPT_EXPIRE] = expireMs;
            o[Native.OPT_EVIL] = evilThresholdMs;
            o[Native.OPT_LAG] = lagMs;
            o[Native.OPT_ANR] = anrMs;
            o[Native.OPT_ANR_INVALID] = anrInvalidMs;
            o[Native.OPT_STACK_STYLE] = stackStyle;
            o[Native.OPT_FPS_SLICE] = fpsSliceMs;
            o[Native.OPT_FRAME_INTERVAL] = frameIntervalNanos;
            o[Native.OPT_DROP_FROZEN] = dropFrozen;
            o[Native.OPT_DROP_HIGH] = dropHigh;
            o[Native.OPT_DROP_MIDDLE] = dropMiddle;
            o[Native.OPT_DROP_NORMAL] = dropNormal;
            o[Native.OPT_COLD] = coldThresholdMs;
            o[Native.OPT_WARM] = warmThresholdMs;
            o[Native.OPT_HAS_ACTIVITY] = hasActivity ? 1 : 0;
            o[Native.OPT_LOG] = log ? 1 : 0;
            o[Native.OPT_THREADS] = threads;
            o[Native.OPT_THREAD_CAPACITY] = threadCapacity;
            o[Native.OPT_MAX_THREADS] = maxThreads;
            o[Native.OPT_BLOCK_CONTEXT] = blockContext ? 1 : 0;
            o[Native.OPT_TOUCH_LAG] = touchLagMs;
            o[Native.OPT_BUILD_ID] = buildId();
            return o;
        }
    }

    /** The build id tc-instrument gave this build (the hash of its methodMapping.txt), from
     *  the marker class it adds to its output; 0 when there is none (a build instrumented
     *  by an older tc-instrument, or by Matrix's plugin). The runtime records it in the
     *  ring's header and every report, so that tc-trace can tell a mapping of another
     *  build. Read by reflection: nothing else refers to the class, and a constant read
     *  from code would be folded at compile time. */
    static long buildId() {
        try {
            Class<?> c = Class.forName("com.tencent.matrix.trace.generated.BuildId", false,
                    TraceCanary.class.getClassLoader());
            Object v = c.getField("ID").get(null);
            if (!(v instanceof String))
                return 0;
            String s = (String) v;
            if (s.length() != 16)
                return 0;
            // Long.parseUnsignedLong is API 26: two halves that fit a long each
            return Long.parseLong(s.substring(0, 8), 16) << 32 | Long.parseLong(s.substring(8), 16);
        } catch (ClassNotFoundException | NoSuchFieldException | IllegalAccessException
                | NumberFormatException | LinkageError e) {
            return 0;
        }
    }

    static volatile ReportListener listener;
    static volatile LogListener logListener;
    private static Config pending = new Config();
    static volatile long ctx;                          // written under the class lock
    private static volatile int status = STATUS_DEFAULT;
    private static boolean libraryLoaded;
    /** Under the class lock: the thread in start() or release() while it runs, outside the
     *  lock, the native call that may join the runtime's threads; null otherwise. */
    private static Thread lifecycle;

    private TraceCanary() {}

    /** Settings for a runtime created by the first traced call, for instance a ring big
     *  enough for the whole start-up. Optional: {@link #start} applies its own settings,
     *  the ring included, and keeps what was recorded. To take effect, call it before any
     *  traced code runs (e.g. in a static initializer of the Application class). */
    public static synchronized void configure(Config c) {
        pending = c;
    }

    public static void setLogListener(LogListener l) {
        logListener = l;
    }

    /**
     * Creates the runtime if needed (the calling thread becomes the recording
     * thread), applies c and starts the tracers. If the first traced call
     * created the runtime with another ring (capacity, bufferPath,
     * clockResolutionMs), the first start moves the events recorded so far into
     * the ring c asks for; called off the recording thread, or after a stop, it
     * keeps the ring. Throws IllegalStateException if the native library cannot
     * be loaded or the configuration is refused.
     */
    public static void start(Config c, ReportListener l) {
        if (inZygote()) {
            log(LOG_WARN, "not started: no main looper on Android (an app zygote's preload); the processes "
                    + "it forks start on their own");
            return;
        }
        long h;
        synchronized (TraceCanary.class) {
            busyCheck("start()");
            listener = l;
            if (ctx == 0) {
                create(c, Thread.currentThread());
                Native.start(ctx);
                status = STATUS_STARTED;
                return;
            }
            h = ctx;
            lifecycle = Thread.currentThread();
        }
        // Reconfiguring may restart the clock thread (a new ring) and stop the signal-ANR
        // watcher: joins, done without the class lock, which their listeners may want
        // (status(), isAlive()). release() and start() wait for nothing meanwhile: they throw.
        boolean applied = false;
        try {
            reconfigure(h, c);
            applied = true;
        } finally {
            synchronized (TraceCanary.class) {
                lifecycle = null;
                followThreads();
                if (applied) {
                    Native.start(h);
                    status = STATUS_STARTED;
                }
            }
        }
    }

    /** Under the class lock: start() and release() on two threads at once would free or
     *  replace what the other is using; the second throws rather than waits (it may be a
     *  listener on a thread the first is joining). */
    private static void busyCheck(String what) {
        if (lifecycle != null && lifecycle != Thread.currentThread()) {
            throw new IllegalStateException(what + " while start() or release() runs on " + lifecycle.getName());
        }
    }

    public static synchronized void stop() {
        if (ctx != 0) {
            Native.stop(ctx);
            status = Native.status(ctx);
        }
    }

    /** Frees the runtime. Call it on the recording thread: it must not be writing. */
    public static void release() {
        releaseIf(false);
    }

    /** The runtime leaves ctx (status() then reads STATUS_OUT_RELEASE) under the class lock,
     *  and is freed outside it: freeing joins the runtime's threads, whose report and log
     *  listeners may call status() or isAlive(), which take the lock. */
    private static void releaseIf(boolean expiredOnly) {
        long h;
        synchronized (TraceCanary.class) {
            if (ctx == 0) {
                return;
            }
            if (Thread.currentThread() != AppMethodBeat.sOwner) {
                if (expiredOnly) {
                    return;
                }
                throw new IllegalStateException("release() must run on the recording thread");
            }
            if (expiredOnly && Native.status(ctx) != STATUS_EXPIRED_START) {
                return;
            }
            busyCheck("release()");
            AppMethodBeat.allThreads(false); // the writers see the clock word "off" once freed
            sectionIds.clear();
            h = ctx;
            ctx = 0;
            status = STATUS_OUT_RELEASE;
            lifecycle = Thread.currentThread();
        }
        try {
            log(LOG_INFO, "releasing the runtime");
            Native.release(h);
        } finally {
            synchronized (TraceCanary.class) {
                lifecycle = null;
            }
        }
    }

    /** Under the lock: a release() takes the runtime out of ctx before freeing it. */
    public static synchronized int status() {
        return ctx != 0 ? Native.status(ctx) : status;
    }

    /** Matrix's isAlive, but false for DEFAULT. */
    public static boolean isAlive() {
        return status() == STATUS_STARTED;
    }

    /** Moves recording to the calling thread (the default is the thread that created the runtime). */
    public static synchronized void bindRecordingThread() {
        if (ctx != 0) {
            Native.bindThread(ctx, Thread.currentThread().getName());
            AppMethodBeat.bind(Thread.currentThread());
        }
    }

    // ---- sections: named intervals, on any thread that records ----

    private static final ConcurrentHashMap<String, Integer> sectionIds = new ConcurrentHashMap<>();

    /** Begins a named interval on the calling thread (the recording thread, or any with
     *  THREADS_ALL), ended by the next {@link #endSection()} on that thread; they nest.
     *  tc-trace shows them as named slices and selects them with --section NAME. Up to 128
     *  distinct names (the first 63 bytes of each count) per runtime. */
    public static void beginSection(String name) {
        if (name == null || ctx == 0) {
            return;
        }
        Integer id = sectionIds.get(name);
        if (id == null) {
            id = sectionId(name);
        }
        if (id >= 0) {
            AppMethodBeat.section(id, true);
        }
    }

    /** Ends the innermost section the calling thread began. */
    public static void endSection() {
        if (ctx != 0) {
            AppMethodBeat.section(0, false);
        }
    }

    private static synchronized int sectionId(String name) {
        if (ctx == 0) {
            return -1;
        }
        int id = Native.sectionId(ctx, name);
        if (id < 0) {
            log(LOG_WARN, "section \"" + name + "\" not recorded: 128 section names are taken");
        }
        sectionIds.put(name, id);
        return id;
    }

    // ---- the writers' slow paths (AppMethodBeat, ThreadRing): now and then, never per event ----

    /** The clock word was stale: the clock thread ticks again. The time, or < 0 when not
     *  recording. Any thread: under the lock that release() holds. */
    @SlowPath("the first event after the clock thread went to sleep")
    static synchronized long kick() {
        return ctx != 0 ? Native.kick(ctx) : -1;
    }

    /** Copies the recording thread's events into the ring file now (tests). Recording
     *  thread. */
    static void pull() {
        long c = ctx; // release() runs on the recording thread: not meanwhile
        if (c != 0) {
            Native.pull(c);
        }
    }

    /** Copies the calling thread's events into the thread file now (tests). */
    static synchronized void pullThread() {
        if (ctx != 0) {
            Native.pull(ctx);
        }
    }

    // ---- every thread (THREADS_ALL) ----

    private static final ThreadLocal<ThreadRing> threadRings = new ThreadLocal<>();
    private static long[] spareRing; // a staging ring a refused thread did not keep

    /** The calling thread t's ring: registered at its first event (its staging ring
     *  attached to a ring of the thread file), or one that does not record. */
    @SlowPath("a thread's first event, or the first after another thread took its entry in ThreadRing's table")
    static synchronized ThreadRing threadRing(Thread t) {
        ThreadRing r = threadRings.get();
        if (r == null || r.gen != ThreadRing.sGen) {
            threadsEnded();
            r = attachThread(t);
            threadRings.set(r);
        }
        ThreadRing.cache(r);
        return r;
    }

    /** Under the lock: threads that ended write no more, so their rings may go to others
     *  now (the runtime also learns it when their native threads end, a little later) and
     *  the events a ringless one had not counted yet are counted. */
    private static void threadsEnded() {
        for (ThreadRing e; (e = ThreadRing.takeEnded()) != null; ) {
            if (ctx == 0 || e.gen != ThreadRing.sGen) {
                continue;
            }
            if (e.token > 0) {
                Native.threadEnded(ctx, e.token);
            } else if (e.dropped > 0) {
                Native.threadsDropped(ctx, e.dropped);
            }
        }
    }

    /** Under the lock. */
    private static ThreadRing attachThread(Thread t) {
        if (ctx == 0 || !AppMethodBeat.sThreadsOn) {
            return new ThreadRing(t, null, 0);
        }
        if (!recordsThread(t)) {
            return new ThreadRing(t, null, ThreadRing.NOT_RECORDED);
        }
        int slots = Staging.slotsFor(Native.threadCapacity(ctx));
        long[] ring = spareRing != null && spareRing.length == Staging.SLOTS + slots ? spareRing
                : Staging.ring(slots);
        spareRing = null;
        long token = Native.threadAttach(ctx, t.getName(), ring);
        if (token > 0) {
            return new ThreadRing(t, ring, token);
        }
        spareRing = ring;
        return new ThreadRing(t, null, 0);
    }

    /** The thread interceptor's answer, and Config.threadNames's (under the lock, once
     *  per thread). An interceptor that throws is a no: the app's code, on its thread. */
    private static boolean recordsThread(Thread t) {
        String names = threadNames;
        if (names != null && !nameMatches(names, t.getName())) {
            return false;
        }
        ThreadInterceptor i = threadInterceptor;
        if (i == null) {
            return true;
        }
        try {
            return i.record(t);
        } catch (RuntimeException e) {
            log(LOG_WARN, "thread interceptor threw on " + t.getName() + ": " + e + "; the thread does not record");
            return false;
        }
    }

    /** Config.threadNames: does name match one of the ';'-separated globs? */
    private static boolean nameMatches(String globs, String name) {
        int from = 0;
        while (from <= globs.length()) {
            int end = globs.indexOf(';', from);
            if (end < 0) {
                end = globs.length();
            }
            String g = globs.substring(from, end).trim();
            if (!g.isEmpty() && glob(g, 0, name, 0)) {
                return true;
            }
            from = end + 1;
        }
        return false;
    }

    /** '*' any run of characters, '?' one, anything else itself. */
    private static boolean glob(String g, int gi, String s, int si) {
        int star = -1, mark = 0;
        while (si < s.length()) {
            if (gi < g.length() && (g.charAt(gi) == '?' || g.charAt(gi) == s.charAt(si))) {
                gi++;
                si++;
            } else if (gi < g.length() && g.charAt(gi) == '*') {
                star = gi++;
                mark = si;
            } else if (star >= 0) {
                gi = star + 1;
                si = ++mark;
            } else {
                return false;
            }
        }
        while (gi < g.length() && g.charAt(gi) == '*') {
            gi++;
        }
        return gi == g.length();
    }

    /** Events of a thread that found every ring in use: counted; and it asks again, as a
     *  thread may have ended since. */
    @SlowPath("every 256 events of a thread that has no ring")
    static synchronized void threadEventsDropped(ThreadRing r) {
        if (ctx == 0) {
            return;
        }
        Native.threadsDropped(ctx, ThreadRing.DROP_BATCH);
        if (r.gen == ThreadRing.sGen && r.thread == Thread.currentThread()) {
            threadsEnded();
            ThreadRing again = attachThread(r.thread);
            if (again.ring != null) {
                threadRings.set(again);
                ThreadRing.cache(again);
            }
        }
    }

    // ---- events from loopers and lifecycle hooks; recording thread ----

    /** A main-looper message begins. */
    public static void dispatchBegin() {
        long c = ctx;
        if (c != 0 && Thread.currentThread() == AppMethodBeat.sOwner) {
            Native.dispatchBegin(c);
        }
    }

    /** An idle handler of the main queue runs (outside any message) ... */
    public static void idleBegin() {
        long c = ctx;
        if (c != 0 && Thread.currentThread() == AppMethodBeat.sOwner) {
            Native.idleBegin(c);
        }
    }

    /** ... and returns. */
    public static void idleEnd() {
        long c = ctx;
        if (c != 0 && Thread.currentThread() == AppMethodBeat.sOwner) {
            Native.idleEnd(c);
        }
    }

    /** The message ends. */
    public static void dispatchEnd() {
        long c = ctx;
        if (c != 0 && Thread.currentThread() == AppMethodBeat.sOwner) {
            Native.dispatchEnd(c);
        }
    }

    /** The current message runs a Choreographer frame whose vsync was at vsyncNanos
     *  (System.nanoTime base): the display's, not doFrame's frameTimeNanos. Recording thread. */
    public static void vsync(long vsyncNanos) {
        long c = ctx;
        if (c != 0) {
            Native.vsync(c, vsyncNanos);
        }
    }

    /** Where a slow message's view phases come from (tc_runtime.h's TC_VIEW_NONE,
     *  TC_VIEW_CHOREOGRAPHER, TC_VIEW_FRAME_METRICS): the Android glue says. */
    public static final int VIEW_NONE = 0, VIEW_CHOREOGRAPHER = 1, VIEW_FRAME_METRICS = 2;
    /** A Choreographer frame's phases (TC_VIEW_INPUT..), each marked at its queue's head. */
    public static final int PHASE_INPUT = 0, PHASE_ANIMATION = 1, PHASE_TRAVERSAL = 2;

    public static synchronized void setViewSource(int source) {
        if (ctx != 0) {
            Native.viewSource(ctx, source);
        }
    }

    /** The current message's Choreographer frame enters phase. Recording thread. */
    public static void viewPhase(int phase) {
        long c = ctx;
        if (c != 0) {
            Native.viewPhase(c, phase);
        }
    }

    /** One frame's FrameMetrics durations (ns), in the order of tc_runtime.h's TC_FM_*, the
     *  GPU's -1 when unknown; then its intended vsync (System.nanoTime base), -1 before API
     *  26. Any thread: under the lock that release() holds. */
    public static synchronized void frameMetrics(long[] ns) {
        if (ctx != 0) {
            Native.frameMetrics(ctx, ns);
        }
    }

    public static void setFrameIntervalNanos(long nanos) {
        long c = ctx;
        if (c != 0) {
            Native.frameInterval(c, nanos);
        }
    }

    public static void setScene(String scene) {
        long c = ctx;
        if (c != 0 && scene != null) {
            Native.scene(c, scene);
        }
    }

    public static void setForeground(boolean foreground) {
        long c = ctx;
        if (c != 0) {
            Native.foreground(c, foreground);
        }
    }

    /** The first launch-activity/service/receiver message (Matrix's ActivityThreadHacker). */
    public static void applicationCreateEnd(int what, boolean byLaunchActivity) {
        long c = ctx;
        if (c != 0) {
            Native.appCreateEnd(c, what, byLaunchActivity);
        }
    }

    public static void activityCreated(Object activity) {
        long c = ctx;
        if (c != 0) {
            Native.activityCreated(c, activity.getClass().getName(), System.identityHashCode(activity));
        }
    }

    public static void activityDestroyed(Object activity) {
        long c = ctx;
        if (c != 0) {
            Native.activityDestroyed(c, activity.getClass().getName(), System.identityHashCode(activity));
        }
    }

    static void activityFocus(Object activity, boolean focus) {
        long c = ctx;
        if (c != 0 && activity != null) {
            Native.activityFocus(c, activity.getClass().getName(), System.identityHashCode(activity), focus);
        }
    }

    /** Events recorded so far (for tests and tools). */
    public static synchronized long written() {
        return ctx != 0 ? Native.written(ctx) : 0;
    }

    // ---- internals ----

    static final int LOG_INFO = 4, LOG_WARN = 5;

    static void log(int level, String text) {
        LogListener l = logListener;
        if (l != null) {
            l.onLog(level, "Matrix.AppMethodBeat", text);
        }
    }

    /** The runtime was not started within expireMs and stopped recording (tracer
     *  thread). As Matrix's realRelease, it is freed, on the recording thread: the main
     *  looper's, whose next turn does it. */
    static void expired() {
        try {
            Looper main = Looper.getMainLooper();
            if (main != null && main.getThread() == AppMethodBeat.sOwner) {
                new Handler(main).post(TraceCanary::releaseExpired);
            }
        } catch (LinkageError e) {
            // no android.os: the runtime stays until release()
        }
    }

    private static void releaseExpired() {
        releaseIf(true);
    }

    /** The native context, for tools in this package (bench). */
    static long handle() {
        return ctx;
    }

    /** The first i() before any runtime: start recording, as Matrix's realExecute, if it
     *  runs on the main thread: the one thread that records. */
    @SlowPath("an i() before any runtime; once it is made (or failed) it returns at once")
    static void beforeStart(int methodId) {
        if (status != STATUS_DEFAULT || AppMethodBeat.sInside || !onMainThread()) {
            return;
        }
        AppMethodBeat.sInside = true; // traced code run by the start must not recurse here
        try {
            synchronized (TraceCanary.class) {
                if (ctx == 0 && status == STATUS_DEFAULT) {
                    create(pending, Thread.currentThread());
                    Native.appCreateBegin(ctx);
                }
            }
        } catch (Throwable t) {
            status = STATUS_FAILED;
            return;
        } finally {
            AppMethodBeat.sInside = false;
        }
        AppMethodBeat.i(methodId);
    }

    /** Applies c to the runtime. The native side may replace the ring, which it does only
     *  on the recording thread, the ring's one writer: its staging ring's events are copied
     *  first and its count follows the new ring's (tc_reconfigure). */
    private static void reconfigure(long h, Config c) {
        threadNames = c.threadNames;
        try {
            Native.reconfigure(h, c.options(logListener != null), c.bufferPath, c.reportPath,
                    c.splashActivities, c.priorityLibs, c.touchLibs);
        } finally {
            Thread writer = AppMethodBeat.sThread;
            if (Thread.currentThread() == writer) {
                // a ring of another capacity: a staging ring as large, the events moved there
                long[] r = AppMethodBeat.ring(Native.capacity(h));
                if (r != AppMethodBeat.sRing) {
                    Native.attach(h, r);
                    AppMethodBeat.attach(writer, r);
                }
            }
        }
    }

    /** Every thread records once the runtime has the threads' rings. */
    private static void followThreads() {
        boolean on = Native.threadsOn(ctx) && AppMethodBeat.U != null;
        if (on != AppMethodBeat.sThreadsOn) {
            AppMethodBeat.allThreads(on);
        }
    }

    /** The main looper's thread, when there is one (on Android, from the start of the
     *  process): the first traced call on another thread must not make itself the
     *  recording thread. Without a main looper, any thread on a JVM without Android, and
     *  none on Android (an app zygote: {@link #inZygote}). */
    private static boolean onMainThread() {
        try {
            Looper main = Looper.getMainLooper();
            return main == null ? !onAndroid() : main.getThread() == Thread.currentThread();
        } catch (LinkageError e) {
            return true; // no android.os
        }
    }

    /**
     * On Android, an app process has its main looper before any of the app's code runs
     * (ActivityThread.main prepares it first). Without one, this is an app zygote
     * (android:zygotePreloadName) preloading the app's code: AppZygoteInit prepares no
     * looper, and a zygote must not start threads, since it forks (with one thread). The
     * runtime then makes nothing, not at the first traced call, not at start(); the
     * processes the zygote forks have a main looper and start on their own.
     */
    static boolean inZygote() {
        try {
            return onAndroid() && Looper.getMainLooper() == null;
        } catch (LinkageError e) {
            return false; // no android.os
        }
    }

    /** ART reports java.vm.name "Dalvik" (AndroidHardcodedSystemProperties). */
    private static boolean onAndroid() {
        return "Dalvik".equals(System.getProperty("java.vm.name"));
    }

    private static void create(Config c, Thread recordThread) {
        if (!libraryLoaded) {
            try {
                if (c.libraryPath != null) {
                    System.load(c.libraryPath);
                } else {
                    System.loadLibrary("tracecanary");
                }
            } catch (UnsatisfiedLinkError | SecurityException e) {
                throw new IllegalStateException("cannot load libtracecanary: " + e.getMessage(), e);
            }
            libraryLoaded = true;
        }
        // no usable Unsafe (Staging.unsafe: one trial call of each member): the runtime
        // runs (messages, frames, reports), the methods are not recorded
        long[] ring = AppMethodBeat.U != null ? AppMethodBeat.ring(c.capacity) : null;
        long h = Native.create(c.options(logListener != null), c.bufferPath, c.reportPath, c.splashActivities,
                c.priorityLibs, c.touchLibs);
        threadNames = c.threadNames;
        Native.threadName(h, recordThread.getName());
        if (ring != null) {
            Native.attach(h, ring);
            AppMethodBeat.attach(recordThread, ring);
            SelfCheck.start(h, c);
        } else {
            AppMethodBeat.own(recordThread);
            log(LOG_WARN, "recording off: " + Staging.problem + "; the app runs, its methods are not traced");
            Native.firstReportNote(h, "recordingOff", Staging.problem);
        }
        sectionIds.clear();
        ctx = h;
        status = STATUS_READY;
        followThreads();
    }
}

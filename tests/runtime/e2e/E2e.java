import android.app.Activity;
import android.app.ActivityThread;
import android.app.Application;
import android.os.Handler;
import android.os.Looper;
import android.os.MessageQueue;
import android.os.SystemClock;
import android.util.Printer;
import android.view.Choreographer;
import android.view.Display;
import android.view.Window;

import com.tencent.matrix.trace.android.AndroidTracing;
import com.tencent.matrix.trace.core.AppMethodBeat;
import com.tencent.matrix.trace.core.TraceCanary;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HotSpot end-to-end driver: the runtime on the stub main looper
 * (tests/android-stubs), with method events from hand-written
 * AppMethodBeat.i/o calls in the shape tc-instrument injects (i at entry, o
 * before every exit, in a finally for throws), so the same program can be
 * instrumented instead later: drop the calls and keep the method ids in
 * MAPPING.
 *
 *   java E2e slow | anr | crash FILE | lazy FILE
 *
 * Prints "N passed, N failed" and exits non-zero on a failure.
 */
public final class E2e {
    /** id -> method, as a tc-instrument mapping file would list them. */
    static final String MAPPING = "100,8,Scenarios slowWork ()V\n101,8,Scenarios tinyStep ()V\n102,8,Scenarios nap ()V\n"
            + "200,8,Scenarios stuck ()V\n300,8,E2e crashLoop ()V\n301,8,E2e crashStep (I)V\n1,8,E2e earlyInit ()V\n"
            + "2,8,E2e appOnCreate ()V\n7,8,E2e noise ()V\n110,8,E2e lowerPriority (I)V\n112,8,E2e handleTouch (J)V\n";

    static final List<String[]> reports = new ArrayList<>();
    static int passed, failed;

    static void check(boolean ok, String what) {
        if (ok) {
            passed++;
            System.out.println("ok - " + what);
        } else {
            failed++;
            System.out.println("not ok - " + what);
        }
    }

    static void busy(long ms) {
        Scenarios.busy(ms);
    }

    static void sleep(long ms) {
        Scenarios.sleep(ms);
    }

    static long item(String json, int depth, int id, int count) {
        return Scenarios.item(json, depth, id, count);
    }

    static long num(String json, String key) {
        return Scenarios.num(json, key);
    }

    static String str(String json, String key) {
        return Scenarios.str(json, key);
    }

    // ---- "instrumented" methods ----

    static void earlyInit() {
        AppMethodBeat.i(1);
        busy(2);
        AppMethodBeat.o(1);
    }

    static Application app;
    static TraceCanary.Config lazyConfig;

    /** Application.onCreate: installs tracing from inside a traced method. */
    static void appOnCreate() {
        AppMethodBeat.i(2);
        AndroidTracing.install(app, lazyConfig, LISTENER);
        AppMethodBeat.o(2);
    }

    static volatile boolean noiseStop;

    /** Traced calls on another thread: ignored, and they must not touch the ring. */
    static void noise() {
        while (!noiseStop) {
            AppMethodBeat.i(7);
            AppMethodBeat.o(7);
        }
    }

    static void crashStep(int k) {
        AppMethodBeat.i(301);
        busy(0);
        AppMethodBeat.o(301);
    }

    static void crashLoop() {
        AppMethodBeat.i(300);
        for (int k = 0; k < 1000; k++) {
            crashStep(k);
        }
        // the writer's events reach the file ring when the copier next runs (a tick): on a
        // loaded machine that can be long after the last call, and kill -9 before it
        // found the file empty (seen in CI). Ready once the file's header counts them all.
        for (int waited = 0; fileSeq(crashFile) < 2001 && waited < 30_000; waited += 10) {
            sleep(10);
        }
        System.out.println("READY");
        System.out.flush();
        sleep(60_000); // killed here, with 300 open
        AppMethodBeat.o(300);
    }

    // ---- scenarios ----

    static class MainActivity extends Activity {
        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            AppMethodBeat.i(5);
            AppMethodBeat.at(this, hasFocus);
            AppMethodBeat.o(5);
        }
    }

    static TraceCanary.Config config(String lib) {
        TraceCanary.Config c = new TraceCanary.Config().libraryPath(lib);
        c.tracers = TraceCanary.TRACER_EVIL | TraceCanary.TRACER_ANR | TraceCanary.TRACER_STARTUP;
        return c;
    }

    static final TraceCanary.ReportListener LISTENER = (tag, key, json) -> {
        synchronized (reports) {
            reports.add(new String[] {tag, key, json});
            reports.notifyAll();
        }
    };

    static String[] waitFor(String tag, String detail, long ms) {
        long end = System.currentTimeMillis() + ms;
        synchronized (reports) {
            for (;;) {
                for (String[] r : reports) {
                    if (r[0].equals(tag) && (detail == null || r[2].contains("\"detail\":\"" + detail + "\""))) {
                        return r;
                    }
                }
                long left = end - System.currentTimeMillis();
                if (left <= 0) {
                    return null;
                }
                try {
                    reports.wait(left);
                } catch (InterruptedException e) {
                    return null;
                }
            }
        }
    }

    static void slow(String lib) {
        // Before any start: the first traced call starts recording (status READY).
        TraceCanary.Config c = config(lib);
        TraceCanary.configure(c);
        earlyInit();
        check(TraceCanary.status() == TraceCanary.STATUS_READY, "first traced call starts recording");
        check(TraceCanary.written() == 2, "early events recorded (" + TraceCanary.written() + ")");

        Looper.prepareMainLooper();
        Application app = new Application();
        c.tracers |= TraceCanary.TRACER_FRAME;
        c.fpsSliceMs = 500; // a window of the animation's frames, 60 a second
        AndroidTracing.install(app, c, LISTENER);
        check(TraceCanary.isAlive(), "started");
        Handler h = new Handler(Looper.getMainLooper());
        MainActivity a = new MainActivity();
        h.post(() -> app.dispatchActivityCreated(a));
        h.post(() -> app.dispatchActivityStarted(a));
        h.post(() -> app.dispatchActivityResumed(a));
        h.post(() -> a.onWindowFocusChanged(true));
        h.post(() -> busy(5));
        h.post(Scenarios::slowWork);
        h.post(() -> animate(h, 1200, 0, 0, () -> Looper.getMainLooper().quit()));
        Looper.loop();

        String[] evil = waitFor("Trace_EvilMethod", "NORMAL", 5000);
        check(evil != null, "slow message report");
        if (evil != null) {
            String j = evil[2];
            Scenarios.checkSlowMessage(j, E2e::check);
            check(j.contains("\"scene\":\"E2e$MainActivity\""), "scene is the started activity");
            System.out.println("# " + j);
        }
        String[] startup = waitFor("Trace_StartUp", null, 2000);
        check(startup != null && startup[2].contains("\"is_warm_start_up\":false")
                && startup[2].contains("\"application_create_scene\":100"), "startup report");
        if (startup != null) {
            System.out.println("# " + startup[2]);
        }
        String[] fps = waitFor("Trace_FPS", null, 2000);
        check(fps != null && fps[2].matches(".*\"dropLevel\":\\{\"DROPPED_FROZEN\":\\d+.*\"fps\":[0-9.]+,.*"),
                "frame report from the animation's frames");
        if (fps != null) {
            System.out.println("# " + fps[2]);
        }
        TraceCanary.stop();
        TraceCanary.release();
        check(TraceCanary.status() == TraceCanary.STATUS_OUT_RELEASE, "released");
    }

    static void anr(String lib) {
        Looper.prepareMainLooper();
        // Matrix could not start from DEFAULT (no traced call yet): we can.
        TraceCanary.Config c = config(lib);
        AndroidTracing.install(new Application(), c, LISTENER);
        check(TraceCanary.status() == TraceCanary.STATUS_STARTED, "quirk_fixed_start_from_default");
        Handler h = new Handler(Looper.getMainLooper());
        h.post(Scenarios::stuck);
        h.post(() -> Looper.getMainLooper().quit());
        Looper.loop();

        String[] lag = waitFor("Trace_EvilMethod", "LAG", 1000);
        check(lag != null, "lag report");
        if (lag != null) {
            Scenarios.checkLag(lag[2], E2e::check);
        }
        String[] anr = waitFor("Trace_EvilMethod", "ANR", 1000);
        check(anr != null, "ANR report");
        if (anr != null) {
            String j = anr[2];
            Scenarios.checkAnr(j, E2e::check);
            check(j.matches(".*\"memory\":\\{\"dalvik_heap\":\\d+,\"native_heap\":-?\\d+,\"vm_size\":\\d+\\}.*"),
                    "memory");
            check(j.contains("|*\\t\\tat E2e:main("), "the whole stack, up to main");
            check(!anr[1].equals("0") && !anr[1].isEmpty(), "Issue key is the message token: " + anr[1]);
            System.out.println("# " + j);
        }
        TraceCanary.release();
    }

    // ---- block context (Config.blockContext) ----

    static void blockedWork() {
        AppMethodBeat.i(110);
        try {
            sleep(900);
        } finally {
            AppMethodBeat.o(110);
        }
    }

    static void busyWork() {
        AppMethodBeat.i(111);
        try {
            busy(900);
        } finally {
            AppMethodBeat.o(111);
        }
    }

    static Object[] garbage;

    static void gcWork() {
        AppMethodBeat.i(112);
        try {
            long end = System.nanoTime() + 900_000_000L;
            // a live set large enough that a full collection takes whole milliseconds
            Object[] live = new Object[400_000];
            for (int k = 0; k < live.length; k++) {
                live[k] = new byte[64];
            }
            garbage = live;
            for (int k = 0; k < 3; k++) {
                System.gc();
            }
            garbage = null;
            long left = (end - System.nanoTime()) / 1_000_000L;
            if (left > 0) {
                sleep(left);
            }
        } finally {
            AppMethodBeat.o(112);
        }
    }

    /**
     * View phases (Config.blockContext): one frame whose animation callback takes 150 ms
     * and whose traversal (ViewRootImpl's, on the traversal queue) takes 800 ms, then a
     * slow message that draws nothing. The frame's report says where its time went: from
     * FrameMetrics (API 26+, which the stub renderer delivers 100 ms after the frame, so
     * the report must wait for them), measure + layout; from Choreographer's queues
     * (before), the traversal, with measure, layout and draw unknown.
     */
    static void viewPhases(String lib, String source, boolean frameTracer, String reportPath) {
        Looper.prepareMainLooper();
        Application app = new Application();
        MainActivity a = new MainActivity();
        TraceCanary.Config c = config(lib).reportPath(reportPath).bufferPath(new File(reportPath).getParent() + "/ring");
        c.blockContext = true;
        if (frameTracer) {
            c.tracers |= TraceCanary.TRACER_FRAME;
        }
        List<String> logs = new ArrayList<>();
        TraceCanary.setLogListener((level, tag, text) -> {
            synchronized (logs) {
                logs.add(text);
            }
        });
        Window.stubSetRenderDelayMs(100);
        Handler h = new Handler(Looper.getMainLooper());
        h.post(() -> {
            AndroidTracing.install(app, c, LISTENER);
            resume(app, a);
        });
        h.post(() -> {
            Choreographer.getInstance().postFrameCallback(t -> Scenarios.slowAnimation());
            Choreographer.getInstance().postCallback(Choreographer.CALLBACK_TRAVERSAL, () -> {
                Scenarios.slowTraversal();
                h.post(E2e::blockedWork);
                h.post(() -> Looper.getMainLooper().quit());
            }, null);
        });
        Looper.loop();

        String[] frame = waitForKey(120, 5000), none = waitForKey(110, 5000);
        check(frame != null && none != null, "two slow-message reports");
        if (frame == null || none == null) {
            TraceCanary.release();
            return;
        }
        String j = frame[2], n = none[2];
        System.out.println("# " + j);
        System.out.println("# " + n);
        Scenarios.checkViewPhases(j, source, E2e::check);
        check(source.equals(str(n, "source")) && num(n, "frames") == 0 && num(n, "animationMs") == 0,
                "the message that draws nothing: no frame");
        synchronized (logs) {
            boolean said = false;
            for (String l : logs) {
                said |= l.contains("maybe happens Jankiness") && l.contains("|*\t\tView: 1 frame (" + source + "): input ");
            }
            check(said, "logcat block shows the view phases");
        }
        TraceCanary.release();
    }

    /** The slow-message report whose stackKey is id, or null. */
    static String[] waitForKey(int id, long ms) {
        long end = System.currentTimeMillis() + ms;
        synchronized (reports) {
            for (;;) {
                for (String[] r : reports) {
                    if (r[2].contains("\"detail\":\"NORMAL\"") && r[2].contains("\"stackKey\":\"" + id + "|\"")) {
                        return r;
                    }
                }
                long left = end - System.currentTimeMillis();
                if (left <= 0) {
                    return null;
                }
                try {
                    reports.wait(left);
                } catch (InterruptedException e) {
                    return null;
                }
            }
        }
    }

    static double usage(String json) {
        Matcher m = Pattern.compile("\"usage\":\"([0-9.]+)%\"").matcher(json);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    /**
     * Block context: a message that sleeps, one that computes, one that forces GCs, each
     * ~900 ms. The sleeper ran little of the time (Matrix's usage) and the report and
     * logcat text say "blocked"; the busy one ran most of it; the GC one counts its
     * collections (on API 23+; below, GC is unknown and the report says so).
     */
    static void block(String lib, String reportPath, boolean gcKnown) {
        Looper.prepareMainLooper();
        TraceCanary.Config c = config(lib).reportPath(reportPath).bufferPath(new File(reportPath).getParent() + "/ring");
        c.blockContext = true;
        List<String> logs = new ArrayList<>();
        TraceCanary.setLogListener((level, tag, text) -> {
            synchronized (logs) {
                logs.add(text);
            }
        });
        AndroidTracing.install(new Application(), c, LISTENER);
        Handler h = new Handler(Looper.getMainLooper());
        h.post(E2e::blockedWork);
        h.post(E2e::busyWork);
        h.post(E2e::gcWork);
        h.post(() -> Looper.getMainLooper().quit());
        Looper.loop();

        String[] blocked = waitForKey(110, 5000), busy = waitForKey(111, 5000), gc = waitForKey(112, 5000);
        check(blocked != null && busy != null && gc != null, "three slow-message reports");
        if (blocked == null || busy == null || gc == null) {
            TraceCanary.release();
            return;
        }
        String b = blocked[2], u = busy[2], g = gc[2];
        System.out.println("# " + b);
        System.out.println("# " + u);
        System.out.println("# " + g);
        double ub = usage(b), uu = usage(u);
        check(ub >= 0 && ub < 30, "sleeping message: low usage (" + ub + "%)");
        check(b.contains("\"cause\":\"blocked\"") && b.matches(".*\"why\":\"ran \\d+% of the time: blocked.*"),
                "sleeping message: the report says blocked");
        long sampled = num(b, "sampledMs");
        check(sampled >= 800 && sampled <= 1500, "sampled from near the message's start: " + sampled + " ms");
        check(num(b, "threadCpuMs") >= 0 && num(b, "processCpuMs") >= num(b, "threadCpuMs") - 20,
                "thread and process CPU time");
        // A busy loop on a loaded machine may get a third of a core: it is runnable the
        // rest of the time (schedstat's run-queue wait, "starved"), not blocked
        long q = num(u, "runQueueMs"), cpu = num(u, "threadCpuMs"), wall = num(u, "sampledMs");
        if (q != Long.MIN_VALUE) {
            check(uu > ub + 15 && (cpu + q) * 10 >= wall * 6
                    && (u.contains("\"cause\":\"busy\"") || u.contains("\"cause\":\"starved\"")),
                    "busy message: high usage, or runnable the rest (" + uu + "%, run queue " + q + " ms)");
        } else {
            check(uu >= 50 && u.contains("\"cause\":\"busy\""), "busy message: high usage (" + uu + "%)");
        }
        check(num(b, "runQueueMs") == Long.MIN_VALUE || num(b, "runQueueMs") * 4 < sampled,
                "sleeping message: hardly waiting for a CPU");
        synchronized (logs) {
            boolean said = false;
            for (String l : logs) {
                said |= l.contains("maybe happens Jankiness") && l.contains("of the time: blocked")
                        && l.contains("|*\t\tCPU: " + str(b, "usage"));
            }
            check(said, "logcat block says blocked, with the usage");
        }
        if (gcKnown) {
            check(num(g, "gcCount") >= 3 && num(g, "gcTimeMs") > 0, "GC count and time during the message: "
                    + num(g, "gcCount") + ", " + num(g, "gcTimeMs") + " ms");
            check(num(g, "blockingGcCount") >= 3, "System.gc() blocks: " + num(g, "blockingGcCount"));
            check(num(b, "gcCount") == 0, "no GC in the sleeping message");
        } else {
            check(g.contains("\"gcCount\":\"unknown\"") && g.contains("\"gcTimeMs\":\"unknown\"")
                    && g.contains("GC unknown"), "GC unknown below API 23, and the report says so");
            check(usage(g) >= 0, "usage still known");
        }
        TraceCanary.release();
    }

    /**
     * The thread interceptor (THREADS_ALL narrowed): Config.threadNames "pool-*;cb-*" and an
     * interceptor refusing "cb-no". Five threads of 300 calls each; e2e.sh reads the thread
     * file: rings for pool-1, pool-2 and cb-yes only, nothing refused or dropped.
     */
    static void threadsFilter(String lib, String file) {
        Looper.prepareMainLooper();
        TraceCanary.Config c = config(lib).bufferPath(file).capacity(4096).threads(TraceCanary.THREADS_ALL);
        c.maxThreads = 8;
        c.threadCapacity = 4096;
        c.threadNames = "pool-*; cb-*";
        java.util.Map<String, Integer> asked = new java.util.concurrent.ConcurrentHashMap<>();
        TraceCanary.setThreadInterceptor(t -> {
            asked.merge(t.getName(), 1, Integer::sum);
            return !t.getName().equals("cb-no");
        });
        AndroidTracing.install(new Application(), c, LISTENER);
        Handler h = new Handler(Looper.getMainLooper());
        String[] names = {"pool-1", "pool-2", "io-1", "cb-yes", "cb-no"};
        h.post(() -> {
            AppMethodBeat.i(10);
            Thread[] ts = new Thread[names.length];
            for (int k = 0; k < ts.length; k++) {
                final int id = 420 + k;
                ts[k] = new Thread(() -> {
                    for (int n = 0; n < 300; n++) {
                        AppMethodBeat.i(id);
                        AppMethodBeat.o(id);
                    }
                }, names[k]);
                ts[k].start();
            }
            join(ts);
            AppMethodBeat.o(10);
            Looper.getMainLooper().quit();
        });
        Looper.loop();
        Integer one = 1;
        check(one.equals(asked.get("pool-1")) && one.equals(asked.get("cb-yes")) && one.equals(asked.get("cb-no")),
                "the interceptor asked once per thread, not per event: " + asked);
        check(!asked.containsKey("io-1"), "a name no pattern matches is not recorded before the interceptor is asked");
        check(asked.size() == 4, "asked about the four matching threads: " + asked);
        TraceCanary.release();
    }

    /** SIGQUIT from a shell, as the system sends it for an ANR dump. */
    static void sigquit() {
        try {
            Process p = new ProcessBuilder("sh", "-c", "kill -QUIT " + ProcessHandle.current().pid())
                    .inheritIO().start();
            check(p.waitFor() == 0, "kill -QUIT");
        } catch (Exception e) {
            check(false, "kill -QUIT: " + e);
        }
    }

    static void signalStuck() {
        AppMethodBeat.i(201);
        try {
            sleep(2600);
            System.out.println("SIGQUIT stuck");
            sigquit();
            sleep(1500); // the watcher checks while we are still stuck
        } finally {
            AppMethodBeat.o(201);
        }
    }

    /**
     * Signal ANR: a SIGQUIT while the main thread is healthy gives no report; one while a
     * message has been stuck for 2.6 s (and the queue's next message waits behind it) gives
     * Trace_EvilMethod SIGNAL_ANR with the recorded stack and the Java stack. HotSpot's own
     * SIGQUIT handler (its thread dump) must still run both times: e2e.sh counts the dumps.
     */
    static void signal(String lib) {
        Looper.prepareMainLooper();
        TraceCanary.Config c = config(lib);
        c.tracers = TraceCanary.TRACER_SIGNAL_ANR;
        TraceCanary.setLogListener((level, tag, text) -> System.out.println("log " + tag + ": " + text));
        Application app = new Application();
        AndroidTracing.install(app, c, LISTENER);
        // in the foreground (an activity started): the threshold is 2 s, not 10
        MainActivity a = new MainActivity();
        app.dispatchActivityCreated(a);
        app.dispatchActivityStarted(a);
        System.out.println("SIGQUIT healthy");
        sigquit();
        check(waitFor("Trace_EvilMethod", "SIGNAL_ANR", 2500) == null, "a healthy main thread: no report");
        Handler h = new Handler(Looper.getMainLooper());
        h.post(E2e::signalStuck);
        h.post(() -> Looper.getMainLooper().quit());
        Looper.loop();
        String[] r = waitFor("Trace_EvilMethod", "SIGNAL_ANR", 5000);
        check(r != null, "SIGNAL_ANR report for the stuck main thread");
        if (r != null) {
            String j = r[2];
            System.out.println("# " + j);
            long d201 = item(j, 1, 201, 1);
            check(d201 >= 2500 && d201 <= 4000, "the recorded stack: signalStuck ~2600 ms at the check: " + d201);
            check(j.contains("\"stackKey\":\"201|\""), "stackKey is signalStuck");
            check(j.contains("E2e:signalStuck("), "the Java stack of the main thread");
            check(j.contains("\"fromProcessErrorState\":false"), "confirmed by the blocked thread");
            Matcher late = Pattern.compile("\"anrMessageLateMs\":(\\d+)").matcher(j);
            check(late.find() && Long.parseLong(late.group(1)) >= 2000,
                    "the queue's head (quit) waits behind it: " + (late.find(0) ? late.group(1) : "none"));
            check(!r[1].isEmpty() && !r[1].equals("0"), "the key is the message token: " + r[1]);
        }
        check(signalReports() == 1, "exactly one SIGNAL_ANR report: " + signalReports());
        // healthy, but ActivityManager says another app (another uid) is not responding: not ours
        System.out.println("SIGQUIT other");
        errorState(10002);
        sigquit();
        sleep(1500);
        check(signalReports() == 1, "another app's ANR: no report: " + signalReports());
        // healthy, and ActivityManager says this process is not responding
        System.out.println("SIGQUIT error state");
        errorState(android.os.Process.myUid());
        sigquit();
        String[] e = null;
        for (int k = 0; k < 50 && e == null; k++) {
            synchronized (reports) {
                for (String[] x : reports) {
                    if (x[2].contains("\"fromProcessErrorState\":true")) {
                        e = x;
                    }
                }
            }
            sleep(100);
        }
        check(e != null && e[2].contains("\"detail\":\"SIGNAL_ANR\""),
                "this process NOT_RESPONDING in ActivityManager: SIGNAL_ANR fromProcessErrorState");
        check(signalReports() == 2, "two SIGNAL_ANR reports in all: " + signalReports());
        android.app.ActivityManager.stubSetErrorStates(null);
        TraceCanary.setLogListener(null);
        TraceCanary.release();
    }

    static void errorState(int uid) {
        android.app.ActivityManager.ProcessErrorStateInfo p = new android.app.ActivityManager.ProcessErrorStateInfo();
        p.condition = android.app.ActivityManager.ProcessErrorStateInfo.NOT_RESPONDING;
        p.uid = uid;
        p.pid = uid == android.os.Process.myUid() ? android.os.Process.myPid() : 1;
        android.app.ActivityManager.stubSetErrorStates(java.util.Collections.singletonList(p));
    }

    static int signalReports() {
        synchronized (reports) {
            int n = 0;
            for (String[] x : reports) {
                n += x[2].contains("\"detail\":\"SIGNAL_ANR\"") ? 1 : 0;
            }
            return n;
        }
    }

    static boolean slowIdle(Handler h) {
        Scenarios.slowIdle();
        h.postDelayed(() -> Looper.getMainLooper().quit(), 200);
        return false;
    }

    /**
     * Idle-handler lag: the main queue's idle handlers are wrapped (API 23+); one that runs
     * 2.3 s gives Trace_EvilMethod LAG_IDLE_HANDLER with the main thread's stack, a quick one
     * none; a handler registered before install still runs (Matrix lost it), one removed
     * by the app is removed. On API 21: off, with a warning, and no report.
     */
    static void idleLag(String lib) {
        Looper.prepareMainLooper();
        MessageQueue q = Looper.myQueue();
        int[] early = {0}, quick = {0}, removed = {0};
        q.addIdleHandler(() -> {
            early[0]++;
            return false;
        });
        TraceCanary.Config c = config(lib);
        c.tracers = TraceCanary.TRACER_IDLE;
        List<String> logs = new ArrayList<>();
        TraceCanary.setLogListener((level, tag, text) -> {
            synchronized (logs) {
                logs.add(tag + ": " + text);
            }
        });
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(err, true));
        AndroidTracing.install(new Application(), c, LISTENER);
        System.setErr(stderr);
        System.out.print(err);
        Handler h = new Handler(Looper.getMainLooper());
        MessageQueue.IdleHandler gone = () -> {
            removed[0]++;
            return true;
        };
        q.addIdleHandler(gone);
        q.removeIdleHandler(gone);
        q.addIdleHandler(() -> {
            quick[0]++;
            return true;
        });
        h.post(() -> busy(5));
        h.postDelayed(() -> q.addIdleHandler(() -> slowIdle(h)), 50);
        Looper.loop();
        boolean api23 = android.os.Build.VERSION.SDK_INT >= 23;
        String[] r = waitFor("Trace_EvilMethod", "LAG_IDLE_HANDLER", api23 ? 3000 : 1000);
        check(early[0] == 1, "a handler registered before install ran once: " + early[0]);
        check(quick[0] >= 1, "the quick handler ran: " + quick[0]);
        check(removed[0] == 0, "a removed handler never ran: " + removed[0]);
        if (api23) {
            check(r != null, "LAG_IDLE_HANDLER report for the slow handler");
            if (r != null) {
                System.out.println("# " + r[2]);
                Scenarios.checkIdleLag(r[2], E2e::check);
            }
            synchronized (reports) {
                int n = 0;
                for (String[] x : reports) {
                    n += x[2].contains("\"detail\":\"LAG_IDLE_HANDLER\"") ? 1 : 0;
                }
                check(n == 1, "one report (the quick handler gave none): " + n);
            }
        } else {
            check(r == null, "API 21: no idle-handler lag");
            check(err.toString().contains("idle-handler lag needs API 23"), "API 21: a warning says it is off");
        }
        TraceCanary.setLogListener(null);
        TraceCanary.release();
    }

    /**
     * Android 17 (-Dtc.sdk=37): the main queue is the lock-free one when the app targets 37
     * (lockFree), the legacy one when it targets 36. Lock-free, its mMessages is always null
     * and its idle handlers are under a lock of their own: the signal-ANR queue probe and
     * the idle-handler wrapper must be off, with one warning, and the app's idle handlers
     * still run. Legacy: both are installed, as before.
     */
    static void messageQueue(String lib, boolean lockFree) throws ReflectiveOperationException {
        Looper.prepareMainLooper();
        MessageQueue q = Looper.myQueue();
        int[] ran = {0};
        q.addIdleHandler(() -> {
            ran[0]++;
            return false;
        });
        TraceCanary.Config c = config(lib);
        c.tracers = TraceCanary.TRACER_IDLE | TraceCanary.TRACER_SIGNAL_ANR;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(err, true));
        Application app = new Application();
        try {
            AndroidTracing.install(app, c, LISTENER);
        } finally {
            System.setErr(stderr);
            System.out.print(err);
        }
        java.lang.reflect.Field probe = TraceCanary.class.getDeclaredField("queueProbe");
        probe.setAccessible(true);
        java.lang.reflect.Field list = MessageQueue.class.getDeclaredField("mIdleHandlers");
        list.setAccessible(true);
        boolean wrapped = list.get(q).getClass() != ArrayList.class;
        int warnings = err.toString().split("lock-free one", -1).length - 1;
        if (lockFree) {
            check(warnings == 1, "one warning (for both probes) says the lock-free queue turns them off: " + warnings);
            check(probe.get(null) == null, "no queue probe for the signal-ANR check (it would read 'empty')");
            check(!wrapped, "the idle handlers are not replaced under the queue's monitor");
        } else {
            check(warnings == 0, "no warning for the legacy queue: " + warnings);
            check(probe.get(null) != null, "the queue probe is installed");
            check(wrapped, "the idle handlers are wrapped");
        }
        Handler h = new Handler(Looper.getMainLooper());
        h.postDelayed(() -> Looper.getMainLooper().quit(), 50);
        Looper.loop();
        check(ran[0] == 1, "the app's idle handler ran: " + ran[0]);
        TraceCanary.release();
    }

    /**
     * A cold start as the system drives it: the application is bound (install runs in
     * its onCreate), then ActivityThread's handler gets the launch request (on API 28+
     * an EXECUTE_TRANSACTION whose first item is a LaunchActivityItem), which creates the
     * activity; it then gets focus. The start-up report must come, and say which message
     * ended application create.
     */
    static void startup(String lib, int scene) {
        Looper.prepareMainLooper();
        ActivityThread thread = ActivityThread.stubAttach();
        Application app = new Application();
        MainActivity a = new MainActivity();
        Handler h = new Handler(Looper.getMainLooper());
        h.post(() -> AndroidTracing.install(app, config(lib), LISTENER));
        thread.stubLaunch(() -> {
            app.dispatchActivityCreated(a);
            app.dispatchActivityStarted(a);
        });
        h.post(() -> a.onWindowFocusChanged(true));
        h.post(() -> Looper.getMainLooper().quit());
        Looper.loop();
        String[] r = waitFor("Trace_StartUp", null, 2000);
        check(r != null, "start-up report");
        check(r != null && r[2].contains("\"application_create_scene\":" + scene + ","),
                "application create ended by message " + scene + (r != null ? ": " + r[2] : ""));
        TraceCanary.release();
    }

    /** The Java API's promises: a library that cannot be loaded is an IllegalStateException;
     *  the first traced call records only on the main looper's thread; status() and
     *  written() wait for a release() under way instead of reading what it frees. */
    static void api(String lib) throws InterruptedException {
        try {
            TraceCanary.start(config("/nonexistent/libtracecanary.so"), LISTENER);
            check(false, "a library that cannot be loaded: IllegalStateException");
        } catch (IllegalStateException e) {
            check(e.getCause() instanceof UnsatisfiedLinkError,
                    "a library that cannot be loaded: IllegalStateException (" + e.getMessage() + ")");
        }
        check(TraceCanary.status() == TraceCanary.STATUS_DEFAULT, "and nothing started");

        Looper.prepareMainLooper();
        TraceCanary.configure(config(lib));
        Thread other = new Thread(E2e::earlyInit);
        other.start();
        other.join();
        check(TraceCanary.status() == TraceCanary.STATUS_DEFAULT,
                "a traced call off the main thread does not start recording");
        earlyInit();
        check(TraceCanary.status() == TraceCanary.STATUS_READY && TraceCanary.written() == 2,
                "the main thread's first traced call does, and records");
        other = new Thread(E2e::earlyInit);
        other.start();
        other.join();
        check(TraceCanary.written() == 2, "the other thread's calls are not recorded");

        // release() logs as it begins, before it frees anything; a status() on another
        // thread then reads the released status at once, without waiting for the free
        // (which joins the runtime's threads) or reading what it frees
        Thread[] reader = new Thread[1];
        int[] seen = {Integer.MIN_VALUE};
        boolean[] ended = new boolean[1];
        TraceCanary.setLogListener((level, tag, text) -> {
            if (!text.startsWith("releasing")) {
                return;
            }
            reader[0] = new Thread(() -> seen[0] = TraceCanary.status());
            reader[0].start();
            try {
                reader[0].join(5000);
            } catch (InterruptedException e) {
                return;
            }
            ended[0] = !reader[0].isAlive();
        });
        TraceCanary.release();
        check(reader[0] != null, "release() logs as it begins");
        check(ended[0], "status() during release() does not wait for it");
        if (reader[0] != null) {
            reader[0].join();
        }
        check(seen[0] == TraceCanary.STATUS_OUT_RELEASE, "and reads the released status: " + seen[0]);
        TraceCanary.setLogListener(null);
    }

    /**
     * release() joins the runtime's threads; a report listener (on the tracer thread) that
     * calls status() and isAlive() meanwhile must get an answer, not wait for release()
     * while release() waits for it. A watchdog ends the JVM if it hangs.
     */
    static void releaseListener(String lib) throws InterruptedException {
        Thread watchdog = new Thread(() -> {
            sleep(20_000);
            System.out.println("not ok - release() did not end in 20 s: a listener calling status() hangs");
            System.out.flush();
            Runtime.getRuntime().halt(1);
        }, "watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        java.util.concurrent.CountDownLatch inListener = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch releasing = new java.util.concurrent.CountDownLatch(1);
        int[] seen = {Integer.MIN_VALUE};
        boolean[] alive = {true};
        TraceCanary.setLogListener((level, tag, text) -> {
            if (text.startsWith("releasing")) {
                releasing.countDown();
            }
        });
        TraceCanary.start(config(lib), (tag, key, json) -> {
            if (!json.contains("\"detail\":\"NORMAL\"")) {
                return;
            }
            inListener.countDown();
            try {
                if (!releasing.await(10, java.util.concurrent.TimeUnit.SECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
            seen[0] = TraceCanary.status();
            alive[0] = TraceCanary.isAlive();
        });
        TraceCanary.dispatchBegin();
        Scenarios.slowWork();
        TraceCanary.dispatchEnd();
        check(inListener.await(10, java.util.concurrent.TimeUnit.SECONDS), "the slow message's report is being delivered");
        TraceCanary.release();
        check(true, "release() ended while the report listener called status()");
        check(seen[0] == TraceCanary.STATUS_OUT_RELEASE, "the listener read the released status: " + seen[0]);
        check(!alive[0], "and isAlive() false");
        TraceCanary.setLogListener(null);
    }

    /** Traced code outside a message (an idle handler, 100 ms after the last message
     *  ended) is stamped with its own time; e2e.sh reads the ring. */
    static void idleTime(String lib, String file) {
        Looper.prepareMainLooper();
        TraceCanary.Config c = config(lib).bufferPath(file).capacity(4096);
        AndroidTracing.install(new Application(), c, LISTENER);
        Handler h = new Handler(Looper.getMainLooper());
        h.post(() -> busy(5));
        Looper.myQueue().addIdleHandler(() -> {
            busy(100);
            AppMethodBeat.i(9);
            AppMethodBeat.o(9);
            h.post(() -> Looper.getMainLooper().quit());
            return false;
        });
        Looper.loop();
        TraceCanary.stop();
        TraceCanary.release();
    }

    /**
     * A printer the app sets on the main looper after install, and a minute later the
     * runtime's check. With reflection allowed the runtime forwards to it and keeps
     * tracing; refused (hidden), it must leave it alone, and say at install what it
     * cannot do.
     */
    static void printer(String lib, boolean hidden) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(err, true));
        Looper.prepareMainLooper();
        Looper main = Looper.getMainLooper();
        AndroidTracing.install(new Application(), config(lib), LISTENER);
        System.setErr(stderr);
        List<String> lines = new ArrayList<>();
        Printer app = lines::add;
        Handler h = new Handler(main);
        long[] written = new long[2];
        h.post(() -> main.setMessageLogging(app));
        h.post(() -> {
            SystemClock.stubAdvance(61_000);
            // the queue goes idle before these are due: the runtime's check runs then
            h.postDelayed(() -> {
                lines.clear();
                written[0] = TraceCanary.written();
            }, 20);
            h.postDelayed(() -> busy(1), 20);
            h.postDelayed(() -> {
                written[1] = TraceCanary.written();
                main.quit();
            }, 20);
        });
        Looper.loop();
        check(lines.size() >= 4, "the app's printer still gets the looper's lines: " + lines.size());
        if (hidden) {
            check(err.toString().contains("cannot read the looper's printer"),
                    "a warning says the printer cannot be chained: " + err.toString().trim());
        } else {
            check(written[1] > written[0], "and the runtime traces messages again (" + written[0] + " -> "
                    + written[1] + " events)");
        }
        TraceCanary.release();
    }

    /** Never started: once expireMs has passed, the runtime is released on the main
     *  looper, as Matrix's realRelease freed its buffer, and its threads are gone. */
    static void expire(String lib) {
        Looper.prepareMainLooper();
        TraceCanary.Config c = config(lib);
        c.expireMs = 200;
        TraceCanary.configure(c);
        earlyInit();
        long deadline = System.nanoTime() + 5_000_000_000L; // they name themselves once running
        while (runtimeThreads() < 2 && System.nanoTime() < deadline) {
            Thread.yield();
        }
        check(runtimeThreads() == 2, "the first traced call started the runtime's two threads");
        Handler h = new Handler(Looper.getMainLooper());
        h.post(new Runnable() {
            @Override
            public void run() { // quits once released, in a minute at most
                if (TraceCanary.status() == TraceCanary.STATUS_OUT_RELEASE || SystemClock.uptimeMillis() > deadline) {
                    Looper.getMainLooper().quit();
                } else {
                    h.postDelayed(this, 20);
                }
            }
            final long deadline = SystemClock.uptimeMillis() + 60_000;
        });
        Looper.loop();
        check(TraceCanary.status() == TraceCanary.STATUS_OUT_RELEASE, "released after expiry: " + TraceCanary.status());
        check(runtimeThreads() == 0, "the runtime's threads are gone");
    }

    static final List<String> RUNTIME_THREADS = java.util.Arrays.asList("tc-clock", "tc-tracer", "tc-frames");

    /** Threads of this process named tc-clock or tc-tracer. */
    static int runtimeThreads() {
        int n = 0;
        for (long[] t : runtimeTasks()) {
            n += t[0] < 2 ? 1 : 0;
        }
        return n;
    }

    /** The runtime's threads: {index in RUNTIME_THREADS, context switches, 1 if asleep}. */
    static List<long[]> runtimeTasks() {
        List<long[]> out = new ArrayList<>();
        File[] tasks = new File("/proc/self/task").listFiles();
        for (File t : tasks == null ? new File[0] : tasks) {
            try {
                int i = RUNTIME_THREADS.indexOf(new String(Files.readAllBytes(new File(t, "comm").toPath())).trim());
                if (i < 0) {
                    continue;
                }
                long switches = 0;
                for (String line : Files.readAllLines(new File(t, "status").toPath())) {
                    if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                        switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
                String stat = new String(Files.readAllBytes(new File(t, "stat").toPath()));
                boolean asleep = stat.charAt(stat.lastIndexOf(')') + 2) == 'S';
                out.add(new long[] {i, switches, asleep ? 1 : 0});
            } catch (IOException e) {
                // the thread ended meanwhile
            }
        }
        return out;
    }

    /** The runtime threads' wake-ups so far (context switches). */
    static long wakeups() {
        long sum = 0;
        for (long[] t : runtimeTasks()) {
            sum += t[1];
        }
        return sum;
    }

    /** ... once they all sleep and have not woken for 5 ms: what was under way has
     *  finished. Off the main thread: a message there keeps the clock thread ticking. */
    static long settledWakeups() {
        long last = -1;
        for (int i = 0; i < 400; i++) {
            long sum = 0;
            boolean asleep = true;
            for (long[] t : runtimeTasks()) {
                sum += t[1];
                asleep &= t[2] == 1;
            }
            if (asleep && sum == last) {
                return sum;
            }
            last = sum;
            sleep(5);
        }
        return last;
    }

    /** An animation on the main thread for ms: a frame callback that draws (2 ms) and asks
     *  for the next frame; every stallEvery-th frame it also posts a message of stallMs
     *  that delays the next frame. Then runs then. */
    static void animate(Handler h, long ms, int stallEvery, long stallMs, Runnable then) {
        long until = System.nanoTime() + ms * 1_000_000L;
        Choreographer.getInstance().postFrameCallback(new Choreographer.FrameCallback() {
            private int n;

            @Override
            public void doFrame(long frameTimeNanos) {
                busy(2);
                if (stallEvery > 0 && ++n % stallEvery == 0) {
                    h.post(() -> busy(stallMs));
                }
                if (System.nanoTime() < until) {
                    Choreographer.getInstance().postFrameCallback(this);
                } else {
                    h.post(then);
                }
            }
        });
    }

    /** The activity is created, started and resumed (its window takes the frame listeners). */
    static void resume(Application app, Activity a) {
        app.dispatchActivityCreated(a);
        app.dispatchActivityStarted(a);
        app.dispatchActivityResumed(a);
    }

    /** The refresh rate a Choreographer-path Trace_FPS report was computed at. */
    static long impliedRate(String json) {
        Matcher m = Pattern.compile("\"fps\":([0-9.]+)").matcher(json);
        double fps = m.find() ? Double.parseDouble(m.group(1)) : -1;
        long frames = 0, dropped = 0;
        for (String b : new String[] {"FROZEN", "HIGH", "MIDDLE", "NORMAL", "BEST"}) {
            Matcher l = Pattern.compile("\"dropLevel\":\\{[^}]*\"DROPPED_" + b + "\":(\\d+)").matcher(json);
            Matcher d = Pattern.compile("\"dropSum\":\\{[^}]*\"DROPPED_" + b + "\":(\\d+)").matcher(json);
            frames += l.find() ? Long.parseLong(l.group(1)) : 0;
            dropped += d.find() ? Long.parseLong(d.group(1)) : 0;
        }
        return frames > 0 ? Math.round(fps * (frames + dropped) / frames) : -1;
    }

    static long intOf(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /**
     * Frames on a 90 Hz display: a smooth animation, then one whose every tenth frame is
     * late by a 60 ms message; then the display switches to 60 Hz and a smooth one runs;
     * then the app is idle. The late frames must count as dropped (their vsync, not
     * doFrame's corrected time), the FPS must follow the display, and while idle the
     * runtime must ask for no vsync and wake none of its threads. metrics: API 24+,
     * frames from FrameMetrics, whose keys the report has.
     */
    static void frames(String lib, boolean metrics) throws InterruptedException {
        Looper.prepareMainLooper();
        Display.stubDefault().stubSetRefreshRate(90);
        Application app = new Application();
        MainActivity a = new MainActivity();
        TraceCanary.Config c = config(lib);
        c.tracers |= TraceCanary.TRACER_FRAME;
        c.fpsSliceMs = 500;
        Handler h = new Handler(Looper.getMainLooper());
        long[] busy = new long[4]; // wake-ups and time, at the start and the end of the animations
        long[] idle = new long[4]; // wake-ups and vsync requests, at the start and the end of 0.5 s idle
        Thread watcher = new Thread(() -> { // measures the idle app from outside the main thread
            idle[0] = settledWakeups();
            idle[2] = Choreographer.stubVsyncRequests();
            sleep(500);
            idle[1] = wakeups();
            idle[3] = Choreographer.stubVsyncRequests();
            h.post(() -> Looper.getMainLooper().quit());
        });
        h.post(() -> {
            AndroidTracing.install(app, c, LISTENER);
            resume(app, a);
        });
        h.post(() -> {
            busy[0] = wakeups();
            busy[2] = System.nanoTime();
            Window.stubDropBeforeNext(7); // the platform dropped 7 reports before the first frame's
            animate(h, 700, 0, 0, () -> animate(h, 1000, 10, 60, () -> {
                Display.stubDefault().stubSetRefreshRate(60);
                h.post(() -> animate(h, 1200, 0, 0, () -> {
                    busy[1] = wakeups();
                    busy[3] = System.nanoTime();
                    watcher.start();
                }));
            }));
        });
        Looper.loop();
        watcher.join();
        double busyS = (busy[3] - busy[2]) / 1e9;
        System.out.printf("# wake-ups of the runtime's threads: busy (frames at 90, then 60 Hz) %d in %.1f s "
                + "(%.0f/s); idle %d in 0.5 s%n", busy[1] - busy[0], busyS, (busy[1] - busy[0]) / busyS, idle[1] - idle[0]);
        check(idle[3] == idle[2], "no vsync asked for while idle: " + (idle[3] - idle[2]));
        check(idle[1] == idle[0], "no thread of the runtime woke while idle: " + (idle[1] - idle[0]));
        List<String> fps = new ArrayList<>();
        synchronized (reports) {
            for (String[] r : reports) {
                if (r[0].equals("Trace_FPS")) {
                    fps.add(r[2]);
                    System.out.println("# " + r[2].replaceAll("\"machine\".*?\"mem_free\":\\d+,", ""));
                }
            }
        }
        check(fps.size() >= 3, "frame reports: " + fps.size());
        if (fps.size() < 3) {
            return;
        }
        check(fps.stream().anyMatch(j -> intOf(j, "DROPPED_NORMAL") + intOf(j, "DROPPED_MIDDLE") > 0),
                "the frames late by a 60 ms message dropped frames");
        String first = fps.get(0), last = fps.get(fps.size() - 1);
        if (metrics) {
            check(fps.stream().allMatch(j -> j.contains("\"TOTAL_DURATION\":") && j.contains("\"GPU_DURATION\":")
                    && j.contains("\"DROP_COUNT\":")), "FrameMetrics keys in every report");
            long unknown = fps.stream().mapToLong(j -> j.contains("\"FRAMES_UNKNOWN_DURATION\":")
                    ? intOf(j, "FRAMES_UNKNOWN_DURATION") : 0).sum();
            check(unknown == 7, "the 7 frames the platform dropped the metrics of, as of unknown duration: " + unknown);
            check(intOf(first, "REFRESH_RATE") == 90 && intOf(last, "REFRESH_RATE") == 60,
                    "REFRESH_RATE follows the display: " + intOf(first, "REFRESH_RATE") + ", "
                    + intOf(last, "REFRESH_RATE"));
        } else {
            check(fps.stream().noneMatch(j -> j.contains("TOTAL_DURATION")), "Matrix's old Trace_FPS keys");
            // a window of n frames that dropped d counts n + d intervals: fps = rate * n / (n + d)
            check(impliedRate(first) == 90 && impliedRate(last) == 60,
                    "frames are judged against the display's rate: " + impliedRate(first) + ", " + impliedRate(last));
        }
        TraceCanary.release();
    }

    /**
     * API 24+: a window drawn without hardware acceleration takes no frame-metrics listener
     * (the framework logs and keeps none), and removing one at the activity's destroy throws
     * IllegalArgumentException there: the runtime must not let it reach the app, whose
     * onDestroy it would crash. An accelerated window's listener is removed at destroy.
     */
    static void frameMetricsDestroy(String lib) {
        Looper.prepareMainLooper();
        Application app = new Application();
        TraceCanary.Config c = config(lib);
        c.tracers |= TraceCanary.TRACER_FRAME;
        AndroidTracing.install(app, c, LISTENER);
        MainActivity hw = new MainActivity(), sw = new MainActivity();
        sw.getWindow().stubSetHardwareAccelerated(false);
        for (Activity a : new Activity[] {hw, sw}) {
            resume(app, a);
        }
        check(hw.getWindow().stubListenerCount() == 1, "the accelerated window has the runtime's listener");
        check(sw.getWindow().stubListenerCount() == 0, "the window drawn in software has none (the framework kept none)");
        for (Activity a : new Activity[] {sw, hw}) {
            app.dispatchActivityPaused(a);
            app.dispatchActivityStopped(a);
            try {
                app.dispatchActivityDestroyed(a);
                check(true, (a == sw ? "software" : "accelerated") + " window: the activity's destroy goes through");
            } catch (RuntimeException e) {
                check(false, (a == sw ? "software" : "accelerated") + " window: the activity's destroy threw " + e);
            }
        }
        check(hw.getWindow().stubListenerCount() == 0, "the accelerated window's listener is removed at destroy");
        TraceCanary.release();
    }

    /**
     * An app zygote (android:zygotePreloadName) preloads the app's code with no main looper
     * and forks the app's processes: it must start no thread. Played here as ART (whose
     * java.vm.name is "Dalvik") before Looper.prepareMainLooper(): traced code, start() and
     * install make no runtime. Then, as in the forked process once ActivityThread.main has
     * prepared the main looper, the first traced call starts recording.
     */
    static void zygote(String lib) {
        System.setProperty("java.vm.name", "Dalvik");
        TraceCanary.configure(config(lib));
        earlyInit();
        check(TraceCanary.status() == TraceCanary.STATUS_DEFAULT, "a traced call in the zygote starts nothing");
        TraceCanary.start(config(lib), LISTENER);
        check(TraceCanary.status() == TraceCanary.STATUS_DEFAULT, "nor does start()");
        AndroidTracing.install(new Application(), config(lib), LISTENER);
        check(TraceCanary.status() == TraceCanary.STATUS_DEFAULT, "nor does install");
        check(runtimeTasks().isEmpty(), "no thread of the runtime runs: " + runtimeTasks().size());
        Looper.prepareMainLooper(); // the forked process, in ActivityThread.main
        earlyInit();
        check(TraceCanary.status() == TraceCanary.STATUS_READY && TraceCanary.written() == 2,
                "in the process it forks, the first traced call starts recording");
        check(!runtimeTasks().isEmpty(), "and the runtime's threads run there");
        TraceCanary.release();
    }

    static String crashFile;

    /** The ring file's seq, events ever stored in it (tc_ringfile.h: 8 bytes at offset 64,
     *  in the writer's byte order, which is this machine's). */
    static long fileSeq(String file) {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file, "r")) {
            byte[] b = new byte[8];
            f.seek(64);
            f.readFully(b);
            return java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.nativeOrder()).getLong();
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    static void crash(String lib, String file) {
        crashFile = file;
        TraceCanary.Config c = config(lib).bufferPath(file).capacity(4096);
        TraceCanary.start(c, LISTENER);
        crashLoop();
    }

    /**
     * As in an instrumented app: the first traced call starts recording with the defaults
     * (no configure(); the library comes from java.library.path, as on a device), then
     * install asks for a file ring of another size. What was recorded before must be in
     * the file (e2e.sh decodes it), the start-up mark must still find it, and the reports
     * have their stacks. Another thread makes traced calls all along.
     */
    static void lazy(String lib, String file) {
        earlyInit();
        check(TraceCanary.status() == TraceCanary.STATUS_READY, "the first traced call started recording");
        check(TraceCanary.written() == 2, "early events in the default ring (" + TraceCanary.written() + ")");
        Thread other = new Thread(E2e::noise);
        other.start();

        Looper.prepareMainLooper();
        app = new Application();
        lazyConfig = config(lib).bufferPath(file).capacity(4096);
        lazyConfig.coldThresholdMs = 1; // a slow cold start: its stack reaches back to earlyInit
        Handler h = new Handler(Looper.getMainLooper());
        MainActivity a = new MainActivity();
        h.post(E2e::appOnCreate);
        h.post(() -> app.dispatchActivityCreated(a));
        h.post(() -> app.dispatchActivityStarted(a));
        h.post(() -> a.onWindowFocusChanged(true));
        h.post(Scenarios::slowWork);
        h.postDelayed(() -> Looper.getMainLooper().quit(), 1200);
        Looper.loop();
        check(TraceCanary.isAlive(), "started");
        check(new java.io.File(file).length() == 8448 + 4096 * 8, "the ring file has the size start asked for");

        String[] evil = waitFor("Trace_EvilMethod", "NORMAL", 5000);
        check(evil != null && item(evil[2], 1, 100, 1) >= 700, "slow message report with slowWork's line");
        String[] slowStart = waitFor("Trace_EvilMethod", "STARTUP", 2000);
        check(slowStart != null && item(slowStart[2], 0, 1, 1) >= 0 && item(slowStart[2], 0, 2, 1) >= 0,
                "the start-up stack holds earlyInit (before the move) and appOnCreate (across it)");
        if (slowStart != null) {
            System.out.println("# " + slowStart[2]);
        }
        noiseStop = true;
        try {
            other.join();
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
        TraceCanary.stop();
        TraceCanary.release();
    }

    /**
     * Every thread records (THREADS_ALL): three workers write at once, each into a ring of
     * its own, while the main thread records into the context's ring; a section runs on the
     * main thread around all of it and one on a worker; a fourth thread, started while
     * the three live, finds the rings in use and its events are counted. e2e.sh reads the
     * ring file and the thread file.
     */
    static void threads(String lib, String file) {
        Looper.prepareMainLooper();
        TraceCanary.Config c = config(lib).bufferPath(file).capacity(4096).threads(TraceCanary.THREADS_ALL);
        c.maxThreads = 3;
        c.threadCapacity = 4096;
        AndroidTracing.install(new Application(), c, LISTENER);
        Handler h = new Handler(Looper.getMainLooper());
        h.post(() -> {
            TraceCanary.beginSection("cold start");
            AppMethodBeat.i(10);
            Thread[] workers = new Thread[3];
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch looped = new java.util.concurrent.CountDownLatch(3);
            java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
            for (int k = 0; k < workers.length; k++) {
                final int id = 400 + k;
                workers[k] = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (id == 400) {
                        TraceCanary.beginSection("download");
                    }
                    for (int n = 0; n < 1000; n++) {
                        AppMethodBeat.i(id);
                        AppMethodBeat.o(id);
                    }
                    if (id == 400) {
                        TraceCanary.endSection();
                    }
                    looped.countDown();
                    try {
                        end.await(); // alive, holding its ring, until the late thread ran
                    } catch (InterruptedException e) {
                        return;
                    }
                }, "worker-" + k);
                workers[k].start();
            }
            go.countDown();
            busy(20);
            try {
                looped.await();
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
            Thread late = new Thread(() -> {
                for (int n = 0; n < 256; n++) {
                    AppMethodBeat.i(499);
                    AppMethodBeat.o(499);
                }
            }, "late");
            late.start();
            join(late);
            end.countDown();
            join(workers);
            AppMethodBeat.o(10);
            TraceCanary.endSection();
            Looper.getMainLooper().quit();
        });
        Looper.loop();
        check(TraceCanary.written() > 4, "the main thread recorded into the context's ring");
        TraceCanary.release();
    }

    /**
     * Defect: a pool that starts and ends threads used up the rings (maxThreads 2 here) and
     * every later thread went unrecorded. Twelve threads, one after the other, each with
     * 100 calls: a ring whose thread ended goes to the next. e2e.sh reads the thread file.
     */
    static void threadsChurn(String lib, String file) {
        TraceCanary.Config c = config(lib).bufferPath(file).capacity(4096).threads(TraceCanary.THREADS_ALL);
        c.tracers = 0;
        c.maxThreads = 2;
        c.threadCapacity = 1024;
        TraceCanary.start(c, LISTENER);
        for (int k = 0; k < 12; k++) {
            final int id = 600 + k;
            Thread t = new Thread(() -> {
                for (int n = 0; n < 100; n++) {
                    AppMethodBeat.i(id);
                    AppMethodBeat.o(id);
                }
            }, "pool-" + k);
            t.start();
            join(t);
        }
        TraceCanary.release(); // copies what the last threads wrote
        check(true, "twelve threads ran");
    }

    /**
     * Killed while writing (e2e.sh crash-busy): traced calls without end, in a message or
     * (outside) not; "MARK n" once n events were written. The runtime copies the staging
     * ring at each clock tick, so the file holds them a tick later.
     */
    static void crashBusy(String lib, String file, boolean inMessage) {
        TraceCanary.Config c = config(lib).bufferPath(file).capacity(4096);
        c.tracers = 0;
        TraceCanary.start(c, LISTENER);
        if (inMessage) {
            TraceCanary.dispatchBegin();
        }
        for (long n = 0;; ) {
            AppMethodBeat.i(500);
            AppMethodBeat.o(500);
            n += 2;
            if (n == 200_000) {
                System.out.println("MARK " + n);
                System.out.flush();
            }
        }
    }

    static void join(Thread... threads) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }
    }

    /** The main thread lowers its own priority through a platform library (traced: id 110). */
    static void lowerPriority(int by) {
        AppMethodBeat.i(110);
        try {
            int tid = FakePlatform.myTid();
            check(FakePlatform.setThreadPriority(0, FakePlatform.getThreadPriority(tid) + by) == 0,
                    "setpriority on the main thread");
        } finally {
            AppMethodBeat.o(110);
        }
    }

    /** Another thread lowers the main thread's priority. */
    static void otherThreadLowers(int mainTid) {
        FakePlatform.setThreadPriority(mainTid, FakePlatform.getThreadPriority(mainTid) + 1);
    }

    /** The app's handling of one input event (traced: id 112). */
    static void handleTouch(long ms) {
        AppMethodBeat.i(112);
        try {
            busy(ms);
        } finally {
            AppMethodBeat.o(112);
        }
    }

    /** One input event: the system sends it, the app reads it, handles it, says finished. */
    static void touch(int[] ch, long ms) {
        check(FakePlatform.systemSend(ch[0], 120) == 120, "the system sent an event");
        check(FakePlatform.consume(ch[1]) == 120, "the app read it");
        handleTouch(ms);
        check(FakePlatform.finish(ch[1]) == 24, "the app sent its finished signal");
    }

    static int countDetail(String detail) {
        synchronized (reports) {
            int n = 0;
            for (String[] x : reports) {
                n += x[2].contains("\"detail\":\"" + detail + "\"") ? 1 : 0;
            }
            return n;
        }
    }

    /**
     * The PLT-hook tracers on HotSpot: a JNI library of our own (fake_platform.c) plays
     * libandroid_runtime.so and libinput.so, hooked by name from the configuration; the
     * main thread's priority changed by itself and by another thread is reported with the
     * changer's Java stack, a slow input event with the recorded stack, a fast one not.
     */
    static void hooks(String lib) throws InterruptedException {
        System.load(System.getProperty("tc.fake"));
        Looper.prepareMainLooper();
        TraceCanary.Config c = config(lib);
        c.tracers = TraceCanary.TRACER_PRIORITY | TraceCanary.TRACER_TOUCH;
        c.priorityLibs = "libtc_e2efake.so";
        c.touchLibs = "libtc_e2efake.so";
        c.touchLagMs = 300;
        AndroidTracing.install(new Application(), c, LISTENER);
        int mainTid = FakePlatform.myTid();
        if (FakePlatform.getThreadPriority(mainTid) > 17) {
            System.out.println("# the main thread's nice value is already near 19: skipped");
            System.exit(77);
        }
        Handler h = new Handler(Looper.getMainLooper());
        int[] ch = FakePlatform.channel();
        h.post(() -> {
            lowerPriority(1);
            Thread t = new Thread(() -> otherThreadLowers(mainTid), "changer");
            t.start();
            join(t);
            touch(ch, 20);
            touch(ch, 450);
            Looper.myLooper().quit();
        });
        Looper.loop();
        String[] p = waitFor("Trace_EvilMethod", "PRIORITY_MODIFIED", 3000);
        check(p != null, "PRIORITY_MODIFIED report");
        String[] t = waitFor("Trace_EvilMethod", "LAG_TOUCH", 3000);
        check(t != null, "LAG_TOUCH report");
        Thread.sleep(300);
        synchronized (reports) {
            List<String> prio = new ArrayList<>();
            for (String[] x : reports) {
                if (x[2].contains("\"detail\":\"PRIORITY_MODIFIED\"")) {
                    prio.add(x[2]);
                    System.out.println("# " + x[2]);
                }
            }
            check(prio.size() == 2, "two changes of the main thread's priority: " + prio.size());
            if (prio.size() == 2) {
                check(prio.get(0).contains("E2e.lowerPriority(E2e.java:"), "the main thread's own stack");
                check(prio.get(0).contains("\"threadStack\":\"FakePlatform.setThreadPriority(Native Method)"),
                        "the stack starts at the native call");
                check(prio.get(1).contains("E2e.otherThreadLowers(E2e.java:")
                        && !prio.get(1).contains("E2e.lowerPriority"), "the other thread's stack");
                check(prio.get(0).matches(".*\"processPriority\":-?[0-9]+,\"priorityBefore\":-?[0-9]+,"
                        + "\"changerTid\":" + mainTid + ",.*"), "Matrix's processPriority, the before value, the changer");
            }
        }
        if (t != null) {
            System.out.println("# " + t[2]);
            check(t[2].matches(".*\"cost\":(4[5-9][0-9]|[5-9][0-9][0-9]|[0-9]{4}),.*"), "the slow event's cost");
            check(t[2].contains(",112,1,"), "the recorded stack holds the handler (112)");
            check(t[2].contains("\"stackKey\":\"112|\""), "stackKey: the handler");
            check(t[2].contains("\"scene\":") && t[2].contains("\"isProcessForeground\":"), "Matrix's LAG_TOUCH keys");
        }
        check(countDetail("LAG_TOUCH") == 1, "the fast event (20 ms) is not reported: " + countDetail("LAG_TOUCH"));
        TraceCanary.release();
        check(FakePlatform.setThreadPriority(0, FakePlatform.getThreadPriority(mainTid) + 1) == 0,
                "after release the call still works");
    }

    /** A device that blocks Unsafe.putOrderedLong (unsafe/sun/misc/Unsafe.java as
     *  "blocked", patched into the JDK): install and traced code run as usual, nothing is
     *  recorded, one log line says why and so does the first report (recordingOff), not the
     *  next. */
    static void unsafeBlocked(String lib) {
        List<String> logs = new ArrayList<>();
        TraceCanary.setLogListener((level, tag, text) -> {
            synchronized (logs) {
                logs.add(text);
            }
        });
        earlyInit(); // a traced call before any start: would start recording
        Looper.prepareMainLooper();
        TraceCanary.Config c = config(lib);
        AndroidTracing.install(new Application(), c, LISTENER);
        check(TraceCanary.isAlive(), "install runs: the runtime is alive");
        Handler h = new Handler(Looper.getMainLooper());
        h.post(Scenarios::slowWork);
        h.post(Scenarios::slowWork);
        h.post(() -> Looper.getMainLooper().quit());
        Looper.loop();
        check(true, "traced methods ran without an exception");
        String[] evil = waitFor("Trace_EvilMethod", "NORMAL", 5000);
        check(evil != null, "the slow message is still reported (its message markers)");
        if (evil != null) {
            System.out.println("# " + evil[2]);
            check(evil[2].contains("\"recordingOff\":\"sun.misc.Unsafe.putOrderedLong(Object, long, long) refused: "
                    + "java.lang.NoSuchMethodError: No virtual method putOrderedLong"), "the first report says why");
            check(item(evil[2], 1, 100, 1) == -1, "no method in its stack: none was recorded");
        }
        long end = System.currentTimeMillis() + 5000;
        int n;
        do {
            synchronized (reports) {
                n = reports.size();
            }
            sleep(20);
        } while (n < 2 && System.currentTimeMillis() < end);
        synchronized (reports) {
            check(reports.size() >= 2, "a second report: " + reports.size());
            for (int k = 1; k < reports.size(); k++) {
                check(!reports.get(k)[2].contains("recordingOff"), "report " + k + " does not say it again");
            }
        }
        int said = 0;
        synchronized (logs) {
            for (String l : logs) {
                if (l.startsWith("recording off: sun.misc.Unsafe.putOrderedLong")) {
                    said++;
                }
            }
        }
        check(said == 1, "one log line says recording is off: " + said);
        TraceCanary.release();
        check(TraceCanary.status() == TraceCanary.STATUS_OUT_RELEASE, "released");
    }

    /**
     * The start's self-check of the writers (SelfCheck): on a thread of its own it times a
     * burst of events into a scratch ring and says what one cost, in a log line, the first
     * report and the ring's header (e2e.sh reads it with tc-ringdump). slow: the accessors
     * are calls (e2e.sh's stub Unsafe as "slow"), over the threshold: a warning, and recording
     * stops (Config.selfCheckStops).
     */
    static void selfCheck(String lib, String file, boolean slow) {
        List<String> logs = new ArrayList<>();
        TraceCanary.setLogListener((level, tag, text) -> {
            synchronized (logs) {
                logs.add(level + " " + text);
            }
        });
        Looper.prepareMainLooper();
        long t0 = System.nanoTime();
        TraceCanary.Config c = config(lib).bufferPath(file).capacity(4096).selfCheckStops(true).selfCheckMaxNs(200);
        AndroidTracing.install(new Application(), c, LISTENER);
        long startMs = (System.nanoTime() - t0) / 1_000_000;
        String line = null;
        long end = System.currentTimeMillis() + 20_000;
        while (line == null && System.currentTimeMillis() < end) {
            synchronized (logs) {
                for (String l : logs) {
                    if (l.contains("self-check: ")) {
                        line = l;
                    }
                }
            }
            sleep(10);
        }
        System.out.println("# start (install) " + startMs + " ms; " + line);
        check(line != null, "a log line gives the self-check's figure");
        if (line == null) {
            return;
        }
        check(line.matches("[0-9]+ self-check: [0-9]+\\.[0-9]{3} ns per event .*the check took [0-9.]+ ms.*"),
              "it says the cost per event and the check's: " + line);
        check(line.startsWith("5 ") == slow, "a warning (5, android.util.Log.WARN) iff over the threshold");
        check(line.contains("recording stopped") == slow, "recording stops iff over the threshold");
        check((TraceCanary.status() == TraceCanary.STATUS_STOPPED) == slow, "status " + TraceCanary.status());
        if (!slow) {
            Handler h = new Handler(Looper.getMainLooper());
            h.post(Scenarios::slowWork);
            h.post(() -> Looper.getMainLooper().quit());
            Looper.loop();
            String[] evil = waitFor("Trace_EvilMethod", "NORMAL", 5000);
            check(evil != null && evil[2].contains("\"selfCheck\":\"") && evil[2].contains(" ns per event "),
                  "the first report carries it: " + (evil != null ? evil[2] : null));
        }
        TraceCanary.release();
        TraceCanary.setLogListener(null);
    }

    public static void main(String[] args) throws Exception {
        String lib = System.getProperty("tc.lib");
        switch (args[0]) {
            case "slow": slow(lib); break;
            case "anr": anr(lib); break;
            case "signal": signal(lib); break;
            case "idle-lag": idleLag(lib); break;
            case "startup": startup(lib, Integer.parseInt(args[1])); break;
            case "api": api(lib); break;
            case "release-listener": releaseListener(lib); break;
            case "zygote": zygote(lib); break;
            case "message-queue": messageQueue(lib, Boolean.parseBoolean(args[1])); break;
            case "idle-time": idleTime(lib, args[1]); break;
            case "printer": printer(lib, false); break;
            case "printer-hidden": printer(lib, true); break;
            case "expire": expire(lib); break;
            case "frames": frames(lib, false); break;
            case "frame-metrics": frames(lib, true); break;
            case "frame-metrics-destroy": frameMetricsDestroy(lib); break;
            case "crash": crash(lib, args[1]); return;
            case "lazy": lazy(lib, args[1]); break;
            case "threads": threads(lib, args[1]); break;
            case "threads-filter": threadsFilter(lib, args[1]); break;
            case "block": block(lib, args[1], Boolean.parseBoolean(args[2])); break;
            case "view-phases": viewPhases(lib, args[1], Boolean.parseBoolean(args[2]), args[3]); break;
            case "threads-churn": threadsChurn(lib, args[1]); break;
            case "crash-busy": crashBusy(lib, args[1], args[2].equals("message")); return;
            case "hooks": hooks(lib); break;
            case "unsafe-blocked": unsafeBlocked(lib); break;
            case "self-check": selfCheck(lib, args[1], Boolean.parseBoolean(args[2])); break;
            default: throw new IllegalArgumentException(args[0]);
        }
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}

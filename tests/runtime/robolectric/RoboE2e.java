import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import android.app.Application;
import android.os.Build;
import android.os.Handler;
import android.os.Looper;

import com.tencent.matrix.trace.android.AndroidTracing;
import com.tencent.matrix.trace.core.AppMethodBeat;
import com.tencent.matrix.trace.core.TraceCanary;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.LooperMode;

/**
 * The Android glue's end-to-end scenarios of tests/runtime/e2e/E2e.java on the real
 * framework: android-all's Looper, MessageQueue, Handler and Application inside
 * Robolectric (robolectric.sh runs it once per API level, -Drobolectric.enabledSdks=N).
 * Method events come from hand-written AppMethodBeat calls in tc-instrument's shape,
 * with E2e's ids.
 *
 * Where Robolectric is not a device:
 *  - LooperMode INSTRUMENTATION_TEST: the main looper runs the framework's own
 *    Looper.loop() on a thread of its own ("SDK N Main Thread"), which calls the
 *    mLogging printer around each message as a device does. Under Robolectric's default
 *    PAUSED mode the test thread is the main thread and ShadowPausedLooper.idle()
 *    dispatches messages itself, never calling the printer: no message would be seen.
 *  - SystemClock is Robolectric's (a fake clock that only a test moves); the runtime
 *    times messages with CLOCK_MONOTONIC in C, so durations are real, but Message.when
 *    (the queue probe) is in fake time.
 *  - No Choreographer vsync: Robolectric's Choreographer runs frames from its own
 *    clock, not at a display's rate (the frame scenarios stay on the stubs).
 */
@RunWith(RobolectricTestRunner.class)
@Config(minSdk = 21, manifest = Config.NONE) // the level: -Drobolectric.enabledSdks=N
@LooperMode(LooperMode.Mode.INSTRUMENTATION_TEST)
public final class RoboE2e {
    static final List<String[]> reports = new ArrayList<>();

    static final TraceCanary.ReportListener LISTENER = (tag, key, json) -> {
        synchronized (reports) {
            reports.add(new String[] {tag, key, json});
            reports.notifyAll();
        }
    };

    static String[] waitFor(String tag, String detail, long ms) throws InterruptedException {
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
                reports.wait(left);
            }
        }
    }

    /** The duration of the first "depth,id,count,dur" line for id at depth, or -1. */
    static long item(String json, int depth, int id, int count) {
        Matcher m = Pattern.compile("(?:\"stack\":\"|\\\\n)" + depth + "," + id + "," + count + ",(\\d+)\\\\n")
                .matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    static void busy(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += end ^ x;
        }
        if (x == 42) {
            System.out.print("");
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    // ---- "instrumented" methods, E2e's ids ----

    /** An Activity as tc-instrument leaves it: onWindowFocusChanged calls at(this, hasFocus). */
    public static final class MainActivity extends android.app.Activity {
        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            AppMethodBeat.i(5);
            AppMethodBeat.at(this, hasFocus);
            AppMethodBeat.o(5);
        }
    }

    static void tinyStep() {
        AppMethodBeat.i(101);
        busy(1);
        AppMethodBeat.o(101);
    }

    static void nap() {
        AppMethodBeat.i(102);
        try {
            sleep(150);
        } finally {
            AppMethodBeat.o(102);
        }
    }

    static void slowWork() {
        AppMethodBeat.i(100);
        try {
            for (int k = 0; k < 3; k++) {
                tinyStep();
            }
            nap();
            busy(650);
        } finally {
            AppMethodBeat.o(100);
        }
    }

    static void stuck() {
        AppMethodBeat.i(200);
        try {
            sleep(5600);
        } finally {
            AppMethodBeat.o(200);
        }
    }

    static boolean slowIdle() {
        AppMethodBeat.i(202);
        try {
            sleep(2300);
        } finally {
            AppMethodBeat.o(202);
        }
        return false;
    }

    /** Runs on the main looper's thread and waits for it. */
    static <T> T onMain(Callable<T> c) throws Exception {
        FutureTask<T> t = new FutureTask<>(c);
        new Handler(Looper.getMainLooper()).post(t);
        return t.get(30, TimeUnit.SECONDS);
    }

    static final List<String> logs = new ArrayList<>();

    static void install(int tracers) throws Exception {
        install(tracers, false);
    }

    static void install(int tracers, boolean blockContext) throws Exception {
        TraceCanary.Config c = new TraceCanary.Config().libraryPath(System.getProperty("tc.lib"));
        c.tracers = tracers;
        c.blockContext = blockContext;
        Application app = RuntimeEnvironment.getApplication();
        TraceCanary.setLogListener((level, tag, text) -> {
            synchronized (logs) {
                logs.add(tag + ": " + text);
            }
        });
        onMain(() -> {
            AndroidTracing.install(app, c, LISTENER);
            return null;
        });
        assertTrue("started on API " + Build.VERSION.SDK_INT, TraceCanary.isAlive());
    }

    /** In the runtime's log or in android.util.Log (Robolectric's ShadowLog keeps it). */
    static boolean logged(String part) {
        synchronized (logs) {
            for (String l : logs) {
                if (l.contains(part)) {
                    return true;
                }
            }
        }
        for (org.robolectric.shadows.ShadowLog.LogItem l : org.robolectric.shadows.ShadowLog.getLogs()) {
            if (l.msg != null && l.msg.contains(part)) {
                return true;
            }
        }
        return false;
    }

    @After
    public void release() throws Exception {
        onMain(() -> { // the recording thread: install ran there
            TraceCanary.stop();
            TraceCanary.release();
            return null;
        });
        TraceCanary.setLogListener(null);
        synchronized (reports) {
            reports.clear();
        }
        synchronized (logs) {
            logs.clear();
        }
    }

    @Test
    public void slowMessage() throws Exception {
        install(TraceCanary.TRACER_EVIL);
        Handler h = new Handler(Looper.getMainLooper());
        h.post(() -> busy(5));
        h.post(RoboE2e::slowWork);
        String[] evil = waitFor("Trace_EvilMethod", "NORMAL", 10_000);
        assertNotNull("slow message report on API " + Build.VERSION.SDK_INT, evil);
        String j = evil[2];
        System.out.println("# API " + Build.VERSION.SDK_INT + " " + j);
        long d100 = item(j, 1, 100, 1);
        assertTrue("slowWork's own line, ~800 ms: " + d100, d100 >= 700 && d100 <= 2500);
        long d101 = item(j, 2, 101, 3);
        assertTrue("three tinySteps merged into one line: " + d101, d101 >= 0 && d101 <= 200);
        long d102 = item(j, 2, 102, 1);
        assertTrue("nap ~150 ms: " + d102, d102 >= 100 && d102 <= 1000);
        long dd = item(j, 0, AppMethodBeat.METHOD_ID_DISPATCH, 1);
        assertTrue("the message line holds the method: " + dd, dd >= d100);
        assertTrue("stackKey is slowWork", j.contains("\"stackKey\":\"100|\""));
    }

    /** E2e's anr: a message stuck 5.6 s gives a LAG report with the main thread's stack, then an ANR. */
    @Test
    public void anrAndLag() throws Exception {
        install(TraceCanary.TRACER_EVIL | TraceCanary.TRACER_ANR);
        new Handler(Looper.getMainLooper()).post(RoboE2e::stuck);
        String[] lag = waitFor("Trace_EvilMethod", "LAG", 10_000);
        assertNotNull("lag report on API " + Build.VERSION.SDK_INT, lag);
        assertTrue("lag report with the main thread's stack: " + lag[2], lag[2].contains("RoboE2e.stuck"));
        String[] anr = waitFor("Trace_EvilMethod", "ANR", 10_000);
        assertNotNull("ANR report on API " + Build.VERSION.SDK_INT, anr);
        String j = anr[2];
        System.out.println("# API " + Build.VERSION.SDK_INT + " " + j);
        long d200 = item(j, 1, 200, 1);
        assertTrue("stuck ~5000 ms at the check: " + d200, d200 >= 4800 && d200 <= 5600);
        assertTrue("stackKey is stuck", j.contains("\"stackKey\":\"200|\""));
        assertTrue("the whole stack, from the sleep to stuck",
                j.contains("|*\\t\\tat RoboE2e:sleep(") && j.contains("|*\\t\\tat RoboE2e:stuck("));
        onMain(() -> null); // the stuck message is over
    }

    /**
     * E2e's idle-lag: the framework's MessageQueue.mIdleHandlers wrapped on API 23+, a slow
     * handler reported with its stack; API 21 and 22 lack Looper.getQueue(): off, with a
     * warning. The handlers run in the framework's own MessageQueue.next().
     */
    @Test
    public void idleHandlerLag() throws Exception {
        install(TraceCanary.TRACER_IDLE);
        boolean api23 = Build.VERSION.SDK_INT >= 23;
        int[] quick = {0};
        onMain(() -> {
            android.os.MessageQueue q = Looper.myQueue();
            q.addIdleHandler(() -> {
                quick[0]++;
                return true;
            });
            q.addIdleHandler(RoboE2e::slowIdle);
            return null;
        });
        new Handler(Looper.getMainLooper()).post(() -> busy(5));
        String[] r = waitFor("Trace_EvilMethod", "LAG_IDLE_HANDLER", api23 ? 8000 : 3000);
        onMain(() -> null);
        assertTrue("the quick handler ran: " + quick[0], quick[0] >= 1);
        if (api23) {
            assertNotNull("LAG_IDLE_HANDLER report for the slow handler on API " + Build.VERSION.SDK_INT, r);
            System.out.println("# API " + Build.VERSION.SDK_INT + " " + r[2]);
            assertTrue("the main thread's stack, in the handler: " + r[2], r[2].contains("RoboE2e.slowIdle(RoboE2e.java:"));
        } else {
            assertEquals("API " + Build.VERSION.SDK_INT + ": no idle-handler lag", null, r);
            assertTrue("API " + Build.VERSION.SDK_INT + ": a warning says it is off: " + logs,
                    logged("idle-handler lag needs API 23"));
        }
    }

    /**
     * The frame tracer and the view phases on the framework's Choreographer: below API 24
     * (frames) and 26 (phases) FrameMonitor reaches Choreographer.mCallbackQueues, mLock,
     * mDisplayEventReceiver.mTimestampNanos and CallbackQueue.addCallbackLocked by
     * reflection; on 24+ frames come from FrameMetrics, on 26+ the phases too. Whatever
     * the level, none of it may fail on the real classes (the warnings below). Robolectric
     * has no display vsync (its Choreographer runs frames on its fake clock), so the
     * frames' timing is the stubs' e2e tests' to judge; here a posted frame callback runs
     * and the monitor's queued callback keeps working through it.
     */
    @Test
    public void framesReachChoreographer() throws Exception {
        install(TraceCanary.TRACER_EVIL | TraceCanary.TRACER_FRAME, true);
        java.util.concurrent.CountDownLatch frame = new java.util.concurrent.CountDownLatch(1);
        onMain(() -> {
            android.view.Choreographer.getInstance().postFrameCallback(t -> frame.countDown());
            return null;
        });
        boolean ran = frame.await(10, TimeUnit.SECONDS);
        onMain(() -> null);
        System.out.println("# API " + Build.VERSION.SDK_INT + " frame callback ran: " + ran);
        assertTrue("a frame ran on API " + Build.VERSION.SDK_INT, ran);
        assertTrue("FrameMonitor reached the Choreographer's callback queues on API " + Build.VERSION.SDK_INT,
                !logged("cannot reach Choreographer"));
        assertTrue("frame timing kept running on API " + Build.VERSION.SDK_INT, !logged("frame timing stopped"));
        assertTrue("a DisplayManager on API " + Build.VERSION.SDK_INT, !logged("no DisplayManager"));
    }

    /**
     * Start-up and the Activity focus hook on the framework's Activity and Application: a
     * real Activity created by Robolectric's ActivityController on the main looper (its
     * lifecycle through the Application's callbacks), then focused: at(activity, true)
     * ends a cold start. Robolectric is not a device here: the activity is not launched
     * through ActivityThread.mH (the runtime's launch hook sees no launch transaction),
     * and creating the first one takes seconds (Robolectric loads resources and
     * instruments the classes it needs), which the start-up report counts.
     */
    @Test
    public void startupAndFocus() throws Exception {
        install(TraceCanary.TRACER_EVIL | TraceCanary.TRACER_STARTUP);
        onMain(() -> {
            MainActivity a = org.robolectric.Robolectric.buildActivity(MainActivity.class).setup().get();
            new Handler(Looper.getMainLooper()).post(() -> a.onWindowFocusChanged(true));
            return null;
        });
        String[] r = waitFor("Trace_StartUp", null, 10_000);
        assertNotNull("start-up report on API " + Build.VERSION.SDK_INT, r);
        String j = r[2];
        System.out.println("# API " + Build.VERSION.SDK_INT + " " + j);
        assertTrue("a cold start: " + j, j.contains("\"is_warm_start_up\":false"));
        assertTrue("the scene of a launched activity (100): " + j, j.contains("\"application_create_scene\":100"));
        Matcher m = Pattern.compile("\"first_activity_create\":(\\d+).*\"startup_duration\":(\\d+)").matcher(j);
        assertTrue("first_activity_create and startup_duration: " + j, m.find());
        assertTrue("the start-up lasts until the focus: " + j, Long.parseLong(m.group(2)) >= Long.parseLong(m.group(1)));
        String[] slow = waitFor("Trace_EvilMethod", "NORMAL", 2000);
        assertTrue("the next report's scene is the activity, from the Application's lifecycle callbacks",
                slow == null || slow[2].contains("\"scene\":\"RoboE2e$MainActivity\""));
    }
}

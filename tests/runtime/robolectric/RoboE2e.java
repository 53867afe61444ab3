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
 * with E2e's ids: the scenarios' traced work and their reports' checks are
 * tests/runtime/e2e/Scenarios.java's, which E2e runs on the stubs.
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
 *  - No display: a vsync request is answered at once, its time on Robolectric's clock
 *    (framesAndFps moves that clock to the real one: alignClock). No renderer:
 *    ShadowWindow holds the FrameMetrics listeners and delivers only what a test hands
 *    it (framesAndFps, viewPhases). No system server: nothing sends a launch through
 *    ActivityThread.mH (startupAndFocus sends it). See each test and README.md here.
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

    /** The check of Scenarios' shared report checks: an assertion here. */
    static final Scenarios.Check ASSERT = (ok, what) -> assertTrue(what + " on API " + Build.VERSION.SDK_INT, ok);

    static void busy(long ms) {
        Scenarios.busy(ms);
    }

    static void sleep(long ms) {
        Scenarios.sleep(ms);
    }

    // ---- "instrumented" methods: Scenarios' (E2e's too), and the Activity's focus hook ----

    /** An Activity as tc-instrument leaves it: onWindowFocusChanged calls at(this, hasFocus). */
    public static final class MainActivity extends android.app.Activity {
        static volatile long createdMs;

        @Override
        protected void onCreate(android.os.Bundle saved) {
            super.onCreate(saved);
            createdMs = System.currentTimeMillis();
        }

        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            AppMethodBeat.i(5);
            AppMethodBeat.at(this, hasFocus);
            AppMethodBeat.o(5);
        }
    }

    static boolean slowIdle() {
        Scenarios.slowIdle();
        return false;
    }

    /** Runs on the main looper's thread and waits for it. */
    static <T> T onMain(Callable<T> c) throws Exception {
        return onMain(c, 30);
    }

    static <T> T onMain(Callable<T> c, long seconds) throws Exception {
        FutureTask<T> t = new FutureTask<>(c);
        new Handler(Looper.getMainLooper()).post(t);
        return t.get(seconds, TimeUnit.SECONDS);
    }

    /** Builds an Activity on the main looper: the first in a JVM takes Robolectric 15 to 60 s
     *  on a loaded 2-core VM (resources, instrumenting the classes it needs). */
    static <T> T onMainActivity(Callable<T> c) throws Exception {
        return onMain(c, 180);
    }

    static final List<String> logs = new ArrayList<>();

    static void install(int tracers) throws Exception {
        install(tracers, false);
    }

    static void install(int tracers, boolean blockContext) throws Exception {
        TraceCanary.Config c = new TraceCanary.Config().libraryPath(System.getProperty("tc.lib"));
        c.tracers = tracers;
        c.blockContext = blockContext;
        install(c);
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

    /** Each test's time (printed: the figures per level of README.md's "Time"). */
    @org.junit.Rule
    public final org.junit.rules.TestName name = new org.junit.rules.TestName();
    long began;

    @org.junit.Before
    public void begin() {
        began = System.nanoTime();
    }

    @After
    public void release() throws Exception {
        System.out.printf("# API %d %s: %d ms%n", Build.VERSION.SDK_INT, name.getMethodName(),
                (System.nanoTime() - began) / 1_000_000);
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
        h.post(Scenarios::slowWork);
        String[] evil = waitFor("Trace_EvilMethod", "NORMAL", 10_000);
        assertNotNull("slow message report on API " + Build.VERSION.SDK_INT, evil);
        String j = evil[2];
        System.out.println("# API " + Build.VERSION.SDK_INT + " " + j);
        Scenarios.checkSlowMessage(j, ASSERT);
    }

    /** E2e's anr: a message stuck 5.6 s gives a LAG report with the main thread's stack, then an ANR. */
    @Test
    public void anrAndLag() throws Exception {
        install(TraceCanary.TRACER_EVIL | TraceCanary.TRACER_ANR);
        new Handler(Looper.getMainLooper()).post(Scenarios::stuck);
        String[] lag = waitFor("Trace_EvilMethod", "LAG", 10_000);
        assertNotNull("lag report on API " + Build.VERSION.SDK_INT, lag);
        Scenarios.checkLag(lag[2], ASSERT);
        String[] anr = waitFor("Trace_EvilMethod", "ANR", 10_000);
        assertNotNull("ANR report on API " + Build.VERSION.SDK_INT, anr);
        String j = anr[2];
        System.out.println("# API " + Build.VERSION.SDK_INT + " " + j);
        Scenarios.checkAnr(j, ASSERT);
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
            Scenarios.checkIdleLag(r[2], ASSERT);
        } else {
            assertEquals("API " + Build.VERSION.SDK_INT + ": no idle-handler lag", null, r);
            assertTrue("API " + Build.VERSION.SDK_INT + ": a warning says it is off: " + logs,
                    logged("idle-handler lag needs API 23"));
        }
    }


    /**
     * Start-up through ActivityThread.mH and the Activity focus hook on the framework's
     * ActivityThread, Handler, Activity and Application. The runtime's AppCreateHook must
     * find mH on the real ActivityThread (Robolectric's, from currentActivityThread()) and
     * wrap its Handler.mCallback; a launch then comes through mH as the system sends it:
     * on API 28+ an EXECUTE_TRANSACTION (159) whose first item is the real
     * LaunchActivityItem (read through the real ClientTransaction.getCallbacks()), before
     * LAUNCH_ACTIVITY (100). It ends application create; the activity is created 400 ms
     * later, then focused (at(activity, true) as tc-instrument writes it): a cold start.
     *
     * Where Robolectric is not a device: no system server sends the launch, and
     * ActivityController creates the activity itself, not from mH's message. So the test
     * sends the message, and a callback below the runtime's (where a device has none)
     * takes it so that the framework's H does not execute a transaction made up here (its
     * items are allocated without their fields). Creating the first Activity in a JVM
     * takes Robolectric seconds (resources, instrumenting the classes it needs), which
     * first_activity_create counts.
     */
    @Test
    public void startupAndFocus() throws Exception {
        int sdk = Build.VERSION.SDK_INT;
        Class<?> at = Class.forName("android.app.ActivityThread");
        Object thread = at.getMethod("currentActivityThread").invoke(null);
        assertNotNull("Robolectric's ActivityThread on API " + sdk, thread);
        java.lang.reflect.Field fh = at.getDeclaredField("mH");
        fh.setAccessible(true);
        Handler mH = (Handler) fh.get(thread);
        assertTrue("mH runs on the main looper on API " + sdk, mH.getLooper() == Looper.getMainLooper());
        java.lang.reflect.Field fc = Handler.class.getDeclaredField("mCallback");
        fc.setAccessible(true);
        List<Integer> taken = new ArrayList<>();
        fc.set(mH, (Handler.Callback) msg -> {
            synchronized (taken) {
                taken.add(msg.what);
            }
            return msg.what == 159 || msg.what == 100;
        });
        install(TraceCanary.TRACER_EVIL | TraceCanary.TRACER_STARTUP);
        Object hook = fc.get(mH);
        assertTrue("the runtime wrapped mH's callback on API " + sdk + ": " + hook,
                hook != null && hook.getClass().getName().endsWith(".AppCreateHook"));
        int what = sdk >= 28 ? 159 : 100;
        Object obj = sdk >= 28 ? launchTransaction() : null;
        long launchMs = System.currentTimeMillis();
        onMain(() -> {
            mH.sendMessage(android.os.Message.obtain(mH, what, obj));
            return null;
        });
        onMain(() -> null); // the launch message ran
        synchronized (taken) {
            assertEquals("the launch went through the runtime's callback to the one below it",
                    java.util.Collections.singletonList(what), taken);
        }
        sleep(400);
        long[] focusMs = {0};
        onMainActivity(() -> {
            MainActivity a = org.robolectric.Robolectric.buildActivity(MainActivity.class).setup().get();
            new Handler(Looper.getMainLooper()).post(() -> {
                focusMs[0] = System.currentTimeMillis();
                a.onWindowFocusChanged(true);
            });
            return null;
        });
        String[] r = waitFor("Trace_StartUp", null, 10_000);
        assertNotNull("start-up report on API " + sdk, r);
        String j = r[2];
        System.out.println("# API " + sdk + " launch via mH " + what + ", activity created "
                + (MainActivity.createdMs - launchMs) + " ms after it: " + j);
        assertTrue("a cold start: " + j, j.contains("\"is_warm_start_up\":false"));
        assertEquals("application create ended by mH's message " + what + ": " + j, what,
                intOf(j, "application_create_scene"));
        // ended at the launch message, not at the activity create (LifecycleMonitor's
        // fallback when the hook is missing): the focus comes as long after the end of
        // application create as after the launch message
        long appCreate = intOf(j, "application_create"), firstScreen = intOf(j, "first_activity_create");
        long sinceLaunch = focusMs[0] - launchMs;
        assertTrue("first_activity_create - application_create = " + (firstScreen - appCreate)
                + " ms, the launch message to the focus " + sinceLaunch + " ms: " + j,
                Math.abs(firstScreen - appCreate - sinceLaunch) <= 100 && MainActivity.createdMs - launchMs >= 400);
        assertTrue("the start-up lasts until the focus: " + j, intOf(j, "startup_duration") >= firstScreen);
        String[] slow = waitFor("Trace_EvilMethod", "NORMAL", 2000);
        assertTrue("the next report's scene is the activity, from the Application's lifecycle callbacks",
                slow == null || slow[2].contains("\"scene\":\"RoboE2e$MainActivity\""));
    }

    /**
     * API 28+: the launch transaction as ActivityThread's H gets it, from the framework's
     * own classes: a ClientTransaction (its no-argument constructor, private before API
     * 36) whose first item is a LaunchActivityItem (allocated without a constructor:
     * theirs differ between levels), added as the system adds it: addTransactionItem on
     * API 35+ (which also puts a non-lifecycle item in getCallbacks()), addCallback before.
     */
    static Object launchTransaction() throws Exception {
        java.lang.reflect.Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        f.setAccessible(true);
        sun.misc.Unsafe u = (sun.misc.Unsafe) f.get(null);
        Class<?> ct = Class.forName("android.app.servertransaction.ClientTransaction");
        Class<?> item = Class.forName("android.app.servertransaction.LaunchActivityItem");
        java.lang.reflect.Constructor<?> k = ct.getDeclaredConstructor();
        k.setAccessible(true);
        Object t = k.newInstance(), launch = u.allocateInstance(item);
        for (String add : new String[] {"addTransactionItem", "addCallback"}) {
            for (java.lang.reflect.Method m : ct.getDeclaredMethods()) {
                if (m.getName().equals(add) && m.getParameterCount() == 1 && m.getParameterTypes()[0].isInstance(launch)) {
                    m.setAccessible(true);
                    m.invoke(t, launch);
                    return t;
                }
            }
        }
        throw new AssertionError("no ClientTransaction.addCallback or addTransactionItem");
    }

    // ---- frames, FrameMetrics, view phases, start-up (issue 34 item 2) ----

    static long intOf(String json, String key) {
        return Scenarios.num(json, key);
    }

    static double fpsOf(String json) {
        Matcher m = Pattern.compile("\"fps\":([0-9.]+)").matcher(json);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    /** A bucket's frames (dropLevel) or dropped frames (dropSum) in a Trace_FPS report. */
    static long bucket(String json, String map, String b) {
        Matcher m = Pattern.compile("\"" + map + "\":\\{[^}]*\"DROPPED_" + b + "\":(\\d+)").matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    static final String[] BUCKETS = {"FROZEN", "HIGH", "MIDDLE", "NORMAL", "BEST"};

    /** The first Trace_FPS report of scene, without the machine's keys. */
    static String fpsReport(String scene) throws InterruptedException {
        long end = System.currentTimeMillis() + 5000;
        synchronized (reports) {
            for (;;) {
                for (String[] r : reports) {
                    if (r[0].equals("Trace_FPS") && r[2].contains("\"scene\":\"" + scene + "\"")) {
                        return r[2].replaceAll("\"machine\".*?\"mem_free\":\\d+,", "");
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

    /** The default display as the runtime gets it (the Application's DisplayManager). */
    static android.view.Display display() {
        android.hardware.display.DisplayManager dm = (android.hardware.display.DisplayManager)
                RuntimeEnvironment.getApplication().getSystemService(android.content.Context.DISPLAY_SERVICE);
        return dm.getDisplay(android.view.Display.DEFAULT_DISPLAY);
    }

    /**
     * Robolectric's clock (SystemClock, and System.nanoTime inside the framework: the
     * vsync time Choreographer's display event receiver hands doFrame) moved up to the
     * real CLOCK_MONOTONIC, which the runtime times messages with. Robolectric's clock
     * starts at 100 ms and moves only when told (here: 1 ms per vsync asked for), so
     * without this every frame would look days late. Main thread.
     */
    static void alignClock() {
        long behind = System.nanoTime() / 1_000_000L - android.os.SystemClock.uptimeMillis();
        if (behind > 0) {
            org.robolectric.shadows.ShadowSystemClock.advanceBy(java.time.Duration.ofMillis(behind));
        }
    }

    /**
     * Frames and FPS with known frame durations, on a real Activity (its start makes the
     * scene and the foreground the frame tracer counts in).
     *
     * Before API 24 (Choreographer): the framework's Choreographer runs frames whose
     * callback works 2 ms (smooth) or 225 ms (four frames dropped at 20 Hz: NORMAL; the
     * runtime drops floor((end - vsync) / interval), so a frame of 200 ms would sit on the
     * edge of 3 and 4, where a skew of the aligned clock below a millisecond flips it); the
     * runtime's input-queue callback takes each frame's vsync from the real
     * FrameDisplayEventReceiver.mTimestampNanos. Where Robolectric is not a device: its
     * ShadowDisplayEventReceiver answers a vsync request at once (no display: the vsync is
     * "now" + ShadowChoreographer's 1 ms frame delay, on Robolectric's clock, which
     * alignClock() moves to the real one before each request), so a frame's cost is its
     * own work: a device's vsync comes at the next refresh and a late frame's cost
     * includes the wait for it.
     *
     * API 24+ (FrameMetrics): Robolectric has no renderer; its ShadowWindow replaces
     * Window.add/removeOnFrameMetricsAvailableListener (a set of listeners; removing one
     * never added throws IllegalArgumentException, as the framework does) and delivers
     * FrameMetrics only when told (reportOnFrameMetricsAvailable, on the caller's thread,
     * not the tc-frames handler the runtime asked for); FrameMetricsBuilder fills the
     * real FrameMetrics class's timing array. So the runtime's listener is checked to be
     * registered at resume and unregistered at destroy, and given frames of known
     * durations and a dropped-reports count through the real FrameMetrics.getMetric.
     */
    @Test
    public void framesAndFps() throws Exception {
        TraceCanary.Config c = new TraceCanary.Config().libraryPath(System.getProperty("tc.lib"));
        int sdk = Build.VERSION.SDK_INT;
        c.tracers = TraceCanary.TRACER_EVIL | TraceCanary.TRACER_FRAME;
        c.fpsSliceMs = sdk >= 24 ? 300 : 1500;
        // a 20 Hz display (Robolectric's is 60 Hz), read by the runtime at install: frames
        // judged in 50 ms intervals, so that a loaded CI machine's stalls of tens of ms do
        // not move a frame between buckets
        org.robolectric.shadows.ShadowDisplay d = org.robolectric.shadow.api.Shadow.extract(display());
        d.setRefreshRate(20);
        install(c);
        float hz = display().getRefreshRate();
        assertEquals("the display's rate", 20f, hz, 0.01f);
        long interval = (long) (1e9 / hz);
        org.robolectric.android.controller.ActivityController<MainActivity>[] ctl = new org.robolectric.android.controller.ActivityController[1];
        onMainActivity(() -> {
            ctl[0] = org.robolectric.Robolectric.buildActivity(MainActivity.class).setup();
            return null;
        });
        assertTrue("FrameMonitor reached the Choreographer's callback queues on API " + sdk,
                !logged("cannot reach Choreographer"));
        assertTrue("a DisplayManager on API " + sdk, !logged("no DisplayManager"));
        String j;
        if (sdk < 24) {
            final int warm = 3, smooth = 12, slow = 3;
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            onMain(() -> {
                alignClock();
                android.view.Choreographer.getInstance().postFrameCallback(new android.view.Choreographer.FrameCallback() {
                    int n;

                    @Override
                    public void doFrame(long t) {
                        n++;
                        if (n == warm + 1) {
                            // a scene of its own from here: the activity's first frames
                            // (timed against Robolectric's clock before it was aligned, or
                            // running its first traversal) and the warm-up stay out
                            TraceCanary.setScene(FRAMES_SCENE);
                        }
                        busy(n > warm + smooth && n <= warm + smooth + slow ? 225 : 2);
                        if (n < 200 && fpsReport0(FRAMES_SCENE)) {
                            alignClock();
                            android.view.Choreographer.getInstance().postFrameCallback(this);
                        } else {
                            done.countDown();
                        }
                    }
                });
                return null;
            });
            assertTrue("the frames ran", done.await(20, TimeUnit.SECONDS));
            onMain(() -> null);
            j = fpsReport(FRAMES_SCENE);
            assertNotNull("a Trace_FPS report on API " + sdk, j);
            System.out.println("# API " + sdk + " " + j);
            assertTrue("frame timing kept running on API " + sdk, !logged("frame timing stopped"));
            // the window closes at fpsSliceMs of frame time: (dropped + 1) intervals a frame
            long frames = 0, dropped = 0;
            for (String b : BUCKETS) {
                frames += bucket(j, "dropLevel", b);
                dropped += bucket(j, "dropSum", b);
            }
            assertEquals("the three 225 ms frames: NORMAL (3..8 dropped): " + j, slow, bucket(j, "dropLevel", "NORMAL"));
            assertEquals("the 2 ms frames: BEST: " + j, frames - slow, bucket(j, "dropLevel", "BEST"));
            long sum = bucket(j, "dropSum", "NORMAL");
            assertTrue("each 225 ms frame dropped 4 frames at " + hz + " Hz (5 or 6 if the VM was slow): " + sum,
                    sum >= 4 * slow && sum <= 6 * slow);
            assertTrue("the window: fpsSliceMs of frame time: " + (frames + dropped),
                    (frames + dropped) * interval >= c.fpsSliceMs * 1_000_000L
                    && (frames + dropped - 9) * interval < c.fpsSliceMs * 1_000_000L);
            double want = hz * frames / (frames + dropped);
            assertTrue("fps = rate * frames / (frames + dropped) = " + want + ": " + j, Math.abs(fpsOf(j) - want) < 0.1);
        } else {
            android.view.Window w = ctl[0].get().getWindow();
            Object shadow = org.robolectric.shadow.api.Shadow.extract(w);
            java.util.Set<?> listeners = org.robolectric.util.ReflectionHelpers.getField(shadow,
                    "onFrameMetricsAvailableListeners");
            assertEquals("the runtime's listener on the resumed activity's window on API " + sdk, 1, listeners.size());
            org.robolectric.shadows.ShadowWindow sw = (org.robolectric.shadows.ShadowWindow) shadow;
            // 21 smooth frames (8 ms) and 4 slow (250 ms: 4 dropped at 20 Hz), 7 reports
            // dropped before the first; a frame after fpsSliceMs closes the window
            for (int k = 0; k < 25; k++) {
                boolean slowFrame = k % 6 == 5;
                sw.reportOnFrameMetricsAvailable(metrics(slowFrame ? 150 : 3, slowFrame ? 100 : 5), k == 0 ? 7 : 0);
                if (k == 23) {
                    sleep(c.fpsSliceMs + 50);
                }
            }
            j = fpsReport("RoboE2e$MainActivity");
            assertNotNull("a Trace_FPS report on API " + sdk, j);
            System.out.println("# API " + sdk + " " + j);
            long frames = 25, slow = 4;
            assertEquals("the 250 ms frames: NORMAL: " + j, slow, bucket(j, "dropLevel", "NORMAL"));
            assertEquals("the 8 ms frames: BEST: " + j, frames - slow, bucket(j, "dropLevel", "BEST"));
            long perSlow = Math.round((250e6 - interval) / interval);
            assertEquals("each 250 ms frame dropped " + perSlow + ": " + j, slow * perSlow, bucket(j, "dropSum", "NORMAL"));
            double paced = (frames - slow) * (double) interval + slow * 250e6;
            double want = 1e9 * frames / paced;
            assertTrue("fps: 1e9 * frames / their time, at least an interval each = " + want + ": " + j,
                    Math.abs(fpsOf(j) - want) < 0.1);
            assertEquals("the 7 frames the platform dropped the metrics of: " + j, 7, intOf(j, "FRAMES_UNKNOWN_DURATION"));
            long layout = ((frames - slow) * 3_000_000L + slow * 150_000_000L) / frames;
            assertEquals("LAYOUT_MEASURE_DURATION, the average of what was given: " + j, layout,
                    intOf(j, "LAYOUT_MEASURE_DURATION"));
            assertEquals("TOTAL_DURATION: " + j, ((frames - slow) * 8_000_000L + slow * 250_000_000L) / frames,
                    intOf(j, "TOTAL_DURATION"));
            assertEquals("REFRESH_RATE: " + j, Math.round(hz), intOf(j, "REFRESH_RATE"));
            assertTrue("GPU_DURATION from API 31 only: " + j, j.contains("\"GPU_DURATION\":") == (sdk >= 31));
            // destroyed: the listener removed without throwing
            onMain(() -> {
                ctl[0].pause().stop().destroy();
                return null;
            });
            assertEquals("the listener removed at destroy on API " + sdk, 0, listeners.size());
            // a window that never took the listener (the framework's, drawn without
            // hardware acceleration): its remove throws, which must not reach the app
            onMainActivity(() -> {
                org.robolectric.android.controller.ActivityController<MainActivity> a =
                        org.robolectric.Robolectric.buildActivity(MainActivity.class).setup();
                java.util.Set<?> l = org.robolectric.util.ReflectionHelpers.getField(
                        org.robolectric.shadow.api.Shadow.extract(a.get().getWindow()), "onFrameMetricsAvailableListeners");
                assertEquals("the second activity's window has the listener", 1, l.size());
                l.clear();
                a.pause().stop().destroy(); // throws if the framework's exception got out
                return null;
            });
        }
    }

    static final String FRAMES_SCENE = "RoboE2e.frames";

    /** A view whose measure takes 800 ms once armed (slowTraversal, E2e's id 120). */
    public static final class SlowView extends android.view.View {
        volatile boolean armed;
        volatile long measureNs;

        public SlowView(android.content.Context c) {
            super(c);
        }

        @Override
        protected void onMeasure(int w, int h) {
            if (armed) {
                armed = false;
                long t = System.nanoTime();
                Scenarios.slowTraversal();
                measureNs = System.nanoTime() - t;
            }
            super.onMeasure(w, h);
        }
    }

    /** The slow-message report whose stackKey is id, or null. */
    static String[] waitForKey(int id, long ms) throws InterruptedException {
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
                reports.wait(left);
            }
        }
    }

    /**
     * View phases (Config.blockContext) on a real Activity's view tree: one frame of the
     * framework's Choreographer whose animation callback takes 150 ms and whose
     * traversal (ViewRootImpl.performTraversals, from the view's requestLayout) measures
     * a view for 800 ms. The slow message's report says where its time went.
     *
     * Before API 26 the phases come from Choreographer's queues (the runtime's callbacks
     * at the heads of the real CallbackQueues): the traversal ~800 ms, measure, layout
     * and draw unknown. From API 26 they come from FrameMetrics, which Robolectric has no
     * renderer to produce (see framesAndFps): the test hands the window's listener
     * (ShadowWindow) the metrics a renderer would give for this frame, its intended vsync
     * the frame's start on the real clock and its phases as the test timed them, then a
     * frame after the message (so the report needs not wait its longest); the runtime
     * must place the frame in its message through the real FrameMetrics class.
     */
    @Test
    public void viewPhases() throws Exception {
        int sdk = Build.VERSION.SDK_INT;
        TraceCanary.Config c = new TraceCanary.Config().libraryPath(System.getProperty("tc.lib"));
        c.tracers = TraceCanary.TRACER_EVIL;
        c.blockContext = true;
        install(c);
        SlowView[] v = new SlowView[1];
        MainActivity[] act = new MainActivity[1];
        onMainActivity(() -> {
            act[0] = org.robolectric.Robolectric.buildActivity(MainActivity.class).setup().get();
            v[0] = new SlowView(act[0]);
            act[0].setContentView(v[0]);
            return null;
        });
        onMain(() -> null); // its layout ran
        long[] t = new long[2]; // the frame's start, the animation's time
        onMain(() -> {
            android.view.Choreographer.getInstance().postFrameCallback(x -> {
                t[0] = System.nanoTime();
                Scenarios.slowAnimation();
                t[1] = System.nanoTime() - t[0];
            });
            v[0].armed = true;
            v[0].requestLayout();
            return null;
        });
        onMain(() -> null); // the frame ran
        assertTrue("the frame measured the view on API " + sdk, v[0].measureNs > 0);
        boolean metrics = sdk >= 26;
        if (metrics) {
            org.robolectric.shadows.ShadowWindow sw = org.robolectric.shadow.api.Shadow.extract(act[0].getWindow());
            sw.reportOnFrameMetricsAvailable(new org.robolectric.shadows.FrameMetricsBuilder()
                    .setMetric(android.view.FrameMetrics.INTENDED_VSYNC_TIMESTAMP, t[0])
                    .setMetric(android.view.FrameMetrics.ANIMATION_DURATION, t[1])
                    .setMetric(android.view.FrameMetrics.LAYOUT_MEASURE_DURATION, v[0].measureNs)
                    .setMetric(android.view.FrameMetrics.DRAW_DURATION, 3_000_000L).build());
            sw.reportOnFrameMetricsAvailable(new org.robolectric.shadows.FrameMetricsBuilder()
                    .setMetric(android.view.FrameMetrics.INTENDED_VSYNC_TIMESTAMP, System.nanoTime())
                    .setMetric(android.view.FrameMetrics.DRAW_DURATION, 3_000_000L).build());
        }
        String[] r = waitForKey(120, 5000);
        assertNotNull("the frame's slow-message report on API " + sdk, r);
        String j = r[2];
        System.out.println("# API " + sdk + " " + j.replaceAll("\"machine\".*?\"mem_free\":\\d+,", "")
                .replaceAll("\"threadStack\":\".*?\",", ""));
        String source = metrics ? "FrameMetrics" : "Choreographer";
        Scenarios.checkViewPhases(j, source, ASSERT); // E2e's view-phases checks
        if (metrics) { // and the very figures the window's listener was given
            assertEquals("animation, as the renderer said: " + j, t[1] / 1_000_000, intOf(j, "animationMs"));
            assertEquals("measure + layout, as the renderer said: " + j, v[0].measureNs / 1_000_000,
                    intOf(j, "measureLayoutMs"));
            assertEquals("draw: " + j, 3, intOf(j, "drawMs"));
        }
    }

    /** True while no Trace_FPS report of scene came (a frame callback's "keep going"). */
    static boolean fpsReport0(String scene) {
        synchronized (reports) {
            for (String[] r : reports) {
                if (r[0].equals("Trace_FPS") && r[2].contains("\"scene\":\"" + scene + "\"")) {
                    return false;
                }
            }
        }
        return true;
    }

    /** FrameMetrics with the given layout+measure and draw times (ms); total = their sum. */
    static android.view.FrameMetrics metrics(long layoutMs, long drawMs) throws Exception {
        return new org.robolectric.shadows.FrameMetricsBuilder()
                .setMetric(android.view.FrameMetrics.LAYOUT_MEASURE_DURATION, layoutMs * 1_000_000L)
                .setMetric(android.view.FrameMetrics.DRAW_DURATION, drawMs * 1_000_000L)
                .build();
    }

    static void install(TraceCanary.Config c) throws Exception {
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
}

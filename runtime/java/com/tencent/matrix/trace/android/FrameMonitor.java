package com.tencent.matrix.trace.android;

import android.app.Application;
import android.content.Context;
import android.hardware.display.DisplayManager;
import android.os.Build;
import android.os.Handler;
import android.os.Looper;
import android.util.Log;
import android.view.Choreographer;
import android.view.Display;

import com.tencent.matrix.trace.core.TraceCanary;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Frame timing. The frame interval is the display's (its refresh rate, followed when it
 * changes). Frames come from the framework without asking it for anything: an idle app
 * draws no frame, and we make it draw none.
 *
 * <ul>
 * <li>API 24+: FrameMetrics of each resumed activity's window, as Matrix's FrameTracer
 * ({@link FrameMetricsSource}): the frames the renderer drew, with their durations.
 * <li>Before: as Matrix's UIThreadMonitor, a callback at the head of Choreographer's
 * input queue, added by reflection straight into the queue, which asks for no vsync: it
 * runs at the start of the next frame someone asked for, takes that frame's vsync time
 * from the display event receiver, and puts itself back for the frame after. doFrame's
 * own frameTimeNanos will not do: Choreographer moves it forward for a late frame, which
 * then looks on time. Where reflection is refused there are no frames, and a warning.
 * </ul>
 *
 * <p>The block context's view phases (Config.blockContext): from API 26 FrameMetrics,
 * whose intended vsync places a frame in a message; before, the same input-queue
 * callback also puts one at the heads of the animation and traversal queues, each
 * marking where its phase begins (as Matrix's UIThreadMonitor times its queues).
 */
final class FrameMonitor implements Runnable {
    private static final String TAG = "Matrix.FrameMonitor";
    // the queues' indexes before API 30 (which put CALLBACK_INSETS_ANIMATION at 2)
    private static final int INPUT = 0, ANIMATION = 1, TRAVERSAL = 2;
    private final Object lock;
    private final Object[] queues;
    private final Method addCallbackLocked;
    private final Object receiver;
    private final Field timestamp;
    private final boolean vsync, phases;
    private final Runnable animationBegins = () -> TraceCanary.viewPhase(TraceCanary.PHASE_ANIMATION);
    private final Runnable traversalBegins = () -> TraceCanary.viewPhase(TraceCanary.PHASE_TRAVERSAL);

    private FrameMonitor(Object lock, Object[] queues, Method addCallbackLocked, Object receiver, Field timestamp,
            boolean vsync, boolean phases) {
        this.lock = lock;
        this.queues = queues;
        this.addCallbackLocked = addCallbackLocked;
        this.receiver = receiver;
        this.timestamp = timestamp;
        this.vsync = vsync;
        this.phases = phases;
    }

    /** Main thread. frames: the frame tracer's frames; phases: the view phases. */
    static void start(Application app, boolean frames, boolean phases) {
        int sdk = Build.VERSION.SDK_INT;
        if (frames) {
            followRefreshRate(app);
        }
        if (sdk >= 24 && (frames || (phases && sdk >= 26))) {
            FrameMetricsSource.register(app);
        }
        if (phases && sdk >= 26) {
            TraceCanary.setViewSource(TraceCanary.VIEW_FRAME_METRICS);
        }
        boolean vsync = frames && sdk < 24;
        phases &= sdk < 26;
        if (!vsync && !phases) {
            return;
        }
        try {
            Choreographer c = Choreographer.getInstance();
            Object[] queues = (Object[]) Reflection.field(Choreographer.class, "mCallbackQueues").get(c);
            Method add = Reflection.method(queues[INPUT].getClass(), "addCallbackLocked", long.class, Object.class,
                    Object.class);
            Object receiver = Reflection.field(Choreographer.class, "mDisplayEventReceiver").get(c);
            new FrameMonitor(Reflection.field(Choreographer.class, "mLock").get(c), queues, add, receiver,
                    Reflection.field(receiver.getClass(), "mTimestampNanos"), vsync, phases).next();
            if (phases) {
                TraceCanary.setViewSource(TraceCanary.VIEW_CHOREOGRAPHER);
            }
        } catch (Throwable t) {
            Log.w(TAG, "cannot reach Choreographer's callback queues (refused reflection): no frame timing"
                    + (phases ? " and no view phases" : "") + ": " + t);
        }
    }

    /** At the head of the input queue (due time -1), for the next frame. */
    private void next() throws ReflectiveOperationException {
        synchronized (lock) {
            addCallbackLocked.invoke(queues[INPUT], -1L, this, null);
        }
    }

    /** The start of a frame, inside the message that runs it. */
    @Override
    public void run() {
        try {
            if (vsync) {
                TraceCanary.vsync(timestamp.getLong(receiver));
            }
            if (phases) {
                TraceCanary.viewPhase(TraceCanary.PHASE_INPUT);
                synchronized (lock) { // this frame's: doFrame takes each queue's due callbacks in turn
                    addCallbackLocked.invoke(queues[ANIMATION], -1L, animationBegins, null);
                    addCallbackLocked.invoke(queues[TRAVERSAL], -1L, traversalBegins, null);
                }
            }
            next();
        } catch (Throwable t) {
            Log.w(TAG, "frame timing stopped: " + t);
        }
    }

    /** The default display's refresh rate, now and whenever it changes (API 17). */
    private static void followRefreshRate(Application app) {
        final DisplayManager dm = (DisplayManager) app.getSystemService(Context.DISPLAY_SERVICE);
        if (dm == null) {
            Log.w(TAG, "no DisplayManager: frames are judged at 60 Hz");
            return;
        }
        setRefreshRate(dm);
        dm.registerDisplayListener(new DisplayManager.DisplayListener() {
            @Override
            public void onDisplayAdded(int displayId) {}

            @Override
            public void onDisplayRemoved(int displayId) {}

            @Override
            public void onDisplayChanged(int displayId) {
                if (displayId == Display.DEFAULT_DISPLAY) {
                    setRefreshRate(dm);
                }
            }
        }, new Handler(Looper.getMainLooper()));
    }

    private static void setRefreshRate(DisplayManager dm) {
        Display d = dm.getDisplay(Display.DEFAULT_DISPLAY);
        float hz = d != null ? d.getRefreshRate() : 0;
        if (hz >= 1) {
            TraceCanary.setFrameIntervalNanos((long) (1e9 / hz));
        }
    }
}

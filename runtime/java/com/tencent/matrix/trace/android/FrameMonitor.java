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
 */
final class FrameMonitor implements Runnable {
    private static final String TAG = "Matrix.FrameMonitor";
    private final Object lock, inputQueue, receiver;
    private final Method addCallbackLocked;
    private final Field timestamp;

    private FrameMonitor(Object lock, Object inputQueue, Method addCallbackLocked, Object receiver, Field timestamp) {
        this.lock = lock;
        this.inputQueue = inputQueue;
        this.addCallbackLocked = addCallbackLocked;
        this.receiver = receiver;
        this.timestamp = timestamp;
    }

    /** Main thread. */
    static void start(Application app) {
        followRefreshRate(app);
        if (Build.VERSION.SDK_INT >= 24) {
            FrameMetricsSource.register(app);
            return;
        }
        try {
            Choreographer c = Choreographer.getInstance();
            Object[] queues = (Object[]) Reflection.field(Choreographer.class, "mCallbackQueues").get(c);
            Object input = queues[0]; // CALLBACK_INPUT, at every API level
            Method add = Reflection.method(input.getClass(), "addCallbackLocked", long.class, Object.class,
                    Object.class);
            Object receiver = Reflection.field(Choreographer.class, "mDisplayEventReceiver").get(c);
            new FrameMonitor(Reflection.field(Choreographer.class, "mLock").get(c), input, add, receiver,
                    Reflection.field(receiver.getClass(), "mTimestampNanos")).next();
        } catch (Throwable t) {
            Log.w(TAG, "cannot reach Choreographer's callback queues (refused reflection): no frame timing: " + t);
        }
    }

    /** At the head of the input queue (due time -1), for the next frame. */
    private void next() throws ReflectiveOperationException {
        synchronized (lock) {
            addCallbackLocked.invoke(inputQueue, -1L, this, null);
        }
    }

    /** The start of a frame, inside the message that runs it. */
    @Override
    public void run() {
        try {
            TraceCanary.vsync(timestamp.getLong(receiver));
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

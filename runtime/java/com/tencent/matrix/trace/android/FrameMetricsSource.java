package com.tencent.matrix.trace.android;

import android.app.Activity;
import android.app.Application;
import android.os.Build;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.util.Log;
import android.view.FrameMetrics;
import android.view.Window;

import com.tencent.matrix.trace.core.TraceCanary;

import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * API 24+: the FrameMetrics of every resumed activity's window (Matrix's FrameTracer),
 * delivered on a background thread, tc-frames, to the runtime. A class of its own, so
 * that older API levels, which lack its types, never load it.
 */
final class FrameMetricsSource implements Application.ActivityLifecycleCallbacks,
        Window.OnFrameMetricsAvailableListener {
    /** FrameMetrics ids in the runtime's order (tc_runtime.h, TC_FM_*) */
    private static final int[] IDS = {
        FrameMetrics.UNKNOWN_DELAY_DURATION, FrameMetrics.INPUT_HANDLING_DURATION, FrameMetrics.ANIMATION_DURATION,
        FrameMetrics.LAYOUT_MEASURE_DURATION, FrameMetrics.DRAW_DURATION, FrameMetrics.SYNC_DURATION,
        FrameMetrics.COMMAND_ISSUE_DURATION, FrameMetrics.SWAP_BUFFERS_DURATION, FrameMetrics.TOTAL_DURATION,
    };
    private static final int GPU_DURATION = 12; // FrameMetrics.GPU_DURATION, API 31
    private static final int INTENDED_VSYNC_TIMESTAMP = 10; // API 26
    private static final int THREAD_PRIORITY_BACKGROUND = 10;
    private static final String TAG = "Matrix.FrameTracer";
    private final Set<Activity> watched = Collections.newSetFromMap(new WeakHashMap<Activity, Boolean>());
    private final long[] ns = new long[IDS.length + 3]; // tc-frames only: durations, GPU, vsync, drops
    private Handler handler;

    private FrameMetricsSource() {}

    static void register(Application app) {
        app.registerActivityLifecycleCallbacks(new FrameMetricsSource());
    }

    @Override
    public void onActivityResumed(Activity activity) {
        if (!watched.add(activity)) {
            return;
        }
        if (handler == null) {
            HandlerThread t = new HandlerThread("tc-frames", THREAD_PRIORITY_BACKGROUND);
            t.setDaemon(true); // as the runtime's other threads: it keeps no process alive
            t.start();
            handler = new Handler(t.getLooper());
        }
        try {
            activity.getWindow().addOnFrameMetricsAvailableListener(this, handler);
        } catch (RuntimeException e) { // a window without a decor view: IllegalStateException
            watched.remove(activity);
            Log.w(TAG, "no frame metrics for " + activity.getClass().getName() + ": " + e);
        }
    }

    /** The framework's remove throws for a listener its window never took, which is what an
     *  add to a window drawn without hardware acceleration leaves (it only logs "View not
     *  hardware-accelerated"): IllegalArgumentException, or a NullPointerException on
     *  releases whose view had no observer list yet. Matrix catches it too. It must not
     *  reach the app: its onDestroy would crash. */
    @Override
    public void onActivityDestroyed(Activity activity) {
        if (watched.remove(activity)) {
            try {
                activity.getWindow().removeOnFrameMetricsAvailableListener(this);
            } catch (IllegalArgumentException | NullPointerException e) {
                // nothing to remove: the window never took the listener
            }
        }
    }

    @Override
    public void onFrameMetricsAvailable(Window window, FrameMetrics metrics, int dropCountSinceLastInvocation) {
        for (int i = 0; i < IDS.length; i++) {
            ns[i] = metrics.getMetric(IDS[i]);
        }
        ns[IDS.length] = Build.VERSION.SDK_INT >= 31 ? metrics.getMetric(GPU_DURATION) : -1;
        // places the frame's main-thread phases in a message (the block context's view phases)
        ns[IDS.length + 1] = Build.VERSION.SDK_INT >= 26 ? metrics.getMetric(INTENDED_VSYNC_TIMESTAMP) : -1;
        // the reports the platform dropped since the last (this listener fell behind):
        // frames of unknown duration, counted as such (FRAMES_UNKNOWN_DURATION)
        ns[IDS.length + 2] = dropCountSinceLastInvocation;
        TraceCanary.frameMetrics(ns);
    }

    @Override
    public void onActivityCreated(Activity activity, Bundle savedInstanceState) {}

    @Override
    public void onActivityStarted(Activity activity) {}

    @Override
    public void onActivityPaused(Activity activity) {}

    @Override
    public void onActivityStopped(Activity activity) {}

    @Override
    public void onActivitySaveInstanceState(Activity activity, Bundle outState) {}
}

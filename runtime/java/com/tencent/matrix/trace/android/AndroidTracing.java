package com.tencent.matrix.trace.android;

import android.app.Application;
import android.os.Looper;
import android.util.Log;

import com.tencent.matrix.trace.core.TraceCanary;

/**
 * The Android glue: starts the runtime on the main thread and connects it to
 * the main looper (message begin/end), Choreographer (frames), the activity
 * lifecycle (scene, foreground, startup) and the application-create end.
 *
 * <pre>
 *   public class App extends Application {
 *       public void onCreate() {
 *           super.onCreate();
 *           AndroidTracing.install(this, new TraceCanary.Config(), (tag, key, json) -&gt; ...);
 *       }
 *   }
 * </pre>
 */
public final class AndroidTracing {
    private AndroidTracing() {}

    /** Main thread only. Without a main looper (an app zygote's preload, which must start
     *  no thread), a warning and nothing else. */
    public static void install(Application app, TraceCanary.Config config, TraceCanary.ReportListener listener) {
        if (Looper.getMainLooper() == null) {
            Log.w("Matrix.AndroidTracing", "no main looper (an app zygote's preload?): tracing not installed");
            return;
        }
        if (Looper.myLooper() != Looper.getMainLooper()) {
            throw new IllegalStateException("AndroidTracing.install must run on the main thread");
        }
        if (config.blockContext) {
            GcStats.install(); // before start: the first message's sample asks it
        }
        TraceCanary.start(config, listener);
        TraceCanary.bindRecordingThread();
        LooperPrinter.install(Looper.getMainLooper());
        AppCreateHook.install();
        LifecycleMonitor.register(app);
        boolean frames = (config.tracers & TraceCanary.TRACER_FRAME) != 0;
        if (frames || config.blockContext) {
            FrameMonitor.start(app, frames, config.blockContext);
        }
        boolean idle = (config.tracers & TraceCanary.TRACER_IDLE) != 0;
        boolean signal = (config.tracers & TraceCanary.TRACER_SIGNAL_ANR) != 0;
        // Android 17's lock-free main queue: neither probe can read it right
        boolean lockFree = (idle || signal) && LockFreeQueue.check(
                idle && signal ? "idle-handler lag and the signal-ANR check's queue probe are"
                        : idle ? "idle-handler lag is" : "the signal-ANR check's queue probe is");
        if (idle && !lockFree) {
            IdleHandlerLag.install();
        }
        if (signal) {
            if (!lockFree) {
                MainQueueProbe.install();
            }
            ErrorStateProbe.install(app);
        }
    }
}

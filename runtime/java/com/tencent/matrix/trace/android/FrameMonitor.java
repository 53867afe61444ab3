package com.tencent.matrix.trace.android;

import android.view.Choreographer;

import com.tencent.matrix.trace.core.TraceCanary;

import java.lang.reflect.Field;

/**
 * Frame timing from Choreographer: doFrame(frameTimeNanos) runs inside the
 * looper message that renders the frame, so the runtime takes the vsync time
 * here and the frame's end at that message's end (Matrix's UIThreadMonitor
 * measured the same span with private callback queues).
 *
 * A frame callback asks for the next vsync, so the app renders at the
 * display rate while this runs; an idle app's frames count as on time.
 */
final class FrameMonitor implements Choreographer.FrameCallback {
    private FrameMonitor() {}

    static void start() {
        Choreographer c = Choreographer.getInstance();
        try {
            Field f = Choreographer.class.getDeclaredField("mFrameIntervalNanos");
            f.setAccessible(true);
            TraceCanary.setFrameIntervalNanos(f.getLong(c));
        } catch (Throwable t) {
            // keep the configured interval (60 Hz by default)
        }
        c.postFrameCallback(new FrameMonitor());
    }

    @Override
    public void doFrame(long frameTimeNanos) {
        TraceCanary.vsync(frameTimeNanos);
        Choreographer.getInstance().postFrameCallback(this);
    }
}

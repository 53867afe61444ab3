package android.view;

import android.os.Handler;
import android.os.Looper;

/** Stub: frame callbacks run from the calling thread's looper every 16 ms,
 *  with the vsync time they were due at. */
public final class Choreographer {
    public interface FrameCallback {
        void doFrame(long frameTimeNanos);
    }

    private static final ThreadLocal<Choreographer> current = new ThreadLocal<>();
    private static final long FRAME_NS = 16_666_667L;
    private final Handler handler = new Handler(Looper.myLooper());
    private long mFrameIntervalNanos = FRAME_NS; // the field name the runtime reads by reflection

    private Choreographer() {}

    public static Choreographer getInstance() {
        Choreographer c = current.get();
        if (c == null) {
            c = new Choreographer();
            current.set(c);
        }
        return c;
    }

    public void postFrameCallback(final FrameCallback cb) {
        long now = System.nanoTime();
        final long vsync = (now / mFrameIntervalNanos + 1) * mFrameIntervalNanos;
        handler.postDelayed(new Runnable() {
            @Override
            public void run() {
                cb.doFrame(vsync);
            }
        }, Math.max(0, (vsync - now) / 1_000_000L));
    }
}

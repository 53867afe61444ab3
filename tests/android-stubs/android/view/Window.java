package android.view;

import android.os.Build;
import android.os.Handler;
import android.util.Log;

import java.util.ArrayList;
import java.util.List;

/** Stub: an activity's window, with the frame-metrics listeners of API 24. The stub
 *  Choreographer reports each frame it ran to every window that has listeners, as the
 *  renderer reports the frames it drew.
 *
 *  <p>As the framework's (Window.add/removeOnFrameMetricsAvailableListener, which go to
 *  the decor view's View.addFrameMetricsListener/removeFrameMetricsListener): on an
 *  attached window drawn without hardware acceleration, adding a listener only logs "View
 *  not hardware-accelerated. Unable to observe frame stats" and keeps nothing; removing a
 *  listener the view does not have throws IllegalArgumentException ("attempt to remove
 *  OnFrameMetricsAvailableListener that was never added"). The window stands for an
 *  attached, hardware-accelerated one unless {@link #stubSetHardwareAccelerated} says
 *  otherwise. */
public class Window {
    public interface OnFrameMetricsAvailableListener {
        void onFrameMetricsAvailable(Window window, FrameMetrics frameMetrics, int dropCountSinceLastInvocation);
    }

    private static final List<Window> windows = new ArrayList<>();
    private static long renderDelayMs; // under windows
    private static int dropNext; // under windows: the next delivery's dropCountSinceLastInvocation
    private final List<Object[]> listeners = new ArrayList<>(); // {listener, handler}
    private boolean drawn;
    private boolean hardwareAccelerated = true;

    public final void addOnFrameMetricsAvailableListener(OnFrameMetricsAvailableListener listener, Handler handler) {
        Build.stubRequire(24, "android.view.Window.addOnFrameMetricsAvailableListener");
        if (listener == null) {
            throw new NullPointerException("listener cannot be null");
        }
        synchronized (windows) {
            if (!hardwareAccelerated) {
                Log.w("View", "View not hardware-accelerated. Unable to observe frame stats");
                return;
            }
            listeners.add(new Object[] {listener, handler});
            if (!windows.contains(this)) {
                windows.add(this);
            }
        }
    }

    public final void removeOnFrameMetricsAvailableListener(OnFrameMetricsAvailableListener listener) {
        Build.stubRequire(24, "android.view.Window.removeOnFrameMetricsAvailableListener");
        synchronized (windows) {
            for (int i = 0; i < listeners.size(); i++) {
                if (listeners.get(i)[0] == listener) {
                    listeners.remove(i);
                    return;
                }
            }
        }
        throw new IllegalArgumentException("attempt to remove OnFrameMetricsAvailableListener that was never added");
    }

    // ---- stub helpers, not Android API ----

    /** false: the window is drawn without hardware acceleration (android:hardwareAccelerated
     *  "false", or a software window): it has no renderer to observe. */
    public void stubSetHardwareAccelerated(boolean on) {
        synchronized (windows) {
            hardwareAccelerated = on;
        }
    }

    /** The frame-metrics listeners the window holds. */
    public int stubListenerCount() {
        synchronized (windows) {
            return listeners.size();
        }
    }

    /** The renderer's time to draw a frame after the main thread is done with it: the
     *  FrameMetrics reach the listeners that much later (0: at once). */
    /** The next frame's metrics come with this dropCountSinceLastInvocation, as when the
     *  platform dropped that many reports before it because the listener fell behind. */
    public static void stubDropBeforeNext(int n) {
        synchronized (windows) {
            dropNext = n;
        }
    }

    public static void stubSetRenderDelayMs(long ms) {
        synchronized (windows) {
            renderDelayMs = ms;
        }
    }

    /** A frame whose vsync was at vsync and that began at start; phase[i] is when
     *  callback type i began, phase[3] when they were done. Rendering after that (sync,
     *  command issue, swap) takes 1 ms, the GPU 2 ms; the metrics are delivered after the
     *  render delay. */
    static void stubFrameRendered(long vsync, long start, long[] phase) {
        long[] m = new long[14];
        m[FrameMetrics.UNKNOWN_DELAY_DURATION] = start - vsync;
        m[FrameMetrics.INPUT_HANDLING_DURATION] = phase[1] - phase[0];
        m[FrameMetrics.ANIMATION_DURATION] = phase[2] - phase[1];
        m[FrameMetrics.LAYOUT_MEASURE_DURATION] = phase[3] - phase[2];
        m[FrameMetrics.DRAW_DURATION] = 0;
        m[FrameMetrics.SYNC_DURATION] = 300_000;
        m[FrameMetrics.COMMAND_ISSUE_DURATION] = 400_000;
        m[FrameMetrics.SWAP_BUFFERS_DURATION] = 300_000;
        m[FrameMetrics.TOTAL_DURATION] = phase[3] + 1_000_000 - vsync;
        m[FrameMetrics.INTENDED_VSYNC_TIMESTAMP] = vsync;
        m[FrameMetrics.VSYNC_TIMESTAMP] = vsync;
        m[FrameMetrics.GPU_DURATION] = 2_000_000;
        m[FrameMetrics.DEADLINE] = (long) (1e9 / Display.stubDefault().getRefreshRate());
        synchronized (windows) {
            for (Window w : windows) {
                m[FrameMetrics.FIRST_DRAW_FRAME] = w.drawn ? 0 : 1;
                w.drawn = true;
                for (Object[] l : w.listeners) {
                    OnFrameMetricsAvailableListener listener = (OnFrameMetricsAvailableListener) l[0];
                    FrameMetrics metrics = new FrameMetrics(m.clone());
                    int drops = dropNext;
                    dropNext = 0;
                    ((Handler) l[1]).postDelayed(() -> listener.onFrameMetricsAvailable(w, metrics, drops), renderDelayMs);
                }
            }
        }
    }
}

package android.view;

import android.os.Build;
import android.os.Handler;

import java.util.ArrayList;
import java.util.List;

/** Stub: an activity's window, with the frame-metrics listeners of API 24. The stub
 *  Choreographer reports each frame it ran to every window that has listeners, as the
 *  renderer reports the frames it drew. */
public class Window {
    public interface OnFrameMetricsAvailableListener {
        void onFrameMetricsAvailable(Window window, FrameMetrics frameMetrics, int dropCountSinceLastInvocation);
    }

    private static final List<Window> windows = new ArrayList<>();
    private final List<Object[]> listeners = new ArrayList<>(); // {listener, handler}
    private boolean drawn;

    public final void addOnFrameMetricsAvailableListener(OnFrameMetricsAvailableListener listener, Handler handler) {
        Build.stubRequire(24, "android.view.Window.addOnFrameMetricsAvailableListener");
        synchronized (windows) {
            listeners.add(new Object[] {listener, handler});
            if (!windows.contains(this)) {
                windows.add(this);
            }
        }
    }

    public final void removeOnFrameMetricsAvailableListener(OnFrameMetricsAvailableListener listener) {
        Build.stubRequire(24, "android.view.Window.removeOnFrameMetricsAvailableListener");
        synchronized (windows) {
            listeners.removeIf(l -> l[0] == listener);
        }
    }

    // ---- stub helper, not Android API ----

    /** A frame whose vsync was at vsync and that began at start; phase[i] is when
     *  callback type i began, phase[3] when they were done. Rendering after that (sync,
     *  command issue, swap) takes 1 ms, the GPU 2 ms. */
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
                    ((Handler) l[1]).post(() -> listener.onFrameMetricsAvailable(w, metrics, 0));
                }
            }
        }
    }
}

package android.view;

/** Stub (API 24): the durations of one rendered frame, in ns. getMetric answers -1 for
 *  an id the stubs' API level lacks, as the framework's range check does:
 *  INTENDED_VSYNC_TIMESTAMP and VSYNC_TIMESTAMP are API 26, GPU_DURATION and DEADLINE 31. */
public final class FrameMetrics {
    public static final int UNKNOWN_DELAY_DURATION = 0, INPUT_HANDLING_DURATION = 1, ANIMATION_DURATION = 2,
            LAYOUT_MEASURE_DURATION = 3, DRAW_DURATION = 4, SYNC_DURATION = 5, COMMAND_ISSUE_DURATION = 6,
            SWAP_BUFFERS_DURATION = 7, TOTAL_DURATION = 8, FIRST_DRAW_FRAME = 9, INTENDED_VSYNC_TIMESTAMP = 10,
            VSYNC_TIMESTAMP = 11, GPU_DURATION = 12, DEADLINE = 13;
    private final long[] metrics;

    public FrameMetrics(FrameMetrics other) {
        metrics = other.metrics.clone();
    }

    FrameMetrics(long[] metrics) {
        this.metrics = metrics;
    }

    public long getMetric(int id) {
        int sdk = android.os.Build.VERSION.SDK_INT;
        if (id < 0 || id >= metrics.length || (id >= GPU_DURATION && sdk < 31)
                || (id >= INTENDED_VSYNC_TIMESTAMP && sdk < 26)) {
            return -1;
        }
        return metrics[id];
    }
}

package android.view;

import android.hardware.display.DisplayManager;

/** Stub: the default display, whose refresh rate a test sets (stubSetRefreshRate); the
 *  stub Choreographer's vsyncs follow it, and DisplayManager's listeners hear of it. */
public final class Display {
    public static final int DEFAULT_DISPLAY = 0;
    private static final Display DEFAULT = new Display();
    private volatile float refreshRate = 60f;

    private Display() {}

    public int getDisplayId() {
        return DEFAULT_DISPLAY;
    }

    public float getRefreshRate() {
        return refreshRate;
    }

    // ---- stub helpers, not Android API ----

    public static Display stubDefault() {
        return DEFAULT;
    }

    long intervalNanos() {
        return (long) (1e9 / refreshRate);
    }

    /** Changes the refresh rate, as a display mode switch does, and tells the listeners. */
    public void stubSetRefreshRate(float hz) {
        refreshRate = hz;
        DisplayManager.stubChanged(DEFAULT_DISPLAY);
    }
}

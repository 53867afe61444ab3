package android.content;

import android.hardware.display.DisplayManager;

/** Stub: the common base of Activity and Application. */
public abstract class Context {
    public static final String DISPLAY_SERVICE = "display";

    public Object getSystemService(String name) {
        return DISPLAY_SERVICE.equals(name) ? DisplayManager.stubInstance() : null;
    }
}

package android.content;

import android.app.ActivityManager;
import android.hardware.display.DisplayManager;

/** Stub: the common base of Activity and Application. */
public abstract class Context {
    public static final String DISPLAY_SERVICE = "display";
    public static final String ACTIVITY_SERVICE = "activity";

    public Object getSystemService(String name) {
        if (ACTIVITY_SERVICE.equals(name)) {
            return ActivityManager.stubInstance();
        }
        return DISPLAY_SERVICE.equals(name) ? DisplayManager.stubInstance() : null;
    }
}

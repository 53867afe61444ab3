package android.app;

import android.content.Context;
import android.view.Window;

/** Stub: an activity is a Context with a window. */
public class Activity extends Context {
    private final Window window = new Window();

    public Window getWindow() {
        return window;
    }

    public void onWindowFocusChanged(boolean hasFocus) {}
}

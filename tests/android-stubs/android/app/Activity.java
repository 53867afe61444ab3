package android.app;

import android.content.Context;

/** Stub: an activity is a Context; the runtime only needs its class. */
public class Activity extends Context {
    public void onWindowFocusChanged(boolean hasFocus) {}
}

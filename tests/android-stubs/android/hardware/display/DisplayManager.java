package android.hardware.display;

import android.os.Handler;
import android.view.Display;

import java.util.ArrayList;
import java.util.List;

/** Stub: the default display, and listeners told of its changes on their handlers. */
public final class DisplayManager {
    public interface DisplayListener {
        void onDisplayAdded(int displayId);
        void onDisplayRemoved(int displayId);
        void onDisplayChanged(int displayId);
    }

    private static final DisplayManager INSTANCE = new DisplayManager();
    private static final List<Object[]> listeners = new ArrayList<>(); // {listener, handler}

    private DisplayManager() {}

    public Display getDisplay(int displayId) {
        return displayId == Display.DEFAULT_DISPLAY ? Display.stubDefault() : null;
    }

    public void registerDisplayListener(DisplayListener listener, Handler handler) {
        synchronized (listeners) {
            listeners.add(new Object[] {listener, handler});
        }
    }

    public void unregisterDisplayListener(DisplayListener listener) {
        synchronized (listeners) {
            listeners.removeIf(l -> l[0] == listener);
        }
    }

    // ---- stub helpers, not Android API ----

    public static DisplayManager stubInstance() {
        return INSTANCE;
    }

    public static void stubChanged(int displayId) {
        synchronized (listeners) {
            for (Object[] l : listeners) {
                DisplayListener listener = (DisplayListener) l[0];
                ((Handler) l[1]).post(() -> listener.onDisplayChanged(displayId));
            }
        }
    }
}

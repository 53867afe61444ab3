package android.app;

import android.content.Context;
import android.os.Bundle;

import java.util.ArrayList;
import java.util.List;

/** Stub: keeps lifecycle callbacks; tests drive them with the dispatch* helpers
 *  (the real framework's ActivityThread does that on device). */
public class Application extends Context {
    public interface ActivityLifecycleCallbacks {
        void onActivityCreated(Activity activity, Bundle savedInstanceState);
        void onActivityStarted(Activity activity);
        void onActivityResumed(Activity activity);
        void onActivityPaused(Activity activity);
        void onActivityStopped(Activity activity);
        void onActivitySaveInstanceState(Activity activity, Bundle outState);
        void onActivityDestroyed(Activity activity);
    }

    private final List<ActivityLifecycleCallbacks> callbacks = new ArrayList<>();

    public void onCreate() {}

    public void registerActivityLifecycleCallbacks(ActivityLifecycleCallbacks c) {
        callbacks.add(c);
    }

    public void unregisterActivityLifecycleCallbacks(ActivityLifecycleCallbacks c) {
        callbacks.remove(c);
    }

    // ---- test helpers, not Android API ----
    public void dispatchActivityCreated(Activity a) { for (ActivityLifecycleCallbacks c : callbacks) c.onActivityCreated(a, null); }
    public void dispatchActivityStarted(Activity a) { for (ActivityLifecycleCallbacks c : callbacks) c.onActivityStarted(a); }
    public void dispatchActivityResumed(Activity a) { for (ActivityLifecycleCallbacks c : callbacks) c.onActivityResumed(a); }
    public void dispatchActivityPaused(Activity a) { for (ActivityLifecycleCallbacks c : callbacks) c.onActivityPaused(a); }
    public void dispatchActivityStopped(Activity a) { for (ActivityLifecycleCallbacks c : callbacks) c.onActivityStopped(a); }
    public void dispatchActivityDestroyed(Activity a) { for (ActivityLifecycleCallbacks c : callbacks) c.onActivityDestroyed(a); }
}

package com.tencent.matrix.trace.android;

import android.app.Activity;
import android.app.Application;
import android.os.Bundle;

import com.tencent.matrix.trace.core.TraceCanary;

/** Scene (the last started activity), foreground state, and creates and
 *  destroys for the startup tracer. */
final class LifecycleMonitor implements Application.ActivityLifecycleCallbacks {
    private boolean appCreateEnded;
    private int started;

    private LifecycleMonitor() {}

    static void register(Application app) {
        TraceCanary.setForeground(false);
        app.registerActivityLifecycleCallbacks(new LifecycleMonitor());
    }

    @Override
    public void onActivityCreated(Activity activity, Bundle savedInstanceState) {
        // The fallback for AppCreateHook: without it, or when it could not tell a launch
        // (refused reflection), the first activity create ends application create. If
        // the hook ended it already, the runtime ignores this.
        if (!appCreateEnded) {
            appCreateEnded = true;
            TraceCanary.applicationCreateEnd(AppCreateHook.LAUNCH_ACTIVITY, true);
        }
        TraceCanary.activityCreated(activity);
    }

    @Override
    public void onActivityStarted(Activity activity) {
        started++;
        TraceCanary.setScene(activity.getClass().getName());
        TraceCanary.setForeground(true);
    }

    @Override
    public void onActivityResumed(Activity activity) {}

    @Override
    public void onActivityPaused(Activity activity) {}

    @Override
    public void onActivityStopped(Activity activity) {
        if (--started <= 0) {
            started = 0;
            TraceCanary.setForeground(false);
        }
    }

    @Override
    public void onActivitySaveInstanceState(Activity activity, Bundle outState) {}

    @Override
    public void onActivityDestroyed(Activity activity) {
        TraceCanary.activityDestroyed(activity);
    }
}

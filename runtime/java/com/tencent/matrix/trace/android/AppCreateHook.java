package com.tencent.matrix.trace.android;

import android.os.Handler;
import android.os.Message;

import com.tencent.matrix.trace.core.TraceCanary;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Matrix's ActivityThreadHacker: wraps ActivityThread.mH's Handler.Callback
 * so the first launch-activity, service-create or receiver message ends
 * application create. Reflection on hidden members: when it is refused (at
 * install, or when a launch transaction cannot be read), the first activity
 * create ends application create instead (LifecycleMonitor), which the
 * runtime ignores if this hook ended it already.
 */
final class AppCreateHook implements Handler.Callback {
    static final int LAUNCH_ACTIVITY = 100, RECEIVER = 113, CREATE_SERVICE = 114, RELAUNCH_ACTIVITY = 126,
            EXECUTE_TRANSACTION = 159;
    private final Handler.Callback origin;
    private boolean ended;
    private Method getCallbacks; // ClientTransaction.getCallbacks(), found once

    private AppCreateHook(Handler.Callback origin) {
        this.origin = origin;
    }

    static void install() {
        try {
            Class<?> at = Class.forName("android.app.ActivityThread");
            Object thread = at.getMethod("currentActivityThread").invoke(null);
            Handler h = (Handler) Reflection.field(at, "mH").get(thread);
            Field fc = Reflection.field(Handler.class, "mCallback");
            fc.set(h, new AppCreateHook((Handler.Callback) fc.get(h)));
        } catch (Throwable t) {
            // refused: LifecycleMonitor's fallback ends application create
        }
    }

    @Override
    public boolean handleMessage(Message msg) {
        if (!ended) {
            boolean launch = isLaunch(msg);
            if (launch || msg.what == CREATE_SERVICE || msg.what == RECEIVER) {
                ended = true;
                TraceCanary.applicationCreateEnd(msg.what, launch);
            }
        }
        return origin != null && origin.handleMessage(msg);
    }

    private boolean isLaunch(Message msg) {
        if (msg.what == LAUNCH_ACTIVITY || msg.what == RELAUNCH_ACTIVITY) {
            return true;
        }
        if (msg.what != EXECUTE_TRANSACTION || msg.obj == null) {
            return false;
        }
        try {
            if (getCallbacks == null) {
                // package-private on Android 9 and 10 (public later)
                getCallbacks = Reflection.method(msg.obj.getClass(), "getCallbacks");
            }
            List<?> callbacks = (List<?>) getCallbacks.invoke(msg.obj);
            return callbacks != null && !callbacks.isEmpty()
                    && callbacks.get(0).getClass().getName().endsWith(".LaunchActivityItem");
        } catch (Throwable t) {
            return false; // unreadable: the first activity create ends application create
        }
    }
}

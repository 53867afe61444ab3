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
 * application create. Reflection on hidden fields; if that is refused,
 * install() returns false and the first activity create stands in for it.
 */
final class AppCreateHook implements Handler.Callback {
    static final int LAUNCH_ACTIVITY = 100, RECEIVER = 113, CREATE_SERVICE = 114, RELAUNCH_ACTIVITY = 126,
            EXECUTE_TRANSACTION = 159;
    private final Handler.Callback origin;
    private boolean ended;

    private AppCreateHook(Handler.Callback origin) {
        this.origin = origin;
    }

    static boolean install() {
        try {
            Class<?> at = Class.forName("android.app.ActivityThread");
            Object thread = at.getMethod("currentActivityThread").invoke(null);
            Field fh = at.getDeclaredField("mH");
            fh.setAccessible(true);
            Handler h = (Handler) fh.get(thread);
            Field fc = Handler.class.getDeclaredField("mCallback");
            fc.setAccessible(true);
            fc.set(h, new AppCreateHook((Handler.Callback) fc.get(h)));
            return true;
        } catch (Throwable t) {
            return false;
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

    private static boolean isLaunch(Message msg) {
        if (msg.what == LAUNCH_ACTIVITY || msg.what == RELAUNCH_ACTIVITY) {
            return true;
        }
        if (msg.what != EXECUTE_TRANSACTION || msg.obj == null) {
            return false;
        }
        try {
            Method m = msg.obj.getClass().getMethod("getCallbacks");
            List<?> callbacks = (List<?>) m.invoke(msg.obj);
            return callbacks != null && !callbacks.isEmpty()
                    && callbacks.get(0).getClass().getName().endsWith(".LaunchActivityItem");
        } catch (Throwable t) {
            return false;
        }
    }
}

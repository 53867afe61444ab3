package com.tencent.matrix.trace.android;

import android.os.Build;
import android.os.Handler;
import android.os.Looper;
import android.os.MessageQueue;
import android.util.Log;

import java.lang.reflect.Field;

/**
 * Android 17's lock-free MessageQueue ("DeliQueue"), which apps targeting API 37 get by
 * default (the compat change USE_NEW_MESSAGEQUEUE; `adb shell am compat` turns it on or off
 * per app). Its {@code mMessages} is kept for binary compatibility but is always null, and
 * its idle handlers are guarded by a lock of their own ({@code mIdleHandlersLock}), not the
 * queue's monitor. The signal-ANR queue probe ({@link MainQueueProbe}) would read an empty
 * queue forever, and the idle-handler wrapper ({@link IdleHandlerLag}) would replace the list
 * under the wrong lock: both are turned off there, with one warning.
 *
 * <p>How it is told: by what the queue does, not by its private fields, which hidden-API
 * enforcement hides (only {@code mMessages} and {@code mIdleHandlers} are on the greylist,
 * and {@code mMessages} only up to target API 36). On the looper's own thread a message is
 * posted for an hour later: the legacy queue's head ({@code mMessages}) cannot then be null,
 * since nothing can take the message off before it is removed again; the lock-free queue's
 * is. Where {@code mMessages} cannot be read at all, API 37+ is taken as lock-free: an app
 * that targets 37 has both the lock-free queue by default and no access to the field (its
 * annotation says maxTargetSdk = BAKLAVA). The uncertainty: an app targeting 37 whose
 * change was turned off with {@code am compat} loses the two probes for nothing.
 */
final class LockFreeQueue {
    private static final String TAG = "Matrix.AndroidTracing";
    private static Boolean lockFree; // main thread
    private static boolean warned;

    private LockFreeQueue() {}

    /** On the main thread: whether the main queue is the lock-free one; the first time it is
     *  and a probe needs it ({@code what}, the probes that are turned off), one warning. */
    static boolean check(String what) {
        if (lockFree == null) {
            lockFree = detect(Looper.myQueue());
        }
        if (lockFree && !warned) {
            warned = true;
            Log.w(TAG, "the main MessageQueue is Android 17's lock-free one (apps targeting API 37): its head "
                    + "cannot be read (mMessages is always null) and its idle handlers are under a lock of its "
                    + "own: " + what + " off");
        }
        return lockFree;
    }

    private static boolean detect(MessageQueue q) {
        Field messages;
        try {
            messages = Reflection.field(MessageQueue.class, "mMessages");
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Build.VERSION.SDK_INT >= 37;
        }
        Handler h = new Handler(Looper.myLooper());
        Runnable never = () -> { };
        h.postDelayed(never, 3_600_000L);
        try {
            return messages.get(q) == null;
        } catch (IllegalAccessException e) {
            return Build.VERSION.SDK_INT >= 37;
        } finally {
            h.removeCallbacks(never);
        }
    }
}

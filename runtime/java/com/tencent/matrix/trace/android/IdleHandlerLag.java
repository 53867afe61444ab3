package com.tencent.matrix.trace.android;

import android.os.Build;
import android.os.Looper;
import android.os.MessageQueue;
import android.util.Log;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Map;

import com.tencent.matrix.trace.core.TraceCanary;

/**
 * Matrix's IdleHandlerLagTracer: the main queue's list of idle handlers
 * (MessageQueue.mIdleHandlers, by reflection) is replaced with one that wraps each handler,
 * so that its queueIdle() is bracketed by TraceCanary.idleBegin/idleEnd and the runtime's
 * watchdog reports one that runs 2 s or more. Matrix lost the handlers already registered
 * when it replaced the list; they are wrapped and kept here. API 23+ (as Matrix); where the
 * list cannot be replaced (refused reflection, another type), a warning and nothing else.
 */
final class IdleHandlerLag {
    private static final String TAG = "Matrix.IdleHandlerLagTracer";

    private IdleHandlerLag() {}

    static final class Wrapper implements MessageQueue.IdleHandler {
        final MessageQueue.IdleHandler origin;

        Wrapper(MessageQueue.IdleHandler origin) {
            this.origin = origin;
        }

        @Override
        public boolean queueIdle() {
            TraceCanary.idleBegin();
            try {
                return origin.queueIdle();
            } finally {
                TraceCanary.idleEnd();
            }
        }
    }

    /** The queue reads and changes it under its own lock, as it did the list it replaces. */
    static final class WrappingList extends ArrayList<MessageQueue.IdleHandler> {
        private static final long serialVersionUID = 1L;
        private final Map<MessageQueue.IdleHandler, Wrapper> wrappers = new IdentityHashMap<>();

        @Override
        public boolean add(MessageQueue.IdleHandler h) {
            if (h instanceof Wrapper) {
                return super.add(h);
            }
            Wrapper w = new Wrapper(h);
            wrappers.put(h, w);
            return super.add(w);
        }

        @Override
        public boolean remove(Object o) {
            Wrapper w = o instanceof Wrapper ? (Wrapper) o : wrappers.get(o);
            if (w == null) {
                return super.remove(o);
            }
            wrappers.remove(w.origin);
            return super.remove(w);
        }
    }

    /** On the main thread. */
    @SuppressWarnings("unchecked")
    static void install() {
        if (Build.VERSION.SDK_INT < 23) {
            Log.w(TAG, "idle-handler lag needs API 23 (this is " + Build.VERSION.SDK_INT + "): off");
            return;
        }
        try {
            MessageQueue q = Looper.myQueue();
            Field f = Reflection.field(MessageQueue.class, "mIdleHandlers");
            Object cur = f.get(q);
            if (cur instanceof WrappingList) {
                return;
            }
            if (!(cur instanceof ArrayList)) {
                Log.w(TAG, "MessageQueue.mIdleHandlers is a " + (cur == null ? "null" : cur.getClass().getName())
                        + ", not an ArrayList: idle-handler lag off");
                return;
            }
            WrappingList list = new WrappingList();
            synchronized (q) {
                for (MessageQueue.IdleHandler h : (ArrayList<MessageQueue.IdleHandler>) cur) {
                    list.add(h); // Matrix dropped these
                }
                f.set(q, list);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            Log.w(TAG, "cannot replace the main queue's idle handlers (refused reflection): idle-handler lag off: "
                    + e);
        }
    }
}

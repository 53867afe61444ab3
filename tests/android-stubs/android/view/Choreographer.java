package android.view;

import android.os.Build;
import android.os.Handler;
import android.os.Looper;

/**
 * Stub: Choreographer as the framework has it. Callbacks wait in per-type queues
 * (mCallbackQueues, under mLock); posting one through the API schedules a frame, i.e.
 * asks the display for the next vsync (counted: stubVsyncRequests), and only then does
 * a frame run: a message on the looper at the vsync, which records the vsync's time in
 * mDisplayEventReceiver.mTimestampNanos and runs doFrame. A callback added to a queue
 * directly (CallbackQueue.addCallbackLocked, as Matrix does by reflection) asks for
 * nothing and runs with the next frame someone else asked for. As on Android, doFrame
 * hands a late frame the time of the latest vsync, not of the one it was meant for. The
 * vsyncs come every 1e9 / Display.getRefreshRate() ns of System.nanoTime. On API 24+
 * each frame's FrameMetrics go to the windows' listeners (Window).
 */
public final class Choreographer {
    public interface FrameCallback {
        void doFrame(long frameTimeNanos);
    }

    public static final int CALLBACK_INPUT = 0, CALLBACK_ANIMATION = 1, CALLBACK_TRAVERSAL = 2;
    private static final int CALLBACK_COUNT = 3;
    private static final Object FRAME_CALLBACK_TOKEN = new Object();
    private static final ThreadLocal<Choreographer> current = new ThreadLocal<>();
    private static int vsyncRequests;

    private final Object mLock = new Object();
    private final Handler mHandler = new Handler(Looper.myLooper());
    private final CallbackQueue[] mCallbackQueues = new CallbackQueue[CALLBACK_COUNT];
    private final FrameDisplayEventReceiver mDisplayEventReceiver = new FrameDisplayEventReceiver();
    private long mFrameIntervalNanos = Display.stubDefault().intervalNanos();
    private boolean mFrameScheduled;

    private Choreographer() {
        for (int i = 0; i < CALLBACK_COUNT; i++) {
            mCallbackQueues[i] = new CallbackQueue();
        }
    }

    public static Choreographer getInstance() {
        Choreographer c = current.get();
        if (c == null) {
            c = new Choreographer();
            current.set(c);
        }
        return c;
    }

    public void postFrameCallback(FrameCallback callback) {
        postCallbackInternal(CALLBACK_ANIMATION, callback, FRAME_CALLBACK_TOKEN);
    }

    public void removeFrameCallback(FrameCallback callback) {
        synchronized (mLock) {
            mCallbackQueues[CALLBACK_ANIMATION].removeCallbacksLocked(callback, FRAME_CALLBACK_TOKEN);
        }
    }

    /** Hidden API. */
    public void postCallback(int callbackType, Runnable action, Object token) {
        postCallbackInternal(callbackType, action, token);
    }

    private void postCallbackInternal(int type, Object action, Object token) {
        synchronized (mLock) {
            mCallbackQueues[type].addCallbackLocked(System.nanoTime() / 1_000_000L, action, token);
            scheduleFrameLocked();
        }
    }

    private void scheduleFrameLocked() {
        if (mFrameScheduled) {
            return;
        }
        mFrameScheduled = true;
        vsyncRequests++;
        long now = System.nanoTime();
        long interval = mFrameIntervalNanos = Display.stubDefault().intervalNanos();
        final long vsync = (now / interval + 1) * interval;
        // the message is due at the first millisecond at or after the vsync
        mHandler.postDelayed(() -> mDisplayEventReceiver.onVsync(vsync), (vsync - now + 999_999) / 1_000_000L);
    }

    private final class FrameDisplayEventReceiver {
        private long mTimestampNanos; // the field Matrix's UIThreadMonitor reads by reflection

        void onVsync(long timestampNanos) {
            mTimestampNanos = timestampNanos;
            doFrame(timestampNanos);
        }
    }

    void doFrame(long frameTimeNanos) {
        long intendedVsync = frameTimeNanos;
        long startNanos = System.nanoTime();
        synchronized (mLock) {
            mFrameScheduled = false;
        }
        long jitter = startNanos - frameTimeNanos;
        if (jitter >= mFrameIntervalNanos) {
            // Choreographer.doFrame: "skipped frames": the frame takes the latest vsync's time
            frameTimeNanos = startNanos - jitter % mFrameIntervalNanos;
        }
        long[] phase = new long[CALLBACK_COUNT + 1];
        for (int type = 0; type < CALLBACK_COUNT; type++) {
            phase[type] = System.nanoTime();
            doCallbacks(type, frameTimeNanos);
        }
        phase[CALLBACK_COUNT] = System.nanoTime();
        if (Build.VERSION.SDK_INT >= 24) {
            Window.stubFrameRendered(intendedVsync, startNanos, phase);
        }
    }

    private void doCallbacks(int type, long frameTimeNanos) {
        CallbackRecord callbacks;
        synchronized (mLock) {
            callbacks = mCallbackQueues[type].extractDueCallbacksLocked(System.nanoTime() / 1_000_000L);
        }
        for (CallbackRecord c = callbacks; c != null; c = c.next) {
            c.run(frameTimeNanos);
        }
    }

    private static final class CallbackRecord {
        CallbackRecord next;
        long dueTime;
        Object action;
        Object token;

        void run(long frameTimeNanos) {
            if (token == FRAME_CALLBACK_TOKEN) {
                ((FrameCallback) action).doFrame(frameTimeNanos);
            } else {
                ((Runnable) action).run();
            }
        }
    }

    private final class CallbackQueue {
        private CallbackRecord mHead;

        /** Sorted by due time; a due time of -1 goes first. Schedules nothing. */
        public void addCallbackLocked(long dueTime, Object action, Object token) {
            CallbackRecord callback = new CallbackRecord();
            callback.dueTime = dueTime;
            callback.action = action;
            callback.token = token;
            if (mHead == null || dueTime < mHead.dueTime) {
                callback.next = mHead;
                mHead = callback;
                return;
            }
            CallbackRecord entry = mHead;
            while (entry.next != null && dueTime >= entry.next.dueTime) {
                entry = entry.next;
            }
            callback.next = entry.next;
            entry.next = callback;
        }

        CallbackRecord extractDueCallbacksLocked(long now) {
            CallbackRecord callbacks = mHead;
            if (callbacks == null || callbacks.dueTime > now) {
                return null;
            }
            CallbackRecord last = callbacks;
            CallbackRecord next = last.next;
            while (next != null && next.dueTime <= now) {
                last = next;
                next = next.next;
            }
            last.next = null;
            mHead = next;
            return callbacks;
        }

        void removeCallbacksLocked(Object action, Object token) {
            CallbackRecord prev = null;
            for (CallbackRecord c = mHead; c != null; c = c.next) {
                if (c.action == action && c.token == token) {
                    if (prev == null) {
                        mHead = c.next;
                    } else {
                        prev.next = c.next;
                    }
                } else {
                    prev = c;
                }
            }
        }
    }

    // ---- stub helper, not Android API ----

    /** Vsyncs asked for so far, in this process. */
    public static synchronized int stubVsyncRequests() {
        return vsyncRequests;
    }
}

package android.os;

/** Stub: post, postDelayed, sendMessage and removeCallbacks on a Looper. */
public class Handler {
    public interface Callback {
        boolean handleMessage(Message msg);
    }

    private final Looper looper;
    final Callback mCallback; // the field name the runtime's AppCreateHook reads

    public Handler(Looper looper) {
        this(looper, null);
    }

    public Handler(Looper looper, Callback callback) {
        this.looper = looper;
        this.mCallback = callback;
    }

    public final Looper getLooper() {
        return looper;
    }

    public final boolean post(Runnable r) {
        return postDelayed(r, 0);
    }

    public final boolean postDelayed(Runnable r, long delayMillis) {
        Message m = Message.obtain();
        m.callback = r;
        return sendMessageDelayed(m, delayMillis);
    }

    public final boolean sendMessage(Message m) {
        return sendMessageDelayed(m, 0);
    }

    public final boolean sendMessageDelayed(Message m, long delayMillis) {
        m.target = this;
        looper.queue.enqueue(m, SystemClock.uptimeMillis() + Math.max(0, delayMillis));
        return true;
    }

    public final void removeCallbacks(Runnable r) {
        looper.queue.remove(this, r);
    }

    public void dispatchMessage(Message msg) {
        if (msg.callback != null) {
            msg.callback.run();
        } else if (mCallback == null || !mCallback.handleMessage(msg)) {
            handleMessage(msg);
        }
    }

    public void handleMessage(Message msg) {}
}

package android.os;

import java.util.ArrayList;
import java.util.List;

/** Stub: a time-ordered queue with idle handlers, enough for Looper.loop(). */
public final class MessageQueue {
    public interface IdleHandler {
        boolean queueIdle();
    }

    private Message mMessages; // Android's name: the runtime reads it by reflection
    private boolean quitting;
    // Android's name and type: the runtime may replace the list by reflection (API 23+)
    private final ArrayList<IdleHandler> mIdleHandlers = new ArrayList<>();

    public synchronized void addIdleHandler(IdleHandler h) {
        mIdleHandlers.add(h);
    }

    public synchronized void removeIdleHandler(IdleHandler h) {
        mIdleHandlers.remove(h);
    }

    synchronized void enqueue(Message m, long when) {
        m.when = when;
        Message prev = null, cur = mMessages;
        while (cur != null && cur.when <= when) {
            prev = cur;
            cur = cur.next;
        }
        m.next = cur;
        if (prev == null) {
            mMessages = m;
        } else {
            prev.next = m;
        }
        notifyAll();
    }

    synchronized void remove(Handler h, Runnable r) {
        Message prev = null, cur = mMessages;
        while (cur != null) {
            if (cur.target == h && cur.callback == r) {
                if (prev == null) mMessages = cur.next; else prev.next = cur.next;
            } else {
                prev = cur;
            }
            cur = cur.next;
        }
    }

    synchronized void quit() {
        quitting = true;
        notifyAll();
    }

    /** The next due message, or null once quit. Runs idle handlers when nothing is due. */
    Message next() {
        boolean ranIdle = false;
        for (;;) {
            List<IdleHandler> toRun = null;
            synchronized (this) {
                if (quitting) {
                    return null;
                }
                long now = SystemClock.uptimeMillis();
                if (mMessages != null && mMessages.when <= now) {
                    Message m = mMessages;
                    mMessages = m.next;
                    m.next = null;
                    return m;
                }
                if (!ranIdle && !mIdleHandlers.isEmpty()) {
                    toRun = new ArrayList<>(mIdleHandlers);
                } else {
                    long wait = mMessages == null ? 0 : mMessages.when - now;
                    try {
                        wait(Math.max(wait, mMessages == null ? 0 : 1));
                    } catch (InterruptedException e) {
                        return null;
                    }
                    ranIdle = false;
                    continue;
                }
            }
            ranIdle = true;
            for (IdleHandler h : toRun) {
                if (!h.queueIdle()) {
                    removeIdleHandler(h);
                }
            }
        }
    }
}

package android.os;

import java.util.ArrayList;
import java.util.List;

/**
 * Stub: a time-ordered queue with idle handlers, enough for Looper.loop().
 *
 * <p>Two implementations, as Android 17's MessageQueue (CombinedDeliMessageQueue) has:
 * the legacy one, whose head is {@code mMessages} and whose idle handlers are under the
 * queue's own monitor; and the lock-free one ("DeliQueue"), which apps targeting API 37
 * get on Android 17 (the compat change USE_NEW_MESSAGEQUEUE, enabled after BAKLAVA;
 * {@code adb shell am compat enable|disable USE_NEW_MESSAGEQUEUE} switches it, here
 * {@code -Dtc.compat.USE_NEW_MESSAGEQUEUE=true|false}). There {@code mMessages}, kept for
 * binary compatibility, is always null, and the idle handlers are under
 * {@code mIdleHandlersLock}. One choice per process ({@code sUseDeliQueue}), made before
 * the first queue, as the platform makes it before the main looper.
 */
public final class MessageQueue {
    public interface IdleHandler {
        boolean queueIdle();
    }

    private static final boolean sUseDeliQueue = stubUseDeliQueue();
    private Message mMessages; // Android's name: the runtime reads it by reflection (legacy only)
    private Message stubHead;  // the lock-free queue's messages (its own structure on Android)
    private boolean quitting;
    // Android's name and type: the runtime may replace the list by reflection (API 23+)
    private final ArrayList<IdleHandler> mIdleHandlers = new ArrayList<>();
    private final Object mIdleHandlersLock = new Object(); // the lock-free queue's lock for them

    private static boolean stubUseDeliQueue() {
        String compat = System.getProperty("tc.compat.USE_NEW_MESSAGEQUEUE");
        if (Build.VERSION.SDK_INT < 37) {
            return false;
        }
        return compat != null ? Boolean.parseBoolean(compat) : Build.stubTargetSdk() > Build.VERSION_CODES.BAKLAVA;
    }

    /** The lock idle handlers are kept under. */
    private Object idleLock() {
        return sUseDeliQueue ? mIdleHandlersLock : this;
    }

    public void addIdleHandler(IdleHandler h) {
        synchronized (idleLock()) {
            mIdleHandlers.add(h);
        }
    }

    public void removeIdleHandler(IdleHandler h) {
        synchronized (idleLock()) {
            mIdleHandlers.remove(h);
        }
    }

    private Message head() {
        return sUseDeliQueue ? stubHead : mMessages;
    }

    private void setHead(Message m) {
        if (sUseDeliQueue) {
            stubHead = m;
        } else {
            mMessages = m;
        }
    }

    synchronized void enqueue(Message m, long when) {
        m.when = when;
        Message prev = null, cur = head();
        while (cur != null && cur.when <= when) {
            prev = cur;
            cur = cur.next;
        }
        m.next = cur;
        if (prev == null) {
            setHead(m);
        } else {
            prev.next = m;
        }
        notifyAll();
    }

    synchronized void remove(Handler h, Runnable r) {
        Message prev = null, cur = head();
        while (cur != null) {
            if (cur.target == h && cur.callback == r) {
                if (prev == null) setHead(cur.next); else prev.next = cur.next;
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
                Message head = head();
                if (head != null && head.when <= now) {
                    setHead(head.next);
                    head.next = null;
                    return head;
                }
                if (!ranIdle) {
                    synchronized (idleLock()) {
                        if (!mIdleHandlers.isEmpty()) {
                            toRun = new ArrayList<>(mIdleHandlers);
                        }
                    }
                }
                if (toRun == null) {
                    long wait = head == null ? 0 : head.when - now;
                    try {
                        wait(Math.max(wait, head == null ? 0 : 1));
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

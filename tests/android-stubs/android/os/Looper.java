package android.os;

import android.util.Printer;

/** Stub: a working looper that prints the framework's dispatch lines to its
 *  message-logging Printer, as android.os.Looper.loop() does. */
public final class Looper {
    private static final ThreadLocal<Looper> current = new ThreadLocal<>();
    private static Looper main;
    final MessageQueue queue = new MessageQueue(); // the stubs use it directly: getQueue() is API 23
    private final Thread thread = Thread.currentThread();
    private Printer mLogging; // the field name the runtime reads by reflection

    private Looper() {}

    public static void prepare() {
        if (current.get() != null) {
            throw new RuntimeException("Only one Looper may be created per thread");
        }
        current.set(new Looper());
    }

    public static synchronized void prepareMainLooper() {
        prepare();
        main = current.get();
    }

    public static synchronized Looper getMainLooper() {
        return main;
    }

    public static Looper myLooper() {
        return current.get();
    }

    public static MessageQueue myQueue() {
        return current.get().queue;
    }

    /** API 23: older levels throw NoSuchMethodError (use myQueue()). */
    public MessageQueue getQueue() {
        Build.stubRequire(23, "android.os.Looper.getQueue()");
        return queue;
    }

    public Thread getThread() {
        return thread;
    }

    public void setMessageLogging(Printer printer) {
        mLogging = printer;
    }

    public void quit() {
        queue.quit();
    }

    public static void loop() {
        Looper me = current.get();
        for (;;) {
            Message msg = me.queue.next();
            if (msg == null) {
                return;
            }
            Printer logging = me.mLogging;
            if (logging != null) {
                logging.println(">>>>> Dispatching to " + msg.target + " " + msg.callback + ": " + msg.what);
            }
            msg.target.dispatchMessage(msg);
            if (logging != null) {
                logging.println("<<<<< Finished to " + msg.target + " " + msg.callback);
            }
        }
    }
}

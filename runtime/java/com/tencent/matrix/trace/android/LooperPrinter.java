package com.tencent.matrix.trace.android;

import android.os.Looper;
import android.os.MessageQueue;
import android.os.SystemClock;
import android.util.Printer;

import com.tencent.matrix.trace.core.TraceCanary;

import java.lang.reflect.Field;

/**
 * Matrix's LooperMonitor: the main looper prints "&gt;&gt;&gt;&gt;&gt; Dispatching to ..."
 * before each message and "&lt;&lt;&lt;&lt;&lt; Finished to ..." after it to its
 * message-logging Printer. We install a Printer that forwards to the one
 * already there (read by reflection when allowed) and tells the runtime.
 * Someone may replace it later, so an idle handler re-installs it at most
 * once a minute.
 */
final class LooperPrinter implements Printer, MessageQueue.IdleHandler {
    private static final long CHECK_MS = 60_000;
    private final Looper looper;
    private final Printer origin;
    private boolean checked, valid;
    private long lastCheck = SystemClock.uptimeMillis();

    private LooperPrinter(Looper looper, Printer origin) {
        this.looper = looper;
        this.origin = origin;
    }

    /** On the looper's thread. Its queue is Looper.myQueue(): Looper.getQueue() is API 23. */
    static void install(Looper looper) {
        Printer current = current(looper);
        if (current instanceof LooperPrinter) {
            return;
        }
        LooperPrinter p = new LooperPrinter(looper, current);
        Looper.myQueue().addIdleHandler(p);
        looper.setMessageLogging(p);
    }

    private static Printer current(Looper looper) {
        try {
            Field f = Looper.class.getDeclaredField("mLogging");
            f.setAccessible(true);
            return (Printer) f.get(looper);
        } catch (Throwable t) {
            return null; // hidden-API restrictions: we lose the original printer
        }
    }

    @Override
    public void println(String x) {
        if (origin != null) {
            origin.println(x);
        }
        if (!checked) {
            checked = true;
            valid = x.length() > 0 && (x.charAt(0) == '>' || x.charAt(0) == '<');
        }
        if (valid) {
            if (x.charAt(0) == '>') {
                TraceCanary.dispatchBegin();
            } else {
                TraceCanary.dispatchEnd();
            }
        }
    }

    @Override
    public boolean queueIdle() {
        long now = SystemClock.uptimeMillis();
        if (now - lastCheck >= CHECK_MS) {
            lastCheck = now;
            if (!(current(looper) instanceof LooperPrinter)) {
                Looper.myQueue().removeIdleHandler(this);
                install(looper);
            }
        }
        return true;
    }
}

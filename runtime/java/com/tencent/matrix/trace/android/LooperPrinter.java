package com.tencent.matrix.trace.android;

import android.os.Looper;
import android.os.MessageQueue;
import android.os.SystemClock;
import android.util.Log;
import android.util.Printer;

import com.tencent.matrix.trace.core.TraceCanary;

import java.lang.reflect.Field;

/**
 * Matrix's LooperMonitor: the main looper prints "&gt;&gt;&gt;&gt;&gt; Dispatching to ..."
 * before each message and "&lt;&lt;&lt;&lt;&lt; Finished to ..." after it to its
 * message-logging Printer. We install a Printer that forwards to the one
 * already there and tells the runtime. Someone may replace it later, so an
 * idle handler checks at most once a minute and installs a new one that
 * forwards to theirs.
 *
 * Both need the current printer, Looper.mLogging, read by reflection. Where
 * that is refused (hidden-API enforcement), a printer set before ours is
 * replaced and one set after ours replaces it; we cannot tell ours from
 * another, so we do not check (Matrix did, and each minute dropped whatever
 * printer the app had set). Either way a warning says so.
 */
final class LooperPrinter implements Printer, MessageQueue.IdleHandler {
    private static final long CHECK_MS = 60_000;
    private static final String TAG = "Matrix.LooperMonitor";
    private final Looper looper;
    private final Field logging;
    private final Printer origin;
    private boolean checked, valid;
    private long lastCheck = SystemClock.uptimeMillis();

    private LooperPrinter(Looper looper, Field logging, Printer origin) {
        this.looper = looper;
        this.logging = logging;
        this.origin = origin;
    }

    /** On the looper's thread. Its queue is Looper.myQueue(): Looper.getQueue() is API 23. */
    static void install(Looper looper) {
        Field logging = loggingField();
        if (logging == null) {
            Log.w(TAG, "cannot read the looper's printer (refused reflection): a printer set before this "
                    + "one is replaced, and one set after it stops message tracing");
            looper.setMessageLogging(new LooperPrinter(looper, null, null));
            return;
        }
        Printer current = read(logging, looper);
        if (current instanceof LooperPrinter) {
            return;
        }
        LooperPrinter p = new LooperPrinter(looper, logging, current);
        Looper.myQueue().addIdleHandler(p);
        looper.setMessageLogging(p);
    }

    private static Field loggingField() {
        try {
            return Reflection.field(Looper.class, "mLogging");
        } catch (Throwable t) {
            return null; // hidden-API restrictions
        }
    }

    private static Printer read(Field logging, Looper looper) {
        try {
            return (Printer) logging.get(looper);
        } catch (Throwable t) {
            return null;
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

    /** Replaced by another printer: forward to it from a new one of ours. */
    @Override
    public boolean queueIdle() {
        long now = SystemClock.uptimeMillis();
        if (now - lastCheck < CHECK_MS) {
            return true;
        }
        lastCheck = now;
        if (read(logging, looper) instanceof LooperPrinter) {
            return true;
        }
        Log.w(TAG, "the looper's printer was replaced: tracing again, forwarding to the new one");
        install(looper);
        return false; // the new printer has its own idle handler
    }
}

package com.tencent.matrix.trace.android;

import android.os.Looper;
import android.os.Message;
import android.os.MessageQueue;
import android.os.SystemClock;
import android.util.Log;

import java.lang.reflect.Field;

import com.tencent.matrix.trace.core.TraceCanary;

/**
 * The signal-ANR check's question, as Matrix's SignalAnrTracer.confirmRealAnr asks it: how
 * late is the main queue's head message ({@code uptimeMillis() - mMessages.when})? A
 * racy read of two hidden fields (Matrix's too): a message dequeued meanwhile only makes the
 * answer a little old. Where reflection is refused, no probe, and a warning: the check then
 * rests on the running message's time alone.
 */
final class MainQueueProbe implements TraceCanary.QueueProbe {
    private static final String TAG = "Matrix.SignalAnrTracer";
    private final MessageQueue queue;
    private final Field messages, when;

    private MainQueueProbe(MessageQueue queue, Field messages, Field when) {
        this.queue = queue;
        this.messages = messages;
        this.when = when;
    }

    /** On the main thread (Looper.myQueue(): Looper.getQueue() is API 23). */
    static void install() {
        try {
            MessageQueue q = Looper.myQueue();
            Field m = Reflection.field(MessageQueue.class, "mMessages");
            Field w = Reflection.field(Message.class, "when");
            TraceCanary.setQueueProbe(new MainQueueProbe(q, m, w));
        } catch (ReflectiveOperationException | RuntimeException e) {
            Log.w(TAG, "cannot read the main queue (refused reflection): the signal-ANR check uses the "
                    + "running message only: " + e);
        }
    }

    @Override
    public long headLateMs() {
        try {
            Object head = messages.get(queue);
            if (head == null) {
                return Long.MIN_VALUE;
            }
            long w = when.getLong(head);
            return w == 0 ? Long.MIN_VALUE : SystemClock.uptimeMillis() - w;
        } catch (IllegalAccessException e) {
            return Long.MIN_VALUE;
        }
    }
}

package android.app;

import android.app.servertransaction.ClientTransaction;
import android.app.servertransaction.ClientTransactionItem;
import android.app.servertransaction.LaunchActivityItem;
import android.os.Handler;
import android.os.Looper;
import android.os.Message;

/** Stub (a hidden framework class): the process's main-thread object, whose handler mH
 *  runs the system's requests to the app, as messages on the main looper. Only what the
 *  runtime's application-create hook reads by reflection: currentActivityThread() and
 *  mH, whose Handler.mCallback it wraps. */
public final class ActivityThread {
    public static final int LAUNCH_ACTIVITY = 100, RECEIVER = 113, CREATE_SERVICE = 114,
            RELAUNCH_ACTIVITY = 126, EXECUTE_TRANSACTION = 159;
    private static ActivityThread sCurrentActivityThread;
    private final H mH = new H();

    private ActivityThread() {}

    public static ActivityThread currentActivityThread() {
        return sCurrentActivityThread;
    }

    private final class H extends Handler {
        H() {
            super(Looper.getMainLooper());
        }

        @Override
        public void handleMessage(Message msg) {
            if (msg.what == EXECUTE_TRANSACTION) {
                for (ClientTransactionItem item : ((ClientTransaction) msg.obj).stubItems()) {
                    item.execute();
                }
            } else if (msg.obj instanceof Runnable) {
                ((Runnable) msg.obj).run();
            }
        }
    }

    // ---- stub helpers, not Android API ----

    /** Creates the process's ActivityThread on the main looper (ActivityThread.main does). */
    public static ActivityThread stubAttach() {
        sCurrentActivityThread = new ActivityThread();
        return sCurrentActivityThread;
    }

    /** Sends a request as the system does: EXECUTE_TRANSACTION (API 28+) with a
     *  LaunchActivityItem whose execution runs launch, or LAUNCH_ACTIVITY before that. */
    public void stubLaunch(Runnable launch) {
        Message m = Message.obtain();
        if (android.os.Build.VERSION.SDK_INT >= 28) {
            ClientTransaction t = new ClientTransaction();
            t.addCallback(new LaunchActivityItem(launch));
            m.what = EXECUTE_TRANSACTION;
            m.obj = t;
        } else {
            m.what = LAUNCH_ACTIVITY;
            m.obj = launch;
        }
        mH.sendMessage(m);
    }
}

package com.tencent.matrix.trace.android;

import android.app.ActivityManager;
import android.app.Application;
import android.content.Context;
import android.os.Process;

import java.util.List;

import com.tencent.matrix.trace.core.TraceCanary;

/**
 * The signal-ANR check's question when the main thread is not blocked, as Matrix's
 * SignalAnrTracer.confirmRealAnr asks it: is this process NOT_RESPONDING in
 * ActivityManager.getProcessesInErrorState() (1), or another process of another uid (-1:
 * not our ANR), or neither (0)? Public API: no reflection.
 */
final class ErrorStateProbe implements TraceCanary.ErrorStateProbe {
    private final ActivityManager am;

    private ErrorStateProbe(ActivityManager am) {
        this.am = am;
    }

    static void install(Application app) {
        Object am = app.getSystemService(Context.ACTIVITY_SERVICE);
        if (am instanceof ActivityManager) {
            TraceCanary.setErrorStateProbe(new ErrorStateProbe((ActivityManager) am));
        }
    }

    @Override
    public int errorState() {
        List<ActivityManager.ProcessErrorStateInfo> l = am.getProcessesInErrorState();
        if (l == null) {
            return 0;
        }
        for (ActivityManager.ProcessErrorStateInfo p : l) {
            if (p.condition != ActivityManager.ProcessErrorStateInfo.NOT_RESPONDING) {
                continue;
            }
            if (p.uid != Process.myUid()) {
                return -1;
            }
            if (p.pid == Process.myPid()) {
                return 1;
            }
        }
        return 0;
    }
}

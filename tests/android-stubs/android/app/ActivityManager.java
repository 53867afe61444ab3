package android.app;

import java.util.List;

/** Stub: the error state of processes, as a test sets it (stubSetErrorStates). */
public class ActivityManager {
    public static class ProcessErrorStateInfo {
        public static final int NO_ERROR = 0, CRASHED = 1, NOT_RESPONDING = 2;
        public int condition;
        public String processName;
        public int pid;
        public int uid;
    }

    private static final ActivityManager INSTANCE = new ActivityManager();
    private static volatile List<ProcessErrorStateInfo> states;

    /** Null when no process is in an error state, as on Android. */
    public List<ProcessErrorStateInfo> getProcessesInErrorState() {
        return states;
    }

    // ---- stub helpers, not Android API ----

    public static ActivityManager stubInstance() {
        return INSTANCE;
    }

    public static void stubSetErrorStates(List<ProcessErrorStateInfo> l) {
        states = l;
    }
}

package android.os;

/** Stub. */
public final class Process {
    private Process() {}

    public static int myPid() {
        return (int) ProcessHandle.current().pid();
    }

    public static int myUid() {
        return 10001;
    }
}

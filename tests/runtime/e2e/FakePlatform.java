/** The natives of fake_platform.c (libtc_e2efake.so): a stand-in for the platform
 *  libraries the PLT-hook tracers watch (E2e's "hooks" mode). */
final class FakePlatform {
    private FakePlatform() {}

    static native int myTid();
    static native int getThreadPriority(int tid);
    static native int setThreadPriority(int tid, int nice);
    static native int[] channel();
    static native int systemSend(int fd, int size);
    static native int consume(int fd);
    static native int finish(int fd);
}

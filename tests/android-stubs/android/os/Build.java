package android.os;

/** Stub: the API level the stubs behave as, from -Dtc.sdk (default 34). Like the
 *  framework's, SDK_INT is not a compile-time constant, so code compiled against it reads
 *  it at run time. */
public class Build {
    public static class VERSION {
        public static final int SDK_INT = Integer.getInteger("tc.sdk", 34);
    }

    public static class VERSION_CODES {
        public static final int LOLLIPOP = 21, LOLLIPOP_MR1 = 22, M = 23, N = 24, O = 26, P = 28, Q = 29,
                R = 30, S = 31, BAKLAVA = 36;
    }

    // ---- stub helpers, not Android API ----

    /** The app's targetSdkVersion (ApplicationInfo.targetSdkVersion on a device): -Dtc.targetSdk,
     *  by default the API level the stubs behave as (an app built for the device). */
    public static int stubTargetSdk() {
        return Integer.getInteger("tc.targetSdk", VERSION.SDK_INT);
    }

    /** What a device of an older API level does when code calls a member it lacks:
     *  throws NoSuchMethodError (the linker's error, at the call) if SDK_INT < api. */
    public static void stubRequire(int api, String member) {
        if (VERSION.SDK_INT < api) {
            throw new NoSuchMethodError(member + " (API " + api + "; this stub is API " + VERSION.SDK_INT + ")");
        }
    }
}

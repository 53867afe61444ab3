package guards;

import android.os.Build;
import android.os.Debug;
import android.os.Looper;

import java.lang.reflect.Field;

/** Each method reaches a marker call, Debug.getRuntimeStat("NAME") with the method's
 *  name, under one guard pattern; sites_test.sh checks the SDK_INT range and the handlers
 *  tc-members gives each. Compiled by the test, never shipped. */
final class Guards {
    static void mark(String what) {
        Debug.getRuntimeStat(what);
    }

    static void none() {
        Debug.getRuntimeStat("none");
    }

    static void atLeast() {
        if (Build.VERSION.SDK_INT >= 24) {
            Debug.getRuntimeStat("atLeast");
        }
    }

    static void below() {
        if (Build.VERSION.SDK_INT < 26) {
            Debug.getRuntimeStat("below");
        }
    }

    static void earlyReturn() {
        if (Build.VERSION.SDK_INT < Build.VERSION_CODES.M) {
            return;
        }
        Debug.getRuntimeStat("earlyReturn");
    }

    static void reversed() {
        if (28 <= Build.VERSION.SDK_INT) {
            Debug.getRuntimeStat("reversed");
        }
    }

    static void local(boolean a) {
        int sdk = Build.VERSION.SDK_INT;
        if (sdk >= 24 && (a || sdk >= 26)) {
            Debug.getRuntimeStat("local");
        }
    }

    static void between() {
        if (Build.VERSION.SDK_INT > 22 && Build.VERSION.SDK_INT <= 30) {
            Debug.getRuntimeStat("between");
        }
    }

    static void orElse() {
        if (Build.VERSION.SDK_INT >= 24 || Looper.myLooper() == null) {
            Debug.getRuntimeStat("orElse");
        }
    }

    /** a local stored from something else too: not a guard */
    static void notSdk(int x) {
        int v = Build.VERSION.SDK_INT;
        if (x > 0) {
            v = x;
        }
        if (v >= 24) {
            Debug.getRuntimeStat("notSdk");
        }
    }

    /** a parameter is not SDK_INT, whatever is compared with it */
    static void param(int sdk) {
        if (sdk >= 24) {
            Debug.getRuntimeStat("param");
        }
    }

    static void caught() {
        try {
            Debug.getRuntimeStat("caught");
        } catch (NoSuchMethodError | IllegalStateException e) {
            // absent
        }
    }

    static void fin() {
        try {
            Debug.getRuntimeStat("fin");
        } finally {
            mark("after");
        }
    }

    static Object reflective(Object o) throws Exception {
        Class<?> c = Class.forName("android.app.ActivityThread");
        Field f = c.getDeclaredField("mH");
        Field g = o.getClass().getField("mLogging");
        return Looper.class.getDeclaredMethod("loop", long.class, Object.class, int[].class).invoke(null, f, g);
    }
}

package android.os;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/** Stub: Debug.getRuntimeStat (API 23), as the framework's (VMDebug.getRuntimeStat in
 *  libcore): null for a name it does not know, NullPointerException for null, and the
 *  value as a decimal string. ART's GC counters are played by HotSpot's collectors
 *  (GarbageCollectorMXBeans), so a System.gc() shows up: every collection counts, and a
 *  "blocking" GC (ART: one the allocating thread waits for, or an explicit one) is
 *  played by the collectors whose pauses stop every thread (not a concurrent cycle's). */
public final class Debug {
    private Debug() {}

    public static String getRuntimeStat(String statName) {
        Build.stubRequire(Build.VERSION_CODES.M, "android.os.Debug.getRuntimeStat(String)");
        if (statName == null) {
            throw new NullPointerException("statName == null");
        }
        switch (statName) {
        case "art.gc.gc-count":
            return Long.toString(sum(false, false));
        case "art.gc.gc-time":
            return Long.toString(sum(true, false));
        case "art.gc.blocking-gc-count":
            return Long.toString(sum(false, true));
        case "art.gc.blocking-gc-time":
            return Long.toString(sum(true, true));
        case "art.gc.bytes-allocated":
        case "art.gc.bytes-freed":
            return "0";
        case "art.gc.gc-count-rate-histogram":
        case "art.gc.blocking-gc-count-rate-histogram":
            return "";
        default:
            return null;
        }
    }

    private static long sum(boolean time, boolean blocking) {
        long s = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            // G1's and ZGC's concurrent cycles ("... Concurrent GC", "... Cycles") do
            // not stop the threads; their pauses ("... Young/Old Generation", "Pauses") do
            if (blocking && (b.getName().contains("Concurrent") || b.getName().contains("Cycles"))) {
                continue;
            }
            long v = time ? b.getCollectionTime() : b.getCollectionCount();
            if (v > 0) {
                s += v;
            }
        }
        return s;
    }
}

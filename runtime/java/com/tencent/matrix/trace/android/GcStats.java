package com.tencent.matrix.trace.android;

import android.os.Build;
import android.os.Debug;

import com.tencent.matrix.trace.core.TraceCanary;

/**
 * The block context's GC counters: ART's, through Debug.getRuntimeStat (API 23+; public
 * API, no reflection). Below API 23 there is no such method, so the counters are unknown
 * and the reports say so. Runs on the runtime's clock thread when a message begins and on
 * the main thread when one turns out slow, never per event.
 */
final class GcStats implements TraceCanary.GcProbe {
    private static final String[] STATS = {
        "art.gc.gc-count", "art.gc.gc-time", "art.gc.blocking-gc-count", "art.gc.blocking-gc-time",
    };

    private GcStats() {}

    static void install() {
        TraceCanary.setGcProbe(new GcStats());
    }

    @Override
    public boolean gcStats(long[] out) {
        if (Build.VERSION.SDK_INT < Build.VERSION_CODES.M) {
            return false;
        }
        for (int k = 0; k < STATS.length; k++) {
            String v = Debug.getRuntimeStat(STATS[k]);
            if (v == null) {
                return false; // a runtime that does not keep it
            }
            try {
                out[k] = Long.parseLong(v);
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return true;
    }
}

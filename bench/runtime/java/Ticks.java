import android.app.Application;
import android.os.Handler;
import android.os.Looper;

import com.tencent.matrix.trace.android.AndroidTracing;
import com.tencent.matrix.trace.core.AppMethodBeat;
import com.tencent.matrix.trace.core.TraceCanary;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * The clock thread's tick against its cost (ticks.sh): a busy app on the stub main looper,
 * installed as an app installs it (AndroidTracing: the looper printer brackets each message),
 * at 60 frames a second, each frame a message of about 10 ms of traced work: steps of known
 * length (0.2 to 4 ms, each calling a small traced method every 50 us, as app code calls
 * many short ones). Measures the clock thread's wake-ups a second (its context switches in
 * /proc/self/task, over the busy seconds) and its CPU time (schedstat), and writes each step's true length (ns) in order,
 * which ticks.sh compares with what the ring recorded.
 *
 *   java Ticks TICK_MS SECONDS RING TRUE_FILE
 *
 * Prints "tick_ms=T wakeups=N seconds=S wakeups_per_s=W cpu_ms_per_s=C busy_share=B steps=N".
 */
public final class Ticks {
    static final int STEP = 900, LEAF = 901, WARM_STEP = 902;
    static int stepId = WARM_STEP; // STEP once measuring: ticks.sh pairs STEP's in and out
    static final long FRAME_NS = 16_666_667L, WORK_NS = 10_000_000L;
    static final List<Long> truth = new ArrayList<>();
    static long seed = 12345, sink, busyNs;

    static int next(int bound) {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        return (int) ((seed >>> 33) % bound);
    }

    static void leaf() {
        AppMethodBeat.i(LEAF);
        sink += sink ^ 7;
        AppMethodBeat.o(LEAF);
    }

    /** A traced method of about ns nanoseconds; its true length is kept. */
    static void step(long ns) {
        long t0 = System.nanoTime();
        int id = stepId;
        AppMethodBeat.i(id);
        long end = t0 + ns, nextLeaf = t0;
        long now;
        while ((now = System.nanoTime()) < end) {
            if (now >= nextLeaf) {
                leaf();
                nextLeaf = now + 50_000;
            }
            sink += now;
        }
        AppMethodBeat.o(id);
        truth.add(System.nanoTime() - t0);
    }

    static void frame() {
        long t0 = System.nanoTime();
        while (System.nanoTime() - t0 < WORK_NS) {
            step(200_000 + next(3_800_000));
        }
        busyNs += System.nanoTime() - t0;
    }

    /** {context switches, ns on a CPU} of the clock thread (/proc/self/task/T/status and
     *  schedstat). */
    static long[] clockStats() throws IOException {
        File[] tasks = new File("/proc/self/task").listFiles();
        for (File t : tasks == null ? new File[0] : tasks) {
            String comm;
            try {
                comm = new String(Files.readAllBytes(new File(t, "comm").toPath())).trim();
            } catch (IOException e) {
                continue;
            }
            if (!comm.equals("tc-clock")) {
                continue;
            }
            long n = 0;
            for (String line : Files.readAllLines(new File(t, "status").toPath())) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    n += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            String sched = new String(Files.readAllBytes(new File(t, "schedstat").toPath())).trim();
            return new long[] {n, Long.parseLong(sched.split(" ")[0])};
        }
        throw new IOException("no tc-clock thread");
    }

    public static void main(String[] args) throws Exception {
        int tick = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        Looper.prepareMainLooper();
        TraceCanary.Config c = new TraceCanary.Config().libraryPath(System.getProperty("tc.lib"))
                .bufferPath(args[2]).capacity(1_000_000).clockResolutionMs(tick);
        c.expireMs = 0;
        AndroidTracing.install(new Application(), c, (tag, key, json) -> { });
        Handler h = new Handler(Looper.getMainLooper());
        long[] at = new long[6]; // start ns, start switches, end ns, end switches, start and end CPU ns
        int frames = (int) Math.round(seconds * 1e9 / FRAME_NS);
        for (int k = 0; k < 30; k++) { // warm-up frames, not measured
            h.postDelayed(Ticks::frame, k * 17L);
        }
        h.postDelayed(() -> {
            try {
                long[] st = clockStats();
                at[0] = System.nanoTime();
                at[1] = st[0];
                at[4] = st[1];
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
            truth.clear();
            busyNs = 0;
            stepId = STEP;
            long base = android.os.SystemClock.uptimeMillis();
            for (int k = 0; k < frames; k++) {
                final boolean last = k == frames - 1;
                h.postDelayed(() -> {
                    frame();
                    if (last) {
                        try {
                            long[] st = clockStats();
                            at[2] = System.nanoTime();
                            at[3] = st[0];
                            at[5] = st[1];
                        } catch (IOException e) {
                            throw new RuntimeException(e);
                        }
                        Looper.getMainLooper().quit();
                    }
                }, base + k * FRAME_NS / 1_000_000L - android.os.SystemClock.uptimeMillis());
            }
        }, 30 * 17L + 100);
        Looper.loop();
        double s = (at[2] - at[0]) / 1e9;
        TraceCanary.stop();
        TraceCanary.release();
        try (PrintWriter w = new PrintWriter(args[3])) {
            for (long ns : truth) {
                w.println(ns);
            }
        }
        System.out.printf("tick_ms=%d wakeups=%d seconds=%.2f wakeups_per_s=%.0f cpu_ms_per_s=%.2f busy_share=%.2f "
                + "steps=%d%n", tick, at[3] - at[1], s, (at[3] - at[1]) / s, (at[5] - at[4]) / 1e6 / s, busyNs / 1e9 / s,
                truth.size());
    }
}

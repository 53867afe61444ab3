import com.tencent.matrix.trace.core.AppMethodBeat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The end-to-end scenarios' own parts, one source for both drivers: E2e (HotSpot, the
 * stubs of tests/android-stubs) and tests/runtime/robolectric/RoboE2e (Robolectric, the
 * framework's own classes). Here: the "instrumented" work of each scenario, with the
 * hand-written AppMethodBeat calls in tc-instrument's shape and their ids, the readers
 * of the reports' JSON, and the checks each scenario's report must pass, whichever
 * framework ran it. Only java.* and the runtime: it compiles against either framework.
 * Each driver keeps its own set-up (a stub main looper, or Robolectric's main thread).
 */
public final class Scenarios {
    private Scenarios() {}

    /** A driver's check: E2e counts and prints it, RoboE2e asserts it. */
    public interface Check {
        void check(boolean ok, String what);
    }

    public static void busy(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += end ^ x;
        }
        if (x == 42) {
            System.out.print("");
        }
    }

    public static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    // ---- "instrumented" methods (ids as a mapping file lists them: E2e.MAPPING) ----

    public static void tinyStep() {
        AppMethodBeat.i(101);
        busy(1);
        AppMethodBeat.o(101);
    }

    public static void nap() {
        AppMethodBeat.i(102);
        try {
            sleep(150);
        } finally {
            AppMethodBeat.o(102);
        }
    }

    /** The slow message: ~800 ms, three tiny steps and a 150 ms nap inside. */
    public static void slowWork() {
        AppMethodBeat.i(100);
        try {
            for (int k = 0; k < 3; k++) {
                tinyStep();
            }
            nap();
            busy(650);
        } finally {
            AppMethodBeat.o(100);
        }
    }

    /** The ANR: a message stuck 5.6 s. */
    public static void stuck() {
        AppMethodBeat.i(200);
        try {
            sleep(5600);
        } finally {
            AppMethodBeat.o(200);
        }
    }

    /** The view phases' traversal: 800 ms. */
    public static void slowTraversal() {
        AppMethodBeat.i(120);
        try {
            sleep(800);
        } finally {
            AppMethodBeat.o(120);
        }
    }

    /** The view phases' animation callback: 150 ms. */
    public static void slowAnimation() {
        AppMethodBeat.i(121);
        try {
            sleep(150);
        } finally {
            AppMethodBeat.o(121);
        }
    }

    /** The idle-handler lag's slow handler: 2.3 s. */
    public static void slowIdle() {
        AppMethodBeat.i(202);
        try {
            sleep(2300);
        } finally {
            AppMethodBeat.o(202);
        }
    }

    // ---- the reports' JSON ----

    /** The duration of the first "depth,id,count,dur" line for id at depth, or -1. */
    public static long item(String json, int depth, int id, int count) {
        Matcher m = Pattern.compile("(?:\"stack\":\"|\\\\n)" + depth + "," + id + "," + count + ",(\\d+)\\\\n")
                .matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** A number's value, or Long.MIN_VALUE. */
    public static long num(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(-?\\d+)").matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : Long.MIN_VALUE;
    }

    /** A string's value, or null. */
    public static String str(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    // ---- each scenario's report, whichever framework ran it ----

    /** slowWork's NORMAL report. */
    public static void checkSlowMessage(String j, Check c) {
        long d100 = item(j, 1, 100, 1);
        // loose bounds: the clock thread may be starved on a loaded machine
        c.check(d100 >= 700 && d100 <= 2500, "slowWork's own line, ~800 ms: " + d100);
        long d101 = item(j, 2, 101, 3);
        c.check(d101 >= 0 && d101 <= 200, "three tinySteps merged into one line: " + d101);
        long d102 = item(j, 2, 102, 1);
        c.check(d102 >= 100 && d102 <= 1000, "nap ~150 ms: " + d102);
        long dd = item(j, 0, AppMethodBeat.METHOD_ID_DISPATCH, 1);
        c.check(dd >= d100, "the message line holds the method: " + dd);
        c.check(j.contains("\"stackKey\":\"100|\""), "stackKey is slowWork");
        long cost = num(j, "cost");
        c.check(cost >= d100, "cost covers the stack: " + cost);
    }

    /** stuck's LAG report: the main thread's stack, in stuck. */
    public static void checkLag(String j, Check c) {
        c.check(j.contains("Scenarios.stuck"), "lag report with the main thread's stack");
    }

    /** stuck's ANR report, taken 5 s into it; its whole stack, from the sleep up. */
    public static void checkAnr(String j, Check c) {
        long d200 = item(j, 1, 200, 1);
        c.check(d200 >= 4800 && d200 <= 5600, "stuck ~5000 ms at the check: " + d200);
        long cost = num(j, "cost");
        c.check(cost >= 5000 && cost < 6000, "cost 5000..5999: " + cost);
        c.check(j.contains("\"stackKey\":\"200|\""), "stackKey is stuck");
        c.check(j.contains("\"threadStack\":\" \\n|*\\t\\tat "), "Matrix's thread-stack lines");
        // Matrix's simple style cut the top 3 frames (where the thread is stuck) and all
        // past the 12th: the whole stack, from the sleep up
        c.check(j.contains("|*\\t\\tat Scenarios:sleep(") && j.contains("|*\\t\\tat Scenarios:stuck("),
                "quirk_fixed_anr_thread_stack_whole");
    }

    /** slowIdle's LAG_IDLE_HANDLER report: the main thread's stack, in the handler. */
    public static void checkIdleLag(String j, Check c) {
        c.check(j.contains("Scenarios.slowIdle(Scenarios.java:"), "the main thread's stack, in the handler");
    }

    /**
     * The view phases of a frame whose animation callback is slowAnimation and whose
     * traversal runs slowTraversal (the report whose stackKey is 120), from source
     * ("FrameMetrics", or "Choreographer": measure, layout and draw not told apart).
     */
    public static void checkViewPhases(String j, String source, Check c) {
        c.check(source.equals(str(j, "source")) && num(j, "frames") == 1,
                "the frame's message: one frame, from " + source);
        long anim = num(j, "animationMs");
        c.check(anim >= 140 && anim < 700, "animation phase: " + anim + " ms");
        c.check(num(j, "inputMs") >= 0 && num(j, "inputMs") < 100, "input phase: " + num(j, "inputMs") + " ms");
        long trav = num(j, "traversalMs");
        c.check(trav >= 780 && trav < 2000, "traversal: " + trav + " ms");
        if (source.equals("FrameMetrics")) {
            c.check(num(j, "measureLayoutMs") >= 780 && num(j, "drawMs") >= 0, "measure + layout: "
                    + num(j, "measureLayoutMs") + " ms, draw " + num(j, "drawMs") + " ms");
            c.check(j.matches(".*\"why\":\"[^\"]*; 1 frame, measure\\+layout \\d+ ms\".*"), "why names the phase");
        } else {
            c.check(j.contains("\"measureLayoutMs\":\"unknown\",\"drawMs\":\"unknown\""),
                    "Choreographer: measure, layout and draw are not told apart; the report says unknown");
            c.check(j.matches(".*\"why\":\"[^\"]*; 1 frame, traversal \\d+ ms\".*"), "why names the phase");
        }
    }
}

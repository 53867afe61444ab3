package com.tencent.matrix.trace.core;

import android.app.Activity;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Test-only stand-in for Matrix's AppMethodBeat (tests/balance): the class tc-instrument's
 * injected calls go to. It records every event per thread and checks each one online against
 * an oracle that does not trust the instrumenter:
 *
 * - the caller of i(id)/o(id), found with StackWalker, must be the method that the mapping
 *   (-Dtc.balance.mapping=methodMapping.txt) gives for id: same class, name and descriptor;
 * - a shadow stack per thread: i pushes (id, real stack depth of the caller), o must pop the
 *   same id from a frame at the same depth (the same activation, not just the same method);
 * - at(activity, z) must be called from onWindowFocusChanged(Z)V of a class the activity is an
 *   instance of, and when that method is traced, right after its own i().
 *
 * report() (called by the harness at the end; a shutdown hook calls it too, for programs that
 * die of an uncaught exception) writes -Dtc.balance.report: the problems found (including
 * threads whose shadow stack is not empty) and every thread's event sequence, in which methods
 * are named from the caller frames, not from the mapping. Only the JDK is used here, so nothing
 * in this class is ever traced itself.
 */
public final class AppMethodBeat {
    private AppMethodBeat() {}

    private static final StackWalker WALKER =
            StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /** id -> "Class.method(desc)" with '/' in descriptors, as the mapping names it. */
    private static final Map<Integer, String> MAPPING = new HashMap<>();
    private static final List<String> GLOBAL_PROBLEMS =
            java.util.Collections.synchronizedList(new ArrayList<>());
    private static final List<Log> LOGS = new ArrayList<>();
    private static boolean reported;

    private static final class Log {
        final Thread thread;
        final String name;
        final List<String> events = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        int[] ids = new int[64];
        int[] depths = new int[64];
        int size;
        /** index in events of the last i, and its id (for the at() placement check) */
        int lastEventWasIOf = -1;

        Log(Thread t) {
            thread = t;
            name = t.getName();
        }

        void push(int id, int depth) {
            if (size == ids.length) {
                ids = java.util.Arrays.copyOf(ids, size * 2);
                depths = java.util.Arrays.copyOf(depths, size * 2);
            }
            ids[size] = id;
            depths[size] = depth;
            size++;
        }

        String indent(int level) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < level; k++) sb.append("  ");
            return sb.toString();
        }
    }

    private static final ThreadLocal<Log> LOG = new ThreadLocal<>();

    static {
        String path = System.getProperty("tc.balance.mapping");
        if (path != null) {
            try {
                for (String line : Files.readAllLines(Paths.get(path), StandardCharsets.UTF_8)) {
                    if (line.isEmpty() || line.startsWith("#")) continue;
                    // id,access,class method desc
                    int c1 = line.indexOf(','), c2 = line.indexOf(',', c1 + 1);
                    String[] parts = line.substring(c2 + 1).split(" ");
                    if (c1 < 0 || c2 < 0 || parts.length != 3) {
                        GLOBAL_PROBLEMS.add("malformed mapping line: " + line);
                        continue;
                    }
                    int id = Integer.parseInt(line.substring(0, c1));
                    String name = parts[0] + "." + parts[1] + parts[2].replace('.', '/');
                    if (MAPPING.put(id, name) != null) GLOBAL_PROBLEMS.add("duplicate id in mapping: " + line);
                }
            } catch (IOException | RuntimeException e) {
                GLOBAL_PROBLEMS.add("cannot read mapping " + path + ": " + e);
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(AppMethodBeat::report, "balance-report"));
    }

    private static Log log() {
        Log l = LOG.get();
        if (l == null) {
            l = new Log(Thread.currentThread());
            LOG.set(l);
            synchronized (AppMethodBeat.class) {
                LOGS.add(l);
            }
        }
        return l;
    }

    /** The first frame outside this class: its method and how many frames lie below it. */
    private static final class Caller {
        Class<?> cls;
        String method;   // Class.name(desc)
        int depth;
    }

    private static Caller caller() {
        return WALKER.walk(s -> {
            Caller c = null;
            int depth = 0;
            Iterator<StackWalker.StackFrame> it = s.iterator();
            while (it.hasNext()) {
                StackWalker.StackFrame f = it.next();
                if (c == null) {
                    if (f.getDeclaringClass() == AppMethodBeat.class) continue;
                    c = new Caller();
                    c.cls = f.getDeclaringClass();
                    c.method = f.getClassName() + "." + f.getMethodName() + f.getDescriptor();
                }
                depth++;
            }
            return c;
        });
    }

    public static void i(int id) {
        try {
            Log l = log();
            Caller c = caller();
            String where = c == null ? "?" : c.method;
            check(l, "i", id, where);
            l.events.add(l.indent(l.size) + "i " + where);
            l.lastEventWasIOf = id;
            l.push(id, c == null ? -1 : c.depth);
        } catch (Throwable t) {
            GLOBAL_PROBLEMS.add("oracle failed in i(" + id + "): " + t);
        }
    }

    public static void o(int id) {
        try {
            Log l = log();
            Caller c = caller();
            String where = c == null ? "?" : c.method;
            check(l, "o", id, where);
            l.lastEventWasIOf = -1;
            if (l.size == 0) {
                l.problems.add("o(" + id + ") from " + where + " with an empty shadow stack (event "
                        + l.events.size() + ")");
            } else {
                int top = l.ids[l.size - 1], topDepth = l.depths[l.size - 1];
                l.size--;
                if (top != id) {
                    l.problems.add("o(" + id + ") from " + where + " but the innermost open method is "
                            + top + " " + MAPPING.get(top) + " (event " + l.events.size() + ")");
                } else if (c != null && topDepth != c.depth) {
                    l.problems.add("o(" + id + ") from " + where + " at stack depth " + c.depth
                            + " but its i() was at depth " + topDepth + " (event " + l.events.size() + ")");
                }
            }
            l.events.add(l.indent(l.size) + "o " + where);
        } catch (Throwable t) {
            GLOBAL_PROBLEMS.add("oracle failed in o(" + id + "): " + t);
        }
    }

    public static void at(Activity activity, boolean hasFocus) {
        try {
            Log l = log();
            Caller c = caller();
            String where = c == null ? "?" : c.method;
            String who = activity == null ? "null" : activity.getClass().getName();
            if (c == null || !where.endsWith(".onWindowFocusChanged(Z)V")) {
                l.problems.add("at() called from " + where + ", not from onWindowFocusChanged(Z)V");
            } else if (activity == null || !c.cls.isInstance(activity)) {
                l.problems.add("at(" + who + ") called from " + where
                        + ": the activity is not an instance of the calling class");
            }
            // Where the focus method is traced, at() must come right after its own i().
            Integer traced = null;
            for (Map.Entry<Integer, String> e : MAPPING.entrySet()) {
                if (e.getValue().equals(where)) traced = e.getKey();
            }
            if (traced != null && (l.lastEventWasIOf != traced || l.size == 0
                    || l.ids[l.size - 1] != traced || l.depths[l.size - 1] != c.depth)) {
                l.problems.add("at() in traced " + where + " is not right after that method's i()");
            }
            l.lastEventWasIOf = -1;
            l.events.add(l.indent(l.size) + "at " + where + " " + who + " " + hasFocus);
        } catch (Throwable t) {
            GLOBAL_PROBLEMS.add("oracle failed in at(): " + t);
        }
    }

    private static void check(Log l, String kind, int id, String where) {
        String mapped = MAPPING.get(id);
        if (mapped == null) {
            l.problems.add(kind + "(" + id + ") from " + where + ": id not in the mapping");
        } else if (!mapped.equals(where)) {
            l.problems.add(kind + "(" + id + ") from " + where + " but the mapping gives " + mapped);
        }
    }

    /** Writes the report once (to -Dtc.balance.report, else stderr). */
    public static synchronized void report() {
        if (reported) return;
        reported = true;
        String path = System.getProperty("tc.balance.report");
        List<String> problems = new ArrayList<>(GLOBAL_PROBLEMS);
        for (Log l : LOGS) {
            for (String p : l.problems) problems.add(l.name + "\t" + p);
            if (l.size != 0) {
                StringBuilder open = new StringBuilder();
                for (int k = 0; k < l.size; k++) open.append(' ').append(MAPPING.get(l.ids[k]));
                problems.add(l.name + "\tunbalanced: " + l.size + " method(s) never left:" + open
                        + (l.thread.isAlive() ? " (thread still running)" : ""));
            }
        }
        try (PrintWriter w = path == null ? new PrintWriter(System.err, true)
                : new PrintWriter(Files.newBufferedWriter(Paths.get(path), StandardCharsets.UTF_8))) {
            w.println("problems " + problems.size());
            for (String p : problems) w.println("problem " + p);
            List<Log> sorted = new ArrayList<>(LOGS);
            sorted.sort((a, b) -> a.name.compareTo(b.name));
            for (Log l : sorted) {
                w.println("thread " + l.name);
                for (String e : l.events) w.println(e);
            }
            w.println("end");
        } catch (IOException e) {
            System.err.println("balance oracle: cannot write " + path + ": " + e);
        }
    }
}

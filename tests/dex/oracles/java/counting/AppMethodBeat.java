package com.tencent.matrix.trace.core;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The probe class for the behaviour oracle: counts i(id) and o(id) per id and checks,
 * on a per-thread stack, that every o(id) closes the innermost open i(id), on normal and
 * exceptional exits alike. At exit a shutdown hook writes the totals to the file named
 * by -Dtc.beat.report (stderr without it): lines "key value" for i, o, ids, mismatches,
 * open (frames still open on all threads: daemon threads parked inside instrumented
 * code), open_main (on the main thread, which must be 0 once main returned),
 * unbalanced_ids (ids whose i and o counts differ beyond the open frames), first.
 * A mismatch or a frame left open on the main thread is loud: a message on stderr and
 * exit status 97. oracles.sh renames the package and class to the --probe-class.
 */
public class AppMethodBeat {
	private static final class Frames {
		int[] ids = new int[64];
		int n;
	}

	private static final ThreadLocal<Frames> STACK = new ThreadLocal<Frames>() {
		@Override
		protected Frames initialValue() {
			Frames f = new Frames();
			ALL.put(Thread.currentThread(), f);
			return f;
		}
	};
	private static final Map<Thread, Frames> ALL = new ConcurrentHashMap<>();
	private static final Map<Integer, long[]> PER_ID = new ConcurrentHashMap<>();
	private static final AtomicLong I = new AtomicLong(), O = new AtomicLong(), BAD = new AtomicLong();
	private static volatile String first = "";

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(AppMethodBeat::report, "beat-report"));
	}

	private static long[] counts(int id) {
		return PER_ID.computeIfAbsent(id, k -> new long[2]);
	}

	public static void i(int id) {
		Frames f = STACK.get();
		if (f.n == f.ids.length)
			f.ids = java.util.Arrays.copyOf(f.ids, f.n * 2);
		f.ids[f.n++] = id;
		long[] c = counts(id);
		synchronized (c) {
			c[0]++;
		}
		I.incrementAndGet();
	}

	public static void o(int id) {
		Frames f = STACK.get();
		long[] c = counts(id);
		synchronized (c) {
			c[1]++;
		}
		O.incrementAndGet();
		if (f.n > 0 && f.ids[f.n - 1] == id) {
			f.n--;
			return;
		}
		String msg = "o(" + id + ") on thread " + Thread.currentThread().getName() + " but the innermost open i is "
				+ (f.n > 0 ? "i(" + f.ids[f.n - 1] + ")" : "none");
		if (BAD.getAndIncrement() < 10)
			System.err.println("AppMethodBeat: MISMATCH " + msg);
		if (first.isEmpty())
			first = msg;
		// Recover: unwind to the matching frame if there is one (the frames above it
		// missed their o), else leave the stack alone (this o had no i).
		for (int k = f.n - 1; k >= 0; k--)
			if (f.ids[k] == id) {
				f.n = k;
				break;
			}
	}

	public static void at(android.app.Activity activity, boolean hasFocus) {
	}

	private static void report() {
		long open = 0, openMain = 0;
		for (Map.Entry<Thread, Frames> e : ALL.entrySet()) {
			open += e.getValue().n;
			if (e.getKey().getName().equals("main"))
				openMain += e.getValue().n;
		}
		Map<Integer, Long> openPerId = new java.util.HashMap<>();
		for (Frames f : ALL.values())
			for (int k = 0; k < f.n; k++)
				openPerId.merge(f.ids[k], 1L, Long::sum);
		long unbalanced = 0;
		for (Map.Entry<Integer, long[]> e : PER_ID.entrySet())
			if (e.getValue()[0] - e.getValue()[1] != openPerId.getOrDefault(e.getKey(), 0L))
				unbalanced++;
		String text = "i " + I.get() + "\no " + O.get() + "\nids " + PER_ID.size() + "\nmismatches " + BAD.get()
				+ "\nopen " + open + "\nopen_main " + openMain + "\nunbalanced_ids " + unbalanced + "\nfirst " + first
				+ "\n";
		String path = System.getProperty("tc.beat.report");
		if (path != null) {
			try (PrintStream p = new PrintStream(new FileOutputStream(path), true, "UTF-8")) {
				p.print(text);
			} catch (IOException e) {
				System.err.println("AppMethodBeat: cannot write " + path + ": " + e);
			}
		} else {
			System.err.print(text);
		}
		if (BAD.get() > 0 || openMain > 0 || unbalanced > 0) {
			System.err.println("AppMethodBeat: UNBALANCED: " + BAD.get() + " mismatched o(), " + openMain
					+ " frames left open on main, " + unbalanced + " ids with i != o; first: " + first);
			System.err.flush();
			Runtime.getRuntime().halt(97);
		}
	}
}

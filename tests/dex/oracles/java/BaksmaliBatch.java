// Runs many baksmali (or smali) command lines in one JVM, for the dex tests that used to
// start one JVM per file (tests/dex/oracles/baksmali_batch.sh compiles and runs it).
//
//   java -cp ... BaksmaliBatch baksmali|smali JOBS_FILE
//
// JOBS_FILE has one job a line, fields separated by tabs: LOG, then the tool's arguments
// exactly as its command line takes them (e.g. d, --register-info, ALL,FULLMERGE, -b, ,
// -o, OUT, IN.dex). Each job runs the tool's own main (org.jf.baksmali.Main or
// org.jf.smali.Main, Debian's jars), one after the other, with stdout and stderr going
// to LOG as `tool ARGS... >LOG 2>&1` would send them; where the tool would end the
// process (System.exit), the job ends with that status instead, and an exception out of
// main is the status 1 the JVM would exit with. After each job one line goes to stdout:
// STATUS, a tab, LOG. So each job writes what its own `baksmali ARGS` run writes
// (tests/dex/oracles/baksmali_batch.sh --self-test compares the two).
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.Permission;
import java.util.Arrays;

public final class BaksmaliBatch {
	/** System.exit(status) called by a job, turned into an exception of the job. */
	static final class Exit extends SecurityException {
		final int status;

		Exit(int status) {
			super("exit " + status);
			this.status = status;
		}
	}

	static volatile boolean trapping;

	@SuppressWarnings("removal")
	public static void main(String[] args) throws Exception {
		if (args.length != 2 || !(args[0].equals("baksmali") || args[0].equals("smali"))) {
			System.err.println("usage: BaksmaliBatch baksmali|smali JOBS_FILE");
			System.exit(2);
		}
		Method toolMain = Class.forName(args[0].equals("baksmali") ? "org.jf.baksmali.Main" : "org.jf.smali.Main")
			.getMethod("main", String[].class);
		PrintStream out = System.out, err = System.err;
		// No permission is checked (the jobs run as they would alone); only exit is caught.
		System.setSecurityManager(new SecurityManager() {
			@Override
			public void checkPermission(Permission p) {}

			@Override
			public void checkPermission(Permission p, Object context) {}

			@Override
			public void checkExit(int status) {
				if (trapping)
					throw new Exit(status);
			}
		});
		int failed = 0;
		try (BufferedReader jobs = new BufferedReader(new FileReader(args[1]))) {
			for (String line; (line = jobs.readLine()) != null;) {
				if (line.isEmpty())
					continue;
				String[] f = line.split("\t", -1);
				String[] toolArgs = Arrays.copyOfRange(f, 1, f.length);
				int status;
				try (PrintStream log = new PrintStream(new FileOutputStream(f[0]), true)) {
					System.setOut(log);
					System.setErr(log);
					trapping = true;
					try {
						toolMain.invoke(null, (Object) toolArgs);
						status = 0;
					} catch (InvocationTargetException e) {
						Throwable t = e.getCause();
						if (t instanceof Exit) {
							status = ((Exit) t).status & 0xff;
						} else {
							log.print("Exception in thread \"main\" ");
							t.printStackTrace(log);
							status = 1;
						}
					} finally {
						trapping = false;
						System.setOut(out);
						System.setErr(err);
					}
				} catch (IOException e) {
					err.println("BaksmaliBatch: " + f[0] + ": " + e.getMessage());
					status = 1;
				}
				if (status != 0)
					failed++;
				out.println(status + "\t" + f[0]);
				out.flush();
			}
		}
		System.exit(failed == 0 ? 0 : 1);
	}
}

import com.tencent.matrix.trace.core.AppMethodBeat;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Runs each scenario class named on the command line (its static void run()) in a fresh thread
 * named "s:CLASS", one after the other, so that the recording AppMethodBeat keeps every
 * scenario's events apart. The scenario's class is initialized in that thread (its static
 * initializer's events belong to the scenario). An exception escaping run() is printed on stdout,
 * so it is compared between the plain and the instrumented run. Not instrumented itself.
 */
public final class BalanceHarness {
    public static void main(String[] args) throws Exception {
        for (String name : args) {
            System.out.println("== " + name);
            Class<?> c = Class.forName(name, false, BalanceHarness.class.getClassLoader());
            MethodHandle run = MethodHandles.publicLookup()
                    .findStatic(c, "run", MethodType.methodType(void.class));
            Thread t = new Thread(() -> {
                try {
                    run.invokeExact();
                } catch (Throwable e) {
                    System.out.println("scenario " + name + " threw " + e);
                }
            }, "s:" + name);
            t.start();
            t.join();
            System.out.flush();
            System.err.flush();
        }
        AppMethodBeat.report();
    }
}

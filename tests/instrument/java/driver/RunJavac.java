package driver;

import java.util.concurrent.atomic.AtomicInteger;
import javax.tools.ToolProvider;

/**
 * Runs javac on a thread of its own and reports how many i() and o() calls that
 * thread made (tcbeat.Beat). Every traced method the thread entered has returned or
 * thrown by the time it ends, so the two counts must be equal.
 *
 * usage: RunJavac JAVAC-ARGS...
 */
public final class RunJavac {
    public static void main(String[] args) throws Exception {
        AtomicInteger rc = new AtomicInteger(-1);
        tcbeat.Beat.start();
        Thread t = new Thread(() -> rc.set(ToolProvider.getSystemJavaCompiler().run(null, null, null, args)),
                "javac");
        t.start();
        t.join();
        long in = tcbeat.Beat.ins(t.getId()), out = tcbeat.Beat.outs(t.getId());
        System.out.println("javac exit " + rc.get() + " thread in " + in + " out " + out);
        System.exit(rc.get() == 0 && in == out && in > 0 ? 0 : 1);
    }
}

package tcstress;

import javax.tools.ToolProvider;

/**
 * Runs the JDK's javac (with --patch-module: the stress-edited one) on the given
 * arguments, then prints how many calls the edited code made to java.lang.TcProbe.
 * Exits 1 when javac fails or no edited code ran.
 *
 * usage: RunJavac JAVAC-ARGS...
 */
public final class RunJavac {
    private RunJavac() {
    }

    public static void main(String[] args) throws Exception {
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, args);
        long calls = (Long) Class.forName("java.lang.TcProbe").getMethod("calls").invoke(null);
        System.out.println("javac exit " + rc + ", probe calls " + calls);
        System.exit(rc == 0 && calls > 0 ? 0 : 1);
    }
}

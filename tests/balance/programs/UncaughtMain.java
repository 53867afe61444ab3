/*@expect uncaught_out_of_main main
  Run as the program's main class (not through the harness): an exception thrown through
  traced frames escapes main(). The JVM prints it and exits with status 1, in the instrumented
  run exactly as in the plain one, and every frame (main included) has left by o().

thread main
i UncaughtMain.main([Ljava/lang/String;)V
  i UncaughtMain.outer(I)I
    i UncaughtMain.inner(I)I
    o UncaughtMain.inner(I)I
  o UncaughtMain.outer(I)I
  i UncaughtMain.outer(I)I
    i UncaughtMain.inner(I)I
    o UncaughtMain.inner(I)I
  o UncaughtMain.outer(I)I
o UncaughtMain.main([Ljava/lang/String;)V
*/
public class UncaughtMain {
    public static void main(String[] args) {
        Out.p("outer(1) = " + outer(1));
        Out.p("outer(0) = " + outer(0));
        Out.p("not reached");
    }

    static int outer(int x) {
        try {
            return inner(x) * 2;
        } finally {
            Out.p("outer finally " + x);
        }
    }

    static int inner(int x) {
        if (x == 0) {
            throw new ArithmeticException("inner refuses zero");
        }
        return Math.addExact(x, 1);
    }
}

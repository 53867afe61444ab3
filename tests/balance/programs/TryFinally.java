/*@expect try_catch_finally
  try/catch/finally: return inside finally (swallows the exception), exception inside catch,
  finally on the exceptional and the normal path, try-with-resources whose close() throws.

thread s:TryFinally
i TryFinally.run()V
  i TryFinally.returnInFinally()I
    i TryFinally.thrower(Ljava/lang/String;)V
    o TryFinally.thrower(Ljava/lang/String;)V
  o TryFinally.returnInFinally()I
  i TryFinally.exceptionInCatch()V
    i TryFinally.thrower(Ljava/lang/String;)V
    o TryFinally.thrower(Ljava/lang/String;)V
  o TryFinally.exceptionInCatch()V
  i TryFinally.finallyOnThrow()V
    i TryFinally.thrower(Ljava/lang/String;)V
    o TryFinally.thrower(Ljava/lang/String;)V
    i TryFinally.log(Ljava/lang/String;)V
    o TryFinally.log(Ljava/lang/String;)V
  o TryFinally.finallyOnThrow()V
  i TryFinally.finallyNormal()I
    i TryFinally.compute()I
    o TryFinally.compute()I
    i TryFinally.log(Ljava/lang/String;)V
    o TryFinally.log(Ljava/lang/String;)V
  o TryFinally.finallyNormal()I
  i TryFinally.exceptionInFinally()V
    i TryFinally.thrower(Ljava/lang/String;)V
    o TryFinally.thrower(Ljava/lang/String;)V
    i TryFinally.thrower(Ljava/lang/String;)V
    o TryFinally.thrower(Ljava/lang/String;)V
  o TryFinally.exceptionInFinally()V
  i TryFinally.resources(Z)I
    i TryFinally$Res.<init>(Ljava/lang/String;)V
      i TryFinally.log(Ljava/lang/String;)V
      o TryFinally.log(Ljava/lang/String;)V
    o TryFinally$Res.<init>(Ljava/lang/String;)V
    i TryFinally.compute()I
    o TryFinally.compute()I
    i TryFinally$Res.close()V
      i TryFinally.log(Ljava/lang/String;)V
      o TryFinally.log(Ljava/lang/String;)V
    o TryFinally$Res.close()V
  o TryFinally.resources(Z)I
  i TryFinally.resources(Z)I
    i TryFinally$Res.<init>(Ljava/lang/String;)V
      i TryFinally.log(Ljava/lang/String;)V
      o TryFinally.log(Ljava/lang/String;)V
    o TryFinally$Res.<init>(Ljava/lang/String;)V
    i TryFinally.thrower(Ljava/lang/String;)V
    o TryFinally.thrower(Ljava/lang/String;)V
    i TryFinally$Res.close()V
      i TryFinally.log(Ljava/lang/String;)V
      o TryFinally.log(Ljava/lang/String;)V
    o TryFinally$Res.close()V
  o TryFinally.resources(Z)I
o TryFinally.run()V
*/
public class TryFinally {
    static final class Res implements AutoCloseable {
        final String name;

        Res(String name) {
            this.name = name;
            log("open " + name);
        }

        @Override
        public void close() {
            log("close " + name);
            if (name.startsWith("bad")) {
                throw new IllegalStateException("close failed: " + name);
            }
        }
    }

    public static void run() {
        Out.p("returnInFinally = " + returnInFinally());
        try {
            exceptionInCatch();
        } catch (IllegalStateException e) {
            Out.p("exceptionInCatch threw " + e.getMessage() + " / " + e.getCause().getMessage());
        }
        try {
            finallyOnThrow();
        } catch (RuntimeException e) {
            Out.p("finallyOnThrow threw " + e.getMessage());
        }
        Out.p("finallyNormal = " + finallyNormal());
        try {
            exceptionInFinally();
        } catch (RuntimeException e) {
            Out.p("exceptionInFinally threw " + e.getMessage());
        }
        Out.p("resources(false) = " + resources(false));
        try {
            resources(true);
        } catch (RuntimeException e) {
            Out.p("resources(true) threw " + e.getMessage() + ", suppressed "
                    + e.getSuppressed()[0].getMessage());
        }
    }

    static void thrower(String what) {
        throw new IllegalArgumentException(what);
    }

    static void log(String s) {
        Out.p("log " + s);
    }

    static int compute() {
        return Math.abs(-6);
    }

    @SuppressWarnings("finally")
    static int returnInFinally() {
        try {
            thrower("swallowed");
            return 1;
        } finally {
            return 2;
        }
    }

    static void exceptionInCatch() {
        try {
            thrower("in try");
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("from catch", e);
        }
    }

    static void finallyOnThrow() {
        try {
            thrower("passes finally");
        } finally {
            log("finally");
        }
    }

    static int finallyNormal() {
        try {
            return compute();
        } finally {
            log("finally");
        }
    }

    /** the finally block throws too: its exception replaces the first one */
    static void exceptionInFinally() {
        try {
            thrower("first");
        } finally {
            thrower("from finally");
        }
    }

    static int resources(boolean fail) {
        try (Res r = new Res(fail ? "bad" : "good")) {
            if (fail) {
                thrower("body");
            }
            return compute();
        }
    }
}

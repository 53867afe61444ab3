/*@expect static_initializers
  Static initializers run where a class is first used, nested inside the using method and
  before the method that triggered them; one that throws leaves by o() once
  (ExceptionInInitializerError), and the class's later uses (NoClassDefFoundError) run nothing.
  A class whose initializer only stores constants is not traced.

thread s:StaticInit
i StaticInit.run()V
  i StaticInit$Config.<clinit>()V
    i StaticInit.compute(I)I
    o StaticInit.compute(I)I
    i StaticInit.note(Ljava/lang/String;)V
    o StaticInit.note(Ljava/lang/String;)V
  o StaticInit$Config.<clinit>()V
  i StaticInit$Config.describe()Ljava/lang/String;
  o StaticInit$Config.describe()Ljava/lang/String;
  i StaticInit$Broken.<clinit>()V
    i StaticInit.fail()Z
    o StaticInit.fail()Z
  o StaticInit$Broken.<clinit>()V
  i StaticInit$Lazy.<clinit>()V
    i StaticInit.note(Ljava/lang/String;)V
    o StaticInit.note(Ljava/lang/String;)V
  o StaticInit$Lazy.<clinit>()V
  i StaticInit$Lazy.get()I
    i StaticInit.compute(I)I
    o StaticInit.compute(I)I
  o StaticInit$Lazy.get()I
o StaticInit.run()V
*/
public class StaticInit {
    static void note(String s) {
        Out.p("note " + s);
    }

    static int compute(int x) {
        return Math.multiplyExact(x, 7);
    }

    static boolean fail() {
        return Boolean.parseBoolean("true");
    }

    static class Config {
        static final int V;

        static {
            V = compute(6);
            note("Config ready");
        }

        static String describe() {
            return "V=" + V;
        }
    }

    static class Broken {
        static int x;

        static {
            if (fail()) {
                throw new IllegalStateException("Broken cannot initialize");
            }
            x = 1;
        }
    }

    static class Plain {
        static int a = 1;
        static final int[] TABLE = {1, 2, 3};
    }

    static class Lazy {
        static final String NAME = "lazy";   // a constant: reading it does not initialize Lazy
        static int counter;

        static {
            note("Lazy initialized");
        }

        static int get() {
            return compute(++counter);
        }
    }

    public static void run() {
        Out.p("Config.V = " + Config.V);
        Out.p(Config.describe());
        try {
            Out.p("Broken.x = " + Broken.x);
        } catch (ExceptionInInitializerError e) {
            Out.p("first use: " + e.getCause().getMessage());
        }
        try {
            Out.p("Broken.x = " + Broken.x);
        } catch (NoClassDefFoundError e) {
            Out.p("second use: NoClassDefFoundError");
        }
        Out.p("Plain.a = " + Plain.a + ", TABLE[2] = " + Plain.TABLE[2]);
        Out.p("Lazy.NAME = " + Lazy.NAME);
        Out.p("Lazy.get() = " + Lazy.get());
    }
}

/*@expect switch_expressions
  Enhanced switch expressions (arrow cases, several labels per case, yield from a block, a case
  that throws, on ints, strings and an enum) and an arrow switch statement.

thread s:SwitchExpr
i SwitchExpr.run()V
  i SwitchExpr.ints(I)I
    i SwitchExpr.f(I)I
    o SwitchExpr.f(I)I
  o SwitchExpr.ints(I)I
  i SwitchExpr.ints(I)I
    i SwitchExpr.f(I)I
    o SwitchExpr.f(I)I
    i SwitchExpr.f(I)I
    o SwitchExpr.f(I)I
  o SwitchExpr.ints(I)I
  i SwitchExpr.ints(I)I
  o SwitchExpr.ints(I)I
  i SwitchExpr.ints(I)I
  o SwitchExpr.ints(I)I
  i SwitchExpr.strings(Ljava/lang/String;)Ljava/lang/String;
  o SwitchExpr.strings(Ljava/lang/String;)Ljava/lang/String;
  i SwitchExpr.strings(Ljava/lang/String;)Ljava/lang/String;
    i SwitchExpr.f(I)I
    o SwitchExpr.f(I)I
  o SwitchExpr.strings(Ljava/lang/String;)Ljava/lang/String;
  i SwitchExpr.strings(Ljava/lang/String;)Ljava/lang/String;
  o SwitchExpr.strings(Ljava/lang/String;)Ljava/lang/String;
  i SwitchExpr$Dir.<clinit>()V
  o SwitchExpr$Dir.<clinit>()V
  i SwitchExpr.dirs(LSwitchExpr$Dir;)I
    i SwitchExpr$1.<clinit>()V
      i SwitchExpr$Dir.values()[LSwitchExpr$Dir;
      o SwitchExpr$Dir.values()[LSwitchExpr$Dir;
    o SwitchExpr$1.<clinit>()V
  o SwitchExpr.dirs(LSwitchExpr$Dir;)I
  i SwitchExpr.dirs(LSwitchExpr$Dir;)I
    i SwitchExpr.f(I)I
    o SwitchExpr.f(I)I
  o SwitchExpr.dirs(LSwitchExpr$Dir;)I
  i SwitchExpr.statement(I)V
  o SwitchExpr.statement(I)V
  i SwitchExpr.statement(I)V
    i SwitchExpr.f(I)I
    o SwitchExpr.f(I)I
  o SwitchExpr.statement(I)V
o SwitchExpr.run()V
*/
public class SwitchExpr {
    enum Dir { N, E, S, W }

    static int f(int x) {
        return Math.addExact(x, 1000);
    }

    static int ints(int k) {
        return switch (k) {
            case 0, 1 -> f(k);
            case 2 -> {
                int t = f(k);
                yield t + f(-k);
            }
            case 50 -> throw new IllegalArgumentException("fifty");
            default -> -k;
        };
    }

    static String strings(String s) {
        return switch (s) {
            case "up", "down" -> s.toUpperCase();
            case "left" -> "L" + f(1);
            default -> "?";
        };
    }

    static int dirs(Dir d) {
        return switch (d) {
            case N -> 0;
            case E, W -> f(d.ordinal());
            case S -> 2;
        };
    }

    static void statement(int k) {
        switch (k) {
            case 1 -> Out.p("statement one");
            case 2 -> Out.p("statement two " + f(k));
            default -> { }
        }
    }

    public static void run() {
        Out.p("ints: " + ints(1) + " " + ints(2) + " " + ints(7));
        try {
            ints(50);
        } catch (IllegalArgumentException e) {
            Out.p("ints(50) threw " + e.getMessage());
        }
        Out.p("strings: " + strings("up") + " " + strings("left") + " " + strings("x"));
        Out.p("dirs: " + dirs(Dir.N) + " " + dirs(Dir.W));
        statement(1);
        statement(2);
    }
}

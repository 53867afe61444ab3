package tcj;

import java.util.List;

/** Java 14-17: records, sealed types, switch expressions with yield and arrows,
 * pattern matching for instanceof, text blocks. */
public class Java17 {
    public sealed interface Expr permits Num, Add, Neg {}

    public record Num(int value) implements Expr {
        public Num {
            if (value == Integer.MIN_VALUE) {
                throw new IllegalArgumentException("min");
            }
        }
    }

    public record Add(Expr left, Expr right) implements Expr {}

    public static final class Neg implements Expr {
        final Expr e;

        Neg(Expr e) {
            this.e = e;
        }
    }

    static int eval(Expr e) {
        if (e instanceof Num n) {
            return n.value();
        } else if (e instanceof Add a && a.left() != null) {
            return eval(a.left()) + eval(a.right());
        } else if (e instanceof Neg n) {
            return -eval(n.e);
        }
        return 0;
    }

    enum Day { MON, TUE, WED, THU, FRI, SAT, SUN }

    static int hours(Day d) {
        return switch (d) {
            case SAT, SUN -> 0;
            case FRI -> {
                int h = 6;
                yield h;
            }
            default -> 8;
        };
    }

    static String kind(Object o) {
        String s = switch (o.hashCode() % 4) {
            case 0 -> "zero";
            case 1, -1 -> "one";
            default -> {
                if (o instanceof String str && !str.isEmpty()) {
                    yield str;
                }
                yield "other";
            }
        };
        return s;
    }

    static String text() {
        return """
            Hello,
              "block" \t
            end""";
    }

    static int names(List<String> l) {
        int n = 0;
        for (String s : l) {
            n += switch (s) {
                case "a", "b" -> 1;
                case "long" -> 4;
                default -> s.length();
            };
        }
        return n;
    }
}

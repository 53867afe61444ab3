/*@expect quirk_exception_exit_traced
  Exceptions thrown through several traced frames and caught several levels up: every frame the
  exception leaves calls o() exactly once (Matrix called none), the catching frame goes on.

thread s:ExcDeep
i ExcDeep.run()V
  i ExcDeep.a(I)I
    i ExcDeep.b(I)I
      i ExcDeep.c(I)I
        i ExcDeep.d(I)I
        o ExcDeep.d(I)I
      o ExcDeep.c(I)I
    o ExcDeep.b(I)I
  o ExcDeep.a(I)I
  i ExcDeep.a(I)I
    i ExcDeep.b(I)I
      i ExcDeep.c(I)I
        i ExcDeep.d(I)I
        o ExcDeep.d(I)I
      o ExcDeep.c(I)I
    o ExcDeep.b(I)I
  o ExcDeep.a(I)I
  i ExcDeep.parse(Ljava/lang/String;)I
    i ExcDeep.digits(Ljava/lang/String;)I
    o ExcDeep.digits(Ljava/lang/String;)I
  o ExcDeep.parse(Ljava/lang/String;)I
  i ExcDeep.parse(Ljava/lang/String;)I
    i ExcDeep.digits(Ljava/lang/String;)I
    o ExcDeep.digits(Ljava/lang/String;)I
  o ExcDeep.parse(Ljava/lang/String;)I
  i ExcDeep.checked(I)V
    i ExcDeep.checkedInner(I)V
    o ExcDeep.checkedInner(I)V
  o ExcDeep.checked(I)V
o ExcDeep.run()V
*/
import java.io.IOException;

public class ExcDeep {
    public static void run() {
        // thrown in d, through c (which has a finally), b (a catch for another type) and a
        try {
            Out.p("a(7) = " + a(7));
        } catch (IllegalStateException e) {
            Out.p("caught in run: " + e.getMessage());
        }
        // the same path without an exception
        Out.p("a(1) = " + a(1));
        // thrown by the JDK (a callee that is not traced) through traced frames
        try {
            parse("12x");
        } catch (NumberFormatException e) {
            Out.p("caught " + e.getMessage());
        }
        Out.p("parse(42) = " + parse("42"));
        // a checked exception
        try {
            checked(3);
        } catch (IOException e) {
            Out.p("caught checked " + e.getMessage());
        }
    }

    static int a(int n) {
        return b(n) + 1;
    }

    static int b(int n) {
        try {
            return c(n) * 2;
        } catch (IllegalArgumentException e) {
            Out.p("b never catches this");
            return -1;
        }
    }

    static int c(int n) {
        int r = 0;
        try {
            r = d(n);
        } finally {
            r++;
        }
        return r;
    }

    static int d(int n) {
        if (n > 5) {
            throw new IllegalStateException("too big: " + n);
        }
        return Math.max(n, 0);
    }

    static int parse(String s) {
        return digits(s) + 0;
    }

    static int digits(String s) {
        return Integer.parseInt(s);
    }

    static void checked(int n) throws IOException {
        checkedInner(n);
    }

    static void checkedInner(int n) throws IOException {
        throw new IOException("io " + n);
    }
}

/*@expect quirk_caught_athrow_no_extra_o
  An exception thrown and caught inside the same method is no exit: no o() for the athrow
  (Matrix put one before every athrow, unbalancing the trace). Each call below gives exactly one
  i/o pair for the method itself.

thread s:ExcCaughtSame
i ExcCaughtSame.run()V
  i ExcCaughtSame.f(I)I
    i ExcCaughtSame.note(Ljava/lang/String;)I
    o ExcCaughtSame.note(Ljava/lang/String;)I
  o ExcCaughtSame.f(I)I
  i ExcCaughtSame.f(I)I
  o ExcCaughtSame.f(I)I
  i ExcCaughtSame.loop(I)I
  o ExcCaughtSame.loop(I)I
  i ExcCaughtSame.nested(I)Ljava/lang/String;
  o ExcCaughtSame.nested(I)Ljava/lang/String;
  i ExcCaughtSame.rethrowOther(I)V
  o ExcCaughtSame.rethrowOther(I)V
o ExcCaughtSame.run()V
*/
public class ExcCaughtSame {
    public static void run() {
        Out.p("f(3) = " + f(3));
        Out.p("f(-3) = " + f(-3));
        Out.p("loop(4) = " + loop(4));
        Out.p("nested(2) = " + nested(2));
        try {
            rethrowOther(5);
        } catch (IllegalStateException e) {
            Out.p("run caught " + e.getMessage() + " caused by " + e.getCause().getMessage());
        }
    }

    static int f(int x) {
        try {
            if (x > 0) {
                throw new IllegalArgumentException("x=" + x);
            }
            return -1;
        } catch (IllegalArgumentException e) {
            return note(e.getMessage());
        }
    }

    static int note(String s) {
        Out.p("note " + s);
        return s.length();
    }

    /** throws and catches in a loop: still one i and one o */
    static int loop(int n) {
        int caught = 0;
        for (int k = 0; k < n; k++) {
            try {
                throw new UnsupportedOperationException("k" + k);
            } catch (UnsupportedOperationException e) {
                caught++;
            }
        }
        return caught;
    }

    /** inner catch rethrows, outer catch of the same method catches it */
    static String nested(int x) {
        try {
            try {
                throw new IllegalArgumentException("inner " + x);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("outer " + e.getMessage());
            }
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }

    /** caught inside, then a new exception leaves the method: one o, from the exit */
    static void rethrowOther(int x) {
        try {
            throw new IllegalArgumentException("first " + x);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("second", e);
        }
    }
}

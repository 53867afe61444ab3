/*@expect quirk_ctor_throw_before_super
  A constructor that throws before super(...) (a switch expression in the arguments, Java 14+):
  the object was never initialized, so no i() and no o() (Matrix emitted an o() for that athrow
  without any i()). The switch has a try/catch, so javac spills the operand stack (the
  uninitialized this and "checked") to locals around it: an exception handler before super().
  Nested does the same inside `new Holder(...)` in the arguments of super(...), so locals hold
  both the uninitialized this and an uninitialized Holder, whose own <init> comes first; make()
  spills an uninitialized Holder in an ordinary method, inside the range of the catch-all.

thread s:CtorThrowBeforeSuper
i CtorThrowBeforeSuper.run()V
  i CtorThrowBeforeSuper$Base.<init>(Ljava/lang/String;I)V
  o CtorThrowBeforeSuper$Base.<init>(Ljava/lang/String;I)V
  i CtorThrowBeforeSuper$Checked.<init>(I)V
  o CtorThrowBeforeSuper$Checked.<init>(I)V
  i CtorThrowBeforeSuper.twice(I)I
  o CtorThrowBeforeSuper.twice(I)I
  i CtorThrowBeforeSuper$Base.<init>(Ljava/lang/String;I)V
  o CtorThrowBeforeSuper$Base.<init>(Ljava/lang/String;I)V
  i CtorThrowBeforeSuper$Checked.<init>(I)V
  o CtorThrowBeforeSuper$Checked.<init>(I)V
  // new Checked(MAX_VALUE): twice() throws, caught and rethrown inside the switch
  i CtorThrowBeforeSuper.twice(I)I
  o CtorThrowBeforeSuper.twice(I)I
  // new Nested(2)
  i CtorThrowBeforeSuper.twice(I)I
  o CtorThrowBeforeSuper.twice(I)I
  i CtorThrowBeforeSuper$Holder.<init>(Ljava/lang/String;I)V
  o CtorThrowBeforeSuper$Holder.<init>(Ljava/lang/String;I)V
  i CtorThrowBeforeSuper$Base.<init>(Ljava/lang/String;Ljava/lang/Object;)V
    i CtorThrowBeforeSuper$Holder.toString()Ljava/lang/String;
    o CtorThrowBeforeSuper$Holder.toString()Ljava/lang/String;
  o CtorThrowBeforeSuper$Base.<init>(Ljava/lang/String;Ljava/lang/Object;)V
  i CtorThrowBeforeSuper$Nested.<init>(I)V
  o CtorThrowBeforeSuper$Nested.<init>(I)V
  // new Nested(MAX_VALUE): twice() overflows, the switch yields -1
  i CtorThrowBeforeSuper.twice(I)I
  o CtorThrowBeforeSuper.twice(I)I
  i CtorThrowBeforeSuper$Holder.<init>(Ljava/lang/String;I)V
  o CtorThrowBeforeSuper$Holder.<init>(Ljava/lang/String;I)V
  i CtorThrowBeforeSuper$Base.<init>(Ljava/lang/String;Ljava/lang/Object;)V
    i CtorThrowBeforeSuper$Holder.toString()Ljava/lang/String;
    o CtorThrowBeforeSuper$Holder.toString()Ljava/lang/String;
  o CtorThrowBeforeSuper$Base.<init>(Ljava/lang/String;Ljava/lang/Object;)V
  i CtorThrowBeforeSuper$Nested.<init>(I)V
  o CtorThrowBeforeSuper$Nested.<init>(I)V
  // make(3), make(-3)
  i CtorThrowBeforeSuper.make(I)LCtorThrowBeforeSuper$Holder;
    i CtorThrowBeforeSuper.twice(I)I
    o CtorThrowBeforeSuper.twice(I)I
    i CtorThrowBeforeSuper$Holder.<init>(Ljava/lang/String;I)V
    o CtorThrowBeforeSuper$Holder.<init>(Ljava/lang/String;I)V
  o CtorThrowBeforeSuper.make(I)LCtorThrowBeforeSuper$Holder;
  i CtorThrowBeforeSuper$Holder.toString()Ljava/lang/String;
  o CtorThrowBeforeSuper$Holder.toString()Ljava/lang/String;
  i CtorThrowBeforeSuper.make(I)LCtorThrowBeforeSuper$Holder;
  o CtorThrowBeforeSuper.make(I)LCtorThrowBeforeSuper$Holder;
o CtorThrowBeforeSuper.run()V
*/
public class CtorThrowBeforeSuper {
    static int twice(int x) {
        return Math.multiplyExact(x, 2);
    }

    static class Base {
        Base(String tag, int v) {
            Out.p("Base " + tag + " " + v);
        }

        Base(String tag, Object o) {
            Out.p("Base " + tag + " " + o);
        }
    }

    static class Holder {
        final int v;

        Holder(String s, int v) {
            this.v = v;
            Out.p("Holder " + s + " " + v);
        }

        @Override
        public String toString() {
            return "Holder" + v;
        }
    }

    static class Nested extends Base {
        Nested(int x) {
            super("nested", new Holder("h", switch (x) {
                case 0 -> 0;
                default -> {
                    try {
                        yield twice(x);
                    } catch (ArithmeticException e) {
                        yield -1;
                    }
                }
            }));
            Out.p("Nested " + x);
        }
    }

    static Holder make(int x) {
        return new Holder("m", switch (x) {
            case 0 -> 0;
            default -> {
                if (x < 0) {
                    throw new IllegalArgumentException("make " + x);
                }
                try {
                    yield twice(x);
                } catch (ArithmeticException e) {
                    yield -1;
                }
            }
        });
    }

    static class Checked extends Base {
        Checked(int x) {
            super("checked", switch (x) {
                case 0 -> throw new IllegalArgumentException("zero, before super()");
                case 1 -> 1;
                default -> {
                    if (x < 0) {
                        throw new IllegalStateException("negative, before super()");
                    }
                    try {
                        yield twice(x);
                    } catch (ArithmeticException e) {
                        throw new IllegalStateException("overflow, before super()", e);
                    }
                }
            });
            Out.p("Checked " + x);
        }
    }

    public static void run() {
        new Checked(1);
        for (int x : new int[] {0, -1}) {
            try {
                new Checked(x);
            } catch (RuntimeException e) {
                Out.p("new Checked(" + x + ") threw " + e.getMessage());
            }
        }
        new Checked(3);
        try {
            new Checked(Integer.MAX_VALUE);
        } catch (IllegalStateException e) {
            Out.p("new Checked(MAX_VALUE) threw " + e.getMessage());
        }
        new Nested(2);
        new Nested(Integer.MAX_VALUE);
        Out.p("make(3) = " + make(3));
        try {
            make(-3);
        } catch (IllegalArgumentException e) {
            Out.p("make(-3) threw " + e.getMessage());
        }
    }
}

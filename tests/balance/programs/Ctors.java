/*@expect quirk_i_after_super
  Constructors: i() comes right after this(...)/super(...) has initialized the object, so
  everything computed for the arguments (conditionals, calls, `new` of other objects, even of
  the super class or the class itself) happens before it, and the super/this constructor's own events come
  before it too. If the super call throws, the constructor has no i and no o; if its body
  throws after the super call, i and o.

thread s:Ctors
i Ctors.run()V
  // new Sub(1)
  i Ctors$Part.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Part.<init>(I)V
  i Ctors.calc(I)I
  o Ctors.calc(I)I
  i Ctors$Base.<init>(Ljava/lang/Object;I)V
    i Ctors$Part.toString()Ljava/lang/String;
    o Ctors$Part.toString()Ljava/lang/String;
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Base.<init>(Ljava/lang/Object;I)V
  i Ctors$Sub.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Sub.<init>(I)V

  // new Sub(-1)
  i Ctors.make(I)Ljava/lang/Object;
  o Ctors.make(I)Ljava/lang/Object;
  i Ctors.calc(I)I
  o Ctors.calc(I)I
  i Ctors$Base.<init>(Ljava/lang/Object;I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Base.<init>(Ljava/lang/Object;I)V
  i Ctors$Sub.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Sub.<init>(I)V

  // new Sub(): this(pick())
  i Ctors.pick()I
  o Ctors.pick()I
  i Ctors$Part.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Part.<init>(I)V
  i Ctors.calc(I)I
  o Ctors.calc(I)I
  i Ctors$Base.<init>(Ljava/lang/Object;I)V
    i Ctors$Part.toString()Ljava/lang/String;
    o Ctors$Part.toString()Ljava/lang/String;
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Base.<init>(Ljava/lang/Object;I)V
  i Ctors$Sub.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Sub.<init>(I)V
  i Ctors$Sub.<init>()V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Sub.<init>()V

  // new Sub(-9): make() throws before super()
  i Ctors.make(I)Ljava/lang/Object;
  o Ctors.make(I)Ljava/lang/Object;

  // new Sub(6): Base throws, Sub has neither i nor o
  i Ctors$Part.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Part.<init>(I)V
  i Ctors$Base.<init>(Ljava/lang/Object;I)V
    i Ctors$Part.toString()Ljava/lang/String;
    o Ctors$Part.toString()Ljava/lang/String;
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Base.<init>(Ljava/lang/Object;I)V

  // new Sub(4): Sub throws after super()
  i Ctors$Part.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Part.<init>(I)V
  i Ctors.calc(I)I
  o Ctors.calc(I)I
  i Ctors$Base.<init>(Ljava/lang/Object;I)V
    i Ctors$Part.toString()Ljava/lang/String;
    o Ctors$Part.toString()Ljava/lang/String;
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Base.<init>(Ljava/lang/Object;I)V
  i Ctors$Sub.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Sub.<init>(I)V

  // new Wrap(): new Base(...) in the arguments of super(...)
  i Ctors$Base.<init>(Ljava/lang/Object;I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Base.<init>(Ljava/lang/Object;I)V
  i Ctors$Base.<init>(Ljava/lang/Object;I)V
    i Ctors$Base.toString()Ljava/lang/String;
    o Ctors$Base.toString()Ljava/lang/String;
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Base.<init>(Ljava/lang/Object;I)V
  i Ctors$Wrap.<init>()V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Wrap.<init>()V

  // new Guarded(0), new Guarded(5)
  i Ctors$Guarded.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Guarded.<init>(I)V
  i Ctors$Guarded.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Guarded.<init>(I)V

  // new Chain(1): new Chain(0) in the arguments of Chain(1)'s super(...)
  i Ctors$Base.<init>(Ljava/lang/Object;I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Base.<init>(Ljava/lang/Object;I)V
  i Ctors$Chain.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Chain.<init>(I)V
  i Ctors$Base.<init>(Ljava/lang/Object;I)V
    i Ctors$Base.toString()Ljava/lang/String;
    o Ctors$Base.toString()Ljava/lang/String;
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Base.<init>(Ljava/lang/Object;I)V
  i Ctors$Chain.<init>(I)V
    i Ctors.note(Ljava/lang/String;)V
    o Ctors.note(Ljava/lang/String;)V
  o Ctors$Chain.<init>(I)V
o Ctors.run()V
*/
public class Ctors {
    static void note(String s) {
        Out.p("note " + s);
    }

    static int calc(int x) {
        return Math.multiplyExact(x, 3);
    }

    static Object make(int x) {
        if (x < -5) {
            throw new IllegalArgumentException("make " + x);
        }
        return Integer.valueOf(x);
    }

    static int pick() {
        return Math.abs(-2);
    }

    static class Part {
        final int x;

        Part(int x) {
            this.x = x;
            note("Part " + x);
        }

        @Override
        public String toString() {
            return "Part" + x;
        }
    }

    static class Base {
        final int v;

        Base(Object o, int v) {
            this.v = v;
            note("Base " + o + " " + v);
            if (v == 42) {
                throw new IllegalStateException("Base refuses 42");
            }
        }

        @Override
        public String toString() {
            return "Base" + v;
        }
    }

    static class Sub extends Base {
        Sub(int x) {
            super(x > 0 ? new Part(x) : make(x), x < 5 ? calc(x) : 42);
            note("Sub(" + x + ") v=" + v);
            if (x == 4) {
                throw new IllegalArgumentException("Sub refuses 4");
            }
        }

        Sub() {
            this(pick());
            note("Sub() v=" + v);
        }
    }

    /** `new` of the super class itself in the arguments of super(...) */
    static class Wrap extends Base {
        final Base inner;

        Wrap() {
            super(new Base("inner", 7), 8);
            inner = null;
            note("Wrap");
        }
    }

    /** `new` of the class itself in the arguments of its own super(...): that <init> is not
     *  the super call */
    static class Chain extends Base {
        Chain(int n) {
            super(n > 0 ? new Chain(n - 1) : null, n);
            note("Chain " + n);
        }
    }

    /** a try/catch in the constructor body, after super() */
    static class Guarded {
        int state;

        Guarded(int x) {
            try {
                state = 100 / x;
            } catch (ArithmeticException e) {
                state = -1;
            }
            note("Guarded state " + state);
        }
    }

    public static void run() {
        Out.p("new Sub(1).v = " + new Sub(1).v);
        Out.p("new Sub(-1).v = " + new Sub(-1).v);
        Out.p("new Sub().v = " + new Sub().v);
        try {
            new Sub(-9);    // make() throws while the arguments are computed
        } catch (IllegalArgumentException e) {
            Out.p("new Sub(-9) threw " + e.getMessage());
        }
        try {
            new Sub(-2 + 8);    // x >= 5: Base gets 42 and throws
        } catch (IllegalStateException e) {
            Out.p("new Sub(6) threw " + e.getMessage());
        }
        try {
            new Sub(4);         // Sub's body throws after super()
        } catch (IllegalArgumentException e) {
            Out.p("new Sub(4) threw " + e.getMessage());
        }
        Out.p("new Wrap().v = " + new Wrap().v);
        Out.p("Guarded(0) = " + new Guarded(0).state + ", Guarded(5) = " + new Guarded(5).state);
        Out.p("new Chain(1).v = " + new Chain(1).v);
    }
}

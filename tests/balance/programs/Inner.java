/*@expect inner_local_anonymous
  Inner (non-static) classes, whose constructors store this$0 before calling super(), local
  classes and anonymous classes capturing variables (val$ fields, also stored before super()),
  one with an instance initializer. With --release 8 javac reaches the outer class's private
  method through a synthetic accessor access$000 (traced: it makes a call); with nest-mates
  (--release 11 and later) the call is direct. The local class's constructor takes the captured
  variables (label, outer) after its own parameter.

thread s:Inner
i Inner.run()V
  i Inner$In.<init>(LInner;I)V
    i Inner.twice(I)I
    o Inner.twice(I)I
  o Inner$In.<init>(LInner;I)V
  i Inner$In.get()I
[8] i Inner.access$000(I)I
    i Inner.secret(I)I
    o Inner.secret(I)I
[8] o Inner.access$000(I)I
  o Inner$In.get()I
  i Inner$1Local.<init>(Ljava/lang/String;Ljava/lang/String;LInner;)V
    i Inner.note(Ljava/lang/String;)V
    o Inner.note(Ljava/lang/String;)V
  o Inner$1Local.<init>(Ljava/lang/String;Ljava/lang/String;LInner;)V
  i Inner$1Local.show()V
    i Inner.note(Ljava/lang/String;)V
    o Inner.note(Ljava/lang/String;)V
  o Inner$1Local.show()V
  i Inner$1.run()V
    i Inner.note(Ljava/lang/String;)V
    o Inner.note(Ljava/lang/String;)V
  o Inner$1.run()V
  i Inner$Init.make()Ljava/util/function/IntUnaryOperator;
    i Inner$Init$1.<init>(LInner$Init;)V
      i Inner.note(Ljava/lang/String;)V
      o Inner.note(Ljava/lang/String;)V
    o Inner$Init$1.<init>(LInner$Init;)V
  o Inner$Init.make()Ljava/util/function/IntUnaryOperator;
  i Inner$Init$1.applyAsInt(I)I
    i Inner.twice(I)I
    o Inner.twice(I)I
  o Inner$Init$1.applyAsInt(I)I
  i Inner$Nested$Deeper.<init>(LInner$Nested;)V
    i Inner.note(Ljava/lang/String;)V
    o Inner.note(Ljava/lang/String;)V
  o Inner$Nested$Deeper.<init>(LInner$Nested;)V
o Inner.run()V
*/
import java.util.function.IntUnaryOperator;

public class Inner {
    int base = 5;

    static void note(String s) {
        Out.p("note " + s);
    }

    static int twice(int x) {
        return Math.multiplyExact(x, 2);
    }

    private static int secret(int x) {
        return Math.abs(x) + 1;
    }

    class In {
        final int k;

        In(int k) {
            this.k = k + twice(base);
        }

        int get() {
            return secret(k);
        }
    }

    static class Nested {
        final String tag = "nested";

        class Deeper {
            Deeper() {
                note("Deeper in " + tag);
            }
        }
    }

    public static void run() {
        Inner outer = new Inner();
        In in = outer.new In(2);
        Out.p("in.get() = " + in.get());

        String label = "local";
        class Local {
            final String name;

            Local(String name) {
                this.name = name;
                note("Local(" + name + ") in " + label + " base " + outer.base);
            }

            void show() {
                note("show " + name);
            }
        }
        new Local("x").show();

        int captured = 7;
        Runnable anon = new Runnable() {
            @Override
            public void run() {
                note("anon sees " + captured);
            }
        };
        anon.run();

        IntUnaryOperator op = outer.new Init(3).make();
        Out.p("op(4) = " + op.applyAsInt(4));

        Nested n = new Nested();
        n.new Deeper();
    }

    class Init {
        final int add;

        Init(int add) {
            this.add = add;
        }

        IntUnaryOperator make() {
            return new IntUnaryOperator() {
                final int bias;

                {
                    bias = add + base;
                    note("anon init bias " + bias);
                }

                @Override
                public int applyAsInt(int x) {
                    return twice(x) + bias;
                }
            };
        }
    }
}

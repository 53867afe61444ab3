/*@expect lambdas_and_method_refs
  Lambda bodies are synthetic methods of the class (lambda$run$N, traced when they call
  something); method references call their target directly (no synthetic method); the
  invokedynamic machinery in between is the JDK's and records nothing. A lambda that throws
  leaves by o() once.

thread s:Lambdas
i Lambdas.run()V
  i Lambdas.lambda$run$0()V
    i Lambdas.work(Ljava/lang/String;)V
    o Lambdas.work(Ljava/lang/String;)V
  o Lambdas.lambda$run$0()V
  i Lambdas.twice(I)I
  o Lambdas.twice(I)I
  i Lambdas.<init>()V
    i Lambdas.work(Ljava/lang/String;)V
    o Lambdas.work(Ljava/lang/String;)V
  o Lambdas.<init>()V
  i Lambdas.scaled(I)I
  o Lambdas.scaled(I)I
  i Lambdas.lambda$run$1(Ljava/lang/Integer;)V
    i Lambdas.sink(I)V
    o Lambdas.sink(I)V
  o Lambdas.lambda$run$1(Ljava/lang/Integer;)V
  i Lambdas.lambda$run$1(Ljava/lang/Integer;)V
    i Lambdas.sink(I)V
    o Lambdas.sink(I)V
  o Lambdas.lambda$run$1(Ljava/lang/Integer;)V
  i Lambdas.lambda$run$2(ILjava/lang/Integer;)Ljava/lang/Integer;
  o Lambdas.lambda$run$2(ILjava/lang/Integer;)Ljava/lang/Integer;
  i Lambdas.lambda$run$3()V
  o Lambdas.lambda$run$3()V
  // javac numbers a nested lambda before the lambda enclosing it
  i Lambdas.lambda$run$5(Ljava/lang/String;)Ljava/util/function/IntSupplier;
  o Lambdas.lambda$run$5(Ljava/lang/String;)Ljava/util/function/IntSupplier;
  i Lambdas.lambda$run$4(Ljava/lang/String;)I
    i Lambdas.sink(I)V
    o Lambdas.sink(I)V
  o Lambdas.lambda$run$4(Ljava/lang/String;)I
o Lambdas.run()V
*/
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

public class Lambdas {
    final int factor;

    Lambdas() {
        factor = 3;
        work("ctor");
    }

    public static void run() {
        Runnable r = () -> work("lambda");
        r.run();
        IntUnaryOperator f = Lambdas::twice;
        Out.p("twice(4) = " + f.applyAsInt(4));
        Supplier<Lambdas> make = Lambdas::new;
        Lambdas l = make.get();
        IntUnaryOperator g = l::scaled;
        Out.p("scaled(5) = " + g.applyAsInt(5));
        List<Integer> list = Arrays.asList(1, 2);
        list.forEach(x -> sink(x));
        int base = 10;
        Function<Integer, Integer> add = x -> Integer.valueOf(x + base);
        Out.p("add(5) = " + add.apply(5));
        try {
            Runnable bad = () -> {
                throw new IllegalStateException("thrown in a lambda");
            };
            bad.run();
        } catch (IllegalStateException e) {
            Out.p("caught " + e.getMessage());
        }
        Function<String, IntSupplier> curried = s -> () -> {
            sink(s.length());
            return s.length();
        };
        Out.p("curried = " + curried.apply("four").getAsInt());
    }

    static void work(String s) {
        Out.p("work " + s);
    }

    static void sink(int x) {
        Out.p("sink " + x);
    }

    static int twice(int x) {
        return Math.multiplyExact(x, 2);
    }

    int scaled(int x) {
        return Math.multiplyExact(x, factor);
    }
}

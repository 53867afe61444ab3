package tcj;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** Lambdas (capturing and not), method references of every kind, default and static
 * interface methods, streams. */
public class Lambdas {
    private int base = 3;

    interface Shape {
        double area();

        default String describe() {
            return "area " + area();
        }

        static Shape square(double s) {
            return () -> s * s;
        }
    }

    IntBinaryOperator adder() {
        return (a, b) -> a + b + base;
    }

    static List<String> sorted(List<String> in) {
        List<String> out = new ArrayList<>(in);
        out.sort(Comparator.comparing(String::length).thenComparing(Function.identity()));
        return out;
    }

    static String joined(String... words) {
        return Arrays.stream(words).filter(w -> !w.isEmpty()).map(String::toUpperCase)
                .collect(Collectors.joining(","));
    }

    static <T> Supplier<List<T>> factory() {
        return ArrayList::new;
    }

    static int[] arrays(int n) {
        Function<Integer, int[]> make = int[]::new;
        return make.apply(n);
    }

    Optional<String> nested(Optional<String> s) {
        BiFunction<String, Integer, String> rep = (x, k) -> {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < k + base; i++) {
                b.append(x);
            }
            return b.toString();
        };
        return s.map(x -> rep.apply(x, 2)).filter(x -> x.length() > base);
    }
}

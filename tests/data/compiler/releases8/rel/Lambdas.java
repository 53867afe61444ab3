package rel;

import java.util.function.IntSupplier;
import java.util.function.Supplier;

/* Compiled with --release 8..17 beside Hello: lambdas, method references, defaults. */
public class Lambdas implements Greeter {
    public IntSupplier counter(int start) {
        int[] box = {start};
        return () -> box[0]++;
    }

    public Supplier<String> ref() {
        return this::toString;
    }

    public static void main(String[] args) {
        System.out.println(new Lambdas().counter(1).getAsInt() + new Lambdas().hello());
    }
}

interface Greeter {
    default String hello() {
        return "hello " + getClass().getName();
    }
}

package tcj;

import java.util.List;
import java.util.function.BiFunction;

/** Java 9-11: var (also in lambda parameters), private interface methods, nestmates
 * (private access between nested classes without accessors), indy string concat. */
public class Modern {
    private int hidden = 7;

    interface Greeter {
        private String prefix() {
            return "hello ";
        }

        default String greet(String who) {
            return prefix() + who;
        }
    }

    class Peer {
        int steal() {
            return hidden++;
        }
    }

    static String concat(String a, int b, long c, char d, Object e) {
        return a + b + c + d + e + "!";
    }

    static int vars(List<String> in) {
        var total = 0;
        BiFunction<Integer, String, Integer> f = (var acc, var s) -> acc + s.length();
        for (var s : in) {
            total = f.apply(total, s);
        }
        return total;
    }

    int peer() {
        return new Peer().steal();
    }
}

package x.yz;

import x.y.Beat;

/* x.yz is not inside x.y: traced. Prints what Beat recorded while main still runs. */
public class App {
    public static void main(String[] args) {
        run();
        System.out.println(Beat.events());
    }

    static void run() {
        try {
            fail();
        } catch (IllegalStateException e) {
            System.out.print("");
        }
    }

    static void fail() {
        throw new IllegalStateException(String.valueOf(System.nanoTime()));
    }
}

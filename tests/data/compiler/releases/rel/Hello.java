package rel;

import java.util.ArrayList;
import java.util.List;

/* Compiled with every --release javac 17 accepts (7..17): Java 7 source only. */
public class Hello {
    private final List<String> seen = new ArrayList<String>();
    private int n;

    public Hello(int n) {
        super();
        this.n = n;
    }

    public int getN() {
        return n;
    }

    public String greet(String who) {
        seen.add(who);
        switch (who) {
        case "world":
            return "hello, " + who;
        case "":
            throw new IllegalArgumentException("nobody");
        default:
            return "hi " + who + " #" + seen.size();
        }
    }

    public int parse(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        } finally {
            n++;
        }
    }

    public long loop(long k) {
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += Long.rotateLeft(k, i);
        }
        return t;
    }

    public synchronized void locked() {
        seen.clear();
    }

    static class Nested {
        int v;

        void bump() {
            v = Math.max(v, 1) + 1;
        }
    }

    class Inner {
        String last() {
            return seen.isEmpty() ? null : seen.get(seen.size() - 1);
        }
    }

    public static void main(String[] args) {
        Hello h = new Hello(3);
        System.out.println(h.greet("world") + h.parse("12") + h.loop(5));
    }
}

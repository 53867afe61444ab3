package tcj;

import java.util.Comparator;
import java.util.Iterator;

/** Inner, static nested, anonymous and local classes; access to private members. */
public class Inner {
    private int secret = 42;
    private static String hidden = "h";

    class Member {
        int peek() {
            return secret++;
        }
    }

    static class Nested {
        String get() {
            return hidden;
        }
    }

    Comparator<String> byLength() {
        return new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                return Integer.compare(a.length() + secret, b.length());
            }
        };
    }

    Iterator<Integer> count(final int to) {
        class Counter implements Iterator<Integer> {
            int i;

            public boolean hasNext() {
                return i < to;
            }

            public Integer next() {
                return i++;
            }

            public void remove() {
                throw new UnsupportedOperationException();
            }
        }
        return new Counter();
    }

    int viaMember() {
        Member m = new Member();
        return m.peek() + new Nested().get().length();
    }
}

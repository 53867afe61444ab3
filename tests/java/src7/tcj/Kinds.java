package tcj;

/** An enum with bodies, an interface with constants, an abstract class, statics. */
public enum Kinds {
    PLUS {
        int apply(int a, int b) {
            return a + b;
        }
    },
    TIMES {
        int apply(int a, int b) {
            return a * b;
        }
    };

    static final Kinds[] ALL;
    static int uses;

    static {
        ALL = values();
        for (Kinds k : ALL) {
            uses += k.ordinal();
        }
    }

    abstract int apply(int a, int b);

    static int fold(int[] xs, Kinds k) {
        int r = k == PLUS ? 0 : 1;
        for (int x : xs) {
            r = k.apply(r, x);
        }
        return r;
    }

    interface Consts {
        int ONE = 1;
        String NAME = "consts";
    }

    abstract static class Shape {
        abstract double area();

        public String toString() {
            return getClass().getSimpleName() + area();
        }
    }
}

/*@expect multiple_returns
  Methods returning from several places, with every return type (int, long, float, double,
  reference, void), returns inside nested blocks, loops and a try; and methods the filters
  leave alone (no call: not traced, even when called from traced code).

thread s:MultiReturn
i MultiReturn.run()V
  i MultiReturn.classify(I)Ljava/lang/String;
    i MultiReturn.neg(I)Ljava/lang/String;
    o MultiReturn.neg(I)Ljava/lang/String;
  o MultiReturn.classify(I)Ljava/lang/String;
  i MultiReturn.classify(I)Ljava/lang/String;
  o MultiReturn.classify(I)Ljava/lang/String;
  i MultiReturn.classify(I)Ljava/lang/String;
    i MultiReturn.composite(II)Ljava/lang/String;
    o MultiReturn.composite(II)Ljava/lang/String;
  o MultiReturn.classify(I)Ljava/lang/String;
  i MultiReturn.classify(I)Ljava/lang/String;
    i MultiReturn.prime(I)Ljava/lang/String;
    o MultiReturn.prime(I)Ljava/lang/String;
  o MultiReturn.classify(I)Ljava/lang/String;
  i MultiReturn.longs(J)J
  o MultiReturn.longs(J)J
  i MultiReturn.longs(J)J
  o MultiReturn.longs(J)J
  i MultiReturn.floats(FI)F
  o MultiReturn.floats(FI)F
  i MultiReturn.floats(FI)F
  o MultiReturn.floats(FI)F
  i MultiReturn.doubles(DJ)D
  o MultiReturn.doubles(DJ)D
  i MultiReturn.doubles(DJ)D
  o MultiReturn.doubles(DJ)D
  i MultiReturn.early(I)V
  o MultiReturn.early(I)V
  i MultiReturn.early(I)V
  o MultiReturn.early(I)V
  i MultiReturn.inTry(I)I
  o MultiReturn.inTry(I)I
  i MultiReturn.inTry(I)I
  o MultiReturn.inTry(I)I
  // overloads: one name, three descriptors, three ids
  i MultiReturn.over(I)Ljava/lang/String;
  o MultiReturn.over(I)Ljava/lang/String;
  i MultiReturn.over(J)Ljava/lang/String;
  o MultiReturn.over(J)Ljava/lang/String;
  i MultiReturn.over(Ljava/lang/String;)Ljava/lang/String;
    i MultiReturn.over(I)Ljava/lang/String;
    o MultiReturn.over(I)Ljava/lang/String;
  o MultiReturn.over(Ljava/lang/String;)Ljava/lang/String;
o MultiReturn.run()V
*/
public class MultiReturn {
    int field;

    public static void run() {
        for (int x : new int[] {-4, 0, 9, 7}) {
            Out.p("classify(" + x + ") = " + classify(x));
        }
        Out.p("longs = " + longs(3L) + " " + longs(-3L));
        Out.p("floats = " + floats(1.5f, 0) + " " + floats(1.5f, 2));
        Out.p("doubles = " + doubles(2.5, 1L) + " " + doubles(-1.0, 1L));
        early(0);
        early(5);
        Out.p("inTry = " + inTry(0) + " " + inTry(4));
        MultiReturn m = new MultiReturn();
        m.setField(3);
        Out.p("leaf = " + leaf(3) + ", field = " + m.getField() + ", empty:");
        empty();
        Out.p(over(1) + " " + over(2L) + " " + over("x"));
    }

    static String over(int x) {
        return "int ".concat(Integer.toString(x));
    }

    static String over(long x) {
        return "long ".concat(Long.toString(x));
    }

    static String over(String s) {
        return over(s.length()).concat(" via String");
    }

    static String neg(int x) {
        return "negative ".concat(Integer.toString(x));
    }

    static String composite(int x, int d) {
        return x + " = " + d + " * " + (x / d);
    }

    static String prime(int x) {
        return String.valueOf(x).concat(" is prime");
    }

    static String classify(int x) {
        if (x < 0) {
            return neg(x);
        }
        if (x == 0) {
            return "zero";
        }
        for (int d = 2; d < x; d++) {
            if (x % d == 0) {
                return composite(x, d);
            }
        }
        return prime(x);
    }

    static long longs(long v) {
        if (v < 0) {
            return Math.negateExact(v);
        }
        return Math.multiplyExact(v, 1000L);
    }

    static float floats(float f, int n) {
        if (n == 0) {
            return Math.abs(f);
        }
        return Math.scalb(f, n);
    }

    static double doubles(double d, long bits) {
        if (d < 0) {
            return Math.sqrt(-d);
        }
        return Math.pow(d, bits);
    }

    static void early(int x) {
        if (x == 0) {
            return;
        }
        Out.p("early " + x);
    }

    static int inTry(int x) {
        try {
            if (x == 0) {
                return Integer.signum(x);
            }
            return Integer.numberOfTrailingZeros(x);
        } finally {
            x++;
        }
    }

    // not traced: no call, a plain setter and getter, nothing at all
    static int leaf(int x) {
        int s = 0;
        for (int k = 0; k < x; k++) {
            s += k * k;
        }
        return s;
    }

    void setField(int v) {
        field = v;
    }

    int getField() {
        return field;
    }

    static void empty() {
    }
}

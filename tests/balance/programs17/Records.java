/*@expect records
  Records: a compact canonical constructor (validation; traced, i after Record's constructor,
  o also when it throws), an explicit canonical constructor, a non-canonical one delegating with
  this(...), and the generated toString/equals/hashCode (invokedynamic ObjectMethods: traced).
  Accessors are plain getters (not traced).

thread s:Records
i Records.run()V
  i Records$Point.<init>(II)V
    i Records.note(Ljava/lang/String;)V
    o Records.note(Ljava/lang/String;)V
  o Records$Point.<init>(II)V
  i Records$Point.sum()I
  o Records$Point.sum()I
  i Records$Point.toString()Ljava/lang/String;
  o Records$Point.toString()Ljava/lang/String;
  i Records$Point.<init>(II)V
  o Records$Point.<init>(II)V
  i Records.check(I)I
  o Records.check(I)I
  i Records$Point.<init>(II)V
    i Records.note(Ljava/lang/String;)V
    o Records.note(Ljava/lang/String;)V
  o Records$Point.<init>(II)V
  i Records$Point.<init>(I)V
  o Records$Point.<init>(I)V
  i Records$Point.equals(Ljava/lang/Object;)Z
  o Records$Point.equals(Ljava/lang/Object;)Z
  i Records$Point.hashCode()I
  o Records$Point.hashCode()I
  i Records$Point.<init>(II)V
    i Records.note(Ljava/lang/String;)V
    o Records.note(Ljava/lang/String;)V
  o Records$Point.<init>(II)V
  i Records$Point.hashCode()I
  o Records$Point.hashCode()I
  i Records$Range.<init>(II)V
    i Records.note(Ljava/lang/String;)V
    o Records.note(Ljava/lang/String;)V
  o Records$Range.<init>(II)V
  i Records$Range.toString()Ljava/lang/String;
  o Records$Range.toString()Ljava/lang/String;
  // wide components (long, double) around the int
  i Records$Money.<init>(JID)V
  o Records$Money.<init>(JID)V
  i Records$Money.scaled()D
  o Records$Money.scaled()D
  i Records$Money.<init>(JID)V
  o Records$Money.<init>(JID)V
o Records.run()V
*/
public class Records {
    static void note(String s) {
        Out.p("note " + s);
    }

    static int check(int v) {
        return Math.max(v, 0);
    }

    record Point(int x, int y) {
        Point {
            if (x < 0) {
                throw new IllegalArgumentException("x < 0: " + x);
            }
            note("Point " + x + "," + y);
        }

        Point(int both) {
            this(both, check(both));
        }

        int sum() {
            return Math.addExact(x, y);
        }
    }

    record Range(int lo, int hi) {
        Range(int lo, int hi) {
            if (lo > hi) {
                int t = lo;
                lo = hi;
                hi = t;
            }
            this.lo = lo;
            this.hi = hi;
            note("Range " + lo + ".." + hi);
        }
    }

    record Money(long cents, int scale, double rate) {
        Money {
            if (Double.isNaN(rate)) {
                throw new IllegalArgumentException("rate is NaN");
            }
        }

        double scaled() {
            return Math.scalb(cents * rate, scale);
        }
    }

    public static void run() {
        Point p = new Point(1, 2);
        Out.p("sum = " + p.sum() + ", x = " + p.x());
        Out.p("p = " + p.toString());
        try {
            new Point(-1, 0);
        } catch (IllegalArgumentException e) {
            Out.p("new Point(-1, 0) threw " + e.getMessage());
        }
        Point q = new Point(3);
        Out.p("equals = " + p.equals(q) + ", hash equal = " + (q.hashCode() == new Point(3, 3).hashCode()));
        Range r = new Range(9, 4);
        Out.p("r = " + r.toString());
        Out.p("scaled = " + new Money(250L, 2, 1.5).scaled());
        try {
            new Money(1L, 0, Double.NaN);
        } catch (IllegalArgumentException e) {
            Out.p("new Money(NaN) threw " + e.getMessage());
        }
    }
}

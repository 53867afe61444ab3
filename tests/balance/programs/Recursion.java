/*@expect recursion
  Direct and mutual recursion, and a recursion that throws at the bottom and is caught at the
  top: each activation leaves by exactly one o() (the oracle also checks that it comes from the
  same activation, at the same stack depth).

thread s:Recursion
i Recursion.run()V
  i Recursion.fact(I)J
    i Recursion.fact(I)J
      i Recursion.fact(I)J
        i Recursion.fact(I)J
        o Recursion.fact(I)J
      o Recursion.fact(I)J
    o Recursion.fact(I)J
  o Recursion.fact(I)J
  i Recursion.isEven(I)Z
    i Recursion.isOdd(I)Z
      i Recursion.isEven(I)Z
        i Recursion.isOdd(I)Z
        o Recursion.isOdd(I)Z
      o Recursion.isEven(I)Z
    o Recursion.isOdd(I)Z
  o Recursion.isEven(I)Z
  i Recursion.dive(I)I
    i Recursion.dive(I)I
      i Recursion.dive(I)I
      o Recursion.dive(I)I
    o Recursion.dive(I)I
  o Recursion.dive(I)I
  i Recursion.catchMiddle(I)I
    i Recursion.catchMiddle(I)I
      i Recursion.catchMiddle(I)I
        i Recursion.dive(I)I
          i Recursion.dive(I)I
          o Recursion.dive(I)I
        o Recursion.dive(I)I
      o Recursion.catchMiddle(I)I
    o Recursion.catchMiddle(I)I
  o Recursion.catchMiddle(I)I
o Recursion.run()V
*/
public class Recursion {
    public static void run() {
        Out.p("fact(3) = " + fact(3));
        Out.p("isEven(3) = " + isEven(3));
        try {
            dive(2);
        } catch (IllegalStateException e) {
            Out.p("dive threw " + e.getMessage());
        }
        Out.p("catchMiddle(2) = " + catchMiddle(2));
    }

    static long fact(int n) {
        if (n <= 0) {
            return 1;
        }
        return Math.multiplyExact(n, fact(n - 1));
    }

    static boolean isEven(int n) {
        return n == 0 || isOdd(n - 1);
    }

    static boolean isOdd(int n) {
        return n != 0 && isEven(n - 1);
    }

    static int dive(int n) {
        if (n == 0) {
            throw new IllegalStateException("bottom");
        }
        return dive(n - 1) + 1;
    }

    /** recurses twice, then calls dive(1), which throws; the innermost activation catches */
    static int catchMiddle(int n) {
        if (n > 0) {
            return catchMiddle(n - 1) * 10;
        }
        try {
            return dive(1);
        } catch (IllegalStateException e) {
            return -1;
        }
    }
}

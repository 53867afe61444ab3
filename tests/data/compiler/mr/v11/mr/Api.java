package mr;

/* META-INF/versions/11 of the multi-release jar (--release 11): same methods, other
 * bodies, and one method the base version lacks. */
public class Api {
    public String version() {
        return "11 " + Runtime.version().feature();
    }

    public int work(int n) {
        return Math.floorMod(n, 7) + Integer.bitCount(n);
    }

    public String only11() {
        return "x".repeat(3);
    }
}

package mr;

/* Base version of a multi-release jar (--release 8). */
public class Api {
    public String version() {
        return "base " + System.getProperty("java.version");
    }

    public int work(int n) {
        return Integer.bitCount(n) + Math.abs(n);
    }
}

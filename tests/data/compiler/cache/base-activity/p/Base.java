package p;
public class Base extends android.app.Activity {
    protected int n;
    public void onCreate() { n = helper(n) + 1; System.out.println("create " + n); }
    static int helper(int x) { return Math.abs(x) * 2; }
}

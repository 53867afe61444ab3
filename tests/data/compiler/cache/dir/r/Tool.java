package r;
public class Tool {
    public static String run(String s) { return s.toUpperCase() + s.length(); }
    public int get() { return 1; }
}

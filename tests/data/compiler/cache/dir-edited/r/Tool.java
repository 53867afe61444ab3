package r;
public class Tool {
    public static String run(String s) { return s.toLowerCase() + s.hashCode(); }
    public int get() { return 1; }
}

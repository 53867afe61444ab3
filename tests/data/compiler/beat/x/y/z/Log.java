package x.y.z;

public final class Log {
    private Log() {
    }

    public static void add(StringBuilder sb, String event) {
        sb.append(event).append(' ');
    }
}

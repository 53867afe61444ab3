package s;
public record Point(int x, int y) { public Point { if (x < 0) throw new IllegalArgumentException(); } }

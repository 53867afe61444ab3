package s;
import java.util.*;
import java.util.function.*;
public class Seed {
  private final List<String> items = new ArrayList<>();
  private int count;
  public Seed() { super(); }
  public Seed(int n) { this(); count = n; }
  public int getCount() { return count; }
  public void setCount(int c) { count = c; }
  public synchronized void add(String s) { items.add(s); count++; }
  public int sum(int[] xs) { int t = 0; for (int x : xs) t += x; return t; }
  public String sw(int k) {
    switch (k) { case 1: return "a"; case 2: return "b"; case 100: return "c"; default: return String.valueOf(k); }
  }
  public int tryIt(String s) {
    try { return Integer.parseInt(s); } catch (NumberFormatException e) { return -1; } finally { count++; }
  }
  public Runnable lam() { return () -> System.out.println(items); }
  public long wide(long a, double b) { long x = a; for (int i = 0; i < 3; i++) x += (long) b; return x; }
  static void thrower() { throw new IllegalStateException("x"); }
  class Inner { int get() { return count; } void go() { add("x"); } }
}

package s;
public class More { public static void go() { System.out.println(r.Tool.run("x")); } }

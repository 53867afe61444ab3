package q;
public class Screen extends p.Base {
    public void show(String s) { onCreate(); System.out.println(s.trim()); }
    public static void main(String[] a) { new Screen().show(" hi "); }
}

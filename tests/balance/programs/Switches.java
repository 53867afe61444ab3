/*@expect switches
  tableswitch and lookupswitch (with returns in the cases: code inserted before them moves the
  switch's padding), a string switch, and an enum switch: javac's switch map class Switches$1
  has a traced static initializer that calls Color.values() (traced: it clones the array).
  Color's static initializer (traced: it constructs the constants; the enum constructor itself
  is trivial) runs earlier, when run() reads Color.RED to pass it.

thread s:Switches
i Switches.run()V
  i Switches.table(I)Ljava/lang/String;
    i Switches.name(Ljava/lang/String;I)Ljava/lang/String;
    o Switches.name(Ljava/lang/String;I)Ljava/lang/String;
  o Switches.table(I)Ljava/lang/String;
  i Switches.table(I)Ljava/lang/String;
    i Switches.name(Ljava/lang/String;I)Ljava/lang/String;
    o Switches.name(Ljava/lang/String;I)Ljava/lang/String;
  o Switches.table(I)Ljava/lang/String;
  i Switches.table(I)Ljava/lang/String;
  o Switches.table(I)Ljava/lang/String;
  i Switches.table(I)Ljava/lang/String;
    i Switches.name(Ljava/lang/String;I)Ljava/lang/String;
    o Switches.name(Ljava/lang/String;I)Ljava/lang/String;
  o Switches.table(I)Ljava/lang/String;
  i Switches.lookup(I)I
    i Switches.weight(I)I
    o Switches.weight(I)I
  o Switches.lookup(I)I
  i Switches.lookup(I)I
  o Switches.lookup(I)I
  i Switches.lookup(I)I
    i Switches.weight(I)I
    o Switches.weight(I)I
  o Switches.lookup(I)I
  i Switches.lookup(I)I
  o Switches.lookup(I)I
  i Switches.strings(Ljava/lang/String;)I
  o Switches.strings(Ljava/lang/String;)I
  i Switches.strings(Ljava/lang/String;)I
    i Switches.weight(I)I
    o Switches.weight(I)I
  o Switches.strings(Ljava/lang/String;)I
  i Switches.strings(Ljava/lang/String;)I
  o Switches.strings(Ljava/lang/String;)I
  i Switches$Color.<clinit>()V
  o Switches$Color.<clinit>()V
  i Switches.colors(LSwitches$Color;)I
    i Switches$1.<clinit>()V
      i Switches$Color.values()[LSwitches$Color;
      o Switches$Color.values()[LSwitches$Color;
    o Switches$1.<clinit>()V
  o Switches.colors(LSwitches$Color;)I
  i Switches.colors(LSwitches$Color;)I
    i Switches.weight(I)I
    o Switches.weight(I)I
  o Switches.colors(LSwitches$Color;)I
o Switches.run()V
*/
public class Switches {
    enum Color { RED, GREEN, BLUE }

    public static void run() {
        for (int k = -1; k <= 2; k++) {
            Out.p("table(" + k + ") = " + table(k));
        }
        for (int k : new int[] {1, 100, 10000, 7}) {
            Out.p("lookup(" + k + ") = " + lookup(k));
        }
        for (String s : new String[] {"alpha", "beta", "gamma"}) {
            Out.p("strings(" + s + ") = " + strings(s));
        }
        Out.p("colors(RED) = " + colors(Color.RED));
        Out.p("colors(BLUE) = " + colors(Color.BLUE));
    }

    static String name(String s, int k) {
        return s.concat(Integer.toString(k));
    }

    static int weight(int k) {
        return Integer.bitCount(k);
    }

    static String table(int k) {
        switch (k) {
            case 0:
                return name("zero", k);
            case 1:
                return "one";
            case 2:
                return name("two", k);
            default:
                break;
        }
        return name("other", k);
    }

    static int lookup(int k) {
        int r = 5;
        switch (k) {
            case 1:
                r = weight(k);
                break;
            case 100:
                return 100;
            case 10000:
                r += weight(k);
                break;
            default:
                r = -1;
        }
        return r;
    }

    static int strings(String s) {
        switch (s) {
            case "alpha":
                return 1;
            case "beta":
                return weight(7);
            default:
                return 0;
        }
    }

    static int colors(Color c) {
        switch (c) {
            case RED:
                return 1;
            case GREEN:
                return 2;
            default:
                return weight(c.ordinal() + 8);
        }
    }
}

/*@expect enums
  An enum with a traced constructor (i after Enum's constructor), methods, values() and
  valueOf() (both call the JDK: traced), its static initializer running the constructors; and
  an enum whose constants have bodies and an abstract method: the enum class itself is then
  ACC_ABSTRACT and skipped entirely (Matrix's rule: none of its methods, not even <clinit> or
  values(), is traced), while the constant classes Enums$Op$1/$2 are traced.

thread s:Enums
i Enums.run()V
  i Enums$Planet.<clinit>()V
    i Enums$Planet.<init>(Ljava/lang/String;II)V
      i Enums.note(Ljava/lang/String;)V
      o Enums.note(Ljava/lang/String;)V
    o Enums$Planet.<init>(Ljava/lang/String;II)V
    i Enums$Planet.<init>(Ljava/lang/String;II)V
      i Enums.note(Ljava/lang/String;)V
      o Enums.note(Ljava/lang/String;)V
    o Enums$Planet.<init>(Ljava/lang/String;II)V
  o Enums$Planet.<clinit>()V
  i Enums$Planet.values()[LEnums$Planet;
  o Enums$Planet.values()[LEnums$Planet;
  i Enums$Planet.weight(I)I
  o Enums$Planet.weight(I)I
  i Enums$Planet.weight(I)I
  o Enums$Planet.weight(I)I
  i Enums$Planet.valueOf(Ljava/lang/String;)LEnums$Planet;
    // Enum.valueOf builds its name table once, calling values() by reflection
    i Enums$Planet.values()[LEnums$Planet;
    o Enums$Planet.values()[LEnums$Planet;
  o Enums$Planet.valueOf(Ljava/lang/String;)LEnums$Planet;
  i Enums$Planet.valueOf(Ljava/lang/String;)LEnums$Planet;
  o Enums$Planet.valueOf(Ljava/lang/String;)LEnums$Planet;
  i Enums$Op$1.apply(II)I
  o Enums$Op$1.apply(II)I
  i Enums$Op$2.apply(II)I
    i Enums.note(Ljava/lang/String;)V
    o Enums.note(Ljava/lang/String;)V
  o Enums$Op$2.apply(II)I
o Enums.run()V
*/
public class Enums {
    static void note(String s) {
        Out.p("note " + s);
    }

    enum Planet {
        MERCURY(3), VENUS(5);

        private final int mass;

        Planet(int mass) {
            this.mass = mass;
            note("Planet " + name() + " " + mass);
        }

        int weight(int g) {
            return Math.multiplyExact(mass, g);
        }

        int mass() {
            return mass;
        }
    }

    enum Op {
        PLUS {
            @Override
            int apply(int a, int b) {
                return Math.addExact(a, b);
            }
        },
        MINUS {
            @Override
            int apply(int a, int b) {
                note("minus");
                return a - b;
            }
        };

        abstract int apply(int a, int b);
    }

    public static void run() {
        for (Planet p : Planet.values()) {
            Out.p(p + " weighs " + p.weight(2) + ", mass " + p.mass());
        }
        Out.p("valueOf = " + Planet.valueOf("VENUS"));
        try {
            Planet.valueOf("PLUTO");
        } catch (IllegalArgumentException e) {
            Out.p("valueOf(PLUTO) threw " + e.getMessage());
        }
        Out.p("PLUS = " + Op.PLUS.apply(2, 3) + ", MINUS = " + Op.MINUS.apply(2, 3));
    }
}

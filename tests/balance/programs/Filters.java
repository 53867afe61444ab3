/*@expect matrix_filters
  Matrix's class and method filters seen at run time: interfaces (default and static methods)
  and abstract classes are skipped entirely; accessors, empty and call-free methods and trivial
  constructors are not traced; a bridge method (synthetic, it calls the real one) is traced;
  a constructor that only calls super() or this() is not, one with a second call is. Traced
  methods called from untraced ones (Shape.describe, Named.greet) still record their events.

thread s:Filters
i Filters.run()V
  i Filters$Impl.<init>(I)V
  o Filters$Impl.<init>(I)V
  i Filters$Impl.compareTo(Ljava/lang/Object;)I
    i Filters$Impl.compareTo(LFilters$Impl;)I
    o Filters$Impl.compareTo(LFilters$Impl;)I
  o Filters$Impl.compareTo(Ljava/lang/Object;)I
  i Filters$Impl.name()Ljava/lang/String;
  o Filters$Impl.name()Ljava/lang/String;
  i Filters$Impl.name()Ljava/lang/String;
  o Filters$Impl.name()Ljava/lang/String;
o Filters.run()V
*/
public class Filters {
    interface Named {
        String name();

        default String greet() {
            return "hello ".concat(name());
        }

        static String shout(Named n) {
            return n.greet().toUpperCase();
        }
    }

    abstract static class Shape implements Named {
        int size;

        String describe() {
            return name().concat(" of size ").concat(Integer.toString(size));
        }
    }

    static class Impl extends Shape implements Comparable<Impl> {
        Impl() {
        }

        Impl(int size) {
            this();
            this.size = Math.abs(size);
        }

        @Override
        public String name() {
            return "impl".concat(Integer.toString(size));
        }

        @Override
        public int compareTo(Impl other) {
            return Integer.compare(size, other.size);
        }

        int getSize() {
            return size;
        }

        void setSize(int s) {
            size = s;
        }

        static int square(int x) {
            return x * x;
        }

        void nothing() {
        }
    }

    public static void run() {
        Impl a = new Impl(-3);
        Impl b = new Impl();
        b.setSize(Impl.square(2));
        b.nothing();
        Comparable<Impl> c = a;
        Out.p("compare = " + c.compareTo(b) + ", size " + b.getSize());
        Out.p("shout = " + Named.shout(new Impl() {
            @Override
            public String name() {
                return "anon";
            }
        }));
        Out.p("describe = " + a.describe() + ", greet = " + a.greet());
    }
}

package tcj;

import java.util.ArrayList;
import java.util.List;

/** Constructors: this(...) and super(...) with conditionals and new objects in their
 * arguments (uninitializedThis and Uninitialized(offset) in stack-map frames). */
public class Ctors extends ArrayList<Object> {
    private static final long serialVersionUID = 1L;
    private final int n;
    private final List<String> names = new ArrayList<String>();
    private int[] data = {1, 2, 3};

    public Ctors(int n) {
        super(n > 10 ? n : 10);
        this.n = n;
    }

    public Ctors(boolean big) {
        this(big ? 100 : 1);
    }

    public Ctors(String s) {
        this(new StringBuilder(s == null ? "" : s).length());
        names.add(s);
    }

    public Ctors(int a, int b) {
        this(a > b ? new Integer(a) : new Integer(b), b);
    }

    private Ctors(Integer boxed, int b) {
        super(b);
        n = boxed.intValue() + (b < 0 ? -b : b);
    }

    static Object make(boolean c) {
        return new StringBuilder(c ? "yes" : "no").append(new Ctors(c ? 1 : 2).n);
    }

    int size2() {
        return n + data.length + names.size();
    }
}

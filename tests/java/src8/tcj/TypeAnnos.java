package tcj;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Type annotations inside method bodies: on locals, new, casts, instanceof, type
 * arguments, catch parameters, resources and method references
 * (Runtime(In)VisibleTypeAnnotations of Code, JVMS 4.7.20). */
public class TypeAnnos {
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE_USE)
    @interface Vis {
        int value() default 0;
    }

    @Retention(RetentionPolicy.CLASS)
    @Target(ElementType.TYPE_USE)
    @interface Invis {
        String[] tags() default {};
    }

    static int use(Object o) throws Exception {
        @Vis(1) String s = "x";
        @Invis(tags = {"a", "b"}) List<@Vis(2) String> l = new @Vis(3) ArrayList<@Invis String>();
        l.add(s);
        int n = 0;
        if (o instanceof @Vis(4) String) {
            n += ((@Vis(5) String) o).length();
        }
        try (@Vis(6) AutoCloseable r = () -> { }) {
            n += l.size();
        } catch (@Vis(7) IllegalStateException e) {
            n = -1;
        }
        Function<@Vis(8) String, @Invis Integer> f = @Vis(9) String::length;
        for (@Vis(10) String t : l) {
            n += f.apply(t);
        }
        @Vis(11) int[] arr = new @Vis(12) int @Invis [3];
        return n + arr.length;
    }
}

package tcj;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Generic methods, bounds, wildcards, bridge methods, varargs. */
public class Generics<T extends Comparable<? super T>> implements Comparable<Generics<T>> {
    private final T value;

    public Generics(T value) {
        this.value = value;
    }

    @Override
    public int compareTo(Generics<T> o) {
        return value.compareTo(o.value);
    }

    @SafeVarargs
    static <E> List<E> listOf(E... items) {
        List<E> l = new ArrayList<E>();
        for (E e : items) {
            l.add(e);
        }
        return l;
    }

    static double sum(Collection<? extends Number> c) {
        double s = 0;
        for (Number n : c) {
            s += n.doubleValue();
        }
        return s;
    }

    static <K extends Comparable<K>, V> Map<K, List<V>> group(List<V> values, Key<K, V> key) {
        Map<K, List<V>> m = new TreeMap<K, List<V>>();
        for (V v : values) {
            K k = key.of(v);
            List<V> l = m.get(k);
            if (l == null) {
                l = new ArrayList<V>();
                m.put(k, l);
            }
            l.add(v);
        }
        return m;
    }

    interface Key<K, V> {
        K of(V v);
    }
}

package sample;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The app's data: a list of products it loads, filters and sorts. Plain work that
 *  makes real call trees. */
public class Catalog {
    /** A regression on purpose, for tests/samples/compare.sh: -Dsample.slowLoadMs=40 makes
     *  every load 40 ms slower, in load itself (a busy wait, no call that is traced). */
    private static final long SLOW_LOAD_NS = Long.getLong("sample.slowLoadMs", 0L) * 1_000_000L;

    private final List<Product> products = new ArrayList<>();

    void load(int count) {
        products.clear();
        for (int i = 0; i < count; i++)
            products.add(Product.parse("item-" + i + ";" + (i * 7919 % 1000) + ";" + (i % 13)));
        if (SLOW_LOAD_NS > 0) {
            long from = System.nanoTime(), until = from + SLOW_LOAD_NS, now;
            while ((now = System.nanoTime()) < until) {
                // spin: the time is load's own
            }
            slowedNs += now - from; // on a busy machine more than asked: the thread was descheduled
        }
    }

    /** The time the slow-down took in fact, for the test's truth (wall clock, ns). */
    static long slowedNs;

    List<Product> search(String prefix, int limit) {
        List<Product> hits = new ArrayList<>();
        for (Product p : products)
            if (p.matches(prefix))
                hits.add(p);
        Collections.sort(hits);
        return hits.subList(0, Math.min(limit, hits.size()));
    }

    int size() {
        return products.size();
    }
}

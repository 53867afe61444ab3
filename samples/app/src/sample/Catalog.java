package sample;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The app's data: a list of products it loads, filters and sorts. Plain work that
 *  makes real call trees. */
public class Catalog {
    private final List<Product> products = new ArrayList<>();

    void load(int count) {
        products.clear();
        for (int i = 0; i < count; i++)
            products.add(Product.parse("item-" + i + ";" + (i * 7919 % 1000) + ";" + (i % 13)));
    }

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

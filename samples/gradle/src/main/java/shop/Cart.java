package shop;

import java.util.ArrayList;
import java.util.List;

/** A shopping cart: the code this sample build instruments. */
public class Cart {
    private final List<Line> lines = new ArrayList<>();

    public void add(String sku, int quantity, long cents) {
        if (quantity <= 0)
            throw new IllegalArgumentException("quantity " + quantity);
        lines.add(new Line(sku, quantity, cents));
    }

    public long total() {
        long sum = 0;
        for (Line l : lines)
            sum += l.amount();
        return Discounts.apply(sum, lines.size());
    }

    static final class Line {
        final String sku;
        final int quantity;
        final long cents;

        Line(String sku, int quantity, long cents) {
            this.sku = sku;
            this.quantity = quantity;
            this.cents = cents;
        }

        long amount() {
            return Math.multiplyExact(cents, (long) quantity);
        }
    }
}

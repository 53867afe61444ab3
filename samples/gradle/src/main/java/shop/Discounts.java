package shop;

/** Volume discounts. */
final class Discounts {
    private Discounts() {}

    static long apply(long cents, int lines) {
        if (lines >= 10)
            return Math.round(cents * 0.9);
        return lines >= 5 ? Math.round(cents * 0.95) : cents;
    }
}

package shop;

/** Prints a cart total; run it instrumented with the test beat class on the class path. */
public class Main {
    public static void main(String[] args) {
        Cart cart = new Cart();
        for (int i = 0; i < 6; i++)
            cart.add("sku-" + i, i + 1, 250 + 10 * i);
        System.out.println("total " + cart.total());
    }
}

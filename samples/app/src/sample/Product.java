package sample;

/** One catalog entry, parsed from "name;price;category". */
public class Product implements Comparable<Product> {
    final String name;
    final int price;
    final int category;

    Product(String name, int price, int category) {
        this.name = name;
        this.price = price;
        this.category = category;
    }

    static Product parse(String line) {
        String[] f = line.split(";");
        return new Product(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]));
    }

    boolean matches(String prefix) {
        return name.startsWith(prefix);
    }

    @Override
    public int compareTo(Product o) {
        int c = Integer.compare(price, o.price);
        return c != 0 ? c : name.compareTo(o.name);
    }
}

package com.example.shop;

import java.util.ArrayList;
import java.util.List;

public class Cart {
    private final List<Item> items = new ArrayList<>();

    public void add(Item i) {
        items.add(i);
        log("add " + i.name());
    }

    public void add(Item i, int times) {
        for (int k = 0; k < times; k++) {
            add(i);
        }
    }

    public int total() {
        int t = 0;
        for (Item i : items) {
            t += i.price();
        }
        return t;
    }

    static void log(String s) {
        System.err.println(s);
    }

    Item[] asArray(Item[][] grid, long n) {
        return items.toArray(new Item[0]);
    }
}

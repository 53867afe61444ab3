package com.example.shop;

public class Item {
    private final String name;
    private final int price;

    public Item(String n, int p) {
        name = n;
        price = p;
    }

    public String name() {
        return name;
    }

    public int price() {
        return price;
    }

    public String describe() {
        return name + ":" + Integer.toString(price);
    }
}

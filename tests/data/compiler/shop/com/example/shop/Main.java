package com.example.shop;

/* Obfuscated by ProGuard in the cli suite (-repackageclasses ''). */
public class Main {
    public static void main(String[] args) {
        Cart c = new Cart();
        c.add(new Item("x", 3));
        c.add(new Item("y", 4), 2);
        System.out.println(c.total() + " " + c.asArray(new Item[0][], 1L).length);
        new Secret().hide(args.length);
    }
}

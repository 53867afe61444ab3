package com.example.shop;

public class Secret {
    public void hide(int n) {
        System.out.println("secret " + n);
        new Inner().tell();
    }

    class Inner {
        void tell() {
            Cart.log("inner");
        }
    }
}

package com.example.app;

public interface Api {
    void call();

    default void callTwice() {
        call();
        call();
    }
}

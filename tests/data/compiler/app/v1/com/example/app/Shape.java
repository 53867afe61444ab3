package com.example.app;

public abstract class Shape {
    public abstract double area();

    public String name() {
        return getClass().getSimpleName();
    }
}

package com.example.app;

public enum Kind {
    ROUND, SQUARE;

    public Kind other() {
        return values()[(ordinal() + 1) % values().length];
    }
}

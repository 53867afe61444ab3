package com.example.app;

public final class BuildConfig {
    public static final boolean DEBUG = Boolean.parseBoolean("true");

    static String show() {
        return String.valueOf(DEBUG);
    }
}

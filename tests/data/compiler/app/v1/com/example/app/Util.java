package com.example.app;

import java.util.List;
import java.util.function.Function;

public final class Util {
    private Util() {
    }

    public static String join(List<? extends Shape> shapes) {
        StringBuilder sb = new StringBuilder();
        for (Shape s : shapes) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(s.name());
        }
        return sb.toString();
    }

    public static Function<Integer, Integer> adder(int n) {
        return x -> x + n;
    }

    static int clamp(int v, int lo, int hi) {
        return v < lo ? lo : v > hi ? hi : v;
    }
}

package com.example.app;

import java.util.ArrayList;
import java.util.List;

/* The app of the cli suite: ids, stability, jars, verification. */
public class Main {
    private final List<Shape> shapes = new ArrayList<>();
    private int count;

    public Main() {
        super();
    }

    public Main(int count) {
        this();
        this.count = count;
    }

    public int getCount() {
        return count;
    }

    public void setCount(int count) {
        this.count = count;
    }

    public static void main(String[] args) {
        Main m = new Main(args.length);
        m.add(new Circle(2));
        m.add(new Square(3));
        System.out.println(m.area() + " " + m.describe(args.length));
    }

    public synchronized void add(Shape s) {
        shapes.add(s);
        count++;
    }

    public double area() {
        double t = 0;
        for (Shape s : shapes) {
            t += s.area();
        }
        return t;
    }

    public String describe(int k) {
        switch (k) {
        case 0:
            return "none";
        case 1:
            return "one";
        default:
            try {
                return Util.join(shapes);
            } catch (IllegalStateException e) {
                return "?";
            } finally {
                count--;
            }
        }
    }

    static int twice(int x) {
        return x * 2;
    }

    class Listener implements Runnable {
        @Override
        public void run() {
            add(new Circle(1));
        }
    }
}

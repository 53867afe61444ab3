package tcj;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/** try/catch/finally, nested handlers, multi-catch, try-with-resources, synchronized. */
public class Exceptions {
    private final Object lock = new Object();
    private int count;

    static int divide(int a, int b) {
        try {
            return a / b;
        } catch (ArithmeticException e) {
            return Integer.MIN_VALUE;
        } finally {
            a++;
        }
    }

    static int finallyReturns(int x) {
        try {
            if (x > 0) {
                throw new IllegalStateException("x");
            }
            return 1;
        } finally {
            if (x > 10) {
                return 2;
            }
        }
    }

    static String multi(Object o) {
        try {
            if (o == null) {
                throw new NullPointerException();
            }
            return ((String) o).substring(1);
        } catch (NullPointerException | ClassCastException e) {
            return e.getClass().getName();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static int read(byte[] data) throws IOException {
        int sum = 0;
        try (InputStream a = new ByteArrayInputStream(data); InputStream b = new ByteArrayInputStream(data)) {
            int c;
            while ((c = a.read()) >= 0) {
                sum += c + b.read();
            }
        }
        return sum;
    }

    synchronized void inc() {
        count++;
    }

    int locked(int x) {
        synchronized (lock) {
            if (x < 0) {
                throw new IllegalArgumentException();
            }
            count += x;
            return count;
        }
    }

    static int deep(int n) {
        int r = 0;
        for (int i = 0; i < n; i++) {
            try {
                try {
                    try {
                        if (i % 3 == 0) {
                            throw new Exception("3");
                        }
                        r += i;
                    } finally {
                        r ^= 1;
                    }
                } catch (RuntimeException e) {
                    r--;
                } finally {
                    r += 2;
                }
            } catch (Exception e) {
                r *= 2;
                continue;
            }
            r++;
        }
        return r;
    }
}

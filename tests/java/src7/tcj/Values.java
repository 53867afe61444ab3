package tcj;

/** Every primitive type and array kind, long/double constants (ldc2_w), many locals
 * (wide loads, stores and iinc), large increments, multianewarray, conversions. */
public class Values {
    static final long BIG = 0x123456789abcdefL;
    static final double PI = 3.141592653589793;

    static double mix(byte b, short s, char c, int i, long l, float f, double d, boolean z) {
        double r = b + s + c + i + l + f + d + (z ? 1 : 0);
        r += (byte) r + (short) r + (char) r + (int) r + (long) r + (float) r;
        r += BIG * 3 + PI / 2 + 1e300 + 2.5f + 100000L + (l >>> 3) + (i >> 2) + (i << 1);
        return r % 7;
    }

    static int[][][] cube(int n) {
        int[][][] c = new int[n][n][n];
        long[] ls = new long[n];
        boolean[] bs = new boolean[n];
        char[] cs = new char[n];
        float[] fs = new float[n];
        double[] ds = new double[n];
        short[] ss = new short[n];
        byte[] by = new byte[n];
        String[][] strs = new String[n][];
        for (int i = 0; i < n; i++) {
            c[i][i][i] = i;
            ls[i] = i;
            bs[i] = i % 2 == 0;
            cs[i] = (char) ('a' + i);
            fs[i] = i / 2f;
            ds[i] = i / 3.0;
            ss[i] = (short) i;
            by[i] = (byte) i;
            strs[i] = new String[] {"x"};
        }
        return c;
    }

    static long manyLocals(long seed) {
        long a00 = seed, a01 = a00 + 1, a02 = a01 + 1, a03 = a02 + 1, a04 = a03 + 1, a05 = a04 + 1;
        long a06 = a05 + 1, a07 = a06 + 1, a08 = a07 + 1, a09 = a08 + 1, a10 = a09 + 1, a11 = a10 + 1;
        long a12 = a11 + 1, a13 = a12 + 1, a14 = a13 + 1, a15 = a14 + 1, a16 = a15 + 1, a17 = a16 + 1;
        long a18 = a17 + 1, a19 = a18 + 1, a20 = a19 + 1, a21 = a20 + 1, a22 = a21 + 1, a23 = a22 + 1;
        long a24 = a23 + 1, a25 = a24 + 1, a26 = a25 + 1, a27 = a26 + 1, a28 = a27 + 1, a29 = a28 + 1;
        long a30 = a29 + 1, a31 = a30 + 1, a32 = a31 + 1, a33 = a32 + 1, a34 = a33 + 1, a35 = a34 + 1;
        long a36 = a35 + 1, a37 = a36 + 1, a38 = a37 + 1, a39 = a38 + 1, a40 = a39 + 1, a41 = a40 + 1;
        long a42 = a41 + 1, a43 = a42 + 1, a44 = a43 + 1, a45 = a44 + 1, a46 = a45 + 1, a47 = a46 + 1;
        long a48 = a47 + 1, a49 = a48 + 1, a50 = a49 + 1, a51 = a50 + 1, a52 = a51 + 1, a53 = a52 + 1;
        long a54 = a53 + 1, a55 = a54 + 1, a56 = a55 + 1, a57 = a56 + 1, a58 = a57 + 1, a59 = a58 + 1;
        long a60 = a59 + 1, a61 = a60 + 1, a62 = a61 + 1, a63 = a62 + 1, a64 = a63 + 1, a65 = a64 + 1;
        long a66 = a65 + 1, a67 = a66 + 1, a68 = a67 + 1, a69 = a68 + 1, a70 = a69 + 1, a71 = a70 + 1;
        long a72 = a71 + 1, a73 = a72 + 1, a74 = a73 + 1, a75 = a74 + 1, a76 = a75 + 1, a77 = a76 + 1;
        long a78 = a77 + 1, a79 = a78 + 1, a80 = a79 + 1, a81 = a80 + 1, a82 = a81 + 1, a83 = a82 + 1;
        long a84 = a83 + 1, a85 = a84 + 1, a86 = a85 + 1, a87 = a86 + 1, a88 = a87 + 1, a89 = a88 + 1;
        long a90 = a89 + 1, a91 = a90 + 1, a92 = a91 + 1, a93 = a92 + 1, a94 = a93 + 1, a95 = a94 + 1;
        long a96 = a95 + 1, a97 = a96 + 1, a98 = a97 + 1, a99 = a98 + 1;
        double d0 = a99, d1 = d0 * 2, d2 = d1 * 2, d3 = d2 * 2, d4 = d3 * 2, d5 = d4 * 2, d6 = d5 * 2;
        double d7 = d6 * 2, d8 = d7 * 2, d9 = d8 * 2, d10 = d9 * 2, d11 = d10 * 2, d12 = d11 * 2;
        double d13 = d12 * 2, d14 = d13 * 2, d15 = d14 * 2, d16 = d15 * 2, d17 = d16 * 2;
        double d18 = d17 * 2, d19 = d18 * 2, d20 = d19 * 2, d21 = d20 * 2, d22 = d21 * 2;
        double d23 = d22 * 2, d24 = d23 * 2, d25 = d24 * 2, d26 = d25 * 2, d27 = d26 * 2;
        double d28 = d27 * 2, d29 = d28 * 2, d30 = d29 * 2;
        int i = (int) d30;
        i += 1000;
        i -= 40000;
        Object o = "last";
        for (int k = 0; k < 3; k++) {
            i += k;
            o = o.toString() + k;
        }
        return a00 + a50 + a99 + i + o.hashCode() + (long) d30;
    }
}

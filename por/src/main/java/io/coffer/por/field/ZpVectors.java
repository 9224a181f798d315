package io.coffer.por.field;

/**
 * Element-wise Z_p operations on vectors (int arrays of elements in [0, p)), the inner loops of the PoR code.
 *
 * <p>Multiplication by a constant uses Shoup's method: with w' = floor(w * 2^32 / p) precomputed once per constant,
 * a * w mod p is a * w - floor(a * w' / 2^32) * p, which lies in [0, 2p) and needs one conditional subtraction: two
 * multiplications and no division in the loop. Every output may alias an input (the loops read index i before
 * writing it), so butterflies can run in place.
 */
public final class ZpVectors {
    private static final int P = Zp.P;

    private ZpVectors() {}

    /** Shoup's precomputed factor floor(w * 2^32 / p) for multiplying by the constant {@code w}. */
    public static long shoup(int w) {
        return ((long) w << 32) / P;
    }

    /** a * w mod p, given {@code wShoup = shoup(w)}. */
    public static int mulShoup(int a, int w, long wShoup) {
        int q = (int) ((a * wShoup) >>> 32);
        int r = a * w - q * P; // the true value is in [0, 2p) < 2^32, so the 32-bit wrap-around is exact
        return reduceOnce(r - P); // r - P is negative exactly when r, read unsigned, is below p
    }

    /** v + p if v is negative, else v: branch-free, for values in [-p, p). */
    private static int reduceOnce(int v) {
        return v + (v >> 31 & P);
    }

    /** out = v * c, element-wise. */
    public static void scale(int[] v, int c, int[] out) {
        long cs = shoup(c);
        for (int i = 0; i < v.length; i++) {
            out[i] = mulShoup(v[i], c, cs);
        }
    }

    /** out = a + b, element-wise. */
    public static void add(int[] a, int[] b, int[] out) {
        for (int i = 0; i < a.length; i++) {
            out[i] = reduceOnce(a[i] - P + b[i]);
        }
    }

    /** out = a - b, element-wise. */
    public static void sub(int[] a, int[] b, int[] out) {
        for (int i = 0; i < a.length; i++) {
            out[i] = reduceOnce(a[i] - b[i]);
        }
    }

    /** acc += v * c, element-wise. */
    public static void addScaled(int[] acc, int[] v, int c) {
        long cs = shoup(c);
        for (int i = 0; i < acc.length; i++) {
            acc[i] = reduceOnce(acc[i] - P + mulShoup(v[i], c, cs));
        }
    }

    /**
     * The FFT butterfly the code is made of: plus = a + tw * b and minus = a - tw * b, element-wise. {@code plus} may
     * be {@code a} and {@code minus} may be {@code b}.
     */
    public static void butterfly(int[] a, int[] b, int tw, int[] plus, int[] minus) {
        long tws = shoup(tw);
        int length = a.length;
        for (int i = 0; i < length; i++) {
            int x = a[i];
            int t = mulShoup(b[i], tw, tws);
            plus[i] = reduceOnce(x - P + t);
            minus[i] = reduceOnce(x - t);
        }
    }
}

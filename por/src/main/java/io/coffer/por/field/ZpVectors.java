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
        long q = (a * wShoup) >>> 32;
        int r = a * w - (int) q * P; // the true value is in [0, 2p) < 2^32, so the 32-bit wrap-around is exact
        int s = r - P;
        return s >= 0 ? s : r; // s >= 0 exactly when r, read unsigned, is at least p
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
            int s = a[i] - P + b[i];
            out[i] = s < 0 ? s + P : s;
        }
    }

    /** out = a - b, element-wise. */
    public static void sub(int[] a, int[] b, int[] out) {
        for (int i = 0; i < a.length; i++) {
            int d = a[i] - b[i];
            out[i] = d < 0 ? d + P : d;
        }
    }

    /** acc += v * c, element-wise. */
    public static void addScaled(int[] acc, int[] v, int c) {
        long cs = shoup(c);
        for (int i = 0; i < acc.length; i++) {
            int s = acc[i] - P + mulShoup(v[i], c, cs);
            acc[i] = s < 0 ? s + P : s;
        }
    }

    /**
     * The FFT butterfly the code is made of: plus = a + tw * b and minus = a - tw * b, element-wise. {@code plus} may be
     * {@code a} and {@code minus} may be {@code b}.
     */
    public static void butterfly(int[] a, int[] b, int tw, int[] plus, int[] minus) {
        long tws = shoup(tw);
        int length = a.length;
        for (int i = 0; i < length; i++) {
            int x = a[i];
            int t = mulShoup(b[i], tw, tws);
            int s = x - P + t;
            int d = x - t;
            plus[i] = s < 0 ? s + P : s;
            minus[i] = d < 0 ? d + P : d;
        }
    }
}

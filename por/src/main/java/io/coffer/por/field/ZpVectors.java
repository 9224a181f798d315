package io.coffer.por.field;

/**
 * Element-wise Z_p operations on vectors (int arrays of elements in [0, p)), the inner loops of the PoR code.
 *
 * <p>Multiplication by a constant uses Shoup's method: with w' = floor(w * 2^32 / p) precomputed once per constant,
 * a * w mod p is a * w - floor(a * w' / 2^32) * p, which lies in [0, 2p) and needs one conditional subtraction.
 * The quotient floor(a * w' / 2^32) is the high half of a 32x32-bit product; it is taken from 16-bit halves with
 * int multiplications only ({@link #shoupQuotient}), because JDK 17's C2 vectorises int products but not the
 * int-to-long product of the plain form: an HAdd or a CRebuild runs about twice as fast per CPU-second
 * (docs/BENCHMARKS.md, porasync).
 * Results are the canonical elements either way. Every output may alias an input (the loops read index i before
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
        return reduceOnce(a * w - q * P - P); // the true a * w - q * p is in [0, 2p) < 2^32: the wrap-around is exact
    }

    /**
     * floor(a * w' / 2^32) for a in [0, 2^31) and w' in [0, 2^32) (an unsigned int split as {@code wHigh} * 2^16 +
     * {@code wLow}), exactly, from four products of 16-bit halves that each fit 32 unsigned bits.
     */
    private static int shoupQuotient(int a, int wHigh, int wLow) {
        int aHigh = a >>> 16;
        int aLow = a & 0xFFFF;
        int lowLow = aLow * wLow; // < 2^32, read unsigned
        int lowHigh = aLow * wHigh; // < 2^32, read unsigned
        int highLow = aHigh * wLow; // < 2^31
        int middle = (lowLow >>> 16) + (lowHigh & 0xFFFF) + (highLow & 0xFFFF); // < 3 * 2^16
        return aHigh * wHigh + (lowHigh >>> 16) + (highLow >>> 16) + (middle >>> 16);
    }

    /** v + p if v is negative, else v: branch-free, for values in [-p, p). */
    private static int reduceOnce(int v) {
        return v + (v >> 31 & P);
    }

    /** out = v * c, element-wise. */
    public static void scale(int[] v, int c, int[] out) {
        int cs = (int) shoup(c);
        int high = cs >>> 16;
        int low = cs & 0xFFFF;
        for (int i = 0; i < v.length; i++) {
            int a = v[i];
            out[i] = reduceOnce(a * c - shoupQuotient(a, high, low) * P - P);
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
        int cs = (int) shoup(c);
        int high = cs >>> 16;
        int low = cs & 0xFFFF;
        for (int i = 0; i < acc.length; i++) {
            int a = v[i];
            int product = reduceOnce(a * c - shoupQuotient(a, high, low) * P - P);
            acc[i] = reduceOnce(acc[i] - P + product);
        }
    }

    /**
     * The FFT butterfly the code is made of: plus = a + tw * b and minus = a - tw * b, element-wise. {@code plus} may
     * be {@code a} and {@code minus} may be {@code b}.
     */
    public static void butterfly(int[] a, int[] b, int tw, int[] plus, int[] minus) {
        // C2 vectorises the loop below when it reads and writes the same two arrays, not with four (measured:
        // out of place it ran slower than the former long-product loop), so outputs elsewhere get copies first.
        if (plus == b && plus != a) {
            b = b.clone(); // copying a into plus would overwrite b before it is read
        }
        if (plus != a) {
            System.arraycopy(a, 0, plus, 0, a.length);
        }
        if (minus != b) {
            System.arraycopy(b, 0, minus, 0, b.length);
        }
        butterflyInPlace(plus, minus, tw);
    }

    /** x, y := x + tw * y, x - tw * y. */
    private static void butterflyInPlace(int[] x, int[] y, int tw) {
        int length = x.length;
        if (tw == 1) {
            // the first butterfly of every stage of a rebuild (twiddle nu^0): no product to take
            for (int i = 0; i < length; i++) {
                int u = x[i];
                int t = y[i];
                x[i] = reduceOnce(u - P + t);
                y[i] = reduceOnce(u - t);
            }
            return;
        }
        int tws = (int) shoup(tw);
        int high = tws >>> 16;
        int low = tws & 0xFFFF;
        for (int i = 0; i < length; i++) {
            int u = x[i];
            int v = y[i];
            int t = reduceOnce(v * tw - shoupQuotient(v, high, low) * P - P);
            x[i] = reduceOnce(u - P + t);
            y[i] = reduceOnce(u - t);
        }
    }
}

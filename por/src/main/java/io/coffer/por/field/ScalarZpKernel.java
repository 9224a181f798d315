package io.coffer.por.field;

/**
 * The Z_p loops as plain Java, what runs without the Vector API. Multiplication by a constant w uses Shoup's method:
 * with w' = floor(w * 2^32 / p) precomputed once per constant, a * w mod p is a * w - floor(a * w' / 2^32) * p, which
 * lies in [0, 2p) and needs one conditional subtraction. The quotient is the high half of a 32x32-bit product, taken
 * from 16-bit halves with int multiplications only ({@link #shoupQuotient}), because JDK 17's C2 vectorises int
 * products but not the int-to-long product of the plain form (docs/BENCHMARKS.md, porasync).
 */
final class ScalarZpKernel implements ZpKernel {
    static final ScalarZpKernel INSTANCE = new ScalarZpKernel();
    private static final int P = Zp.P;

    private ScalarZpKernel() {}

    /** Shoup's factor floor(w * 2^32 / p) as an unsigned int. */
    static int shoupFactor(int w) {
        return (int) (((long) w << 32) / P);
    }

    /**
     * floor(a * w' / 2^32) for a in [0, 2^31) and w' in [0, 2^32) (an unsigned int split as {@code wHigh} * 2^16 +
     * {@code wLow}), exactly, from four products of 16-bit halves that each fit 32 unsigned bits.
     */
    static int shoupQuotient(int a, int wHigh, int wLow) {
        int aHigh = a >>> 16;
        int aLow = a & 0xFFFF;
        int lowLow = aLow * wLow; // < 2^32, read unsigned
        int lowHigh = aLow * wHigh; // < 2^32, read unsigned
        int highLow = aHigh * wLow; // < 2^31
        int middle = (lowLow >>> 16) + (lowHigh & 0xFFFF) + (highLow & 0xFFFF); // < 3 * 2^16
        return aHigh * wHigh + (lowHigh >>> 16) + (highLow >>> 16) + (middle >>> 16);
    }

    /** a * w mod p given w's Shoup factor in 16-bit halves: the true a * w - q * p is in [0, 2p), exact mod 2^32. */
    static int mulShoup(int a, int w, int wHigh, int wLow) {
        return reduceOnce(a * w - shoupQuotient(a, wHigh, wLow) * P - P);
    }

    /** v + p if v is negative, else v: branch-free, for values in [-p, p). */
    static int reduceOnce(int v) {
        return v + (v >> 31 & P);
    }

    @Override
    public void scale(int[] v, int c, int[] out) {
        int cs = shoupFactor(c);
        scaleFrom(0, v, c, cs >>> 16, cs & 0xFFFF, out);
    }

    /** scale from index {@code from} on: also the vector kernel's tail. */
    static void scaleFrom(int from, int[] v, int c, int high, int low, int[] out) {
        for (int i = from; i < v.length; i++) {
            out[i] = mulShoup(v[i], c, high, low);
        }
    }

    @Override
    public void addScaled(int[] acc, int[] v, int c) {
        int cs = shoupFactor(c);
        addScaledFrom(0, acc, v, c, cs >>> 16, cs & 0xFFFF);
    }

    /** addScaled from index {@code from} on: also the vector kernel's tail. */
    static void addScaledFrom(int from, int[] acc, int[] v, int c, int high, int low) {
        for (int i = from; i < acc.length; i++) {
            acc[i] = reduceOnce(acc[i] - P + mulShoup(v[i], c, high, low));
        }
    }

    @Override
    public void butterfly(int[] a, int[] b, int tw, int[] plus, int[] minus) {
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

    /** x, y := x + tw * y, x - tw * y: two arrays, the loop C2 vectorises. */
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
        int tws = shoupFactor(tw);
        int high = tws >>> 16;
        int low = tws & 0xFFFF;
        for (int i = 0; i < length; i++) {
            int u = x[i];
            int t = mulShoup(y[i], tw, high, low);
            x[i] = reduceOnce(u - P + t);
            y[i] = reduceOnce(u - t);
        }
    }

    @Override
    public String name() {
        return "scalar";
    }
}

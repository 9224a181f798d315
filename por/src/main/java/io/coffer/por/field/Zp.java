package io.coffer.por.field;

/**
 * Arithmetic in Z_p for the PoR code and checksums, with p = 15 * 2^27 + 1 (2013265921).
 *
 * <p>Why this prime rather than the paper's 3 * 2^30 + 1: an element fits in a Java {@code int} and the product of
 * two elements in a signed {@code long} (p^2 < 2^62), so no unsigned tricks are needed, and Z_p* has 2^27-th roots of
 * unity, enough for levels of 2^26 blocks. A block is cut into segments of floor(log2 p) = 30 bits ({@link Segments}).
 * Elements are ints in [0, p).
 */
public final class Zp {
    public static final int P = 2013265921;
    /** The largest k with 2^k dividing p - 1. */
    public static final int TWO_ADICITY = 27;
    /** A generator of Z_p*. */
    public static final int GENERATOR = 31;
    /** Data bits carried by one element: floor(log2 p). */
    public static final int SEGMENT_BITS = 30;

    private Zp() {}

    public static int add(int a, int b) {
        int s = a + b; // < 2^32 would overflow an int only above 2^31; a, b < p < 2^31 so s fits in 32 bits unsigned
        return Integer.compareUnsigned(s, P) >= 0 ? s - P : s;
    }

    public static int sub(int a, int b) {
        int d = a - b;
        return d < 0 ? d + P : d;
    }

    public static int neg(int a) {
        return a == 0 ? 0 : P - a;
    }

    public static int mul(int a, int b) {
        return (int) (((long) a * b) % P);
    }

    /** Reduces any non-negative long into [0, p). */
    public static int reduce(long v) {
        return (int) Long.remainderUnsigned(v, P);
    }

    public static int pow(int a, long e) {
        if (e < 0) {
            throw new IllegalArgumentException("negative exponent");
        }
        long result = 1;
        long base = a;
        while (e != 0) {
            if ((e & 1) != 0) {
                result = result * base % P;
            }
            base = base * base % P;
            e >>>= 1;
        }
        return (int) result;
    }

    public static int inv(int a) {
        if (a == 0) {
            throw new ArithmeticException("0 has no inverse in Z_p");
        }
        return pow(a, P - 2L);
    }

    /** A primitive {@code order}-th root of unity; {@code order} is a power of two of at most 2^27. */
    public static int rootOfUnity(long order) {
        if (order <= 0 || (order & (order - 1)) != 0 || order > (1L << TWO_ADICITY)) {
            throw new IllegalArgumentException("order must be a power of two up to 2^" + TWO_ADICITY + ": " + order);
        }
        return pow(GENERATOR, (P - 1L) / order);
    }
}

package io.coffer.por.code;

import io.coffer.por.field.Zp;
import io.coffer.por.field.ZpVectors;

/**
 * Recovers the 2^l vectors a level was built from out of any 2^l of its 2^(l+1) code vectors (Lemma 1), and U out
 * of any n of C's 2n.
 *
 * <p>Why it works: by equation (1) a level built from writes x_0..x_(2^l - 1) that started at epoch position t0 is
 * X[j] = f(zeta^(2j)) and Y[j] = c * f(zeta^(2j+1)), where zeta = w^(n / 2^l) is a primitive 2^(l+1)-th root of
 * unity, c = w^psi_(k-l)(t0 / 2^l), and f(z) = sum_s x_psi_l(s) z^s has degree below 2^l: a Reed-Solomon codeword
 * over all 2^(l+1)-th roots of unity. With the X half whole, f is one inverse FFT of X (the Y half: of Y / c, then
 * divided by zeta^s); otherwise, with E the missing points and Z(z) = prod_(e in E) (z - zeta^e), the products
 * f * Z are known at every root (zero on E), so one inverse FFT gives f * Z, and f is (f * Z) / Z evaluated on the
 * coset g * zeta^e where Z has no roots. Cost: O(2^l * l) per element for the halves, plus O(2^l * l^2) once for Z
 * in the mixed case; memory: the level's 2^(l+1) vectors.
 */
public final class LevelDecoder {
    private final CodeParameters params;

    public LevelDecoder(CodeParameters params) {
        this.params = params;
    }

    /**
     * The vectors of level {@code level} in write order, from its code vectors ({@code x[j]}, {@code y[j]}; null
     * where lost). {@code start} is {@link LogState#start}. The inputs are not modified.
     *
     * @throws IllegalArgumentException when fewer than 2^l code vectors are given, or the shapes are wrong
     */
    public int[][] decode(int level, int start, int[][] x, int[][] y) {
        if (level < 0 || level > params.k()) {
            throw new IllegalArgumentException("level must be in [0, " + params.k() + "] (C: decodeC): " + level);
        }
        int size = 1 << level;
        if (start % size != 0 || start < 0 || start > params.n() - size) {
            throw new IllegalArgumentException("level " + level + " cannot start at write " + start);
        }
        int c = Zp.pow(params.w(), BitReversal.reverse(start >>> level, params.k() - level));
        return decodeWith(level, c, x, y);
    }

    /** The n vectors C encodes, U[0..n-1], from C's code vectors (null where lost). */
    public int[][] decodeC(int[][] x, int[][] y) {
        return decodeWith(params.k(), 1, x, y);
    }

    private int[][] decodeWith(int level, int c, int[][] x, int[][] y) {
        int size = 1 << level;
        if (x.length != size || y.length != size) {
            throw new IllegalArgumentException("level " + level + " has " + size + " vectors per part, got "
                    + x.length + " and " + y.length);
        }
        int present = 0;
        int width = -1;
        for (int[][] part : new int[][][] {x, y}) {
            for (int[] v : part) {
                if (v != null) {
                    present++;
                    if (width < 0) {
                        width = v.length;
                    } else if (v.length != width) {
                        throw new IllegalArgumentException("code vectors of different widths");
                    }
                }
            }
        }
        if (present < size) {
            throw new IllegalArgumentException("level " + level + " needs " + size + " of its " + 2 * size
                    + " code vectors, only " + present + " are left");
        }
        int zeta = params.zeta(level);
        int omega = Zp.mul(zeta, zeta);
        int[][] coefficients;
        if (whole(x)) {
            coefficients = copy(x);
            Ntt.inverse(coefficients, omega);
        } else if (whole(y)) {
            coefficients = copy(y);
            int cInverse = Zp.inv(c);
            for (int[] v : coefficients) {
                ZpVectors.scale(v, cInverse, v);
            }
            Ntt.inverse(coefficients, omega);
            scaleByPowers(coefficients, Zp.inv(zeta));
        } else {
            coefficients = interpolate(size, zeta, c, x, y, width);
        }
        int[][] data = new int[size][];
        for (int u = 0; u < size; u++) {
            data[u] = coefficients[BitReversal.reverse(u, level)];
        }
        return data;
    }

    /** f from its values at the 2m-th roots of unity zeta^e, some missing (the erasure-locator method above). */
    private static int[][] interpolate(int m, int zeta, int c, int[][] x, int[][] y, int width) {
        int size = 2 * m;
        int cInverse = Zp.inv(c);
        int[] erased = new int[size];
        int erasures = 0;
        for (int e = 0; e < size; e++) {
            if ((e % 2 == 0 ? x : y)[e / 2] == null) {
                erased[erasures++] = Zp.pow(zeta, e);
            }
        }
        int[] locator = java.util.Arrays.copyOf(Polynomials.fromRoots(erased, 0, erasures), size);
        int[] locatorAtRoots = locator.clone();
        Ntt.forward(locatorAtRoots, zeta);
        int[][] product = new int[size][];
        for (int e = 0; e < size; e++) {
            int[] value = (e % 2 == 0 ? x : y)[e / 2];
            product[e] = new int[width];
            if (value != null) {
                int factor = e % 2 == 0 ? locatorAtRoots[e] : Zp.mul(locatorAtRoots[e], cInverse);
                ZpVectors.scale(value, factor, product[e]);
            }
        }
        Ntt.inverse(product, zeta); // the coefficients of f * Z
        int g = Zp.GENERATOR; // of order p - 1, so g * zeta^e is never a root of Z
        scaleByPowers(product, g);
        Ntt.forward(product, zeta); // (f * Z)(g * zeta^e)
        int[] locatorOnCoset = locator.clone();
        int power = 1;
        for (int i = 0; i < size; i++) {
            locatorOnCoset[i] = Zp.mul(locatorOnCoset[i], power);
            power = Zp.mul(power, g);
        }
        Ntt.forward(locatorOnCoset, zeta);
        for (int e = 0; e < size; e++) {
            ZpVectors.scale(product[e], Zp.inv(locatorOnCoset[e]), product[e]); // f(g * zeta^e)
        }
        Ntt.inverse(product, zeta); // the coefficients of f(g z)
        int[][] coefficients = java.util.Arrays.copyOf(product, m);
        scaleByPowers(coefficients, Zp.inv(g));
        return coefficients;
    }

    private static void scaleByPowers(int[][] vectors, int base) {
        int power = 1;
        for (int[] v : vectors) {
            ZpVectors.scale(v, power, v);
            power = Zp.mul(power, base);
        }
    }

    private static boolean whole(int[][] part) {
        for (int[] v : part) {
            if (v == null) {
                return false;
            }
        }
        return true;
    }

    private static int[][] copy(int[][] part) {
        int[][] out = new int[part.length][];
        for (int i = 0; i < part.length; i++) {
            out[i] = part[i].clone();
        }
        return out;
    }
}

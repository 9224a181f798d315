package io.coffer.por.code;

import io.coffer.por.field.Zp;
import io.coffer.por.field.ZpVectors;

/**
 * Number-theoretic transforms over Z_p in natural order: forward evaluates a polynomial (coefficients a_0..a_(N-1))
 * at root^0..root^(N-1); inverse interpolates back. One version over scalars (polynomial arithmetic for decoding) and
 * one over vectors, where every element position is an independent transform (decoding a level).
 */
final class Ntt {
    private Ntt() {}

    /** In place: a[e] := sum_s a[s] * root^(s*e), for a power-of-two length N and a primitive N-th root. */
    static void forward(int[] a, int root) {
        int size = a.length;
        permute(a);
        for (int half = 1; half < size; half <<= 1) {
            int step = Zp.pow(root, size / (2 * half));
            for (int base = 0; base < size; base += 2 * half) {
                int twiddle = 1;
                for (int j = 0; j < half; j++) {
                    int x = a[base + j];
                    int t = Zp.mul(a[base + j + half], twiddle);
                    a[base + j] = Zp.add(x, t);
                    a[base + j + half] = Zp.sub(x, t);
                    twiddle = Zp.mul(twiddle, step);
                }
            }
        }
    }

    /** In place: the inverse of {@link #forward} with the same root. */
    static void inverse(int[] a, int root) {
        forward(a, Zp.inv(root));
        int scale = Zp.inv(a.length);
        for (int i = 0; i < a.length; i++) {
            a[i] = Zp.mul(a[i], scale);
        }
    }

    /** {@link #forward} on each element position of the vectors (the array's references are permuted). */
    static void forward(int[][] v, int root) {
        int size = v.length;
        permute(v);
        for (int half = 1; half < size; half <<= 1) {
            int step = Zp.pow(root, size / (2 * half));
            for (int base = 0; base < size; base += 2 * half) {
                int twiddle = 1;
                for (int j = 0; j < half; j++) {
                    ZpVectors.butterfly(v[base + j], v[base + j + half], twiddle, v[base + j], v[base + j + half]);
                    twiddle = Zp.mul(twiddle, step);
                }
            }
        }
    }

    /** {@link #inverse} on each element position of the vectors. */
    static void inverse(int[][] v, int root) {
        forward(v, Zp.inv(root));
        int scale = Zp.inv(v.length);
        for (int[] vector : v) {
            ZpVectors.scale(vector, scale, vector);
        }
    }

    private static void permute(int[] a) {
        int bits = checkedLog(a.length);
        for (int i = 0; i < a.length; i++) {
            int r = BitReversal.reverse(i, bits);
            if (r > i) {
                int t = a[i];
                a[i] = a[r];
                a[r] = t;
            }
        }
    }

    private static void permute(int[][] v) {
        int bits = checkedLog(v.length);
        for (int i = 0; i < v.length; i++) {
            int r = BitReversal.reverse(i, bits);
            if (r > i) {
                int[] t = v[i];
                v[i] = v[r];
                v[r] = t;
            }
        }
    }

    private static int checkedLog(int size) {
        if (size <= 0 || (size & (size - 1)) != 0) {
            throw new IllegalArgumentException("transform length must be a power of two: " + size);
        }
        return Integer.numberOfTrailingZeros(size);
    }
}

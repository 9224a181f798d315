package io.coffer.por.code;

import io.coffer.por.field.Zp;

/** Polynomial products over Z_p (coefficient arrays, lowest degree first), for the decoder's erasure locator. */
final class Polynomials {
    /** Below this many coefficients schoolbook multiplication beats the transforms. */
    private static final int SCHOOLBOOK_LIMIT = 64;

    private Polynomials() {}

    /** The product of (x - roots[i]) over i in [from, to), by a product tree: O(d log^2 d) for d roots. */
    static int[] fromRoots(int[] roots, int from, int to) {
        if (to - from == 0) {
            return new int[] {1};
        }
        if (to - from == 1) {
            return new int[] {Zp.neg(roots[from]), 1};
        }
        int mid = (from + to) >>> 1;
        return multiply(fromRoots(roots, from, mid), fromRoots(roots, mid, to));
    }

    static int[] multiply(int[] f, int[] g) {
        int length = f.length + g.length - 1;
        if (Math.min(f.length, g.length) < SCHOOLBOOK_LIMIT) {
            int[] out = new int[length];
            for (int i = 0; i < f.length; i++) {
                if (f[i] == 0) {
                    continue;
                }
                for (int j = 0; j < g.length; j++) {
                    out[i + j] = Zp.add(out[i + j], Zp.mul(f[i], g[j]));
                }
            }
            return out;
        }
        int size = Integer.highestOneBit(length - 1) << 1;
        int root = Zp.rootOfUnity(size);
        int[] a = java.util.Arrays.copyOf(f, size);
        int[] b = java.util.Arrays.copyOf(g, size);
        Ntt.forward(a, root);
        Ntt.forward(b, root);
        for (int i = 0; i < size; i++) {
            a[i] = Zp.mul(a[i], b[i]);
        }
        Ntt.inverse(a, root);
        return java.util.Arrays.copyOf(a, length);
    }
}

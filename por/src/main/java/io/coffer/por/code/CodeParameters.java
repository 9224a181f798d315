package io.coffer.por.code;

import io.coffer.por.field.Zp;

/**
 * The code's fixed parameters for a capacity of n = 2^k vectors: levels 0..k of the hierarchical log, C as level
 * k + 1, and w, the primitive 2n-th root of unity of Figure 4.
 */
public final class CodeParameters {
    /** 2n must divide p - 1 = 15 * 2^27. */
    public static final int MAX_K = Zp.TWO_ADICITY - 1;

    private final int k;
    private final int w;

    public CodeParameters(int k) {
        if (k < 0 || k > MAX_K) {
            throw new IllegalArgumentException("k must be in [0, " + MAX_K + "]: " + k);
        }
        this.k = k;
        this.w = Zp.rootOfUnity(2L << k);
    }

    /** The capacity exponent: n = 2^k, levels 0..k, C is level k + 1. */
    public int k() {
        return k;
    }

    /** The number of vectors C encodes and the number of writes between two C rebuilds. */
    public int n() {
        return 1 << k;
    }

    /** The level number under which C is stored. */
    public int cLevel() {
        return k + 1;
    }

    /** w, a primitive 2n-th root of unity. */
    public int w() {
        return w;
    }

    /** psi_k(t): the bit reversal that gives the Y multiplier w^psi(t) of the t-th write of an epoch. */
    public int psi(int t) {
        return BitReversal.reverse(t, k);
    }

    /** The multiplier w^psi(t) that HAdd applies to the t-th write's vector before it enters the Y half. */
    public int yMultiplier(int t) {
        return Zp.pow(w, psi(t));
    }

    /**
     * zeta_l = w^(n / 2^l), a primitive 2^(l+1)-th root of unity: the nu of mix when it merges two codes of 2^l
     * vectors, and the root at whose powers a level-l polynomial is evaluated. For C, {@code level} is k.
     */
    public int zeta(int level) {
        if (level < 0 || level > k) {
            throw new IllegalArgumentException("level must be in [0, " + k + "]: " + level);
        }
        return Zp.pow(w, 1L << (k - level));
    }

    /** The number of vectors in each part of {@code level} (C: n). */
    public int partSize(int level) {
        if (level < 0 || level > k + 1) {
            throw new IllegalArgumentException("level must be in [0, " + (k + 1) + "]: " + level);
        }
        return level == k + 1 ? 1 << k : 1 << level;
    }

    /**
     * The number of vectors in each part of {@code level} of a store with {@code slots} run slots per level of H
     * ({@link DeamortizedLog#SLOTS}; 1 for {@link HierarchicalLog}): slots * 2^level, C's level n.
     */
    public int partSize(int level, int slots) {
        if (slots < 1 || slots > DeamortizedLog.SLOTS) {
            throw new IllegalArgumentException("slots must be in [1, " + DeamortizedLog.SLOTS + "]: " + slots);
        }
        return level == k + 1 ? partSize(level) : partSize(level) * slots;
    }
}

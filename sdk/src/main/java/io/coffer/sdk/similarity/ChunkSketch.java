package io.coffer.sdk.similarity;

import java.util.Arrays;

/**
 * What a {@link Sketcher} extracts from one chunk: the super-features that LSH matches exactly, and a bit code whose
 * Hamming distance tracks how different two chunks are (the paper's semantic hash).
 *
 * @param superFeatures the super-features, in a fixed order (equal index, equal meaning across chunks)
 * @param code          the Hamming-space code, {@code 64 * code.length} bits
 */
public record ChunkSketch(long[] superFeatures, long[] code) {

    public ChunkSketch {
        superFeatures = superFeatures.clone();
        code = code.clone();
    }

    /** Bits that differ between this code and {@code other}'s (codes of equal length). */
    public int hammingDistance(ChunkSketch other) {
        return hammingDistance(code, other.code);
    }

    /** Bits in the code. */
    public int codeBits() {
        return code.length * 64;
    }

    @Override
    public long[] superFeatures() {
        return superFeatures.clone();
    }

    @Override
    public long[] code() {
        return code.clone();
    }

    long superFeature(int i) {
        return superFeatures[i];
    }

    int superFeatureCount() {
        return superFeatures.length;
    }

    long[] codeView() {
        return code;
    }

    static int hammingDistance(long[] a, long[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("codes of " + a.length * 64 + " and " + b.length * 64 + " bits");
        }
        int d = 0;
        for (int i = 0; i < a.length; i++) {
            d += Long.bitCount(a[i] ^ b[i]);
        }
        return d;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkSketch s && Arrays.equals(superFeatures, s.superFeatures) && Arrays.equals(code, s.code);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(superFeatures) + Arrays.hashCode(code);
    }

    @Override
    public String toString() {
        return "ChunkSketch[" + superFeatures.length + " super-features, " + codeBits() + "-bit code]";
    }
}

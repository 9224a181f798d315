package io.coffer.sdk.deflate;

import java.util.Arrays;

/**
 * A layer's Huffman-tree feature (SimEnc §4.2): the 286-entry literal/length code-length vector, entry i the code
 * length of symbol i (0..255 literals, 256 end of block, 257..285 length codes), 0 where the symbol has no code.
 * Which tree: the first dynamic block of the stream (the tree at the head of the layer, as the paper takes it); a
 * stream without dynamic blocks but with a fixed-Huffman block gives the fixed code's lengths; one with stored blocks
 * only gives all zeros. The source says which case applied.
 */
public final class HuffmanTreeFeature {
    public static final int SIZE = DeflateTables.LITERAL_LENGTH_SYMBOLS;

    /** Which tree the vector comes from. */
    public enum Source { FIRST_DYNAMIC_BLOCK, FIXED_CODE, NONE }

    private final byte[] lengths;
    private final Source source;

    private HuffmanTreeFeature(byte[] lengths, Source source) {
        this.lengths = lengths;
        this.source = source;
    }

    static HuffmanTreeFeature none() {
        return new HuffmanTreeFeature(new byte[SIZE], Source.NONE);
    }

    static HuffmanTreeFeature fixed() {
        return of(DeflateTables.fixedLiteralLengthLengths(), Source.FIXED_CODE);
    }

    static HuffmanTreeFeature of(int[] literalLengthLengths, Source source) {
        byte[] v = new byte[SIZE];
        for (int i = 0; i < Math.min(SIZE, literalLengthLengths.length); i++) {
            v[i] = (byte) literalLengthLengths[i];
        }
        return new HuffmanTreeFeature(v, source);
    }

    /** The vector, one code length (0..15) per entry. */
    public int[] lengths() {
        int[] v = new int[SIZE];
        for (int i = 0; i < SIZE; i++) {
            v[i] = lengths[i];
        }
        return v;
    }

    /** The vector as 286 bytes, for hashing (a Bloom filter over feature hashes). */
    public byte[] toBytes() {
        return lengths.clone();
    }

    public Source source() {
        return source;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HuffmanTreeFeature f && f.source == source && Arrays.equals(f.lengths, lengths);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(lengths) + source.hashCode();
    }

    @Override
    public String toString() {
        return "HuffmanTreeFeature[" + source + " " + Arrays.toString(lengths) + "]";
    }
}

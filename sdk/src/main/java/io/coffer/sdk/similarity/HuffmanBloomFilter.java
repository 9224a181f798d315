package io.coffer.sdk.similarity;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.BitSet;

/**
 * SimEnc's fast similarity-space selection (§4.2, F-mode): a Bloom filter over layers' Huffman-tree vectors (the
 * 286 literal/length code lengths). A layer whose vector the filter may contain is taken to resemble a layer seen
 * before and goes to the partially decoded space; one it surely does not contain stays in the compressed space.
 *
 * <p>The k bit positions come from one SHA-256 of the vector by double hashing (Kirsch and Mitzenmacher: position i is
 * {@code h1 + i * h2 mod m}) rather than the paper's Jenkins and Rabin hashes; any family of independent hashes serves.
 * The size of the bit array is the knob the paper describes: a small array (it names 32 bits) makes the vectors of
 * similar layers collide on purpose, a large one keeps false positives, and so needless partial decoding, rare.
 * Thread-safe.
 */
public final class HuffmanBloomFilter {
    /** Entries of a literal/length code-length vector: 256 literals, end of block, 29 length codes. */
    public static final int VECTOR_LENGTH = 286;

    private final int bits;
    private final int hashes;
    private final BitSet set;
    private int added;

    /** A filter of {@code bits} bits (1 to 2^30) probed at {@code hashes} positions (1 to 32). */
    public HuffmanBloomFilter(int bits, int hashes) {
        if (bits < 1 || bits > (1 << 30) || hashes < 1 || hashes > 32) {
            throw new IllegalArgumentException("bits " + bits + " and hashes " + hashes
                    + ": need 1..2^30 bits and 1..32 hashes");
        }
        this.bits = bits;
        this.hashes = hashes;
        this.set = new BitSet(bits);
    }

    /** True if a vector equal to {@code codeLengths} may have been added; false means it surely was not. */
    public synchronized boolean mightContain(int[] codeLengths) {
        for (int p : positions(codeLengths)) {
            if (!set.get(p)) {
                return false;
            }
        }
        return true;
    }

    /** Adds a layer's vector. */
    public synchronized void add(int[] codeLengths) {
        for (int p : positions(codeLengths)) {
            set.set(p);
        }
        added++;
    }

    /** Vectors added so far. */
    public synchronized int added() {
        return added;
    }

    private int[] positions(int[] codeLengths) {
        if (codeLengths.length != VECTOR_LENGTH) {
            throw new IllegalArgumentException("a Huffman-tree vector has " + VECTOR_LENGTH + " code lengths, not "
                    + codeLengths.length);
        }
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("JDK lacks SHA-256", e);
        }
        for (int len : codeLengths) {
            if (len < 0 || len > 15) {
                throw new IllegalArgumentException("code length " + len + " outside deflate's 0..15");
            }
            sha.update((byte) len);
        }
        byte[] d = sha.digest();
        long h1 = 0;
        long h2 = 0;
        for (int i = 0; i < 8; i++) {
            h1 = h1 << 8 | (d[i] & 0xff);
            h2 = h2 << 8 | (d[8 + i] & 0xff);
        }
        int[] out = new int[hashes];
        for (int i = 0; i < hashes; i++) {
            out[i] = (int) Math.floorMod(h1 + i * h2, (long) bits);
        }
        return out;
    }
}

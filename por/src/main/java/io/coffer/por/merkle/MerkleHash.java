package io.coffer.por.merkle;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The hashes of the Merkle tree over the sealed checksums of U: SHA-256 with domain-separation prefixes so a leaf can
 * never pass for an inner node. leaf = SHA-256(0x00 || sealed checksum); node = SHA-256(0x01 || left || right); a
 * position never written holds the constant {@link #EMPTY_LEAF} = SHA-256(0x02) and its block is all zero.
 */
public final class MerkleHash {
    public static final int BYTES = 32;
    public static final byte[] EMPTY_LEAF = digest().digest(new byte[] {2});

    private MerkleHash() {}

    public static byte[] leaf(byte[] sealedChecksum) {
        MessageDigest d = digest();
        d.update((byte) 0);
        return d.digest(sealedChecksum);
    }

    public static byte[] node(byte[] left, byte[] right) {
        MessageDigest d = digest();
        d.update((byte) 1);
        d.update(left);
        return d.digest(right);
    }

    static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}

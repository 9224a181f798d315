package io.coffer.sdk.crypto;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The 32-byte AES-256 key one chunk is encrypted under. Message-locked keys are equal for equal chunks; random keys
 * are unique. {@link #toString()} never shows the bytes.
 */
public final class ChunkKey {
    public static final int LENGTH = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] bytes;

    private ChunkKey(byte[] bytes) {
        this.bytes = bytes;
    }

    public static ChunkKey of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("chunk key must be " + LENGTH + " bytes");
        }
        return new ChunkKey(bytes.clone());
    }

    public static ChunkKey random() {
        byte[] b = new byte[LENGTH];
        RANDOM.nextBytes(b);
        return new ChunkKey(b);
    }

    /** The raw key bytes: only for the cipher and for sealing into manifests. */
    public byte[] rawBytesForCipher() {
        return bytes.clone();
    }

    void copyTo(byte[] out, int offset) {
        System.arraycopy(bytes, 0, out, offset, LENGTH);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkKey other && MessageDigest.isEqual(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "ChunkKey[redacted]";
    }
}

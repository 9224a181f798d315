package io.coffer.sdk.crypto;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The name of a stored chunk: 32 bytes derived from the chunk's key, so that equal plaintext under equal keys has
 * equal id, and the id reveals nothing about the plaintext to whoever does not hold the key.
 */
public final class ChunkId implements Comparable<ChunkId> {
    public static final int LENGTH = 32;

    private final byte[] bytes;

    private ChunkId(byte[] bytes) {
        this.bytes = bytes;
    }

    public static ChunkId of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("chunk id must be " + LENGTH + " bytes, got " + bytes.length);
        }
        return new ChunkId(bytes.clone());
    }

    public static ChunkId fromHex(String hex) {
        return of(HexFormat.of().parseHex(hex));
    }

    public byte[] toBytes() {
        return bytes.clone();
    }

    /** Writes the 32 bytes into {@code out} at {@code offset}. */
    public void copyTo(byte[] out, int offset) {
        System.arraycopy(bytes, 0, out, offset, LENGTH);
    }

    public String toHex() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkId other && MessageDigest.isEqual(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        // ids are uniformly random: the first four bytes are a good hash
        return (bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 | (bytes[3] & 0xff);
    }

    @Override
    public int compareTo(ChunkId o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public String toString() {
        return toHex();
    }
}

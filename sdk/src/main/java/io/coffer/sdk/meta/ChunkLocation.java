package io.coffer.sdk.meta;

import io.coffer.sdk.crypto.ChunkId;

/**
 * Where the ciphertext of one chunk lies: {@code length} bytes at {@code offset} of pack blob {@code pack}.
 * {@code plainLength} is the chunk's plaintext length, {@link #UNKNOWN_PLAIN_LENGTH} where the writer of the location
 * does not know it (a pack index does not record it). The index stores it when a chunk is registered, for storage
 * statistics only; the locations it returns do not carry it.
 */
public record ChunkLocation(ChunkId id, String pack, long offset, int length, int plainLength) {
    public static final int UNKNOWN_PLAIN_LENGTH = -1;

    /** A location whose plaintext length is not known. */
    public ChunkLocation(ChunkId id, String pack, long offset, int length) {
        this(id, pack, offset, length, UNKNOWN_PLAIN_LENGTH);
    }
}

package io.coffer.sdk.manifest;

import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkKey;

/**
 * One chunk of an object, in order: which stored chunk, the key to decrypt it, the SHA-256 its plaintext must have,
 * and its length (ciphertext and plaintext lengths are equal).
 */
public record ManifestEntry(ChunkId id, ChunkKey key, byte[] hash, int length) {
    @Override
    public String toString() {
        return "ManifestEntry[" + id + ", " + length + " bytes]";
    }
}

package io.coffer.sdk.manifest;

import io.coffer.sdk.crypto.ChunkId;
import io.coffer.sdk.crypto.ChunkKey;

/**
 * One chunk of an object, in order: which stored chunk, the key to decrypt it, the SHA-256 its plaintext must have,
 * and its length (ciphertext and plaintext lengths are equal).
 *
 * @param clusterKey null for an ordinary chunk; for a layer-mode sub-chunk, the cluster key its {@code key} derives
 *                   from ({@link io.coffer.sdk.similarity.SubChunkKeys}) with {@code hash}, so that a manifest can
 *                   store the entry as cluster index, hash and length (docs/FORMAT.md, "Manifest")
 */
public record ManifestEntry(ChunkId id, ChunkKey key, byte[] hash, int length, ChunkKey clusterKey) {
    /** An ordinary entry. */
    public ManifestEntry(ChunkId id, ChunkKey key, byte[] hash, int length) {
        this(id, key, hash, length, null);
    }

    @Override
    public String toString() {
        return "ManifestEntry[" + id + ", " + length + " bytes]";
    }
}

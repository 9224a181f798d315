package io.coffer.sdk.key;

import io.coffer.sdk.crypto.ChunkKey;
import java.util.List;

/**
 * Turns chunk hashes into chunk keys. Message-locked sources (convergent, server-aided) give equal keys for equal
 * hashes, which is what makes deduplication possible; {@link RandomKeySource} does not.
 *
 * <p>A source may fail (a key server down, slow or refusing): the engine then encrypts those chunks under random
 * keys, losing deduplication for them but never failing the write.
 */
public interface KeySource extends AutoCloseable {

    /**
     * Keys for the given 32-byte SHA-256 chunk hashes, in the same order. Implementations batch the whole list into
     * as few round trips as they can.
     */
    List<ChunkKey> keysFor(List<byte[]> chunkHashes) throws KeySourceException;

    /** True if equal hashes always yield equal keys. */
    boolean messageLocked();

    /** True if each call costs a network round trip, so the engine should batch many chunks per call. */
    default boolean remote() {
        return false;
    }

    /** A short name for logs and metrics, never containing secrets (for example {@code convergent}, {@code oprf-rsa}). */
    String name();

    @Override
    default void close() {
    }
}

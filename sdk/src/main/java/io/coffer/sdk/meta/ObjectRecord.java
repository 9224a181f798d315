package io.coffer.sdk.meta;

import io.coffer.sdk.crypto.ChunkId;
import java.time.Instant;
import java.util.List;

/**
 * One committed object as the metadata store keeps it.
 *
 * @param versionId   unique per write; also names the object's manifest blob on the backend
 * @param attributes  the engine's encoding of content type, user metadata, checksums and part sizes (opaque here)
 * @param manifest    the sealed manifest (chunk ids and keys, encrypted under the master key; opaque here)
 * @param chunkRefs   the distinct chunk ids the manifest references: each holds one reference for this object
 */
public record ObjectRecord(
        String bucket,
        String key,
        String versionId,
        long size,
        String etag,
        Instant lastModified,
        byte[] attributes,
        byte[] manifest,
        List<ChunkId> chunkRefs) {

    public ObjectRecord {
        chunkRefs = List.copyOf(chunkRefs);
    }
}

package io.coffer.sdk.meta;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.crypto.ChunkId;
import java.time.Instant;
import java.util.List;

/**
 * One committed object version (or delete marker) as the metadata store keeps it.
 *
 * @param versionId    unique per write; also names the object's manifest blob on the backend
 * @param attributes   the engine's encoding of content type, user metadata, checksums and part sizes (opaque here)
 * @param manifest     the sealed manifest (chunk ids and keys, encrypted under the master key; opaque here)
 * @param chunkRefs    the distinct chunk ids the manifest references: each holds one reference for this object
 * @param nullVersion  whether this is the version S3 calls {@code null} (written while the bucket was unversioned or
 *                     suspended); clients see {@code null} as its version id, never {@code versionId}
 * @param deleteMarker whether this is a delete marker (no content, no chunks)
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
        List<ChunkId> chunkRefs,
        boolean nullVersion,
        boolean deleteMarker) {

    public ObjectRecord {
        chunkRefs = List.copyOf(chunkRefs);
        if (deleteMarker && !chunkRefs.isEmpty()) {
            throw new IllegalArgumentException("a delete marker references no chunks");
        }
    }

    /** The null version of an object (an unversioned write). */
    public ObjectRecord(String bucket, String key, String versionId, long size, String etag, Instant lastModified,
                        byte[] attributes, byte[] manifest, List<ChunkId> chunkRefs) {
        this(bucket, key, versionId, size, etag, lastModified, attributes, manifest, chunkRefs, true, false);
    }

    /** The version id a client sees: {@code null} for the null version, else {@link #versionId}. */
    public String clientVersionId() {
        return nullVersion ? BucketVersioning.NULL_VERSION : versionId;
    }
}

package io.coffer.sdk.meta;

import io.coffer.sdk.crypto.ChunkId;
import java.time.Instant;
import java.util.List;

/** One uploaded part of a multipart upload; like an object, it holds one reference on each chunk in {@code chunkRefs}. */
public record PartRecord(String uploadId, int partNumber, long size, String etag, Instant lastModified,
                         byte[] attributes, byte[] manifest, List<ChunkId> chunkRefs) {

    public PartRecord {
        chunkRefs = List.copyOf(chunkRefs);
    }
}

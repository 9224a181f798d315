package io.coffer.sdk.manifest;

import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.crypto.ChunkId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Everything needed to read an object back and to rebuild its metadata row: where it lives (bucket, key), what it is
 * (size, ETag, attributes, part sizes) and its chunks in order.
 */
public record Manifest(String bucket, String key, String versionId, long size, String etag, Instant lastModified,
                       ObjectAttributes attributes, List<Long> partSizes, List<ManifestEntry> entries) {

    public Manifest {
        partSizes = List.copyOf(partSizes);
        entries = List.copyOf(entries);
    }

    /** The distinct chunk ids, each of which this object holds one reference on. */
    public List<ChunkId> distinctChunkIds() {
        LinkedHashSet<ChunkId> ids = new LinkedHashSet<>();
        for (ManifestEntry e : entries) {
            ids.add(e.id());
        }
        return new ArrayList<>(ids);
    }
}

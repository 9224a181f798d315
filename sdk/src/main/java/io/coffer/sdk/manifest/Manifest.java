package io.coffer.sdk.manifest;

import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.crypto.ChunkId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Everything needed to read an object back and to rebuild its metadata row: where it lives (bucket, key), what it is
 * (size, ETag, attributes, part sizes) and its content: either its chunks in order, or, for a small object, its bytes
 * ({@code inline}, non-null), which are then sealed with the manifest and never chunked.
 *
 * @param partChecksums a multipart object's part checksums (in the algorithm of its checksum), one per part, or empty
 */
public record Manifest(String bucket, String key, String versionId, long size, String etag, Instant lastModified,
                       ObjectAttributes attributes, List<Long> partSizes, List<String> partChecksums,
                       List<ManifestEntry> entries, byte[] inline) {

    public Manifest {
        partSizes = List.copyOf(partSizes);
        partChecksums = List.copyOf(partChecksums);
        entries = List.copyOf(entries);
        if (inline != null && (!entries.isEmpty() || inline.length != size)) {
            throw new IllegalArgumentException("an inline manifest has no chunks and exactly size bytes");
        }
        if (!partChecksums.isEmpty() && (inline != null || partChecksums.size() != partSizes.size())) {
            throw new IllegalArgumentException("part checksums belong to a chunked multipart object, one per part");
        }
    }

    /** A manifest without part checksums. */
    public Manifest(String bucket, String key, String versionId, long size, String etag, Instant lastModified,
                    ObjectAttributes attributes, List<Long> partSizes, List<ManifestEntry> entries, byte[] inline) {
        this(bucket, key, versionId, size, etag, lastModified, attributes, partSizes, List.of(), entries, inline);
    }

    /** A chunked manifest. */
    public Manifest(String bucket, String key, String versionId, long size, String etag, Instant lastModified,
                    ObjectAttributes attributes, List<Long> partSizes, List<ManifestEntry> entries) {
        this(bucket, key, versionId, size, etag, lastModified, attributes, partSizes, entries, null);
    }

    public boolean isInline() {
        return inline != null;
    }

    /** The same content under another name, version, time and attributes (a copy: no data moves). */
    public Manifest copyAs(String toBucket, String toKey, String toVersionId, Instant modified,
                           ObjectAttributes attrs) {
        return new Manifest(toBucket, toKey, toVersionId, size, etag, modified, attrs, partSizes, partChecksums,
                entries, inline);
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

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
 * @param layerSide     {@link #ORDINARY} for an object whose chunks are its bytes; for a gzip object stored in layer
 *                      mode (docs/FORMAT.md, "Layer-mode objects"), how many of the first entries hold the side
 *                      information, the rest holding the token stream: the bytes are their re-encoding, not their
 *                      concatenation, and {@code size} is the original's
 * @param nullVersion   whether this is the version S3 calls {@code null} (written while its bucket was unversioned
 *                      or suspended), so that reindex restores versions as they were
 * @param deleteMarker  whether this is a delete marker of a versioned bucket: inline, empty, no attributes
 */
public record Manifest(String bucket, String key, String versionId, long size, String etag, Instant lastModified,
                       ObjectAttributes attributes, List<Long> partSizes, List<String> partChecksums,
                       List<ManifestEntry> entries, byte[] inline, int layerSide, boolean nullVersion,
                       boolean deleteMarker) {
    /** {@link #layerSide} of an object whose chunks, in order, are its bytes. */
    public static final int ORDINARY = -1;

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
        if (layerSide != ORDINARY && (inline != null || layerSide < 0 || layerSide > entries.size())) {
            throw new IllegalArgumentException("a layer-mode manifest is chunks, side entries first");
        }
        if (deleteMarker && (inline == null || size != 0 || !partSizes.isEmpty())) {
            throw new IllegalArgumentException("a delete marker is an empty inline manifest");
        }
    }

    /** The null version of an object (written while its bucket was unversioned or suspended). */
    public Manifest(String bucket, String key, String versionId, long size, String etag, Instant lastModified,
                    ObjectAttributes attributes, List<Long> partSizes, List<String> partChecksums,
                    List<ManifestEntry> entries, byte[] inline, int layerSide) {
        this(bucket, key, versionId, size, etag, lastModified, attributes, partSizes, partChecksums, entries, inline,
                layerSide, true, false);
    }

    /** A delete marker; {@code nullVersion} when it was written while its bucket's versioning was suspended. */
    public static Manifest deleteMarker(String bucket, String key, String versionId, Instant lastModified,
                                        boolean nullVersion) {
        return new Manifest(bucket, key, versionId, 0, "", lastModified, ObjectAttributes.EMPTY, List.of(), List.of(),
                List.of(), new byte[0], ORDINARY, nullVersion, true);
    }

    /** The same manifest as the null version ({@code true}) or a version with its own id. */
    public Manifest withNullVersion(boolean isNull) {
        return new Manifest(bucket, key, versionId, size, etag, lastModified, attributes, partSizes, partChecksums,
                entries, inline, layerSide, isNull, deleteMarker);
    }

    /** An ordinary manifest (not in layer mode). */
    public Manifest(String bucket, String key, String versionId, long size, String etag, Instant lastModified,
                    ObjectAttributes attributes, List<Long> partSizes, List<String> partChecksums,
                    List<ManifestEntry> entries, byte[] inline) {
        this(bucket, key, versionId, size, etag, lastModified, attributes, partSizes, partChecksums, entries, inline,
                ORDINARY);
    }

    /** Whether the object is stored in layer mode (partially decoded gzip). */
    public boolean isLayer() {
        return layerSide != ORDINARY;
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
                entries, inline, layerSide, nullVersion, deleteMarker);
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

package io.coffer.sdk;

import java.time.Instant;
import java.util.List;

/**
 * A committed object as a client sees it.
 *
 * @param etag          quoted-less ETag: the MD5 hex of the bytes, or {@code md5-of-part-md5s-N} for multipart uploads
 * @param partSizes     sizes of the parts of a multipart object in order; empty for a single PUT
 * @param partChecksums a multipart object's part checksums in order, in the algorithm of its checksum (the one entry of
 *                      {@code attributes().checksums()}); empty when the upload named no checksum algorithm
 * @param versionId     the version's own id in a versioned bucket; null for the null version (S3's {@code null})
 */
public record ObjectInfo(String bucket, String key, long size, String etag, Instant lastModified,
                         ObjectAttributes attributes, List<Long> partSizes, List<String> partChecksums,
                         String versionId) {
    public ObjectInfo {
        partSizes = List.copyOf(partSizes);
        partChecksums = List.copyOf(partChecksums);
    }

    /** The null version of an object. */
    public ObjectInfo(String bucket, String key, long size, String etag, Instant lastModified,
                      ObjectAttributes attributes, List<Long> partSizes, List<String> partChecksums) {
        this(bucket, key, size, etag, lastModified, attributes, partSizes, partChecksums, null);
    }

    /** An object without part checksums. */
    public ObjectInfo(String bucket, String key, long size, String etag, Instant lastModified,
                      ObjectAttributes attributes, List<Long> partSizes) {
        this(bucket, key, size, etag, lastModified, attributes, partSizes, List.of());
    }

    public int partCount() {
        return partSizes.size();
    }

    /**
     * Where part {@code partNumber} (from 1) lies in the object; a single-PUT object is its one part.
     * {@code INVALID_PART_NUMBER} for a part the object does not have.
     */
    public ByteRange.Resolved partRange(int partNumber) {
        int parts = Math.max(1, partCount());
        if (partNumber < 1 || partNumber > parts) {
            throw CofferException.of(ErrorCode.INVALID_PART_NUMBER, "The requested partnumber is not satisfiable");
        }
        if (partSizes.isEmpty()) {
            return new ByteRange.Resolved(0, size);
        }
        long offset = 0;
        for (int i = 0; i < partNumber - 1; i++) {
            offset += partSizes.get(i);
        }
        return new ByteRange.Resolved(offset, partSizes.get(partNumber - 1));
    }
}

package io.coffer.sdk;

import java.time.Instant;
import java.util.List;

/**
 * A committed object as a client sees it.
 *
 * @param etag      quoted-less ETag: the MD5 hex of the bytes, or {@code md5-of-part-md5s-N} for multipart uploads
 * @param partSizes sizes of the parts of a multipart object in order; empty for a single PUT
 */
public record ObjectInfo(String bucket, String key, long size, String etag, Instant lastModified,
                         ObjectAttributes attributes, List<Long> partSizes) {
    public ObjectInfo {
        partSizes = List.copyOf(partSizes);
    }

    public int partCount() {
        return partSizes.size();
    }
}

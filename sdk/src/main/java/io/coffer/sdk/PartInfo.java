package io.coffer.sdk;

import java.time.Instant;
import java.util.Map;

/**
 * An uploaded part of a multipart upload.
 *
 * @param checksums the part's checksum in the upload's checksum algorithm (algorithm name to base64), computed from
 *                  the bytes stored; empty when the upload named no algorithm
 */
public record PartInfo(int partNumber, long size, String etag, Instant lastModified, Map<String, String> checksums) {
    public PartInfo {
        checksums = Map.copyOf(checksums);
    }

    public PartInfo(int partNumber, long size, String etag, Instant lastModified) {
        this(partNumber, size, etag, lastModified, Map.of());
    }
}

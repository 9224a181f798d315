package io.coffer.sdk;

import java.util.Map;

/**
 * One entry of a CompleteMultipartUpload request: the part number, the ETag the client got for it and the checksums
 * it names for it (algorithm name to base64; empty when it names none).
 */
public record CompletedPart(int partNumber, String etag, Map<String, String> checksums) {
    public CompletedPart {
        checksums = Map.copyOf(checksums);
    }

    public CompletedPart(int partNumber, String etag) {
        this(partNumber, etag, Map.of());
    }
}

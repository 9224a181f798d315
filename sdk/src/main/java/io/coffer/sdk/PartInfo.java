package io.coffer.sdk;

import java.time.Instant;

/** An uploaded part of a multipart upload. */
public record PartInfo(int partNumber, long size, String etag, Instant lastModified) {
}

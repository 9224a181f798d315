package io.coffer.sdk;

import java.time.Instant;

/** What a listing returns for one object. */
public record ObjectSummary(String key, long size, String etag, Instant lastModified) {
}

package io.coffer.sdk.blob;

import java.time.Instant;

/** What a backend says about one blob. */
public record BlobInfo(String name, long size, Instant lastModified) {
}

package io.coffer.sdk;

import java.time.Instant;

/** An in-progress multipart upload; {@code attributes} is the engine's encoding of the object attributes to use. */
public record UploadRecord(String uploadId, String bucket, String key, String owner, Instant initiated,
                           byte[] attributes) {
}

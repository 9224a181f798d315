package io.coffer.sdk;

import java.time.Instant;

/**
 * The object a copy reads from, with the x-amz-copy-source-if-* conditions checked against it at copy time.
 *
 * @param ifMatch           copy only if the source ETag equals this (null: no condition)
 * @param ifNoneMatch       copy only if the source ETag differs from this (null: no condition)
 * @param ifModifiedSince   copy only if the source changed after this (null: no condition)
 * @param ifUnmodifiedSince copy only if the source did not change after this (null: no condition)
 */
public record CopySource(String bucket, String key, String ifMatch, String ifNoneMatch,
                         Instant ifModifiedSince, Instant ifUnmodifiedSince) {
    public static CopySource of(String bucket, String key) {
        return new CopySource(bucket, key, null, null, null, null);
    }
}

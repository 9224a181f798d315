package io.coffer.sdk;

import java.time.Instant;

/**
 * The object a copy reads from, with the x-amz-copy-source-if-* conditions checked against it at copy time.
 *
 * @param ifMatch           copy only if the source ETag equals this (null: no condition)
 * @param ifNoneMatch       copy only if the source ETag differs from this (null: no condition)
 * @param ifModifiedSince   copy only if the source changed after this (null: no condition)
 * @param ifUnmodifiedSince copy only if the source did not change after this (null: no condition)
 * @param versionId         the source version by its client version id ({@code null} for the null version); null:
 *                          the current version
 */
public record CopySource(String bucket, String key, String ifMatch, String ifNoneMatch,
                         Instant ifModifiedSince, Instant ifUnmodifiedSince, String versionId) {
    /** The current version of the source. */
    public CopySource(String bucket, String key, String ifMatch, String ifNoneMatch, Instant ifModifiedSince,
                      Instant ifUnmodifiedSince) {
        this(bucket, key, ifMatch, ifNoneMatch, ifModifiedSince, ifUnmodifiedSince, null);
    }

    public static CopySource of(String bucket, String key) {
        return new CopySource(bucket, key, null, null, null, null);
    }

    /** The same source at version {@code id} (a client version id, or null for the current version). */
    public CopySource atVersion(String id) {
        return new CopySource(bucket, key, ifMatch, ifNoneMatch, ifModifiedSince, ifUnmodifiedSince, id);
    }
}

package io.coffer.sdk;

/**
 * What a delete did, as S3 reports it in {@code x-amz-version-id} and {@code x-amz-delete-marker}.
 *
 * @param versionId    the client version id of the version removed (a delete with a version id) or of the delete
 *                     marker added (one without, in a versioned bucket); null in a bucket that was never versioned
 * @param deleteMarker whether that version is a delete marker
 */
public record DeletedVersion(String versionId, boolean deleteMarker) {
    /** A delete in a bucket that was never versioned. */
    public static final DeletedVersion UNVERSIONED = new DeletedVersion(null, false);
}

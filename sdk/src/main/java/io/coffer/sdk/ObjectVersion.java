package io.coffer.sdk;

import java.time.Instant;

/**
 * What ListObjectVersions returns for one version of a key.
 *
 * @param versionId    the version id a client uses ({@code null} for the null version)
 * @param latest       whether it is the key's current version (a current delete marker is latest)
 * @param deleteMarker whether it is a delete marker (then size is 0 and etag empty)
 */
public record ObjectVersion(String key, String versionId, boolean latest, boolean deleteMarker, long size,
                            String etag, Instant lastModified) {
}

package io.coffer.sdk;

/**
 * A bucket's versioning state, as S3 defines it. A bucket starts {@link #UNVERSIONED}; once versioning was enabled it
 * can only be {@link #ENABLED} or {@link #SUSPENDED}.
 */
public enum BucketVersioning {
    /** Never versioned: a write replaces the key's one version, whose id is {@code null}. */
    UNVERSIONED,
    /** Each write and each delete without a version id adds a version (a delete adds a delete marker). */
    ENABLED,
    /** Writes and deletes replace the key's {@code null} version; older versions are kept. */
    SUSPENDED;

    /** The version id S3 gives versions written while a bucket is unversioned or suspended. */
    public static final String NULL_VERSION = "null";

    /** The name S3 uses in a VersioningConfiguration's Status ({@code Enabled}, {@code Suspended}); null if none. */
    public String status() {
        return switch (this) {
            case UNVERSIONED -> null;
            case ENABLED -> "Enabled";
            case SUSPENDED -> "Suspended";
        };
    }

    /**
     * Whether {@code versionId} has the form of a version id Coffer gives (or is {@code null}): 32 hex digits,
     * optionally followed by a dot and a member index of up to 6 digits.
     */
    public static boolean isWellFormedId(String versionId) {
        if (versionId == null) {
            return false;
        }
        if (versionId.equals(NULL_VERSION)) {
            return true;
        }
        int dot = versionId.indexOf('.');
        String id = dot < 0 ? versionId : versionId.substring(0, dot);
        if (id.length() != 32 || !id.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return false;
        }
        String member = dot < 0 ? "0" : versionId.substring(dot + 1);
        return !member.isEmpty() && member.length() <= 6 && member.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}

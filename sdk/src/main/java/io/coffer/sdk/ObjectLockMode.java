package io.coffer.sdk;

/**
 * S3 Object Lock's retention modes. {@link #GOVERNANCE}: a retained version can be deleted, or its retention
 * shortened, only by a caller that asks to bypass governance retention (in Coffer, which has no IAM, any caller the
 * gateway authenticated as the bucket's owner); {@link #COMPLIANCE}: by nobody until the retention date has passed.
 */
public enum ObjectLockMode {
    GOVERNANCE,
    COMPLIANCE;

    /** The mode S3 names {@code name} ({@code GOVERNANCE} or {@code COMPLIANCE}, exactly), or null if none. */
    public static ObjectLockMode parse(String name) {
        for (ObjectLockMode m : values()) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        return null;
    }
}

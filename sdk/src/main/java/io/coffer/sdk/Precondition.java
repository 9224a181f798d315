package io.coffer.sdk;

/**
 * A conditional write, checked inside the commit transaction against the current object.
 *
 * @param ifMatch      commit only if the current object's ETag equals this (null: no condition)
 * @param ifNoneMatch  commit only if no object exists under the key ({@code If-None-Match: *})
 */
public record Precondition(String ifMatch, boolean ifNoneMatch) {
    public static final Precondition NONE = new Precondition(null, false);
}

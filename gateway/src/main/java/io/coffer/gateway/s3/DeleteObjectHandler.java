package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;

/**
 * DeleteObject: 204 whether or not the key existed, as S3 answers; with If-Match the delete happens only if the
 * object's ETag matches (checked in the delete's transaction): 412 PreconditionFailed if not, 404 NoSuchKey when
 * there is no object.
 */
public final class DeleteObjectHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteObjectHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        coffer.deleteObject(r.bucketRecord(), r.key(), ifMatch(r.header("if-match")));
        return S3Response.empty(204);
    }

    /** The If-Match condition as sent (trimmed), or null for none: an empty value is no condition. */
    static String ifMatch(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}

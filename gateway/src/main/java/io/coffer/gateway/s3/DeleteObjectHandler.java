package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.ObjectLockHeaders;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.DeletedVersion;

/**
 * DeleteObject: 204 whether or not the key existed, as S3 answers; with If-Match the delete happens only if the
 * object's ETag matches (checked in the delete's transaction): 412 PreconditionFailed if not, 404 NoSuchKey when
 * there is no object. With {@code versionId} that version is removed for good; without one, a versioned bucket gets a
 * delete marker. {@code x-amz-version-id} and {@code x-amz-delete-marker} say which version was removed or added.
 * A version under Object Lock is not removed (403 AccessDenied); {@code x-amz-bypass-governance-retention: true} lifts
 * a GOVERNANCE retention (Coffer has no IAM: every caller the gateway lets write the bucket may bypass).
 */
public final class DeleteObjectHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteObjectHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        DeletedVersion d = coffer.deleteObjectVersion(r.bucketRecord(), r.key(), r.queryParam("versionId"),
                ifMatch(r.header("if-match")), ObjectLockHeaders.bypassGovernance(r));
        S3Response resp = S3Response.empty(204);
        if (d.versionId() != null) {
            resp.header("x-amz-version-id", d.versionId());
        }
        if (d.deleteMarker()) {
            resp.header("x-amz-delete-marker", "true");
        }
        return resp;
    }

    /** The If-Match condition as sent (trimmed), or null for none: an empty value is no condition. */
    static String ifMatch(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}

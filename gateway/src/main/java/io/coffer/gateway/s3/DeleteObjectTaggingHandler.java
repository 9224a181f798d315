package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;

/**
 * DeleteObjectTagging: an existing object's tag set is already empty (Coffer stores no tags), so removing its tags
 * succeeds without changing anything, 204 as in S3; a missing object is NoSuchKey.
 */
public final class DeleteObjectTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteObjectTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        coffer.headObject(r.bucket(), r.key());
        return S3Response.empty(204);
    }
}

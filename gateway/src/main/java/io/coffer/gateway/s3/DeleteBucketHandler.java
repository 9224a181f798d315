package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;

/** DeleteBucket: 204 once the bucket is gone, its uploads in progress aborted as S3 does (BucketNotEmpty: objects). */
public final class DeleteBucketHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteBucketHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        coffer.deleteBucket(r.bucket());
        return S3Response.empty(204);
    }
}

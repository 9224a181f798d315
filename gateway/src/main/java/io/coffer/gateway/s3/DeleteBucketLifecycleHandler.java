package io.coffer.gateway.s3;

import io.coffer.gateway.s3.lifecycle.LifecycleConfiguration;
import io.coffer.sdk.Coffer;

/** DeleteBucketLifecycle: removes the bucket's lifecycle rules, 204 whether or not it had any (as S3 answers). */
public final class DeleteBucketLifecycleHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteBucketLifecycleHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        coffer.putBucketConfig(r.bucketRecord(), LifecycleConfiguration.BUCKET_CONFIG, null);
        return S3Response.empty(204);
    }
}

package io.coffer.gateway.s3;

import io.coffer.gateway.s3.acl.PublicAccessBlock;
import io.coffer.sdk.Coffer;

/** DeletePublicAccessBlock: removes the bucket's own flags (the tenant's block, if on, still applies). */
public final class DeletePublicAccessBlockHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeletePublicAccessBlockHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        coffer.putBucketConfig(r.bucketRecord(), PublicAccessBlock.BUCKET_CONFIG, null);
        return S3Response.empty(204);
    }
}

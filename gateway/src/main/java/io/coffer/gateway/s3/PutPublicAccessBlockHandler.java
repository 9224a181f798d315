package io.coffer.gateway.s3;

import io.coffer.gateway.s3.acl.PublicAccessBlock;
import io.coffer.sdk.Coffer;
import java.io.IOException;

/** PutPublicAccessBlock: stores the bucket's four flags (sealed in its record, restored by reindex). */
public final class PutPublicAccessBlockHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutPublicAccessBlockHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        PublicAccessBlock block = PublicAccessBlock.read(r.body());
        coffer.putBucketConfig(r.bucketRecord(), PublicAccessBlock.BUCKET_CONFIG, block.encode());
        return S3Response.empty(200);
    }
}

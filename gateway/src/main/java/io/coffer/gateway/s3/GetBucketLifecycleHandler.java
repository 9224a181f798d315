package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.lifecycle.LifecycleConfiguration;
import io.coffer.sdk.Coffer;

/** GetBucketLifecycleConfiguration: the bucket's lifecycle rules; NoSuchLifecycleConfiguration (404) when none. */
public final class GetBucketLifecycleHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetBucketLifecycleHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        byte[] doc = coffer.bucketConfig(r.bucketRecord(), LifecycleConfiguration.BUCKET_CONFIG)
                .orElseThrow(() -> new S3Exception(S3ErrorCode.NO_SUCH_LIFECYCLE_CONFIGURATION));
        return S3Response.xml(200, doc);
    }
}

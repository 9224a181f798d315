package io.coffer.gateway.s3;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;

/** HeadBucket: 200 with the bucket's region (ownership was checked by the dispatcher). */
public final class HeadBucketHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final String defaultRegion;

    public HeadBucketHandler(Coffer coffer, String defaultRegion) {
        this.coffer = coffer;
        this.defaultRegion = defaultRegion;
    }

    @Override
    public S3Response handle(S3Request r) {
        Bucket b = coffer.headBucket(r.bucket());
        return S3Response.empty(200).header("x-amz-bucket-region", b.region() == null ? defaultRegion : b.region());
    }
}

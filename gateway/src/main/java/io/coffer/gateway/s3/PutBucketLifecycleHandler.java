package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.lifecycle.LifecycleConfiguration;
import io.coffer.sdk.Coffer;
import java.io.IOException;

/**
 * PutBucketLifecycleConfiguration (and the older PutBucketLifecycle, the same request with rules' top-level
 * {@code Prefix}): validates the {@code LifecycleConfiguration} ({@link LifecycleConfiguration}) and stores it with
 * the bucket, replacing any earlier one. Content-MD5 is checked here, x-amz-checksum-* by the body stream.
 */
public final class PutBucketLifecycleHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutBucketLifecycleHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        byte[] body = LifecycleConfiguration.readBody(r.body());
        ObjectHeaders.checkMd5(ObjectHeaders.contentMd5(r), body);
        LifecycleConfiguration config = LifecycleConfiguration.parse(body);
        coffer.putBucketConfig(r.bucketRecord(), LifecycleConfiguration.BUCKET_CONFIG, config.toXml());
        return S3Response.empty(200);
    }
}

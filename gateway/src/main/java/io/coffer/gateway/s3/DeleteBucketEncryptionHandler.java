package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;

/**
 * DeleteBucketEncryption: removes the stored configuration, 204 whether or not there was one; GetBucketEncryption then
 * reports the default SSE-S3 rule again, as S3 does since 2023 (objects stay encrypted either way).
 */
public final class DeleteBucketEncryptionHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteBucketEncryptionHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        coffer.putBucketConfig(r.bucketRecord(), BucketEncryptionXml.BUCKET_CONFIG, null);
        return S3Response.empty(204);
    }
}

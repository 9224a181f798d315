package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;

/**
 * GetBucketEncryption: the configuration PutBucketEncryption stored, else the default rule of SSE-S3
 * ({@code AES256}): every bucket encrypts every object with AES-256 under keys Coffer manages, and S3 reports such a
 * default for every bucket since 2023.
 */
public final class GetBucketEncryptionHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetBucketEncryptionHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        byte[] doc = coffer.bucketConfig(r.bucketRecord(), BucketEncryptionXml.BUCKET_CONFIG)
                .orElseGet(BucketEncryptionXml::defaultConfiguration);
        return S3Response.xml(200, doc);
    }
}

package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;
import java.io.IOException;

/**
 * PutBucketEncryption: an AES256 default rule (SSE-S3, what Coffer does to every object anyway) is stored with the
 * bucket (its sealed record and the metadata store), replacing any earlier one, 200 as S3 answers; KMS is
 * NotImplemented and any other document MalformedXML ({@link BucketEncryptionXml}).
 */
public final class PutBucketEncryptionHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutBucketEncryptionHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        byte[] config = BucketEncryptionXml.read(r);
        coffer.putBucketConfig(r.bucketRecord(), BucketEncryptionXml.BUCKET_CONFIG, config);
        return S3Response.empty(200);
    }
}

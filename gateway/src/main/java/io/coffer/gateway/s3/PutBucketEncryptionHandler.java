package io.coffer.gateway.s3;

import io.coffer.gateway.s3.sse.KmsKeySource;
import io.coffer.sdk.Coffer;
import java.io.IOException;

/**
 * PutBucketEncryption: an AES256 default rule (SSE-S3, what Coffer does to every object anyway) or an aws:kms one
 * naming a key of the gateway's keyring (SSE-KMS) is stored with the bucket (its sealed record and the metadata
 * store), replacing any earlier one, 200 as S3 answers; any other document is MalformedXML or NotImplemented
 * ({@link BucketEncryptionXml}).
 */
public final class PutBucketEncryptionHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final KmsKeySource keyring;

    public PutBucketEncryptionHandler(Coffer coffer, KmsKeySource keyring) {
        this.coffer = coffer;
        this.keyring = keyring;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        byte[] config = BucketEncryptionXml.read(r, keyring);
        coffer.putBucketConfig(r.bucketRecord(), BucketEncryptionXml.BUCKET_CONFIG, config);
        return S3Response.empty(200);
    }
}

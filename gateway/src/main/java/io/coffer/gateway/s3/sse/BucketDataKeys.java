package io.coffer.gateway.s3.sse;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A bucket's KMS data keys, as S3 Bucket Keys are kept: one per KMS key, encrypted by the KMS, in the bucket's
 * configuration documents ({@code sse-kms-data-key:KEY-ARN}), which the metadata store and the bucket's sealed record
 * on the backend both hold, so reindex restores them and deleting the bucket deletes them (docs/FORMAT.md, "Objects
 * under a KMS data key").
 */
public final class BucketDataKeys implements DataKeyRecords {
    static final String CONFIG_PREFIX = "sse-kms-data-key:";

    private final Coffer coffer;
    private final Bucket bucket;

    public BucketDataKeys(Coffer coffer, Bucket bucket) {
        this.coffer = coffer;
        this.bucket = bucket;
    }

    @Override
    public String scope() {
        return bucket.name() + "@" + bucket.created();
    }

    @Override
    public Optional<String> wrapped(String keyArn) {
        return coffer.bucketConfig(bucket, CONFIG_PREFIX + keyArn).map(b -> new String(b, StandardCharsets.US_ASCII));
    }

    @Override
    public void keep(String keyArn, String wrapped) {
        coffer.putBucketConfig(bucket, CONFIG_PREFIX + keyArn, wrapped.getBytes(StandardCharsets.US_ASCII));
    }
}

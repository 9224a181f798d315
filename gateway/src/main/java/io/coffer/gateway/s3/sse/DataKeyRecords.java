package io.coffer.gateway.s3.sse;

import java.util.Optional;

/**
 * Where a KMS data key, as the KMS encrypted it, is kept for reuse by later writes and restarted gateways: one record
 * per KMS key in one scope (a bucket: {@link BucketDataKeys}).
 */
public interface DataKeyRecords {
    /** What names the scope in caches (a bucket's name and creation); records of one scope share it. */
    String scope();

    /** The encrypted data key (base64) kept for KMS key {@code keyArn}, empty when none is. */
    Optional<String> wrapped(String keyArn);

    /** Keeps {@code wrapped} as the data key of KMS key {@code keyArn}, replacing any kept before. */
    void keep(String keyArn, String wrapped);
}

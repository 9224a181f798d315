package io.coffer.sdk.engine;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.nio.charset.StandardCharsets;

/**
 * A bucket's versioning state, kept as its configuration document {@value #NAME} (sealed in the bucket's record
 * like tagging and CORS, so reindex restores it): the status S3 names, {@code Enabled} or {@code Suspended}; no
 * document while the bucket was never versioned.
 */
final class VersioningConfig {
    static final String NAME = "versioning";

    private VersioningConfig() {
    }

    /**
     * The bucket's state as the metadata store had it at most {@link BucketCache#FRESHNESS} ago (a bucket that does
     * not exist reads as unversioned).
     */
    static BucketVersioning of(BucketCache buckets, String bucket) {
        return decode(buckets.configs(bucket).get(NAME));
    }

    static BucketVersioning decode(byte[] document) {
        if (document == null) {
            return BucketVersioning.UNVERSIONED;
        }
        String status = new String(document, StandardCharsets.UTF_8);
        for (BucketVersioning state : BucketVersioning.values()) {
            if (status.equals(state.status())) {
                return state;
            }
        }
        throw CofferException.of(ErrorCode.INTERNAL_ERROR, "unknown versioning state '" + status + "' stored");
    }

    static byte[] encode(BucketVersioning state) {
        return state.status().getBytes(StandardCharsets.UTF_8);
    }
}

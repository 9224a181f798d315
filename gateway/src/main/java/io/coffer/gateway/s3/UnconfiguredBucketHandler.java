package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.util.Map;

/**
 * The getters of bucket configurations Coffer does not offer (policy, website, replication): a bucket never has one,
 * and S3 answers that with the action's own "not found" error. Tools that read a bucket's whole configuration
 * (Terraform, some sync tools) expect exactly these answers, not a 501.
 */
public final class UnconfiguredBucketHandler implements S3ActionHandler {
    static final Map<S3Operation, S3ErrorCode> NOT_CONFIGURED = Map.of(
            S3Operation.GET_BUCKET_POLICY, S3ErrorCode.NO_SUCH_BUCKET_POLICY,
            S3Operation.GET_BUCKET_WEBSITE, S3ErrorCode.NO_SUCH_WEBSITE_CONFIGURATION,
            S3Operation.GET_BUCKET_REPLICATION, S3ErrorCode.REPLICATION_CONFIGURATION_NOT_FOUND_ERROR);

    @Override
    public S3Response handle(S3Request r) {
        throw new S3Exception(NOT_CONFIGURED.get(r.operation()));
    }
}

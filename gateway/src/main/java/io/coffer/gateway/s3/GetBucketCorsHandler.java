package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.cors.CorsConfiguration;
import io.coffer.sdk.Coffer;

/** GetBucketCors: the bucket's CORS rules; NoSuchCORSConfiguration (404) when it has none. */
public final class GetBucketCorsHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetBucketCorsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        byte[] doc = coffer.bucketConfig(r.bucketRecord(), CorsConfiguration.BUCKET_CONFIG)
                .orElseThrow(() -> new S3Exception(S3ErrorCode.NO_SUCH_CORS_CONFIGURATION));
        return S3Response.xml(200, doc);
    }
}

package io.coffer.gateway.s3;

import io.coffer.gateway.s3.cors.CorsConfiguration;
import io.coffer.sdk.Coffer;

/** DeleteBucketCors: removes the bucket's CORS rules, 204 whether or not it had any (as S3 answers). */
public final class DeleteBucketCorsHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteBucketCorsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        coffer.putBucketConfig(r.bucketRecord(), CorsConfiguration.BUCKET_CONFIG, null);
        return S3Response.empty(204);
    }
}

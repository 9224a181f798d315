package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;

/** DeleteBucketTagging: removes the bucket's tag set, 204 whether or not it had one (as S3 answers). */
public final class DeleteBucketTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteBucketTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        coffer.putBucketConfig(r.bucketRecord(), TagSetXml.BUCKET_CONFIG, null);
        return S3Response.empty(204);
    }
}

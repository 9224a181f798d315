package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.sdk.Coffer;

/** GetBucketTagging: the bucket's tag set; NoSuchTagSet (404) when it has none. */
public final class GetBucketTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetBucketTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        byte[] doc = coffer.bucketConfig(r.bucketRecord(), TagSetXml.BUCKET_CONFIG)
                .orElseThrow(() -> new S3Exception(S3ErrorCode.NO_SUCH_TAG_SET));
        return S3Response.xml(200, doc);
    }
}

package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;

/** GetBucketLocation: the LocationConstraint, empty for us-east-1 as S3 answers. */
public final class GetBucketLocationHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetBucketLocationHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        Bucket b = coffer.headBucket(r.bucket());
        String region = b.region() == null || b.region().equals("us-east-1") ? "" : b.region();
        return S3Response.xml(200, XmlResponseWriter.document("LocationConstraint").text(region).toBytes());
    }
}

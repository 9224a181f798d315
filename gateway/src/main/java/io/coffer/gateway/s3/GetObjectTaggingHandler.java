package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;

/** GetObjectTagging: the object's tag set (empty when it has none); a missing object is NoSuchKey. */
public final class GetObjectTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetObjectTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        return S3Response.xml(200, TagSetXml.write(coffer.headObject(r.bucket(), r.key()).attributes().tags()));
    }
}

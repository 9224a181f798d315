package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;

/**
 * GetObjectTagging: an object has no tags (writes that carry tags are refused), so an existing object's tag set is
 * empty. aws-cli v2 asks for it before a multipart bucket-to-bucket copy.
 */
public final class GetObjectTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetObjectTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        coffer.headObject(r.bucket(), r.key());
        return S3Response.xml(200, XmlResponseWriter.document("Tagging").start("TagSet").end().toBytes());
    }
}

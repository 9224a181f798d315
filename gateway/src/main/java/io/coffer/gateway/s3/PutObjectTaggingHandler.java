package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.TagSets;
import java.io.IOException;

/**
 * PutObjectTagging: replaces the object's tag set (S3's limits, InvalidTag; an empty TagSet removes them). The engine
 * seals the object's manifest again with the new tags; bytes, ETag and Last-Modified stay.
 */
public final class PutObjectTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutObjectTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        NameRules.checkKey(r.key());
        coffer.putObjectTags(r.bucketRecord(), r.key(), TagSets.objectTags(TagSetXml.read(r)));
        return S3Response.empty(200);
    }
}

package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;
import java.util.Map;

/** DeleteObjectTagging: removes the object's tags (204, as S3 answers); a missing object is NoSuchKey. */
public final class DeleteObjectTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteObjectTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        coffer.putObjectTags(r.bucketRecord(), r.key(), Map.of());
        return S3Response.empty(204);
    }
}

package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.TagSets;
import java.io.IOException;
import java.util.Map;

/**
 * PutBucketTagging: replaces the bucket's tag set (at most 50 tags, S3's rules otherwise as for objects: InvalidTag),
 * 204 as S3 answers; an empty TagSet removes it. Stored with the bucket (its sealed record and the metadata store).
 */
public final class PutBucketTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutBucketTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        Map<String, String> tags = TagSets.bucketTags(TagSetXml.read(r));
        coffer.putBucketConfig(r.bucketRecord(), TagSetXml.BUCKET_CONFIG, tags.isEmpty() ? null
                : TagSetXml.write(tags));
        return S3Response.empty(204);
    }
}

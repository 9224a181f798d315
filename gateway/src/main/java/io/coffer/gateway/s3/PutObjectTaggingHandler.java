package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.TagSets;
import java.io.IOException;
import java.util.Map;

/**
 * PutObjectTagging: replaces the tag set of the current version or, with {@code versionId}, of that version (S3's
 * limits, InvalidTag; an empty TagSet removes them). The version keeps its id, bytes, ETag and Last-Modified (the
 * engine keeps the tags in the version's attribute record); the response names it in {@code x-amz-version-id}.
 */
public final class PutObjectTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutObjectTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        NameRules.checkKey(r.key());
        Map<String, String> tags = TagSets.objectTags(TagSetXml.read(r));
        String versionId = r.queryParam("versionId");
        ObjectInfo info = DeleteMarkerException.read(coffer, r.bucket(), r.key(), versionId,
                () -> coffer.putObjectTags(r.bucketRecord(), r.key(), versionId, tags));
        return ObjectHeaders.versionId(S3Response.empty(200), info);
    }
}

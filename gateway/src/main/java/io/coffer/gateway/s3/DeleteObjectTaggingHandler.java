package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;
import java.util.Map;

/**
 * DeleteObjectTagging: removes the tags of the current version or, with {@code versionId}, of that version (204, as S3
 * answers, with its {@code x-amz-version-id}); a missing object is NoSuchKey, a missing version NoSuchVersion.
 */
public final class DeleteObjectTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteObjectTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        String versionId = r.queryParam("versionId");
        ObjectInfo info = DeleteMarkerException.read(coffer, r.bucket(), r.key(), versionId,
                () -> coffer.putObjectTags(r.bucketRecord(), r.key(), versionId, Map.of()));
        return ObjectHeaders.versionId(S3Response.empty(204), info);
    }
}

package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;

/**
 * GetObjectTagging: the tag set of the current version or, with {@code versionId}, of that version (empty when it has
 * none), with its {@code x-amz-version-id}; a missing object is NoSuchKey, a missing version NoSuchVersion, a delete
 * marker answers as a GET of it does ({@link DeleteMarkerException}).
 */
public final class GetObjectTaggingHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetObjectTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        String versionId = r.queryParam("versionId");
        ObjectInfo info = DeleteMarkerException.read(coffer, r.bucket(), r.key(), versionId,
                () -> coffer.headObject(r.bucket(), r.key(), versionId));
        return ObjectHeaders.versionId(S3Response.xml(200, TagSetXml.write(info.attributes().tags())), info);
    }
}
